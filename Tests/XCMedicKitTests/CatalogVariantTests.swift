import XCTest
@testable import XCMedicKit

/// Real variants of the catalog's messages (other quotes, wrappers, capitalisation, Xcode versions)
/// run through the whole catalog, and the noise rules a real test log must not produce: one failing
/// test is one root cause, a restart line without a crash is not a cause, and a passing log's
/// warnings are warnings.
final class CatalogVariantTests: XCTestCase {
    private func scan(_ text: String) throws -> Diagnosis {
        let scanner = Scanner(ruleSet: try RuleSet.builtin())
        try scanner.scan(text: text, name: "variant")
        return scanner.finish()
    }

    private struct Variant {
        var line: String
        var source: String
        var rule: String
        var captures: [String: String]
    }

    private let variants: [Variant] = [
        // Provisioning profile without the signing certificate: Xcode error, annotation, export and old forms.
        Variant(line: #"/var/folders/hj/jshqx2gn79l6bdlp_zwmk3m80000gn/T/build1774114946458497026xxx/dist/Launch.xcodeproj: error: Provisioning profile "Boardspace Mavin Release DEVELOPMENT" doesn't include signing certificate "iPhone Distribution: Dave Dyer (N9ZJLP5456)". (in target 'Launch' from project 'Launch')"#,
                source: "https://github.com/codenameone/CodenameOne/issues/5836", rule: "profile-missing-signing-certificate",
                captures: ["profile": "Boardspace Mavin Release DEVELOPMENT", "certificate": "iPhone Distribution: Dave Dyer (N9ZJLP5456)"]),
        Variant(line: #"::error file=/Users/runner/work/sh-usermanagement-native-app/sh-usermanagement-native-app/ios/nativeIntegration.xcodeproj::Provisioning profile "usermanagementapp" doesn't include signing certificate "iPhone Distribution: xxxxx (Txxxxxx)". (in target 'nativeIntegration' from project 'nativeIntegration')"#,
                source: "https://github.com/yukiarrr/ios-build-action/issues/122", rule: "profile-missing-signing-certificate",
                captures: ["profile": "usermanagementapp", "certificate": "iPhone Distribution: xxxxx (Txxxxxx)"]),
        Variant(line: #"INFO [2021-05-19 13:53:02.35]: ▸ error: exportArchive: Provisioning profile "xxxx" doesn't include signing certificate "Apple Distribution: xxxx (xxxx)""#,
                source: "https://github.com/expo/turtle/issues/314", rule: "profile-missing-signing-certificate",
                captures: ["profile": "xxxx", "certificate": "Apple Distribution: xxxx (xxxx)"]),
        Variant(line: #"Provisioning profile "ttkdExpressApp" doesn't include signing certificate "iPhone Developer: long li (D9N39VMFW3)"."#,
                source: "https://github.com/huangxuan518/HXPackRobot/issues/8", rule: "profile-missing-signing-certificate",
                captures: ["profile": "ttkdExpressApp", "certificate": "iPhone Developer: long li (D9N39VMFW3)"]),
        // No signing certificate: the export form and the bare NSError description.
        Variant(line: #"error: exportArchive: No signing certificate "iOS Distribution" found"#,
                source: "https://github.com/MoKhajavi75/iOS_Development_Certificates/issues/18", rule: "no-signing-certificate",
                captures: ["kind": "iOS Distribution"]),
        Variant(line: #"No signing certificate "iOS Distribution" found"#,
                source: "https://github.com/MoKhajavi75/iOS_Development_Certificates/issues/3", rule: "no-signing-certificate",
                captures: ["kind": "iOS Distribution"]),
        // Destination behind fastlane's timestamp and xcpretty glyph.
        Variant(line: "[18:11:20]: ▸ xcodebuild: error: Unable to find a destination matching the provided destination specifier:",
                source: "https://github.com/fastlane/fastlane/issues/1928", rule: "destination-not-found", captures: [:]),
        // No such module: a package manifest's PackageDescription is the developer tools' own library (the machine's
        // setup, package-description-not-found); Xcode's capitalised issue-navigator form of any other module.
        Variant(line: "/Users/vlad/Temp/DebounceMac/Package.swift:3:8: error: no such module 'PackageDescription'",
                source: "https://github.com/nobu-g/DebounceMac/issues/3", rule: "package-description-not-found", captures: [:]),
        Variant(line: "No such module 'KeychainSwift'",
                source: "https://github.com/gjacobs314/HackQ/issues/58", rule: "no-such-module", captures: ["module": "KeychainSwift"]),
        // Undefined symbols for another architecture.
        Variant(line: "Undefined symbols for architecture x86_64:",
                source: "https://github.com/FacePlusPlus/facepp-ios-sdk/issues/8", rule: "linker-undefined-symbols", captures: ["arch": "x86_64"]),
        // A static let of a non-Sendable type: Xcode's capitalised form and the Swift 5.10 wording.
        Variant(line: "Static property 'current' is not concurrency-safe because non-'Sendable' type 'OS' may have shared mutable state",
                source: "https://github.com/MarcoEidinger/OSInfo/pull/3", rule: "static-let-non-sendable-type",
                captures: ["kind": "Static property", "name": "current", "type": "OS"]),
        Variant(line: "/src/Feature/Styles.swift:12:16: warning: static property 'shared' is not concurrency-safe because it is not either conforming to 'Sendable' or isolated to a global actor; this is an error in Swift 6",
                source: "shared/reference/failures-notes.md section B (Swift 5.10 wording)", rule: "static-let-non-sendable-type",
                captures: ["kind": "static property", "name": "shared"]),
        // A versioned SDK whose version a script pasted with typographic quotes.
        Variant(line: #"xcodebuild: error: SDK "iphoneos“7.0”" cannot be located."#,
                source: "https://github.com/BradLarson/GPUImage/issues/1725", rule: "sdk-cannot-be-located", captures: ["sdk": "iphoneos“7.0”"]),
        // A macro whose plugin the compiler could not load: compiler form and Xcode's capitalised form.
        Variant(line: "macro.swift:2:20: error: external macro implementation type 'CasePathsMacros.CasePathableMacro' could not be found for macro 'CasePathable()'; plugin for module 'CasePathsMacros' not found",
                source: "swiftc 6.3.1 on Linux (shared/reference/failures.yaml)", rule: "macro-implementation-not-found",
                captures: ["type": "CasePathsMacros.CasePathableMacro", "macro": "CasePathable()"]),
        Variant(line: "External macro implementation type 'CasePathsMacros.CasePathableMacro' could not be found for macro 'CasePathable()'",
                source: "https://github.com/pointfreeco/swift-case-paths/pull/132", rule: "macro-implementation-not-found",
                captures: ["type": "CasePathsMacros.CasePathableMacro", "macro": "CasePathable()"]),
        // The shell's own line under "Command PhaseScriptExecution failed": bash, a script's line number, env.
        Variant(line: "bash: /Users/roman/Developer/Sp/build_id.sh: No such file or directory",
                source: "https://github.com/ldomaradzki/xcsift/issues/49", rule: "script-command-not-found",
                captures: ["command": "/Users/roman/Developer/Sp/build_id.sh"]),
        Variant(line: "line 9: swiftlint: command not found",
                source: "https://github.com/WeTransferArchive/WeScan/issues/385", rule: "script-command-not-found", captures: ["command": "swiftlint"]),
        Variant(line: "/usr/bin/env: ‘swiftlint’: No such file or directory",
                source: "https://github.com/vknabel/vscode-swiftlint/issues/57", rule: "script-command-not-found", captures: ["command": "swiftlint"]),
        // A package product that does not exist: SwiftPM 5.x+, SwiftPM 4 and Xcode wordings.
        Variant(line: #"error: 'virtual-terminal-demo': product 'VirtualTerminal' required by package 'virtual-terminal-demo' target 'virtual-terminal-demo' not found in package 'VirtualTerminal'. Did you mean '.product(name: "VirtualTerminal", package: "virtualterminal")'?"#,
                source: "https://github.com/compnerd/VirtualTerminal/pull/3", rule: "spm-product-not-found",
                captures: ["product": "VirtualTerminal", "inPackage": "VirtualTerminal"]),
        Variant(line: "error: product dependency 'BigInt' not found",
                source: "https://github.com/travis-ci/travis-ci/issues/8558", rule: "spm-product-not-found", captures: ["product": "BigInt"]),
        Variant(line: "Missing package product '***'",
                source: "https://github.com/overtake/TelegramSwift/issues/1216", rule: "spm-product-not-found", captures: ["product": "***"]),
        // pod install that cannot resolve a pod: with and without "[!] ", and a missing specification.
        Variant(line: #"[!] CocoaPods could not find compatible versions for pod "GoogleUtilities/Logger":"#,
                source: "https://github.com/CocoaPods/CocoaPods/issues/12808", rule: "cocoapods-dependency-not-resolved", captures: ["pod": "GoogleUtilities/Logger"]),
        Variant(line: #"CocoaPods could not find compatible versions for pod "JKCountDownButton":"#,
                source: "https://github.com/shaojiankui/JKCountDownButton/issues/7", rule: "cocoapods-dependency-not-resolved", captures: ["pod": "JKCountDownButton"]),
        Variant(line: "[!] Unable to find a specification for `EasyFoundation (~> 1.0.0)` depended upon by `EasyReact`",
                source: "https://github.com/Meituan-Dianping/EasyReact/issues/39", rule: "cocoapods-dependency-not-resolved",
                captures: ["pod": "EasyFoundation", "dependent": "EasyReact"]),
        // Undefined symbols: Xcode 15's linker behind xcbeautify, and the issue navigator's one-line-per-symbol form.
        Variant(line: "❌  ld: Undefined symbols:",
                source: "https://github.com/GoogleCloudPlatform/recaptcha-enterprise-mobile-sdk/issues/111", rule: "linker-undefined-symbols", captures: [:]),
        Variant(line: "Undefined symbol: _objc_msgSend$role - this is a zld/Xcode 14 issue, see the bottom of the full error message for details",
                source: "https://github.com/michaeleisel/zld/issues/125", rule: "linker-undefined-symbols", captures: [:]),
        // xcpretty's failing-test line behind fastlane's verbose `INFO [date time]: ▸ ` prefix.
        Variant(line: #"INFO [2018-11-07 14:45:28.70]: ▸ ✗ testTrailingSpaceUserNameSuccess, Failed to find "sentDashboard" Button after 15.0 seconds"#,
                source: "https://github.com/lyndsey-ferguson/fastlane-plugin-test_center/issues/79", rule: "xcbeautify-failing-test",
                captures: ["test": "testTrailingSpaceUserNameSuccess", "message": #"Failed to find "sentDashboard" Button after 15.0 seconds"#]),
        // A workspace path that is not there, directly and inside `pod lib lint`'s NOTE line.
        Variant(line: "xcodebuild: error: 'PicEditor.xcworkspace' does not exist.",
                source: "https://github.com/huangxuan518/HXPackRobot/issues/21", rule: "xcodebuild-container-missing", captures: ["path": "PicEditor.xcworkspace"]),
        Variant(line: "    - NOTE  | [iOS] xcodebuild:  xcodebuild: error: 'App.xcworkspace' does not exist.",
                source: "https://github.com/CocoaPods/CocoaPods/issues/6021", rule: "xcodebuild-container-missing", captures: ["path": "App.xcworkspace"]),
        // Swift Testing under xcodebuild names the failing test Suite/test() on its device line.
        Variant(line: "Test case 'SubFolderTestDemoTests/exampleFalse()' failed on 'My Mac - TestDemo (29692)' (0.001 seconds)",
                source: "cpisciotta/xcbeautify@0253347f843d:Tests/XcbeautifyLibTests/ParserTests.swift", rule: "xctest-parallel-case-failed",
                captures: ["suite": "SubFolderTestDemoTests", "test": "exampleFalse"]),
        // A parameterized Swift Testing test whose argument value continues on the next lines.
        Variant(line: #"􀢄  Test "Different kinds of functions are handled correctly" recorded an issue with 3 arguments input → "final class C_NAME {"#,
                source: "cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/swift_test_log_macOS.txt",
                rule: "swift-testing-issue", captures: ["test": "Different kinds of functions are handled correctly"]),
    ]

    func testRealVariantsAreClaimedByTheirRule() throws {
        for v in variants {
            let d = try scan(v.line + "\n")
            let f = try XCTUnwrap(d.findings.first, "no finding for \(v.source): \(v.line)")
            XCTAssertEqual(d.findings.count, 1, "\(v.source): \(d.findings.map(\.rule))")
            XCTAssertEqual(f.rule, v.rule, "line from \(v.source)")
            XCTAssertEqual(f.role, .cause, "line from \(v.source)")
            for (name, value) in v.captures {
                XCTAssertEqual(f.captures[name], value, "capture \(name) of the line from \(v.source)")
            }
        }
    }

    /// Xcode 14/15's silent failure before "Validate plug-in" (https://github.com/ordo-one/benchmark/issues/173)
    /// is a known wrapper, not an unrecognised error; the plugin line is the cause.
    func testSilentCommandFailureIsASymptomOfThePlugin() throws {
        let d = try scan("""
            error: the following command failed with exit code 1 but produced no further output
            Validate plug-in “BenchmarkPlugin” in package “package-benchmark”

            """)
        XCTAssertEqual(d.causes.map(\.rule), ["plugin-validation-failed"])
        XCTAssertEqual(d.findings.filter { $0.role == .unrecognized }.count, 0)
        XCTAssertEqual(d.findings.first { $0.rule == "command-failed-without-output" }?.role, .symptom)
    }

    // MARK: - One failing test, one root cause

    /// XCTest's assertion line and its `Test Case ... failed` line (cpisciotta/xcbeautify@513e4b12c3f6:
    /// Tests/XcbeautifyLibTests/TestData/MixedTestLog_6_0_macOS.txt and MixedTestLog_6_0_Linux.txt).
    func testXCTestAssertionAndCaseLineAreOneCause() throws {
        for log in [
            """
            /Users/runner/work/xcbeautify/xcbeautify/Tests/XcbeautifyLibTests/CaptureGroupTests.swift:34: error: -[XcbeautifyLibTests.CaptureGroupTests testForceFailure] : XCTAssertTrue failed - True is never false.
            Test Case '-[XcbeautifyLibTests.CaptureGroupTests testForceFailure]' failed (0.163 seconds).
            """,
            """
            /home/runner/work/xcbeautify/xcbeautify/Tests/XcbeautifyLibTests/CaptureGroupTests.swift:34: error: CaptureGroupTests.testForceFailure : XCTAssertTrue failed - True is never false.
            Test Case 'CaptureGroupTests.testForceFailure' failed (0.001 seconds)
            """,
        ] {
            let d = try scan(log + "\n")
            XCTAssertEqual(d.causes.map(\.rule), ["xctest-assertion-failed"])
            XCTAssertEqual(d.findings.first { $0.rule == "xctest-case-failed" }?.role, .symptom)
            // The JUnit report still pairs both lines into one failed testcase.
            let junit = JUnitReport().render(d)
            XCTAssertEqual(junit.components(separatedBy: "<testcase ").count - 1, 1, junit)
        }
    }

    /// Without the assertion line (a UI test: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb
    /// SAMPLE_UITEST_CASE_WITH_FAILURE) the case line is the cause.
    func testCaseLineAloneStaysTheCause() throws {
        let d = try scan("Test Case '-[viewUITests.vmtAboutWindow testConnectToDesktop]' failed (22.490 seconds).\n")
        XCTAssertEqual(d.causes.map(\.rule), ["xctest-case-failed"])
    }

    /// Swift Testing's issue line and its closing `failed after` line for the same test
    /// (cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/MixedTestLog_6_0_macOS.txt).
    func testSwiftTestingIssueAndFailedLineAreOneCause() throws {
        let d = try scan("""
            ✘ Test testFailTrueIsFalse() recorded an issue at Test.swift:17:9: Expectation failed: true == false
            ✘ Test testFailTrueIsFalse() failed after 0.001 seconds with 1 issue.

            """)
        XCTAssertEqual(d.causes.map(\.rule), ["swift-testing-issue"])
    }

    /// Two assertions in one test are two issues and stay two causes.
    func testTwoAssertionsOfOneTestStayTwoCauses() throws {
        let d = try scan("""
            /src/LoginTests.swift:10: error: -[AppTests.LoginTests testLogin] : XCTAssertEqual failed: ("1") is not equal to ("2")
            /src/LoginTests.swift:11: error: -[AppTests.LoginTests testLogin] : XCTAssertTrue failed
            Test Case '-[AppTests.LoginTests testLogin]' failed (0.010 seconds).

            """)
        XCTAssertEqual(d.causes.map(\.rule), ["xctest-assertion-failed", "xctest-assertion-failed"])
    }

    // MARK: - Restarts

    /// xcbeautify's TestLog.txt (cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/TestLog.txt
    /// lines 172-175) prints restart lines as ordinary output, with no crash anywhere in the log.
    func testRestartLineWithoutACrashIsNotACause() throws {
        let d = try scan("""
            Test Case '-[XcbeautifyLibTests.XcbeautifyLibTests testWriteFile]' started.
            Test Case '-[XcbeautifyLibTests.XcbeautifyLibTests testWriteFile]' skipped (0.000 seconds).
            Restarting after unexpected exit, crash, or test timeout in SwiftTests.testExample(); summary will include totals from previous launches.
            Restarting after unexpected exit, crash, or test timeout in -[ObjCTests testExample]; summary will include totals from previous launches.

            """)
        XCTAssertTrue(d.causes.isEmpty, "\(d.causes.map(\.rule))")
        XCTAssertEqual(d.findings.filter { $0.rule == "test-crashed-and-restarted" }.map(\.role), [.symptom, .symptom])
    }

    /// A real restart follows the crash (xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb,
    /// SAMPLE_SWIFT_FATAL_ERROR_IN_TEST_MAKE_TESTS_RESTARTING).
    func testRestartAfterACrashIsACause() throws {
        let d = try scan("""
            Test Case '-[xcprettyFatalErrorTests.xcprettyFatalErrorTests testFatalError]' started.
            fatal error: unexpectedly found nil while unwrapping an Optional value

            Restarting after unexpected exit or crash in xcprettyFatalErrorTests/testFatalError(); summary will include totals from previous launches.

            """)
        XCTAssertEqual(Set(d.causes.map(\.rule)), ["swift-runtime-trap", "test-crashed-and-restarted"])
    }

    /// A crash that printed nothing still shows in xcodebuild's `Failing tests:` list, which names the test.
    func testRestartNamedInFailingTestsListIsACause() throws {
        let d = try scan("""
            Restarting after unexpected exit or crash in TestingTestTests/testFailure(); summary will include totals from previous launches.
            Failing tests:
            \tTestingTestTests.testFailure()
            ** TEST FAILED **

            """)
        XCTAssertEqual(d.causes.map(\.rule), ["test-crashed-and-restarted"])
        XCTAssertEqual(d.findings.first { $0.rule == "failing-tests-list" }?.role, .symptom)
    }

    // MARK: - Signing consequences

    /// fastlane/fastlane@d5347690d47d:gym/spec/error_handler_spec.rb: the missing profile, then Xcode's generic refusal.
    func testSigningRequiredFollowingAMissingProfileIsASymptom() throws {
        let d = try scan("""
            No profile for team 'N8X438SEU2' matching 'match AppStore me.themoji.app.beta' found:  Xcode couldn't find any provisioning profiles matching 'N8X438SEU2/match AppStore me.themoji.app.beta'. Install the profile (by dragging and dropping it onto Xcode's dock item) or select a different one in the General tab of the target editor.
            Code signing is required for product type 'Application' in SDK 'iOS 11.0'

            """)
        XCTAssertEqual(d.causes.map(\.rule), ["no-profile-matching"])
        let alone = try scan("Code signing is required for product type 'Application' in SDK 'iOS 11.0'\n")
        XCTAssertEqual(alone.causes.map(\.rule), ["code-signing-required-for-product-type"])
    }

    // MARK: - Terminal report

    /// The tail of a real clean build (cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/
    /// clean_build_xcode_15_1.txt): two entitlement warnings and BUILD SUCCEEDED.
    func testPassingLogShowsWarningsAsWarnings() throws {
        let d = try scan("""
            warning: Widgets isn't code signed but requires entitlements. It is not possible to add entitlements to a binary without signing it. (in target 'Widgets' from project 'Backyard Birds')
            ** BUILD SUCCEEDED **

            """)
        XCTAssertEqual(d.status, .passed)
        let text = TerminalReport(color: false).render(d)
        XCTAssertTrue(text.contains("the build passed with 1 warning"), text)
        XCTAssertFalse(text.contains("Root cause"), text)
        XCTAssertTrue(text.contains("\nWarning:\n"), text)
    }

    /// An informational finding (xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb SAMPLE_WILL_NOT_BE_CODE_SIGNED)
    /// stays out of the diagnosis header.
    func testInfoFindingIsNotInTheHeader() throws {
        let d = try scan("FrameworkName will not be code signed because its settings don't specify a development team.\n")
        XCTAssertEqual(d.findings.map(\.severity), [.info])
        let text = TerminalReport(color: false).render(d)
        XCTAssertFalse(text.contains("Root cause"), text)
        XCTAssertFalse(text.contains("Warning"), text)
        XCTAssertTrue(text.contains("1 note"), text)
    }
}
