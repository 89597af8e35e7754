import XCTest
@testable import XCMedicKit

/// The signing, destination, package and infrastructure families against what real logs do to their
/// lines: typographic quotes turned into mojibake by a wrong charset, several lines of one failure,
/// and informational lines that must not become errors.
final class PlatformRulesTests: XCTestCase {
    private func scan(_ text: String) throws -> Diagnosis {
        let scanner = Scanner(ruleSet: try RuleSet.builtin())
        try scanner.scan(text: text, name: "test")
        return scanner.finish()
    }

    /// The UTF-8 bytes of `text` read back one byte per character, as a log viewer with the wrong
    /// charset shows them. Only the bytes of “ ” ’ are mapped; anything else is a test mistake.
    private enum Charset: CaseIterable { case latin1, windows1252, macRoman }

    private func mojibake(_ text: String, _ charset: Charset) -> String {
        var out = String.UnicodeScalarView()
        for byte in text.utf8 {
            if byte < 0x80 { out.append(Unicode.Scalar(byte)); continue }
            let scalar: UInt32?
            switch charset {
            case .latin1: scalar = UInt32(byte)
            case .windows1252: scalar = [0xE2: 0xE2, 0x80: 0x20AC, 0x9C: 0x0153, 0x9D: nil, 0x99: 0x2122][byte] ?? 0xFFFD
            case .macRoman: scalar = [0xE2: 0x201A, 0x80: 0x00C4, 0x9C: 0x00FA, 0x9D: 0x00F9, 0x99: 0x00F4][byte] ?? 0xFFFD
            }
            precondition(scalar != 0xFFFD, "byte \(byte) has no mapping in this test")
            if let scalar { out.append(Unicode.Scalar(scalar)!) } // Windows-1252 has no character for 0x9D
        }
        return String(out)
    }

    func testMessagesWithTypographicQuotesMatchInEveryCharset() throws {
        // Real messages (sources in the rules' examples) with typographic quotes, as Xcode prints some of
        // them and as lines copied from its UI show them.
        let cases: [(line: String, rule: String, captures: [String: String])] = [
            ("Code Sign error: No code signing identites found: No valid signing identities (i.e. certificate and private key pair) matching the team ID “CAT6HF57NJ” were found.",
             "no-signing-identities-for-team", ["team": "CAT6HF57NJ"]),
            ("Provisioning profile “Profile Name” doesn’t support the Push Notifications capability.",
             "profile-missing-capability", ["profile": "Profile Name", "capability": "Push Notifications"]),
            ("Signing for “Name” requires a development team. Select a development team in the project editor.",
             "signing-requires-development-team", ["target": "Name"]),
            ("xcodebuild: error: The workspace named “Sample” does not contain a scheme named “Sample”.",
             "scheme-not-found", ["name": "Sample", "scheme": "Sample"]),
            ("xcrun: error: SDK “iphoneos” cannot be located",
             "sdk-cannot-be-located", ["sdk": "iphoneos"]),
            ("Code Signing Error: No profiles for 'com.abc.xyz.dev' were found:  Xcode couldn’t find any iOS App Development provisioning profiles matching 'com.abc.xyz.dev'.",
             "no-profiles-for-bundle-id", ["bundleID": "com.abc.xyz.dev", "kind": "iOS App Development"]),
        ]
        for (line, rule, captures) in cases {
            for variant in [line] + Charset.allCases.map({ mojibake(line, $0) }) {
                let finding = try scan(variant).findings.first { $0.rule == rule }
                XCTAssertNotNil(finding, "\(rule) does not match: \(variant)")
                for (name, value) in captures {
                    XCTAssertEqual(finding?.captures[name], value, "\(rule).\(name) in: \(variant)")
                }
            }
        }
    }

    /// The missing platform is the cause; the unmatched destination is what it led to (a symptom, still listed
    /// with the destination it asked for).
    func testAMissingPlatformIsTheCauseOfAnUnmatchedDestination() throws {
        // xcodebuild's destination error, then the ineligible entry that says why (Xcode 16 wording,
        // openfoodfacts/smooth-app#6172).
        let log = """
        xcodebuild: error: Unable to find a destination matching the provided destination specifier:
        \t\t{ platform:iOS Simulator, OS:18.2, name:iPhone 16 }

        \tIneligible destinations for the "Runner" scheme:
        \t\t{ platform:iOS, id:dvtdevice-DVTiPhonePlaceholder-iphoneos:placeholder, name:Any iOS Device, error:iOS 18.2 is not installed. To use with Xcode, first download and install the platform }
        """
        let diagnosis = try scan(log)
        XCTAssertEqual(diagnosis.causes.map(\.rule), ["platform-not-installed"])
        XCTAssertEqual(diagnosis.causes.first?.captures, ["platform": "iOS", "version": "18.2"])
        XCTAssertEqual(diagnosis.causes.first?.fixes.first?.commands, ["xcodebuild -downloadPlatform iOS"])
        let destination = try XCTUnwrap(diagnosis.findings.first { $0.rule == "destination-not-found" })
        XCTAssertEqual(destination.role, .symptom)
        XCTAssertEqual(destination.collected["requested"], ["platform:iOS Simulator, OS:18.2, name:iPhone 16"])
    }

    func testPackageCloneFailureNamesTheCredentialProblemBelowIt() throws {
        // mergesort/Boutique#43: the umbrella line, the clone failure, then git's reason.
        let log = """
        xcodebuild: error: Could not resolve package dependencies:
          Failed to clone repository git@github.com:mergesort/Boutique.git:
            Cloning into bare repository '/Users/builder/Library/Developer/Xcode/DerivedData/XXXX-xxxx/SourcePackages/repositories/Boutique-5d5d00dc'
            git@github.com: Permission denied (publickey).
            fatal: Could not read from remote repository.
        """
        let diagnosis = try scan(log)
        XCTAssertEqual(diagnosis.causes.map(\.rule), ["spm-repository-not-accessible", "git-authentication-failed"])
        XCTAssertEqual(diagnosis.causes.last?.captures["host"], "github.com")
        XCTAssertEqual(diagnosis.findings.last?.rule, "spm-could-not-resolve")
        XCTAssertEqual(diagnosis.findings.last?.role, .symptom)
    }

    func testSwiftPMCacheWarningAloneIsNotAFailure() throws {
        // SwiftPM 6.3.1 retries without its cache after this warning; only the later `error:` line fails.
        let log = "warning: 'dep': skipping cache due to an error: Failed to clone repository https://github.com/owner/dep.git:\n"
        XCTAssertNil(try scan(log).findings.first { $0.severity == .error })
    }

    func testSigningNoticesInAPassingBuildAreNeverErrors() throws {
        // xcbeautify's Xcode 15.1 clean build and xcpretty's sample: informational, the build succeeded.
        let log = """
        warning: Widgets isn't code signed but requires entitlements. It is not possible to add entitlements to a binary without signing it. (in target 'Widgets' from project 'Backyard Birds')
        FrameworkName will not be code signed because its settings don't specify a development team.
        ** BUILD SUCCEEDED **
        """
        let diagnosis = try scan(log)
        XCTAssertEqual(diagnosis.findings.map(\.rule), ["entitlements-without-signing", "will-not-be-code-signed"])
        XCTAssertFalse(diagnosis.findings.contains { $0.severity == .error })
        XCTAssertEqual(diagnosis.status, .passed)
    }
}
