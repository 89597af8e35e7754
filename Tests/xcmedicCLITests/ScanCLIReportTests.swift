import Foundation
import XCTest
import XCMedicTestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Runs the binary with raw bytes in and out: `CLI.run` decodes output as UTF-8, which would hide a
/// changed byte. Standard input is written from another thread so a large log cannot deadlock against
/// `--tee` filling the output pipe.
enum RawCLI {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = CLI.repositoryRoot
        process.environment = environment ?? cleanEnvironment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        let writer = Thread {
            if let stdin { try? input.fileHandleForWriting.write(contentsOf: stdin) }
            try? input.fileHandleForWriting.close()
        }
        if stdin != nil { writer.start() }
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: outData, stderr: errData)
    }

    /// The test process's environment without the variables that would switch formats (a test run on
    /// GitHub Actions must behave as one anywhere else).
    static var cleanEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        for name in ["GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "GITHUB_WORKSPACE", "CI_XCODE_CLOUD", "BITRISE_IO", "GITLAB_CI",
                     "BUILDKITE", "CIRCLECI", "NO_COLOR"] {
            env.removeValue(forKey: name)
        }
        return env
    }
}

final class ScanCLITeeTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = Scratch.url("xcmedic-tee")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A failing log with CRLF line ends, a lone CR, bytes that are not UTF-8, NUL bytes, an ANSI colour
    /// sequence and no final newline.
    static let awkwardLog: Data = {
        var bytes = Array("Compiling App\r\n".utf8)
        bytes += Array("/src/App/Model.swift:3:5: error: cannot find 'thing' in scope\r\n".utf8)
        bytes += [0xFF, 0xFE, 0x00, 0x41, 0xC3, 0x28, 0x0D] // invalid UTF-8, NUL, a lone CR
        bytes += Array("\u{1B}[31mred\u{1B}[0m\n".utf8)
        bytes += Array("** BUILD FAILED **".utf8) // no final newline
        return Data(bytes)
    }()

    func testTeeCopiesStandardInputByteForByteAndExitsWithTheScansStatus() throws {
        let result = try RawCLI.run(["scan", "--no-config", "--tee"], stdin: Self.awkwardLog)
        XCTAssertEqual(result.stdout, Self.awkwardLog)
        XCTAssertEqual(result.status, 1, result.stderrText)
        XCTAssertTrue(result.stderrText.contains("cannot find 'thing' in scope"), "the diagnosis goes to stderr: \(result.stderrText)")
    }

    func testTeeCopiesFilesAndLargeInputsUnchanged() throws {
        // 3 MB: several reads and chunks, more than any pipe buffer.
        var big = Data()
        let line = Data("Compiling file number with some padding text to make the line longer than usual\r\n".utf8)
        while big.count < 3_000_000 { big.append(line) }
        big.append(Self.awkwardLog)
        let file = directory.appendingPathComponent("build.log")
        try big.write(to: file)
        let fromFile = try RawCLI.run(["scan", "--no-config", "--tee", file.path])
        XCTAssertEqual(fromFile.stdout.count, big.count)
        XCTAssertTrue(fromFile.stdout == big, "file input copied unchanged")
        XCTAssertEqual(fromFile.status, 1)
        let fromStdin = try RawCLI.run(["scan", "--no-config", "--tee"], stdin: big)
        XCTAssertTrue(fromStdin.stdout == big, "stdin copied unchanged")
    }

    func testTeeOnACleanLogExitsZero() throws {
        let log = Data("Building for debugging...\r\nBuild complete! (1.2s)".utf8)
        let result = try RawCLI.run(["scan", "--no-config", "--tee"], stdin: log)
        XCTAssertEqual(result.stdout, log)
        XCTAssertEqual(result.status, 0, result.stderrText)
    }

    /// A log with no build result (a message pasted alone, a log cut before its end) in which nothing xcmedic knows
    /// failed is not green: the report says so, shows where the log stops (not the commands a step ran, secrets cut),
    /// and the scan exits 3. In pipe mode the command's own status decides, so it exits 0; `--fail-on never` too.
    func testALogWithNoBuildResultIsNotReportedGreen() throws {
        let log = directory.appendingPathComponent("cut.log")
        try Data(("Exporting ipa with ExportOptions.plist\n    cd /Users/ci/App\nexport-method specified: app-store\n"
            + "password=hunter2secret\ntarget not found: ED093619217F8FAE00822AB5").utf8).write(to: log)
        let text = try CLI.run(["scan", "--no-config", "--color", "never", log.path], environment: ["COLUMNS": "200"])
        XCTAssertEqual(text.status, 3, text.stderr)
        XCTAssertFalse(text.stdout.contains("No failures found"), text.stdout)
        XCTAssertTrue(text.stdout.contains("No line in the log says the build passed"), text.stdout)
        let shown = text.stdout.components(separatedBy: "It ends with:\n").last ?? ""
        XCTAssertEqual(shown, "   │ Exporting ipa with ExportOptions.plist\n   │ export-method specified: app-store\n"
            + "   │ password=[REDACTED]\n   │ target not found: ED093619217F8FAE00822AB5\n")
        let markdown = try CLI.run(["scan", "--no-config", "--format", "markdown", log.path])
        XCTAssertEqual(markdown.status, 3, markdown.stderr)
        XCTAssertTrue(markdown.stdout.contains("ends with:\n\n```text\nExporting ipa"), markdown.stdout)
        XCTAssertFalse(markdown.stdout.contains("hunter2secret"), markdown.stdout)
        XCTAssertEqual(try CLI.run(["scan", "--no-config", "--fail-on", "never", log.path]).status, 0)
        let piped = try RawCLI.run(["scan", "--no-config", "--tee"], stdin: try Data(contentsOf: log))
        XCTAssertEqual(piped.status, 0, piped.stderrText)
        XCTAssertTrue(piped.stderrText.contains("target not found"), piped.stderrText)
        // A failure it knows, or a build that says it passed, keeps its own status.
        let failed = directory.appendingPathComponent("failed.log")
        try Data("main.swift:1:1: error: cannot find 'x' in scope\n".utf8).write(to: failed)
        XCTAssertEqual(try CLI.run(["scan", "--no-config", failed.path]).status, 1)
        let passed = directory.appendingPathComponent("passed.log")
        try Data("Building for debugging...\nBuild complete! (1.2s)\n".utf8).write(to: passed)
        let green = try CLI.run(["scan", "--no-config", passed.path])
        XCTAssertEqual(green.status, 0, green.stdout)
        XCTAssertTrue(green.stdout.contains("No failures found."), green.stdout)
    }

    func testTeeWithReportWritesTheChosenFormatToTheFileAndNothingToStderr() throws {
        let report = directory.appendingPathComponent("report.sarif")
        let result = try RawCLI.run(["scan", "--no-config", "--tee", "--format", "sarif", "--report", report.path], stdin: Self.awkwardLog)
        XCTAssertEqual(result.stdout, Self.awkwardLog)
        XCTAssertEqual(result.stderr, Data(), result.stderrText)
        XCTAssertEqual(result.status, 1)
        let sarif = try JSONSerialization.jsonObject(with: try Data(contentsOf: report)) as? [String: Any]
        XCTAssertEqual(sarif?["version"] as? String, "2.1.0")
    }

    func testBrokenPipeDownstreamEndsQuietly() throws {
        var big = Data()
        let line = Data("/src/App/Model.swift:3:5: error: cannot find 'thing' in scope\n".utf8)
        while big.count < 4_000_000 { big.append(line) }
        let file = directory.appendingPathComponent("big.log")
        try big.write(to: file)
        let script = "'\(CLI.binary.path)' scan --no-config --tee '\(file.path)' | head -1"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.environment = RawCLI.cleanEnvironment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(String(decoding: outData, as: UTF8.self), "/src/App/Model.swift:3:5: error: cannot find 'thing' in scope\n")
        XCTAssertEqual(String(decoding: errData, as: UTF8.self), "", "no message, no stack trace, no report")
        XCTAssertEqual(process.terminationStatus, 0, "the pipeline's status is head's")

        // xcmedic's own status, as `set -o pipefail` would see it.
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["-c", script + "; echo \"status=${PIPESTATUS[0]}\" >&2"]
        bash.environment = RawCLI.cleanEnvironment
        let bashErr = Pipe()
        bash.standardOutput = FileHandle.nullDevice
        bash.standardError = bashErr
        try bash.run()
        let statusLine = String(decoding: bashErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bash.waitUntilExit()
        XCTAssertEqual(statusLine, "status=141\n")
    }

    func testBrokenPipeIsAnExitNotADeathBySignal() throws {
        var big = Data()
        let line = Data("Compiling file number with some padding text\n".utf8)
        while big.count < 4_000_000 { big.append(line) }
        let file = directory.appendingPathComponent("big.log")
        try big.write(to: file)
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["scan", "--no-config", "--tee", file.path]
        process.environment = RawCLI.cleanEnvironment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        XCTAssertFalse(out.fileHandleForReading.readData(ofLength: 100).isEmpty)
        try out.fileHandleForReading.close() // the reader goes away, as `head` does
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit, "SIGPIPE is ignored; EPIPE ends xcmedic")
        XCTAssertEqual(process.terminationStatus, 141)
        XCTAssertEqual(String(decoding: errData, as: UTF8.self), "")
    }

    func testReportOverTheLogBeingScannedIsRefused() throws {
        let file = directory.appendingPathComponent("build.log")
        try Self.awkwardLog.write(to: file)
        let result = try RawCLI.run(["scan", "--no-config", "--report", file.path, file.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderrText.split(separator: "\n").count, 1, result.stderrText)
        XCTAssertEqual(try Data(contentsOf: file), Self.awkwardLog, "the log is untouched")
    }

    func testReportIntoAMissingDirectoryIsAUsageError() throws {
        let result = try RawCLI.run(["scan", "--no-config", "--report", directory.appendingPathComponent("no/such/r.xml").path],
                                    stdin: Self.awkwardLog)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderrText.hasPrefix("xcmedic: --report "), result.stderrText)
    }
}

final class ScanCLIFormatTests: XCTestCase {
    func testOnGitHubActionsAutoAnnotatesAndAppendsTheJobSummary() throws {
        let directory = Scratch.url("xcmedic-gh")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let summary = directory.appendingPathComponent("step_summary.md")
        try Data("## Earlier step\n".utf8).write(to: summary)
        var env = RawCLI.cleanEnvironment
        env["GITHUB_ACTIONS"] = "true"
        env["GITHUB_WORKSPACE"] = "/Users/runner/work/app/app"
        env["GITHUB_STEP_SUMMARY"] = summary.path
        let log = "/Users/runner/work/app/app/Sources/App/Model.swift:3:5: error: cannot find 'thing' in scope\n** BUILD FAILED **\n"
        let result = try RawCLI.run(["scan", "--no-config"], stdin: Data(log.utf8), environment: env)
        XCTAssertEqual(result.status, 1)
        let stdout = String(decoding: result.stdout, as: UTF8.self)
        XCTAssertTrue(stdout.hasPrefix("::error file=Sources/App/Model.swift,line=3,col=5,title=Compile error::cannot find 'thing' in scope%0A"), stdout)
        let written = try String(contentsOf: summary, encoding: .utf8)
        XCTAssertTrue(written.hasPrefix("## Earlier step\n## ❌ xcmedic: the build failed\n"), "appended, not replaced: \(written)")
        XCTAssertTrue(written.contains("`Sources/App/Model.swift:3:5`"), written)
    }

    func testWithoutGitHubActionsAutoIsPlainText() throws {
        let result = try RawCLI.run(["scan", "--no-config"], stdin: Data("/src/A.swift:1:1: error: boom\n".utf8))
        let stdout = String(decoding: result.stdout, as: UTF8.self)
        XCTAssertTrue(stdout.hasPrefix("xcmedic: the build failed"), stdout)
        XCTAssertFalse(stdout.contains("\u{1B}["), "no colour when not on a terminal")
    }

    func testJUnitFromTheCommandLineParses() throws {
        let log = "/src/A.swift:1:1: error: boom & <bang>\n** BUILD FAILED **\n"
        let result = try RawCLI.run(["scan", "--no-config", "--format", "junit"], stdin: Data(log.utf8))
        XCTAssertEqual(result.status, 1)
        let document = try XMLDocument(data: result.stdout, options: [])
        let cases = try document.nodes(forXPath: "//testcase/@name").map { $0.stringValue ?? "" }
        XCTAssertEqual(cases, ["boom & <bang>"])
    }

    func testUnknownFormatIsAUsageError() throws {
        let result = try RawCLI.run(["scan", "--format", "html"], stdin: Data())
        XCTAssertEqual(result.status, 2)
    }
}
