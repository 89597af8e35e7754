import Foundation
import XCTest

/// The promises of docs/security.md that are about the code itself: no network (but the PostgreSQL
/// history store the user names), and the only programs
/// xcmedic starts are git and the user's own bisect command (gzip is read in-process with zlib).
final class SecurityPromiseTests: XCTestCase {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Swift files of the package with the embedded built-in catalog left out (its rule texts, generated
    /// from Catalog/*.yml, quote messages such as "type 'URLSession' has no member"): file path relative
    /// to Sources → lines.
    func code() throws -> [(String, [Substring])] {
        let files = FileManager.default.enumerator(atPath: Self.sources.path)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && $0 != "XCMedicKit/Catalog/CompiledCatalog.swift" }.sorted()
        XCTAssertGreaterThan(files.count, 20)
        return try files.map { ($0, try String(contentsOf: Self.sources.appendingPathComponent($0), encoding: .utf8).split(separator: "\n")) }
    }

    func testNoNetworkAPIs() throws {
        let network = ["URLSession", "URLRequest", "NWConnection", "NWListener", "CFSocket", "CFStream", "socket(", "connect(",
                       "getaddrinfo", "gethostbyname", "Data(contentsOf: URL(string", "String(contentsOf: URL(string", "curl", "wget"]
        var hits: [String] = []
        for (file, lines) in try code() {
            for (n, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for word in network where line.contains(word) {
                    // The redactor knows the shape of `curl -u user:password` in a log; it runs no curl.
                    if file == "XCMedicKit/Report/SecretShapes.swift", word == "curl", line.contains(#"Shape("curl user""#) { continue }
                    hits.append("\(file):\(n + 1): \(word)")
                }
            }
        }
        // The one exception: the PostgreSQL history store, connected to only when the user names a
        // postgres:// URL (`scan --record`, `history --store`, XCMEDIC_HISTORY).
        let allowed = hits.filter {
            ($0.hasPrefix("XCMedicHistory/SQLBackend.swift:") || $0.hasPrefix("XCMedicHistory/HistoryStore.swift:")) && $0.hasSuffix(": connect(")
        }
        XCTAssertEqual(allowed.count, 3, "\(hits)")
        XCTAssertEqual(hits.filter { !allowed.contains($0) }, [])
    }

    /// Every place that starts a process, and what it starts.
    func testOnlyGitAndTheBisectCommandAreStarted() throws {
        var spawns: [String] = []
        for (file, lines) in try code() {
            for line in lines where line.contains("Process()") || line.contains("ChildProcess.run(") || line.contains("posix_spawn(")
                || line.contains("posix_spawnp(") || line.contains("execv") || line.contains("system(") || line.contains("popen(") {
                spawns.append("\(file): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        XCTAssertEqual(Set(spawns), [
            // `git bisect run` with `xcmedic bisect-step` as the step.
            #"XCMedicKit/Bisect/Bisector.swift: exit = try ChildProcess.run(["git", "-C", config.repository, "bisect", "run"] + step, run)"#,
            // The user's own command, at each bisect step.
            "XCMedicKit/Bisect/BisectStep.swift: let exit = try ChildProcess.run(config.command, options)",
            // The one place that spawns, used by the two above and by Git.
            "XCMedicKit/Bisect/ChildProcess.swift: let spawned = posix_spawn(&pid, spawnPath, &actions, &attributes, argv, envp)",
            "XCMedicKit/Bisect/Git.swift: let exit = try ChildProcess.run(",
            // The watcher of a long-running child: /bin/sh reading a pipe, which ends the child's process
            // group if xcmedic dies (its script is checked below).
            #"XCMedicKit/Bisect/ChildProcess.swift: let spawned = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, envp)"#,
            // xcmedic-history, the history store's executable: `scan --record` runs its `record`, and
            // `xcmedic history …` becomes it (the tool is found by HistoryTool.locate, checked below).
            #"XCMedicKit/History/HistoryTool.swift: exit = try ChildProcess.run([tool, "record"], options)"#,
            "XCMedicKit/Bisect/ChildProcess.swift: execv(program, argv)",
            // On macOS, `xcrun xcresulttool get …` for an .xcresult bundle the user names (checked below).
            "XCMedicKit/Log/XCResult/XCResultBundle.swift: let exit = try ChildProcess.run(arguments, ChildProcess.Options(outputPath: output, errorPath: errors, timeout: 600, interruptible: false))",
        ])
        let bundle = try String(contentsOf: Self.sources.appendingPathComponent("XCMedicKit/Log/XCResult/XCResultBundle.swift"), encoding: .utf8)
        XCTAssertTrue(bundle.contains(#"let tool = ["xcrun", "xcresulttool"]"#))
        XCTAssertEqual(bundle.components(separatedBy: "try run(tool + ").count - 1, 2, "every command is xcrun xcresulttool")
        let git = try String(contentsOf: Self.sources.appendingPathComponent("XCMedicKit/Bisect/Git.swift"), encoding: .utf8)
        XCTAssertTrue(git.contains(#"["git", "-C", directory] + arguments"#))
        let child = try String(contentsOf: Self.sources.appendingPathComponent("XCMedicKit/Bisect/ChildProcess.swift"), encoding: .utf8)
        XCTAssertTrue(child.contains(##"let script = #"read done || { kill -TERM "-$1" 2>/dev/null; sleep 2; kill -KILL "-$1" 2>/dev/null; }"#"##))
        let history = try String(contentsOf: Self.sources.appendingPathComponent("XCMedicKit/History/HistoryTool.swift"), encoding: .utf8)
        XCTAssertTrue(history.contains(#"case .success(let tool): return ChildProcess.replaceProcess(with: [tool] + arguments)"#))
        XCTAssertTrue(history.contains(#"public static let name = "xcmedic-history""#))
        // A .gz log is decompressed by zlib inside xcmedic.
        let gzip = try String(contentsOf: Self.sources.appendingPathComponent("XCMedicKit/Log/GzipInflater.swift"), encoding: .utf8)
        XCTAssertTrue(gzip.contains("inflate(stream, Z_NO_FLUSH)"))
    }

    /// Redaction runs on what reports print, never on every log line: the scan (Log, Scan, Catalog) does not
    /// call it; the report layer (ReportText, the renderers, bisect's report) and the CLI's messages do.
    func testRedactionRunsOnlyWhereReportsArePrinted() throws {
        var callers = Set<String>()
        for (file, lines) in try code() where lines.contains(where: { $0.contains("redact(") || $0.contains("redactLines(") || $0.contains("SecretShapes.") }) {
            callers.insert(file)
        }
        XCTAssertEqual(callers.filter { $0.hasPrefix("XCMedicKit/Log/") || $0.hasPrefix("XCMedicKit/Scan/") || $0.hasPrefix("XCMedicKit/Catalog/") }, [])
        // The renderers read the diagnosis through ReportContext, which prepares it with ReportText; what
        // `scan --record` stores is redacted when it is made (BuildRecord, in the scanning process), what
        // xcmedic-history says is redacted before it is printed (HistoryTool), and the history report
        // redacts what it prints.
        XCTAssertEqual(callers, [
            "XCMedicKit/Report/Redactor.swift", "XCMedicKit/Report/SecretShapes.swift", "XCMedicKit/Report/ReportText.swift",
            "XCMedicKit/History/BuildIdentity.swift", "XCMedicKit/History/BuildRecord.swift", "XCMedicKit/History/HistoryTool.swift",
            "XCMedicHistory/HistoryReport.swift", "XCMedicKit/Bisect/BisectReport.swift", "xcmedic/BisectCommand.swift",
        ])
    }

    /// YAML is read with Yams' basic resolver: no custom tags, no object construction from a rules file.
    func testRulesYAMLUsesTheBasicResolver() throws {
        let loader = try String(contentsOf: Self.sources.appendingPathComponent("XCMedicKit/Catalog/RuleLoader.swift"), encoding: .utf8)
        XCTAssertTrue(loader.contains("Yams.compose(yaml: yaml, .basic)"))
        XCTAssertFalse(loader.contains("YAMLDecoder"))
    }
}
