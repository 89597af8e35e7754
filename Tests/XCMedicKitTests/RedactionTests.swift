import Foundation
import XCTest
@testable import XCMedicKit

/// Secrets never leave in a report: each shape in each format, through the real scanner and renderers.
final class RedactionTests: XCTestCase {
    /// A secret as a log carries it.
    struct Case {
        var name: String
        /// The log text after `error: secret check: ` (a header) and the lines that follow it.
        var header: String
        var following: [String] = []
        /// Texts that must not appear in a redacted report.
        var secrets: [String]
        /// What every format shows of it with --no-redact.
        var shown: String
    }

    // Tokens are put together at run time, so that no token-shaped literal sits in the repository.
    static let fake36 = "Zq8vW2xR4tY6uI0oP1aS3dF5gH7jK9lMnB4v"
    static let p8Body = ["MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQgXq1Lm0Pz3Kd8Wv2Y",
                         "tR9uJ4oE6iN1cB7hS5aF0gQ2wZxVkyMnLpOq8rT3sU4vW5xY6zA7bC8dE9fG0hI1",
                         "jK2lM3nO"]

    static let cases: [Case] = [
        Case(name: "github classic", header: "push refused for gh" + "p_" + fake36, secrets: ["p_" + fake36], shown: "gh" + "p_" + fake36),
        Case(name: "github oauth", header: "token gh" + "o_" + fake36 + " expired", secrets: [fake36], shown: "gh" + "o_" + fake36),
        Case(name: "github app", header: "installation gh" + "s_" + fake36, secrets: [fake36], shown: "gh" + "s_" + fake36),
        Case(name: "github user", header: "user gh" + "u_" + fake36, secrets: [fake36], shown: "gh" + "u_" + fake36),
        Case(name: "github refresh", header: "refresh gh" + "r_" + fake36, secrets: [fake36], shown: "gh" + "r_" + fake36),
        Case(name: "github fine-grained", header: "using github" + "_pat_11ABCDEFG0" + fake36, secrets: [fake36], shown: "github" + "_pat_11ABCDEFG0" + fake36),
        // AWS's own documentation example key id and secret.
        Case(name: "aws key id", header: "bad credentials AK" + "IAIOSFODNN7EXAMPLE", secrets: ["IOSFODNN7EXAMPLE"], shown: "AK" + "IAIOSFODNN7EXAMPLE"),
        Case(name: "aws secret", header: "~/.aws/credentials has aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
             secrets: ["wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"], shown: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        Case(name: "slack", header: "notify failed xo" + "xb-1234567890-0987654321-" + fake36, secrets: [fake36], shown: "xo" + "xb-1234567890-0987654321-" + fake36),
        Case(name: "private key", header: "-----BEGIN PRIVATE KEY-----", following: p8Body + ["-----END PRIVATE KEY-----"],
             secrets: p8Body, shown: "-----BEGIN PRIVATE KEY-----"),
        Case(name: "private key on one line", header: #"APP_STORE_KEY_CONTENT="-----BEGIN EC PRIVATE KEY-----\n"# + p8Body[0] + #"\n-----END EC PRIVATE KEY-----""#,
             secrets: [p8Body[0]], shown: p8Body[0]),
        Case(name: "bearer", header: "curl -H 'Authorization: Bearer eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ4In0.c2lnbmF0dXJl' failed",
             secrets: ["eyJhbGciOiJFUzI1NiJ9"], shown: "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ4In0.c2lnbmF0dXJl"),
        Case(name: "url password", header: "fatal: could not read from https://ci-bot:s3cretPassw0rd@git.example.com/org/certificates.git",
             secrets: ["s3cretPassw0rd"], shown: "ci-bot:s3cretPassw0rd@git.example.com"),
        Case(name: "url token", header: "clone https://x-access-token:v1.0a1b2c3d4e5f6a7b8c9d@github.com/org/repo.git failed",
             secrets: ["v1.0a1b2c3d4e5f6a7b8c9d"], shown: "x-access-token:v1.0a1b2c3d4e5f6a7b8c9d@"),
        Case(name: "match password", header: "MATCH_PASSWORD=Tr0ub4dor3-horse could not decrypt", secrets: ["Tr0ub4dor3-horse"], shown: "Tr0ub4dor3-horse"),
        Case(name: "fastlane password", header: #"FASTLANE_PASSWORD: "correct horse battery" rejected"#, secrets: ["correct horse battery"], shown: "correct horse battery"),
        Case(name: "token variable", header: "DEPLOY_TOKEN=dt-88f1c0ffee77 unauthorized", secrets: ["dt-88f1c0ffee77"], shown: "dt-88f1c0ffee77"),
        Case(name: "secret variable", header: "export SENTRY_CLIENT_SECRET='sq-49b2be1f' failed", secrets: ["sq-49b2be1f"], shown: "sq-49b2be1f"),
        Case(name: "api key variable", header: "REVENUECAT_API_KEY=appl_f00dbabe1234 invalid", secrets: ["appl_f00dbabe1234"], shown: "appl_f00dbabe1234"),
        Case(name: "notarytool password", header: "xcrun notarytool submit App.zip --apple-id dev@example.com --password abcd-efgh-ijkl-mnop --wait",
             secrets: ["abcd-efgh-ijkl-mnop"], shown: "abcd-efgh-ijkl-mnop"),
        Case(name: "security keychain password", header: "+ security unlock-keychain -p k3ych4inPass build.keychain",
             secrets: ["k3ych4inPass"], shown: "k3ych4inPass"),
    ]

    /// A rule that puts the secret everywhere a rule can: message, captures, collected list, excerpt and fixes.
    static let rules = #"""
    - id: test-secret-check
      title: Secret check failed
      category: phase-script-failed
      severity: error
      role: cause
      patterns:
        - literal: 'error: secret check: '
          regex: 'error: secret check: (?<detail>.+)$'
      continuation:
        while: '^(?!\*\*)\S'
        collect: '^(?<value>.+)$'
        max_lines: 20
      message: 'Secret check failed: {detail}'
      explanation: A test rule that quotes the log.
      fixes:
        - summary: 'Rotate {detail}'
          commands: ['echo {detail}']
          snippet: '{detail}'
      examples:
        match:
          - line: 'Sources/App/Config.swift:3:5: error: secret check: value'
            source: written for these tests
        no_match:
          - line: 'error: secret'
    """#

    func diagnosis(_ c: Case) throws -> Diagnosis {
        let log = (["Sources/App/Config.swift:3:5: error: secret check: \(c.header)"] + c.following + ["** BUILD FAILED **"]).joined(separator: "\n") + "\n"
        let scanner = Scanner(ruleSet: try RuleSet(rules: try RuleLoader.load(yaml: RedactionTests.rules, origin: "redaction-tests") + BuiltinCatalog.rules()))
        try scanner.scan(text: log, name: "build.log")
        return scanner.finish()
    }

    func testEveryShapeInEveryFormat() throws {
        let formats: [ReportFormat] = [.text, .json, .github, .markdown, .junit, .sarif]
        for c in RedactionTests.cases {
            let d = try diagnosis(c)
            let finding = try XCTUnwrap(d.findings.first { $0.rule == "test-secret-check" }, c.name)
            XCTAssertEqual(finding.excerpt.count, 1 + c.following.count, "\(c.name): \(finding.excerpt)")
            for format in formats {
                let redacted = Report.render(d, format: format, options: ReportOptions(redactor: .standard))
                for secret in c.secrets {
                    XCTAssertFalse(redacted.contains(secret), "\(c.name) in \(format): \(secret) leaked\n\(redacted)")
                }
                XCTAssertTrue(redacted.contains("REDACTED"), "\(c.name) in \(format)\n\(redacted)")
                let plain = Report.render(d, format: format, options: ReportOptions(redactor: .off))
                XCTAssertTrue(plain.contains(c.shown), "\(c.name) in \(format) with --no-redact\n\(plain)")
                XCTAssertFalse(plain.contains("REDACTED"), "\(c.name) in \(format) with --no-redact\n\(plain)")
            }
        }
    }

    /// The key's body lines go in every place a block of lines is kept: excerpt and collected list.
    func testPrivateKeyBodyLinesAreRedactedInExcerptAndCollectedList() throws {
        let c = RedactionTests.cases.first { $0.name == "private key" }!
        let finding = Redactor.standard.redact(try XCTUnwrap(try diagnosis(c).findings.first))
        XCTAssertEqual(finding.excerpt, ["Sources/App/Config.swift:3:5: error: secret check: [REDACTED]", "[REDACTED]", "[REDACTED]", "[REDACTED]", "[REDACTED]"])
        XCTAssertEqual(finding.collected["value"], ["[REDACTED]", "[REDACTED]", "[REDACTED]", "[REDACTED]"])
        // A key cut before its END line stays redacted to the end of the block.
        XCTAssertEqual(Redactor.standard.redactLines(["x: -----BEGIN RSA PRIVATE KEY-----", "AAAA", "BBBB"]), ["x: [REDACTED]", "[REDACTED]", "[REDACTED]"])
        // Text after the END line is ordinary again.
        XCTAssertEqual(Redactor.standard.redactLines(["-----BEGIN OPENSSH PRIVATE KEY-----", "AAAA", "-----END OPENSSH PRIVATE KEY----- done", "error: next"]),
                       ["[REDACTED]", "[REDACTED]", "[REDACTED] done", "error: next"])
        XCTAssertEqual(Redactor.off.redactLines(["-----BEGIN PRIVATE KEY-----", "AAAA"]), ["-----BEGIN PRIVATE KEY-----", "AAAA"])
    }

    /// Only a pointer-sized hex value is taken for an address: a longer one after a secret's name is still a secret, and
    /// so is a bare number (only a number with a unit is a measurement).
    func testAPointerIsKeptAndALongHexValueIsNot() {
        XCTAssertEqual(Redactor.standard.redact("<AuthToken: 0x600000c8a1e0>"), "<AuthToken: 0x600000c8a1e0>")
        XCTAssertEqual(Redactor.standard.redact("privateToken: 0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"),
                       "privateToken: [REDACTED]")
        XCTAssertEqual(Redactor.standard.redact("password: 123456"), "password: [REDACTED]")
    }

    /// The redactor must not eat what a report is for.
    func testOrdinaryTextIsKept() {
        let ordinary = [
            "/Users/runner/work/app/app/Sources/App/Secrets/TokenStore.swift:12:5: error: cannot find 'apiToken' in scope",
            "error: no such module 'KeychainAccess'",
            "fatal: reference is not a tree: 3f786850e387550fdab836ed7e6dc881de23001b",
            "Resolved source packages: swift-nio: https://github.com/apple/swift-nio.git @ 2.65.0",
            "git@github.com:org/repo.git: Permission denied (publickey).",
            "ssh://git@github.com/org/repo.git",
            "Simulator 8F2C1E0A-4B3D-4C5E-9F6A-7B8C9D0E1F2A failed to boot",
            "error: expected token: ')'",
            "warning: Token is deprecated",
            "data: aGVsbG8gd29ybGQgdGhpcyBpcyBqdXN0IGJhc2U2NCBub3QgYSBrZXk=",
            "AAAAB3NzaC1yc2EAAAADAQABAAABAQC",
            "The password for the keychain was not provided; set KEYCHAIN_PASSWORD in the workflow",
            "Code Signing Error: No signing certificate \"iOS Distribution\" found",
            "xcodebuild -scheme App -destination 'platform=iOS Simulator,name=iPhone 15' DEVELOPMENT_TEAM=ABCDE12345 test",
            "mkdir -p /tmp/build && security find-identity -v -p codesigning",
            "Test Case '-[AppTests.TokenTests testRefresh]' failed (0.003 seconds).",
            // A Swift type alias, and the session macOS's Terminal names in every `env` dump.
            "#14 10.61 public typealias URLSession = AnyObject",
            "SHLVL=1 TERM_SESSION_ID=8AAA91F2-6F41-424E-BDB2-067C62512057 SECURITYSESSIONID=18770",
            // An object's description in Xcode's assertion output: the address is a pointer.
            "Object:   <DTDKMobileDeviceToken: 0x7ff19ee76470>",
            // A step's timing after a dotted name ending in `auth`, and bash's error for a missing function.
            "[running preBuild] - shoutem.auth: 1.466ms",
            "/Users/travis/build.sh: line 109: shell_session_update: command not found",
            // A module named like a secret word, in the build folder's paths of a link command.
            "-Xlinker -add_ast_path -Xlinker /tmp/DerivedData/Build/Intermediates.noindex/Supabase.build/Debug-iphonesimulator/Auth.build/Objects-normal/arm64/Auth.swiftmodule",
        ]
        for line in ordinary {
            XCTAssertEqual(Redactor.standard.redact(line), line)
        }
        XCTAssertEqual(Redactor.standard.redactLines(ordinary), ordinary)
    }

    func testShapesInPlace() {
        let r = Redactor.standard
        XCTAssertEqual(r.redact("MATCH_PASSWORD=abc FASTLANE_SESSION='---\\n- !ruby/object' next"), "MATCH_PASSWORD=[REDACTED] FASTLANE_SESSION='[REDACTED]' next")
        XCTAssertEqual(r.redact(#"{"apiKey": "k-123", "name": "x"}"#), #"{"apiKey": "[REDACTED]", "name": "x"}"#)
        XCTAssertEqual(r.redact("https://user:pass@host.example/path"), "https://[REDACTED]@host.example/path")
        XCTAssertEqual(r.redact("security import cert.p12 -k build.keychain -P p12pass -T /usr/bin/codesign"),
                       "security import cert.p12 -k build.keychain -P [REDACTED] -T /usr/bin/codesign")
        XCTAssertEqual(r.redact("xcrun altool --upload-app -f App.ipa -u dev@example.com -p abcd-efgh"),
                       "xcrun altool --upload-app -f App.ipa -u dev@example.com -p [REDACTED]")
        XCTAssertEqual(r.redact("Authorization: token abc123"), "Authorization: [REDACTED]")
        XCTAssertEqual(r.redact("https://example.com/download?token=abc123&x=1"), "https://example.com/download?token=[REDACTED]&x=1")
        // Already a placeholder after the scheme (a paste that hid its credentials), and a path component whose
        // name holds a secret-looking word (XCTest's session log, Quick/Quick's Xcode 6 thread): nothing to hide.
        XCTAssertEqual(r.redact("-c http.extraheader='Authorization: Basic <redacted>'"), "-c http.extraheader='Authorization: Basic <redacted>'")
        XCTAssertEqual(r.redact("-c http.extraheader='Authorization: Basic dXNlcjpwYXNzd29yZA=='"), "-c http.extraheader='Authorization: [REDACTED]'")
        let path = "the log file at /var/folders/T/com.apple.dt.XCTest-status/Session-2014-09-10_11:39:20-JbO0b7.log)"
        XCTAssertEqual(r.redact(path), path)
        XCTAssertEqual(r.redact("Session: 39:20-JbO0b7abcdefghijk"), "Session: [REDACTED]")
        // An NSError's userInfo key and the rest of an Objective-C selector name no secret (a failed SwiftPM download on
        // Xcode Cloud; an assertion's backtrace in Xcode's provisioning code); a credential pair after a key still does.
        let userInfo = "_NSURLErrorFailingURLSessionTaskErrorKey=LocalDownloadTask <106890B4-FE12-453D-B50C-68C53E5E2AD7>.<1>,"
        XCTAssertEqual(r.redact(userInfo), userInfo)
        let selector = "3   -[IDEProvisioningRepairStepGenerator_Automatic _evaluateCertificatesWithSession:context:repairable:steps:userAction:error:] (in IDEFoundation)"
        XCTAssertEqual(r.redact(selector), selector)
        XCTAssertEqual(r.redact("session: admin:hunter2secret"), "session: [REDACTED]")
        // A Swift initializer's name in a concurrency warning, and a member chain assigned in a source line: code. A token after
        // the same key still goes.
        let swiftName = "warning: call to main actor-isolated initializer 'init(entries:secrets:storeLocation:)' in a synchronous nonisolated context"
        XCTAssertEqual(r.redact(swiftName), swiftName)
        XCTAssertEqual(r.redact("        let apiKey = SupabaseConfig.shared.supabaseKey"), "        let apiKey = SupabaseConfig.shared.supabaseKey")
        XCTAssertEqual(r.redact("        let apiKey = sk9Ze3.Qa7vPz1.Lm4TwX8"), "        let apiKey = [REDACTED]")
        XCTAssertEqual(r.redact("secrets:storeLocation2x9Q7wK"), "secrets:[REDACTED]")
        // A constant whose value is its own name (a UserDefaults key in a compile error's source line), and a C function
        // named in a linker error: names, not secrets. A different value after the same key is still hidden.
        XCTAssertEqual(r.redact(#"    static let authToken = "auth_token""#), #"    static let authToken = "auth_token""#)
        XCTAssertEqual(r.redact(#"    static let authToken = "c2VjcmV0LXRva2VuLXZhbHVl""#), #"    static let authToken = "[REDACTED]""#)
        let linker = "libFoundationNetworking.a(CFURLSessionInterface.c.o):CFURLSessionInterface.c:function CFURLSessionEasyCodeDescription: error: undefined reference to 'curl_easy_strerror'"
        XCTAssertEqual(r.redact(linker), linker)
        // Placeholders a person wrote for their own values, and a variable that names a directory of keys (fastlane's
        // altool command on Xcode 26); real values after the same options are still hidden.
        let altool = "API_PRIVATE_KEYS_DIR=YourTmpP8KeyDir xcrun altool --upload-app --apiKey YourKeyID --apiIssuer YourIssuerID -t ios -f /tmp/App.ipa"
        XCTAssertEqual(r.redact(altool), altool)
        XCTAssertEqual(r.redact("xcrun altool --upload-app --apiKey 2X9R4HXF34 --apiIssuer 69a6de70-03db-47e3-e053-5b8c7c11a4d1"),
                       "xcrun altool --upload-app --apiKey [REDACTED] --apiIssuer [REDACTED]")
        XCTAssertEqual(r.redact("export API_TOKEN=YOUR_API_TOKEN"), "export API_TOKEN=YOUR_API_TOKEN")
        // The name of the variable that holds the password, where a tool echoes its command before expanding it (Tauri's
        // bundler running altool); a real value after -p is still hidden, and so is an upper-case value that names nothing.
        let echoed = "Running [tauri_bundler::bundle::common] Command `xcrun  altool --notarization-info a336e0c6 -u APPLE_ID -p APPLE_PASSWORD`"
        XCTAssertEqual(r.redact(echoed), echoed)
        XCTAssertEqual(r.redact("xcrun altool --notarize-app -u me@example.com -p hunter2secret"), "xcrun altool --notarize-app -u me@example.com -p [REDACTED]")
        XCTAssertEqual(r.redact("xcrun altool --notarize-app -p HUNTER_TWO_X"), "xcrun altool --notarize-app -p [REDACTED]")
        // A template's field in braces, as documentation writes the command (hold-out 32 j6006); a value that only opens
        // with a brace is still hidden.
        // A selector that names a token, ending in a backtrace's block symbol (hold-out 33 j7014).
        let frame = "7   IDEiOSSupportCore   0x000000011c209107 __28-[DVTiOSDevice attachToken:]_block_invoke_4 + 254"
        XCTAssertEqual(r.redact(frame), frame)
        let template = "xcrun altool --upload-app -f {pathToIPA} -t iOS -u {username} -p {password}"
        XCTAssertEqual(r.redact(template), template)
        XCTAssertEqual(r.redact("xcrun altool --upload-app -u me@example.com -p {hunter2!}"), "xcrun altool --upload-app -u me@example.com -p [REDACTED]")
        // A type's superclass after `Session :`, a provisioning profile's UUID, a package's URL after a name that holds
        // `Session` (hold-out 20): names, not secrets; an encoded profile and a session token are still hidden.
        XCTAssertEqual(r.redact("public class VTCompressionSession : _CFObject {"), "public class VTCompressionSession : _CFObject {")
        XCTAssertEqual(r.redact("    PROVISIONING_PROFILE_App_Extension = f916858b-51f5-4259-952b-05079b849392"),
                       "    PROVISIONING_PROFILE_App_Extension = f916858b-51f5-4259-952b-05079b849392")
        XCTAssertEqual(r.redact("  GTMSessionFetcher: https://github.com/google/gtm-session-fetcher.git @ 3.1.1"),
                       "  GTMSessionFetcher: https://github.com/google/gtm-session-fetcher.git @ 3.1.1")
        XCTAssertEqual(r.redact("PROVISIONING_PROFILE_BASE64=TUlJS1FnWUpLb1pJaHZjTkFRY0NvSUlLTXpDQ0NpOENBUUV4Q3pBSkJnVXJEZ01DR2dVQU1JSUNZ"),
                       "PROVISIONING_PROFILE_BASE64=[REDACTED]")
        XCTAssertEqual(r.redact("SESSION_TOKEN=c2VjcmV0LXNlc3Npb24tY29va2ll"), "SESSION_TOKEN=[REDACTED]")
        // A value written to show its shape (one letter over and over) is not one; a real app-specific password is hidden.
        let shape = #"xcrun notarytool submit --wait app.zip --apple-id apple@id.com --password "aaaa-aaaa-aaaa-aaaa" --team-id "ZZZZZZZZZ""#
        XCTAssertEqual(r.redact(shape), shape)
        XCTAssertEqual(r.redact(#"xcrun notarytool submit app.zip --password "qwer-tyui-opas-dfgh""#), #"xcrun notarytool submit app.zip --password "[REDACTED]""#)
        XCTAssertEqual(r.redact("private_key: c2VjcmV0LXRva2VuLXZhbHVlLWxvbmc"), "private_key: [REDACTED]")
        // Xcode's launch session settings in a device run's console: a scheme command and an architecture, not a session.
        XCTAssertEqual(r.redact(#"    "launchSession_schemeCommand" = Run;"#), #"    "launchSession_schemeCommand" = Run;"#)
        XCTAssertEqual(r.redact(#"    "launchSession_targetArch" = arm64;"#), #"    "launchSession_targetArch" = arm64;"#)
        XCTAssertEqual(r.redact("FASTLANE_SESSION=c2VjcmV0LXNlc3Npb24tY29va2ll"), "FASTLANE_SESSION=[REDACTED]")
        // A password the CI service masked already (Azure's `pass:***`), and a simulator session named by its reverse-DNS
        // identifier in an Xcode 14 launch error; a real pass: value and session value are still hidden.
        let masked = "/usr/local/bin/openssl pkcs12 -in /tmp/distribution.p12 -nocerts -passin pass:*** -passout pass:*** | grep friendlyName"
        XCTAssertEqual(r.redact(masked), masked)
        XCTAssertEqual(r.redact("openssl pkcs12 -in a.p12 -passin pass:hunter2 -nokeys"), "openssl pkcs12 -in a.p12 -passin pass:[REDACTED] -nokeys")
        let simulator = #"    Session = "com.apple.CoreSimulator.SimDevice.7283EAE1-17BE-499F-9A59-9ADADE294882";"#
        XCTAssertEqual(r.redact(simulator), simulator)
        XCTAssertEqual(r.redact(#"    Session = "c2VjcmV0LXNlc3Npb24tY29va2ll";"#), #"    Session = "[REDACTED]";"#)
        // Code quoted under a compiler error, a count, and a package SwiftPM names (hold-out 45): not secrets; the same
        // keys with a secret's value are still hidden.
        for line in ["                self.captureSession.sessionPreset = .inputPriority",
                     #"        let secretPattern = try? NSRegularExpression(pattern: "x")"#,
                     "[TEST] Generation output: Temperature: 0.7, Max Tokens: 100",
                     "max_tokens=4096",
                     "info: 'google.gtm-session-fetcher': retrieving google.gtm-session-fetcher metadata from http://127.0.0.1:3001/x",
                     "error: 'swift-session-kit': invalid manifest",
                     // An `env` dump's working directory and actions/checkout's masked extraheader (hold-out 46).
                     "PWD=/private/var/folders/6c/4zxbd4tj1bx5rm_9tfnkdbp40000gn/T",
                     "2025-10-19T14:22:00.2545510Z [command]/usr/local/bin/git config --local http.https://github.com/.extraheader AUTHORIZATION: basic ***",
                     #"2025-10-19T14:22:00.1339540Z [command]/usr/local/bin/git submodule foreach --recursive sh -c "git config --local --name-only --get-regexp 'http\.https\:\/\/github\.com\/\.extraheader' && git config --local --unset-all 'http.https://github.com/.extraheader' || :""#] {
            XCTAssertEqual(r.redact(line), line)
        }
        XCTAssertEqual(r.redact("git config --local http.https://github.com/.extraheader AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX3h4eA=="),
                       "git config --local http.https://github.com/.extraheader AUTHORIZATION: [REDACTED]")
        XCTAssertEqual(r.redact("PWD=c2VjcmV0LXNlc3Npb24tY29va2ll"), "PWD=[REDACTED]")
        XCTAssertEqual(r.redact("sessionPreset = c2VjcmV0LXNlc3Npb24"), "sessionPreset = [REDACTED]")
        XCTAssertEqual(r.redact("AUTH_TOKEN=123456789012"), "AUTH_TOKEN=[REDACTED]")
        XCTAssertEqual(r.redact("  'session_token': hunter2secret"), "  'session_token': [REDACTED]")
        XCTAssertEqual(r.redact("PASSWORDS=hunter2,hunter3"), "PASSWORDS=[REDACTED],hunter3")
        // A CLI's topic:command, a redirection where an empty password was, code binding a name to a name, a colour code
        // after a Ruby keyword argument, a build's intermediate file and the variable that holds a key (hold-out 47): not
        // secrets; the same keys with secret values are still hidden.
        for line in ["2026-04-22T21:31:58.1766750Z + npx eas credentials:sync --platform ios --non-interactive",
                     "  elif openssl pkcs12 -in $RUNNER_TEMP/raw_cert.file -out $RUNNER_TEMP/converted.pem -nodes -passin pass: 2>/dev/null; then",
                     "            if let session = sessionToRevoke {",
                     "                            if let tempSession = peerSessions[tempID] {",
                     "[00:19:36]: \u{1B}[31m    119:\t      api_key: api_key,\u{1B}[0m",
                     #"ConstructStubExecutorLinkFileList /x/TheaCredentialsExtension.build/Thea\ Credentials-ExecutorLinkFileList-normal-arm64.txt (in target 'X')"#,
                     "Normalizando ASC Private Key (EXPO_ASC_PRIVATE_KEY_BASE64)..."] {
            XCTAssertEqual(r.redact(line), line)
        }
        XCTAssertEqual(r.redact("credentials: hunter2secret"), "credentials: [REDACTED]")
        XCTAssertEqual(r.redact("let token = ghsX7c9a1b2c3d4e5f6"), "let token = [REDACTED]")
        XCTAssertEqual(r.redact(#"let token = "sessionToRevoke""#), #"let token = "[REDACTED]""#)
        XCTAssertEqual(r.redact("\u{1B}[31m    api_key: hunter2secret\u{1B}[0m"), "\u{1B}[31m    api_key: [REDACTED]\u{1B}[0m")
        XCTAssertEqual(r.redact("\u{1B}[32mpassword: hunter2secret\u{1B}[0m"), "\u{1B}[32mpassword: [REDACTED]\u{1B}[0m")
        XCTAssertEqual(r.redact("Credentials-k8F2mQ9xL4vB7nR1tY6wZ3pA5sD0"), "Credentials-[REDACTED]")
    }

    /// The byte checks in front of two shapes' regexes say no only where the regex cannot match: the session
    /// cookie's key and an app-specific password's four groups are found wherever they stand, in any case.
    func testShapeConfirmationsFindWhatTheirRegexesFind() {
        func cookie(_ s: String) -> Bool { var s = s; return s.withUTF8 { SecretShapes.mayHoldSessionCookie($0) } }
        func groups(_ s: String) -> Bool { var s = s; return s.withUTF8 { SecretShapes.hasFourLetterGroups($0) } }
        XCTAssertTrue(cookie("Cookie: myacinfo=DAWTKNV323"))
        XCTAssertTrue(cookie("dqsid=abc"))
        XCTAssertTrue(cookie("x DES0123456789abcdef0123=value"))
        XCTAssertFalse(cookie("let includes = modes.filter { $0.codes == 3 }"))
        XCTAssertFalse(cookie("des0123456789abcdef012=short")) // 19 hex digits
        XCTAssertTrue(groups("abcd-efgh-ijkl-mnop"))
        XCTAssertTrue(groups("-p ABCD-efgh-IJKL-mnop."))
        XCTAssertFalse(groups("abcd-efgh-ijkl-mno"))
        XCTAssertFalse(groups("abcd-ef1h-ijkl-mnop"))
        for (text, redacted) in [("--password abcd-efgh-ijkl-mnop", true), ("Set-Cookie: myacinfo=DAWTKNV3234567; Path=/", true),
                                 ("error: includes = modes", false)] {
            XCTAssertEqual(Redactor.standard.redact(text) != text, redacted, text)
        }
    }
}
