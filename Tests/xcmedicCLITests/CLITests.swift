import Foundation
import XCTest

/// Runs the built `xcmedic` binary as a user would.
enum CLI {
    /// The `xcmedic` built beside the test bundle (`.build/<triple>/<config>/`).
    static var binary: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 where !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("xcmedic").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("xcmedic")
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    @discardableResult
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil, cwd: URL? = nil,
                    executable: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable ?? binary
        process.arguments = arguments
        process.currentDirectoryURL = cwd ?? repositoryRoot
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(stdin)
            try input.fileHandleForWriting.close()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

}

final class ScanCLITests: XCTestCase {
    func testShippedExampleNamesMacroAndPackageAndExitsOne() throws {
        let result = try CLI.run(["scan", "--no-config", "Examples/macro-trust-failure.log"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stdout.contains(#"Macro "CasePathsMacros" from package "swift-case-paths""#), result.stdout)
        XCTAssertTrue(result.stdout.contains("xcmedic ci-scripts --macro swift-case-paths:CasePathsMacros"), result.stdout)
    }

    func testStdinGivesTheSameFindingsAsTheFile() throws {
        let path = CLI.repositoryRoot.appendingPathComponent("Examples/macro-trust-failure.log")
        let fromFile = try CLI.run(["scan", "--no-config", "--format", "json", path.path])
        let fromStdin = try CLI.run(["scan", "--no-config", "--format", "json"], stdin: try Data(contentsOf: path))
        func findings(_ json: String) throws -> [[String: AnyHashable]] {
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
            return (object["findings"] as! [[String: Any]]).map { f in
                ["rule": f["rule"] as! String, "captures": f["captures"] as! [String: String], "lines": (f["occurrences"] as! [[String: Any]]).map { $0["line"] as! Int }]
            }
        }
        XCTAssertEqual(try findings(fromFile.stdout), try findings(fromStdin.stdout))
        XCTAssertEqual(fromStdin.status, 1)
    }

    func testCleanLogExitsZero() throws {
        let log = "Building for debugging...\n[1/2] Compiling App main.swift\nBuild complete! (1.2s)\n"
        let result = try CLI.run(["scan", "--no-config", "-"], stdin: Data(log.utf8))
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertTrue(result.stdout.contains("passed"), result.stdout)
    }

    func testMissingFileIsOneLineAndExitTwo() throws {
        let result = try CLI.run(["scan", "no/such/build.log"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "xcmedic: no/such/build.log: no such file\n")
    }

    func testUnknownOptionExitsTwo() throws {
        let result = try CLI.run(["scan", "--no-such-option"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }

    func testExplainUnknownIDSuggestsTheNearest() throws {
        let result = try CLI.run(["explain", "macro-not-trustd"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("did you mean 'macro-not-trusted'"), result.stderr)
    }
}
