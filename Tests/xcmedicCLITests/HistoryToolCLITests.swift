import Foundation
import XCMedicHistory
import XCMedicKit
import XCTest
import XCMedicTestSupport

/// `xcmedic` links no store: `scan --record` and `history` run `xcmedic-history`. The tool missing,
/// hanging, crashing or answering nonsense never changes a scan; `history` passes everything through;
/// the facts that come back are those recording in-process gives.
final class HistoryToolCLITests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = Scratch.url("xcmedic-history-tool")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private var environment: [String: String] {
        var env = RawCLI.cleanEnvironment
        for name in ["XCMEDIC_HISTORY", "XCMEDIC_HISTORY_TOOL", "XCMEDIC_HISTORY_TIMEOUT", "JENKINS_URL", "PGPASSWORD", "PGUSER", "PGHOST"] {
            env.removeValue(forKey: name)
        }
        return env
    }

    private func file(_ name: String, _ text: String, executable: Bool = false) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
        return url.path
    }

    /// A stand-in for xcmedic-history: a shell script.
    private func stub(_ body: String) throws -> String {
        try file("stub-\(UUID().uuidString.prefix(8))", "#!/bin/sh\n" + body + "\n", executable: true)
    }

    /// `scan --record` with `env`: the same report and exit status as the scan alone, and exactly one line on
    /// standard error, the warning, which is returned.
    private func assertRecordingIsOnlyAWarning(_ env: [String: String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let log = try self.file("b.log", HistoryCLITests.missingModule("/tmp/w", line: 2))
        let store = directory.appendingPathComponent("history.sqlite").path
        let plain = try CLI.run(["scan", log, "--format", "json"], environment: env)
        let recorded = try CLI.run(["scan", "--record", store, log, "--format", "json"], environment: env)
        XCTAssertEqual(recorded.status, plain.status, file: file, line: line)
        XCTAssertEqual(plain.status, 1, file: file, line: line)
        XCTAssertEqual(recorded.stdout, plain.stdout, file: file, line: line)
        XCTAssertTrue(recorded.stderr.hasPrefix("xcmedic: warning: history not recorded in \(store): "), recorded.stderr, file: file, line: line)
        XCTAssertEqual(recorded.stderr.split(separator: "\n").count, 1, recorded.stderr, file: file, line: line)
        return recorded.stderr
    }

    func testScanRecordWithTheToolMissingWarnsAndReportsAsWithout() throws {
        var env = environment
        env["XCMEDIC_HISTORY_TOOL"] = directory.appendingPathComponent("no-such-tool").path
        let warning = try assertRecordingIsOnlyAWarning(env)
        XCTAssertTrue(warning.contains("XCMEDIC_HISTORY_TOOL=") && warning.contains("is not an executable file"), warning)
    }

    /// An xcmedic installed alone (no xcmedic-history beside it, none on PATH).
    func testAnXcmedicInstalledAloneWarnsOnRecordAndHistoryExits2() throws {
        let alone = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        let binary = alone.appendingPathComponent("xcmedic")
        try FileManager.default.copyItem(at: CLI.binary, to: binary)
        var env = environment
        env["PATH"] = "/usr/bin:/bin"
        let log = try file("b.log", HistoryCLITests.missingModule("/tmp/w", line: 2))
        let plain = try CLI.run(["scan", log, "--format", "json"], environment: env, executable: binary)
        let recorded = try CLI.run(["scan", "--record", directory.appendingPathComponent("h.sqlite").path, log, "--format", "json"],
                                   environment: env, executable: binary)
        XCTAssertEqual(recorded.status, plain.status)
        XCTAssertEqual(recorded.stdout, plain.stdout)
        XCTAssertTrue(recorded.stderr.hasPrefix("xcmedic: warning: history not recorded in "), recorded.stderr)
        XCTAssertTrue(recorded.stderr.contains("xcmedic-history was not found beside \(binary.path) or on PATH"), recorded.stderr)
        XCTAssertEqual(recorded.stderr.split(separator: "\n").count, 1, recorded.stderr)

        for arguments in [["history"], ["history", "flaky", "--since", "3d"], ["history", "--help"]] {
            let r = try CLI.run(arguments, environment: env, executable: binary)
            XCTAssertEqual(r.status, 2, "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stdout, "")
            XCTAssertTrue(r.stderr.hasPrefix("xcmedic: history: xcmedic-history was not found"), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
    }

    /// A tool that never answers is ended (its whole process group) after 5 s + 6 × XCMEDIC_HISTORY_TIMEOUT.
    func testAToolThatHangsIsEndedAndTheScanGoesOn() throws {
        let pidFile = directory.appendingPathComponent("stub.pid").path
        var env = environment
        env["XCMEDIC_HISTORY_TOOL"] = try stub("echo $$ > '\(pidFile)'\nsleep 300")
        env["XCMEDIC_HISTORY_TIMEOUT"] = "0.1"
        let start = Date()
        let warning = try assertRecordingIsOnlyAWarning(env)
        XCTAssertLessThan(Date().timeIntervalSince(start), 60)
        XCTAssertTrue(warning.contains("xcmedic-history gave no answer within 6s and was ended"), warning)
        let pid = try XCTUnwrap(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertNotEqual(kill(pid, 0), 0, "the hung tool is still running")
    }

    func testAToolThatCrashesOrAnswersNonsenseIsAWarning() throws {
        var env = environment
        env["XCMEDIC_HISTORY_TOOL"] = try stub("cat > /dev/null\necho 'Fatal error: oops' >&2\nkill -SEGV $$")
        XCTAssertTrue(try assertRecordingIsOnlyAWarning(env).contains("xcmedic-history was ended by signal 11: Fatal error: oops"))
        let secret = "ghp_" + String(repeating: "Zx9q", count: 9)
        env["XCMEDIC_HISTORY_TOOL"] = try stub("cat > /dev/null\necho 'no store here, token \(secret)' >&2\nexit 3")
        let exited = try assertRecordingIsOnlyAWarning(env)
        XCTAssertTrue(exited.contains("xcmedic-history exited with status 3: no store here, token "), exited)
        XCTAssertFalse(exited.contains(secret), "what the tool says is redacted: \(exited)")
        env["XCMEDIC_HISTORY_TOOL"] = try stub("cat > /dev/null\necho '{\"schema\":\"xcmedic.history.facts/99\"}'")
        XCTAssertTrue(try assertRecordingIsOnlyAWarning(env).contains("gave no answer this xcmedic understands"))
    }

    /// What xcmedic hands over: the request on standard input (redacted), the store in XCMEDIC_HISTORY.
    func testTheRequestIsRedactedAndCarriesTheStoreInTheEnvironment() throws {
        let seen = directory.appendingPathComponent("request.json").path, storeSeen = directory.appendingPathComponent("store.txt").path
        var env = environment
        env["XCMEDIC_HISTORY_TOOL"] = try stub("cat > '\(seen)'\nprintf '%s' \"$XCMEDIC_HISTORY\" > '\(storeSeen)'\nexit 1")
        let secret = "ghp_" + String(repeating: "a1B2", count: 9)
        let log = try file("s.log", "error: push to https://x-access-token:\(secret)@github.com/acme/app.git failed\n** BUILD FAILED **\n")
        let store = "postgres://ci:Hunter2Secret@127.0.0.1:1/x"
        let r = try CLI.run(["scan", "--record", store, log, "--branch", "feature/\(secret)"], environment: env)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertFalse(r.stderr.contains("Hunter2Secret"), r.stderr)
        let request = try String(contentsOfFile: seen, encoding: .utf8)
        XCTAssertTrue(request.contains(#""schema":"xcmedic.history.record/1""#), request)
        XCTAssertFalse(request.contains(secret), request)
        XCTAssertFalse(request.contains("Hunter2Secret"), request)
        XCTAssertEqual(try String(contentsOfFile: storeSeen, encoding: .utf8), store)
    }

    /// `xcmedic history …` is the tool with the same arguments, standard streams and exit status.
    func testHistoryPassesArgumentsStreamsAndStatusThrough() throws {
        var env = environment
        env["XCMEDIC_HISTORY_TOOL"] = try stub("for a in \"$@\"; do echo \"arg:$a\"; done\nread line\necho \"in:$line\"\necho 'to stderr' >&2\nexit 7")
        let r = try CLI.run(["history", "flaky", "--since", "3 d", "--format", "json"], stdin: Data("piped\n".utf8), environment: env)
        XCTAssertEqual(r.status, 7)
        XCTAssertEqual(r.stdout, "arg:flaky\narg:--since\narg:3 d\narg:--format\narg:json\nin:piped\n")
        XCTAssertEqual(r.stderr, "to stderr\n")
        let help = try CLI.run(["help", "history"], environment: env)
        XCTAssertEqual(help.stdout, "arg:help\nin:\n")
    }

    /// `xcmedic --help` still lists history; `xcmedic history --help` is the tool's, naming every subcommand.
    func testHistoryIsListedAndItsHelpIsTheTools() throws {
        XCTAssertTrue(try CLI.run(["--help"], environment: environment).stdout.contains("history"))
        let help = try CLI.run(["history", "--help"], environment: environment)
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(help.stdout.contains("USAGE: xcmedic history <subcommand>"), help.stdout)
        for name in ["top", "new", "flaky", "show", "prune"] { XCTAssertTrue(help.stdout.contains("  \(name) "), help.stdout) }
        XCTAssertFalse(help.stdout.contains("  record "), "the internal subcommand is not listed: \(help.stdout)")
        let top = try CLI.run(["help", "history", "top"], environment: environment)
        XCTAssertTrue(top.stdout.contains("USAGE: xcmedic history top"), top.stdout)
    }

    // MARK: - The facts come back as recording in-process gives them

    private static let builds: [(log: String, commit: String, id: String, time: String)] = [
        (HistoryCLITests.missingModule("/Users/runner/work/app/app", line: 3), "aaaaaaa1111", "1", "2026-11-18T10:00:00Z"),
        (HistoryCLITests.missingModule("/Volumes/workspace/repository", line: 9), "bbbbbbb2222", "2", "2026-11-18T11:00:00Z"),
        (HistoryCLITests.failingTest, "ccccccc3333", "3", "2026-11-18T12:00:00Z"),
        (HistoryCLITests.passing, "ccccccc3333", "4", "2026-11-18T12:30:00Z"),
        (HistoryCLITests.failingTest, "ccccccc3333", "5", "2026-11-18T13:00:00Z"),
    ]

    /// The history parts of a JSON report (the store's name aside, which differs by design).
    private func facts(_ json: String) throws -> String {
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
        var build = try XCTUnwrap(report["history"] as? [String: Any], json)
        build["store"] = nil
        let causes = (report["findings"] as? [[String: Any]] ?? []).map { $0["history"] ?? NSNull() }
        let data = try JSONSerialization.data(withJSONObject: ["build": build, "causes": causes], options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    private func roundTrip(store: String, environment env: [String: String]) throws {
        let reference = StoreLocation.sqlite(path: directory.appendingPathComponent("in-process.sqlite").path)
        let scanner = { try Scanner(ruleSet: RuleSet(rules: Catalog.rules(userFiles: [], autoConfig: false))) }
        var sawRecurring = false, sawFlaky = false
        for (n, build) in Self.builds.enumerated() {
            let log = try file("r\(n).log", build.log)
            let cli = try CLI.run(["scan", "--record", store, log, "--format", "json", "--no-config", "--repository", "acme/app", "--branch", "main",
                                   "--commit", build.commit, "--build-id", build.id, "--build-time", build.time], environment: env)
            XCTAssertEqual(cli.stderr, "")

            let s = try scanner()
            try s.scan(path: log)
            let identity = BuildIdentity(repository: "acme/app", branch: "main", commit: build.commit, time: HistoryDates.parse(build.time)!)
                .overriding(buildID: build.id)
            let diagnosis = HistoryRecorder.record(s.finish(), to: reference, as: identity, window: 20, toolVersion: ToolInfo.version, timeout: 10) {
                XCTFail($0)
            }
            let inProcess = Report.render(diagnosis, format: .json, options: ReportOptions(toolVersion: ToolInfo.version))
            XCTAssertEqual(try facts(cli.stdout), try facts(inProcess), "build \(build.id)")
            sawRecurring = sawRecurring || cli.stdout.contains(#""recurring" : true"#)
            sawFlaky = sawFlaky || cli.stdout.contains(#""flaky" : {"#) || cli.stdout.contains(#""passedAfterFailing" : ["#)
        }
        XCTAssertTrue(sawRecurring && sawFlaky, "the session has a recurring cause and a flaky test")
    }

    func testFactsRoundTripThroughTheToolAsInProcessWithSQLite() throws {
        try roundTrip(store: directory.appendingPathComponent("cli.sqlite").path, environment: environment)
    }

    func testFactsRoundTripThroughTheToolAsInProcessWithPostgreSQL() throws {
        try HistoryCLITests.withPostgresDatabase(environment: environment) { store, env, _ in
            try roundTrip(store: store, environment: env)
        }
    }
}
