import Foundation
import XCTest
import XCMedicTestSupport

/// `xcmedic scan` on Xcode's own activity logs, written here from the documented SLF grammar.
final class ActivityLogCLITests: XCTestCase {
    /// SLF as Xcode writes it: `SLF0`, a version, then values (see XCLogParser's "Xcactivitylog Format").
    private struct SLF {
        var text = "SLF0"
        var classes: [String] = []
        mutating func i(_ v: Int) { text += "\(v)#" }
        mutating func s(_ v: String) { text += "\(v.utf8.count)\"\(v)" }
        mutating func null() { text += "-" }
        mutating func time() { text += "00000080ed3ec741^" }
        mutating func object(_ name: String) {
            if !classes.contains(name) { classes.append(name); text += "\(name.utf8.count)%\(name)" }
            text += "\(classes.firstIndex(of: name)! + 1)@"
        }
        mutating func open(_ title: String, subsections: Int) {
            object("IDEActivityLogSection"); i(0); s("Xcode.IDEActivityLogDomainType.BuildLog"); s(title); s(title); time(); time()
            if subsections > 0 { text += "\(subsections)(" } else { null() }
        }
        /// Text, messages `(title, file URL or nil, zero-based line, column)`, then the section's other fields.
        mutating func close(text output: String, messages: [(String, String?, Int, Int)]) {
            s(output)
            if messages.isEmpty { null() } else { text += "\(messages.count)(" }
            for (title, url, line, column) in messages {
                object("IDEDiagnosticActivityLogMessage"); s(title); s(title); i(0); i(0); i(0); null(); i(2); s("Swift Compiler Error")
                if let url {
                    object("DVTTextDocumentLocation"); s(url); time(); i(line); i(column); i(line); i(column); i(0); i(0); i(0)
                } else { null() }
                s(""); null(); s("")
            }
            i(0); i(0); i(0); s(""); null(); s(""); s(""); s("Failed"); s("")
        }
    }

    private let swiftError = "main actor-isolated static property 'shared' can not be referenced from a nonisolated context"
    private let macro = #"Macro "CasePathsMacros" from package "swift-case-paths" must be enabled before it can be used"#

    private func failingBuild() -> Data {
        var slf = SLF()
        slf.i(10)
        slf.open("Build App", subsections: 2)
        slf.open("Run custom shell script '[CP] Check Pods Manifest.lock'", subsections: 0)
        slf.close(text: "error: The sandbox is not in sync with the Podfile.lock. Run 'pod install' or update your CocoaPods installation.\n",
                  messages: [("Command PhaseScriptExecution failed with a nonzero exit code", nil, 0, 0)])
        slf.open("Compile Model.swift (arm64)", subsections: 0)
        slf.close(text: "", messages: [(swiftError, "file:///Volumes/workspace/repository/App/Model%20Layer/Model.swift", 11, 4)])
        slf.close(text: "", messages: [(macro, nil, 0, 0)])
        return Data(slf.text.utf8)
    }

    private var directory: URL!

    override func setUpWithError() throws {
        directory = Scratch.url("xcmedic-activity")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes the log gzip-compressed, as Xcode stores it, under `DerivedData/App-x/Logs/Build`.
    private func writeActivityLog(_ data: Data, name: String = "A1B2C3.xcactivitylog") throws -> URL {
        let logs = directory.appendingPathComponent("DerivedData/App-x/Logs/Build")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let plain = directory.appendingPathComponent("plain.slf")
        try data.write(to: plain)
        let target = logs.appendingPathComponent(name)
        let gzip = try CLI.run(["/bin/sh", "-c", "gzip -c '\(plain.path)' > '\(target.path)'"], executable: URL(fileURLWithPath: "/usr/bin/env"))
        XCTAssertEqual(gzip.status, 0, gzip.stderr)
        return target
    }

    func testScanNamesTheCausesWithTheirSourceFilesNeverSLFTokens() throws {
        let log = try writeActivityLog(failingBuild())
        let text = try CLI.run(["scan", "--no-config", "--color", "never", log.path])
        XCTAssertEqual(text.status, 1, text.stderr)
        XCTAssertTrue(text.stdout.contains(#"Macro "CasePathsMacros" from package "swift-case-paths""#), text.stdout)
        XCTAssertTrue(text.stdout.contains("/Volumes/workspace/repository/App/Model Layer/Model.swift:12"), text.stdout)
        XCTAssertFalse(text.stdout.contains("IDEActivityLog"), text.stdout)
        XCTAssertFalse(text.stdout.contains("SLF0"), text.stdout)

        let github = try CLI.run(["scan", "--no-config", "--format", "github", log.path])
        XCTAssertTrue(github.stdout.contains("file=/Volumes/workspace/repository/App/Model Layer/Model.swift,line=12,col=5"), github.stdout)
        XCTAssertFalse(github.stdout.contains("%22IDE"), github.stdout)
    }

    func testAFolderIsScannedThroughItsActivityLogs() throws {
        _ = try writeActivityLog(failingBuild())
        let result = try CLI.run(["scan", "--no-config", "--format", "json", directory.appendingPathComponent("DerivedData").path])
        XCTAssertEqual(result.status, 1, result.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let inputs = try XCTUnwrap(json["inputs"] as? [[String: Any]])
        XCTAssertEqual(inputs.compactMap { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }, ["A1B2C3.xcactivitylog"])

        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try CLI.run(["scan", "--no-config", empty.path])
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.stderr.contains("no .xcactivitylog files"), none.stderr)
    }

    func testATruncatedActivityLogIsOneLineAndExitTwo() throws {
        let whole = try writeActivityLog(failingBuild())
        let bytes = try Data(contentsOf: whole)
        let cut = directory.appendingPathComponent("cut.xcactivitylog")
        try bytes.prefix(bytes.count - 20).write(to: cut)
        let result = try CLI.run(["scan", "--no-config", cut.path])
        XCTAssertEqual(result.status, 2, result.stdout)
        XCTAssertEqual(result.stdout, "")
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("\(cut.path): gzip stream is truncated: it ends at byte \(bytes.count - 20)"), result.stderr)
    }

    /// Inputs are read one after the other and each is closed when read: 1,000 logs with 256 open files allowed.
    func testAThousandLogsScanWithinTwoHundredFiftySixOpenFiles() throws {
        let first = try writeActivityLog(failingBuild())
        let folder = first.deletingLastPathComponent()
        for i in 1..<1000 {
            try FileManager.default.copyItem(at: first, to: folder.appendingPathComponent("log-\(i).xcactivitylog"))
        }
        let binary = CLI.binary.path
        let result = try CLI.run(["/bin/sh", "-c", "ulimit -n 256 && exec '\(binary)' scan --no-config --format json '\(folder.path)'"],
                                 executable: URL(fileURLWithPath: "/usr/bin/env"))
        XCTAssertEqual(result.status, 1, result.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((json["inputs"] as? [Any])?.count, 1000)
    }
}
