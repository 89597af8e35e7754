import Foundation
import XCTest
import XCMedicTestSupport
@testable import XCMedicKit

/// xcresulttool's JSON (real recorded output, Fixtures/xcresult/README.md) detected by content and
/// diagnosed by the catalog; an `.xcresult` bundle through a stub `xcrun` on PATH.
final class XCResultInputTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/xcresult")
    private var directory: URL!

    override func setUpWithError() throws {
        directory = Scratch.url("xcresult")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func fixture(_ name: String) -> String {
        XCResultInputTests.fixtures.appendingPathComponent(name).path
    }

    private func diagnose(_ path: String, hasXcresulttool: Bool = false, environment: [String: String] = [:]) throws -> Diagnosis {
        let scanner = Scanner(ruleSet: try RuleSet(rules: BuiltinCatalog.rules()))
        try scanner.scan(LogInput.open(path, hasXcresulttool: hasXcresulttool))
        return scanner.finish()
    }

    /// `-only-testing:` identifiers of the failing tests, from each finding's fix.
    private func identifiers(_ d: Diagnosis) -> [String] {
        d.findings.filter { ["xctest-assertion-failed", "swift-testing-result-bundle-failure"].contains($0.rule) }.compactMap { finding in
            finding.fixes.flatMap(\.commands).lazy.compactMap { command in
                command.split(separator: " ").first { $0.hasPrefix("-only-testing:") }
                    .map { String($0.dropFirst("-only-testing:".count)).trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
            }.first
        }
    }

    func testXcode26TestNodesGiveOneFindingPerFailingTestWithItsIdentifier() throws {
        let d = try diagnose(fixture("tests-xcode26-failed.json"))
        XCTAssertEqual(d.status, .failed)
        XCTAssertEqual(identifiers(d), [
            "ExamplesTests/XCTestTests/test_failure",
            "ExamplesTests/XCTestTests/test_throwing",
            "ExamplesTests/ExampleSUITests/throwing()",
            "ExamplesTests/ExampleSUITests/failure()",
            "ExamplesTests/ExampleSUITests/flackyParameterized(value:)",
        ])
        let swiftTesting = try XCTUnwrap(d.causes.first { $0.rule == "swift-testing-result-bundle-failure" })
        XCTAssertEqual(swiftTesting.location?.file, "Calculator.swift")
        XCTAssertEqual(swiftTesting.location?.line, 26)
        XCTAssertTrue(swiftTesting.fixes.flatMap(\.commands).contains { $0.hasSuffix("-only-testing:'ExamplesTests/ExampleSUITests/throwing()'") })
        let first = try XCTUnwrap(d.causes.first)
        XCTAssertEqual(first.captures["message"], "failed - Expected 5.0 but got 6.0")
        XCTAssertEqual(first.location?.file, "XCTestTests.swift")
        XCTAssertEqual(first.location?.line, 21)
        // A flaky test that passed on retry, an expected failure and a skipped test are not failures.
        let messages = d.findings.map(\.message).joined(separator: "\n")
        XCTAssertFalse(messages.contains("flacky failure"), messages)
        XCTAssertFalse(messages.contains("test_expectedFailure"), messages)
        XCTAssertFalse(messages.contains("test_skip"), messages)
    }

    func testPassingTestNodesArePassed() throws {
        let d = try diagnose(fixture("tests-xcode26-passed.json"))
        XCTAssertEqual(d.status, .passed)
        XCTAssertTrue(d.findings.isEmpty, "\(d.findings.map(\.message))")
    }

    func testLegacyRecordGivesOneFindingPerFailingTestWithTargetSuiteAndOneBasedLine() throws {
        let d = try diagnose(fixture("legacy-failed.json"))
        XCTAssertEqual(d.status, .failed)
        XCTAssertEqual(identifiers(d), [
            "E2ETests/AuthorizationTests/test_guest_can_login_in_russia_with_lithuania_phone",
            "E2ETests/AuthorizationTests/test_guest_can_login_in_russia_with_estonia_phone",
        ])
        let first = try XCTUnwrap(d.causes.first)
        XCTAssertEqual(first.location?.file, "/Users/build-machine/actions-runner/_work/dodo-mobile-ios/dodo-mobile-ios/DodoPizza/E2ETests/Pages/GenericPages/AuthorizationPage.swift")
        XCTAssertEqual(first.location?.line, 80, "StartingLineNumber is zero-based")
    }

    func testLegacyPassingRecordIsPassed() throws {
        let d = try diagnose(fixture("legacy-passed.json"))
        XCTAssertEqual(d.status, .passed)
        XCTAssertTrue(d.findings.isEmpty)
    }

    func testBuildResultsGiveFindingsWithCleanFilePaths() throws {
        let d = try diagnose(fixture("build-results-failed.json"))
        XCTAssertEqual(d.status, .failed)
        let compile = try XCTUnwrap(d.findings.first { $0.rule == "compile-error" })
        XCTAssertEqual(compile.message, "Cannot find 'formatter' in scope")
        XCTAssertEqual(compile.location?.file, "/Users/dev/Shop/Sources/Cart View/CartView.swift")
        XCTAssertEqual(compile.location?.line, 42)
        XCTAssertEqual(compile.location?.column, 9)
        XCTAssertTrue(d.findings.contains { $0.rule == "failed-step" && $0.role == .cause })
        // A deprecation warning is no error.
        XCTAssertFalse(d.findings.contains { $0.severity == .error && $0.message.contains("deprecated") })
        let sarif = Report.render(d, format: .sarif, options: ReportOptions(color: false, redactor: .off, workspaceRoot: nil, toolVersion: "test"))
        XCTAssertTrue(sarif.contains("file:///Users/dev/Shop/Sources/Cart%20View/CartView.swift"), sarif)
        XCTAssertFalse(sarif.contains("StartingLineNumber"), sarif)
    }

    func testDetectionIsByContentNotName() throws {
        let renamed = directory.appendingPathComponent("results.log")
        try FileManager.default.copyItem(atPath: fixture("legacy-failed.json"), toPath: renamed.path)
        XCTAssertEqual(identifiers(try diagnose(renamed.path)).count, 2)
        // Other JSON is read as the text it is.
        let other = directory.appendingPathComponent("other.json")
        try Data(#"{"name": "x", "errors": ["error: something broke"]}"#.utf8).write(to: other)
        let source = try LogInput.open(other.path)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0.baseAddress!, count: $0.count) }
        XCTAssertEqual(String(decoding: buffer[0..<n], as: UTF8.self), #"{"name": "x", "errors": ["error: something broke"]}"#)
    }

    func testJSONOverTheLimitIsRefusedWithAClearError() throws {
        XCTAssertThrowsError(try LogInput.open(fixture("tests-xcode26-failed.json"), jsonLimit: 4096)) { error in
            let message = String(describing: error)
            XCTAssertTrue(message.contains("xcresulttool JSON larger than"), message)
        }
    }

    func testTestResultsSummaryShape() throws {
        let summary = directory.appendingPathComponent("summary.json")
        try Data("""
        {"devices":[],"failedTests":1,"result":"Failed","testFailures":[{"failureText":"XCTAssertEqual failed: (\\"1\\") is not equal to (\\"2\\")","targetName":"AppTests","testIdentifier":1,"testIdentifierString":"LoginTests/testLogin()","testName":"testLogin()"}],"totalTestCount":3}
        """.utf8).write(to: summary)
        let d = try diagnose(summary.path)
        XCTAssertEqual(identifiers(d), ["AppTests/LoginTests/testLogin"])
    }

    func testAFailureWithoutAFileHasNoLocation() throws {
        let json = directory.appendingPathComponent("crash.json")
        try Data("""
        {"devices":[],"testNodes":[{"name":"Plan","nodeType":"Test Plan","result":"Failed","children":[{"name":"AppUITests","nodeType":"UI test bundle","result":"Failed","children":[{"name":"LoginUITests","nodeType":"Test Suite","result":"Failed","children":[{"name":"testLogin()","nodeType":"Test Case","result":"Failed","children":[{"name":"Crash: AppUITests-Runner (4242) at -[LoginUITests testLogin]","nodeType":"Failure Message"}]}]}]}]}]}
        """.utf8).write(to: json)
        let d = try diagnose(json.path)
        XCTAssertEqual(identifiers(d), ["AppUITests/LoginUITests/testLogin"])
        XCTAssertNil(d.causes.first?.location)
    }

    // MARK: - Result bundles

    private func bundle() throws -> String {
        let path = directory.appendingPathComponent("Run.xcresult")
        try FileManager.default.createDirectory(at: path.appendingPathComponent("Data"), withIntermediateDirectories: true)
        try Data("<plist/>".utf8).write(to: path.appendingPathComponent("Info.plist"))
        return path.path
    }

    /// A stub `xcrun` on PATH: prints the fixture for each command it knows, fails on the others
    /// (as an Xcode before 16 fails on `test-results`), and logs its arguments.
    private func stubXcrun(newCommands: Bool) throws -> String {
        let bin = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let log = directory.appendingPathComponent("xcrun.log").path
        let script = """
        #!/bin/sh
        echo "$*" >> '\(log)'
        case "$*" in
          "xcresulttool get build-results --path "*) \(newCommands ? "cat '\(fixture("build-results-failed.json"))'" : "echo 'Error: unknown subcommand' >&2; exit 64") ;;
          "xcresulttool get test-results tests --path "*) \(newCommands ? "cat '\(fixture("tests-xcode26-failed.json"))'" : "echo 'Error: unknown subcommand' >&2; exit 64") ;;
          "xcresulttool get --legacy --path "*) echo "Error: Unknown option '--legacy'" >&2; exit 64 ;;
          "xcresulttool get --path "*) cat '\(fixture("legacy-failed.json"))' ;;
          *) echo "unexpected: $*" >&2; exit 1 ;;
        esac
        """
        let stub = bin.appendingPathComponent("xcrun")
        try Data(script.utf8).write(to: stub)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stub.path)
        return bin.path
    }

    private func withPath<T>(_ bin: String, _ body: () throws -> T) rethrows -> T {
        let old = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        setenv("PATH", "\(bin):\(old)", 1)
        defer { setenv("PATH", old, 1) }
        return try body()
    }

    func testABundleOnMacOSReadsBuildAndTestResults() throws {
        let path = try bundle()
        let bin = try stubXcrun(newCommands: true)
        let d = try withPath(bin) { try diagnose(path, hasXcresulttool: true) }
        XCTAssertEqual(identifiers(d).count, 5)
        XCTAssertTrue(d.findings.contains { $0.rule == "compile-error" })
        let calls = try String(contentsOfFile: directory.appendingPathComponent("xcrun.log").path, encoding: .utf8)
        XCTAssertEqual(calls.split(separator: "\n").map { $0.components(separatedBy: " --path ").first ?? "" },
                       ["xcresulttool get build-results", "xcresulttool get test-results tests"])
    }

    func testABundleFromAnOlderXcodeFallsBackToTheLegacyRecord() throws {
        let path = try bundle()
        let bin = try stubXcrun(newCommands: false)
        let d = try withPath(bin) { try diagnose(path, hasXcresulttool: true) }
        XCTAssertEqual(identifiers(d).count, 2)
        let calls = try String(contentsOfFile: directory.appendingPathComponent("xcrun.log").path, encoding: .utf8)
        XCTAssertEqual(calls.split(separator: "\n").count, 4, calls)
    }

    func testABundleWithoutXcresulttoolIsAOneLineError() throws {
        let path = try bundle()
        XCTAssertThrowsError(try LogInput.open(path, hasXcresulttool: false)) { error in
            let message = String(describing: error)
            XCTAssertTrue(message.hasPrefix("\(path): is an Xcode result bundle"), message)
            XCTAssertTrue(message.contains("xcresulttool get test-results tests"), message)
            XCTAssertFalse(message.contains("\n"))
        }
        XCTAssertEqual(try LogInput.expand([path]), [path], "a bundle is not searched for activity logs")
    }
}
