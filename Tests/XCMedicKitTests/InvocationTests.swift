import XCTest
@testable import XCMedicKit

/// Issue 13: fixes written for this build. The invocation is read from the log, and a fix command names a
/// marked placeholder (`<scheme>`) only where the log does not say the value.
final class InvocationTests: XCTestCase {
    func scan(_ text: String, name: String = "build.log") throws -> Diagnosis {
        let scanner = Scanner(ruleSet: try RuleSet.builtin())
        try scanner.scan(text: text, name: name)
        return scanner.finish()
    }

    func testXcodebuildCommandLineFillsTheTestFix() throws {
        let log = """
        Command line invocation:
            /Applications/Xcode.app/Contents/Developer/usr/bin/xcodebuild -workspace Shop.xcworkspace -scheme Shop -destination "platform=iOS Simulator,name=iPhone 15 Pro,OS=17.5" test

        Build settings from command line:
            CODE_SIGNING_ALLOWED = NO
            SDKROOT = iphonesimulator17.5

        Test Suite 'ShopTests.xctest' started at 2024-05-01 10:00:00.000.
        Test Case '-[ShopTests.CartTests testAdd]' started.
        /Users/ci/Shop/ShopTests/CartTests.swift:12: error: -[ShopTests.CartTests testAdd] : XCTAssertEqual failed: ("1") is not equal to ("2")
        Test Case '-[ShopTests.CartTests testAdd]' failed (0.003 seconds).
        ** TEST FAILED **
        """
        let d = try scan(log)
        let invocation = try XCTUnwrap(d.invocations.first)
        XCTAssertEqual(invocation.scheme, "Shop")
        XCTAssertEqual(invocation.workspace, "Shop.xcworkspace")
        XCTAssertEqual(invocation.destination, "platform=iOS Simulator,name=iPhone 15 Pro,OS=17.5")
        XCTAssertEqual(invocation.buildSettings.map(\.key), ["CODE_SIGNING_ALLOWED", "SDKROOT"])
        XCTAssertEqual(invocation.testTargets, ["ShopTests"])
        let cause = try XCTUnwrap(d.causes.first)
        XCTAssertEqual(cause.fixes.first?.commands.first,
                       "xcodebuild test -workspace Shop.xcworkspace -scheme Shop -destination 'platform=iOS Simulator,name=iPhone 15 Pro,OS=17.5' -only-testing:ShopTests/CartTests/testAdd")
    }

    func testAFixWithoutTheValueInTheLogSaysSoWithAMarkedPlaceholder() throws {
        let d = try scan("/Users/ci/App/AppTests/A.swift:3: error: -[AppTests.ATests testA] : XCTAssertTrue failed\n")
        let command = try XCTUnwrap(d.causes.first?.fixes.first?.commands.first)
        XCTAssertEqual(command, "xcodebuild test -scheme <scheme> -destination <destination> -only-testing:AppTests/ATests/testA")
    }

    func testFastlaneScanParameterTable() throws {
        // fastlane's `Summary for scan` table as it prints it (fastlane/fastlane#13781 shows one).
        let log = """
        [12:00:00]: +------------------------------------------------+
        [12:00:00]: |            Summary for scan 2.219.0            |
        [12:00:00]: +------------------------------------------------+
        [12:00:00]: | workspace         | ./Kaboom.xcworkspace        |
        [12:00:00]: | scheme            | Kaboom                      |
        [12:00:00]: | device            | iPhone 15 Pro (17.5)        |
        [12:00:00]: +------------------------------------------------+
        """
        let invocation = try XCTUnwrap(try scan(log).invocations.first)
        XCTAssertEqual(invocation.tool, .fastlane)
        XCTAssertEqual(invocation.workspace, "./Kaboom.xcworkspace")
        XCTAssertEqual(invocation.scheme, "Kaboom")
        XCTAssertEqual(invocation.destination, "platform=iOS Simulator,name=iPhone 15 Pro,OS=17.5")
    }

    func testSwiftPMArgumentsAndProseThatOnlyMentionsXcodebuild() throws {
        let d = try scan("""
        $ swift test --package-path Packages/Core --filter CoreTests
        xcodebuild: error: Unable to find a destination matching the provided destination specifier
        """)
        let invocation = try XCTUnwrap(d.invocations.first)
        XCTAssertEqual(invocation.packagePath, "Packages/Core")
        XCTAssertEqual(invocation.tool, .swiftpm)
        XCTAssertNil(invocation.scheme)
        XCTAssertEqual(invocation.fill("swift test {$package} --filter X"), "swift test --package-path Packages/Core --filter X")
    }

    /// Over the real logs of `Tests/Corpus`: wherever the log names the scheme, destination, test target or
    /// xcodebuild arguments, no fix command of its report holds the placeholder for it.
    func testCorpusFixesNameNoPlaceholderWhereTheLogNamesTheValue() throws {
        let folder = CorpusTests.corpus.appendingPathComponent("cases")
        let ruleSet = try RuleSet.builtin()
        var withInvocation = 0, filled = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            let scanner = Scanner(ruleSet: ruleSet)
            try scanner.scan(path: folder.appendingPathComponent(name).path)
            let d = scanner.finish()
            guard let invocation = d.invocations.first, !invocation.isEmpty else { continue }
            withInvocation += 1
            let report = Report.render(d, format: .json, options: ReportOptions())
            var known: [String] = []
            if invocation.scheme != nil { known.append(Invocation.Placeholder.scheme) }
            if invocation.destination != nil { known.append(Invocation.Placeholder.destination) }
            if invocation.testTarget != nil { known.append(Invocation.Placeholder.testTarget) }
            if !invocation.arguments.isEmpty || invocation.scheme != nil { known.append(Invocation.Placeholder.arguments) }
            for f in d.findings {
                for command in f.fixes.flatMap(\.commands) {
                    for placeholder in known { XCTAssertFalse(command.contains(placeholder), "\(name): \(command)") }
                    if invocation.scheme.map({ command.contains("-scheme \(ShellQuote.word($0))") }) ?? false { filled += 1 }
                }
            }
            XCTAssertFalse(report.contains("{$"), "\(name): an invocation token was left in the report")
        }
        XCTAssertGreaterThanOrEqual(withInvocation, 5, "the corpus has logs that name their invocation")
        XCTAssertGreaterThan(filled, 0, "some fix command is written with the log's own scheme")
    }
    /// A fix command written with the log's own xcodebuild arguments never carries a secret they held.
    func testSecretsInTheInvocationStayOutOfEveryReport() throws {
        let log = """
        xcodebuild -workspace App.xcworkspace -scheme App -authenticationKeyID ABC MATCH_PASSWORD=hunter2hunter2 --api_key s3cr3tvalue build
        Macro "CasePathsMacros" from package "swift-case-paths" must be enabled before it can be used
        ** BUILD FAILED **
        """
        let d = try scan(log)
        XCTAssertTrue(d.findings.flatMap(\.fixes).flatMap(\.commands).contains { $0.contains("-scheme App") && $0.contains("-skipMacroValidation") },
                      "the fix is written with the log's arguments")
        for format in ReportFormat.allCases where format != .auto {
            let report = Report.render(d, format: format, options: ReportOptions())
            XCTAssertFalse(report.contains("hunter2hunter2"), "\(format)")
            XCTAssertFalse(report.contains("s3cr3tvalue"), "\(format)")
        }
    }
}
