import Foundation
import XCTest
import XCMedicTestSupport

/// `xcmedic scan` on xcresulttool's JSON (a file or standard input) and on a result bundle.
final class XCResultCLITests: XCTestCase {
    static let fixtures = CLI.repositoryRoot.appendingPathComponent("Tests/XCMedicKitTests/Fixtures/xcresult")

    func testJSONOnStandardInputGivesOneCausePerFailingTest() throws {
        let data = try Data(contentsOf: XCResultCLITests.fixtures.appendingPathComponent("tests-xcode26-failed.json"))
        let result = try CLI.run(["scan", "--no-config", "--format", "json", "-"], stdin: data)
        XCTAssertEqual(result.status, 1, result.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["status"] as? String, "failed")
        let causes = (json["findings"] as? [[String: Any]] ?? []).filter { $0["role"] as? String == "cause" }
        XCTAssertEqual(causes.count, 5)
    }

    func testPassingJSONExitsZero() throws {
        let result = try CLI.run(["scan", "--no-config", XCResultCLITests.fixtures.appendingPathComponent("legacy-passed.json").path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }

    #if !os(macOS)
    func testABundleOnLinuxIsOneLineAndExitTwo() throws {
        let bundle = Scratch.url("cli").appendingPathComponent("Run.xcresult")
        try FileManager.default.createDirectory(at: bundle.appendingPathComponent("Data"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bundle.deletingLastPathComponent()) }
        try Data("<plist/>".utf8).write(to: bundle.appendingPathComponent("Info.plist"))
        let result = try CLI.run(["scan", "--no-config", bundle.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("is an Xcode result bundle"), result.stderr)
        XCTAssertTrue(result.stderr.contains("xcresulttool get test-results tests"), result.stderr)
    }
    #endif
}
