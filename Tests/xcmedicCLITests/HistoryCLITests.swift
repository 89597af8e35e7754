import Foundation
import XCTest
import XCMedicTestSupport

/// `scan --record` and `history`, run as a user runs them: the real binary, real logs, a real store.
final class HistoryCLITests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = Scratch.url("xcmedic-history-cli")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func log(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private var environment: [String: String] {
        var env = RawCLI.cleanEnvironment
        for name in ["XCMEDIC_HISTORY", "JENKINS_URL", "PGPASSWORD", "PGUSER", "PGHOST"] { env.removeValue(forKey: name) }
        return env
    }

    private func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    private func causeHistory(_ report: [String: Any]) throws -> [String: Any] {
        let findings = try XCTUnwrap(report["findings"] as? [[String: Any]])
        return try XCTUnwrap(findings.compactMap { $0["history"] as? [String: Any] }.first, "no finding has history: \(report)")
    }

    static func missingModule(_ workspace: String, line: Int) -> String {
        """
        CompileSwift normal arm64 \(workspace)/Sources/App/App.swift (in target 'App' from project 'App')
        \(workspace)/Sources/App/App.swift:\(line):8: error: no such module 'Alamofire'
        ** BUILD FAILED **

        """
    }

    static let failingTest = """
        Test Case '-[AppTests.LoginTests testLogin]' started.
        /Users/runner/work/app/app/Tests/AppTests/LoginTests.swift:21: error: -[AppTests.LoginTests testLogin] : XCTAssertEqual failed: ("1") is not equal to ("2")
        Test Case '-[AppTests.LoginTests testLogin]' failed (0.012 seconds).
        ** TEST FAILED **

        """

    static let passing = "Test Case '-[AppTests.LoginTests testLogin]' passed (0.004 seconds).\n** TEST SUCCEEDED **\n"

    /// The "Done when" session: two failing builds with the same cause on different commits are
    /// recurring with first seen; a test failing then passing on one commit is flaky; `history` answers.
    private func session(store: String, environment: [String: String], secret: String? = nil) throws {
        func scan(_ logText: String, _ name: String, commit: String, build: String, time: String, format: String = "json") throws -> CLI.Result {
            let path = try log(name, logText)
            let result = try CLI.run(["scan", "--record", store, path, "--format", format, "--repository", "acme/app", "--branch", "main",
                                      "--commit", commit, "--build-id", build, "--build-time", time], environment: environment)
            XCTAssertEqual(result.stderr, "", "recording must be silent when it works")
            if let secret { XCTAssertFalse((result.stdout + result.stderr).contains(secret)) }
            return result
        }

        let first = try scan(Self.missingModule("/Users/runner/work/app/app", line: 3), "b1.log", commit: "aaaaaaa1111", build: "1", time: "2026-11-18T10:00:00Z")
        XCTAssertEqual(first.status, 1, "a failed build still exits 1")
        let h1 = try causeHistory(try json(first.stdout))
        XCTAssertEqual(h1["recurring"] as? Bool, false)
        XCTAssertEqual(h1["newInThisBuild"] as? Bool, true)

        let second = try scan(Self.missingModule("/Volumes/workspace/repository", line: 9), "b2.log", commit: "bbbbbbb2222", build: "2", time: "2026-11-18T11:00:00Z")
        XCTAssertEqual(second.status, 1)
        let h2 = try causeHistory(try json(second.stdout))
        XCTAssertEqual(h2["recurring"] as? Bool, true)
        XCTAssertEqual(h2["fingerprint"] as? String, h1["fingerprint"] as? String)
        let firstSeen = try XCTUnwrap(h2["firstSeen"] as? [String: Any])
        XCTAssertEqual(firstSeen["commit"] as? String, "aaaaaaa1111")
        XCTAssertEqual(firstSeen["label"] as? String, "#1")
        XCTAssertEqual(firstSeen["time"] as? String, "2026-11-18T10:00:00Z")
        XCTAssertEqual(h2["buildsWithCause"] as? Int, 2)

        // The same facts in the text report.
        let text = try scan(Self.missingModule("/tmp/other", line: 1), "b3.log", commit: "bbbbbbb2222", build: "3", time: "2026-11-18T11:30:00Z", format: "text")
        XCTAssertTrue(text.stdout.contains("recurring since #1 (aaaaaaa on main, 2026-11-18) · in 3 of the last 3 builds on main"), text.stdout)

        // A test fails, then passes on the same commit: flaky.
        XCTAssertEqual(try scan(Self.failingTest, "t1.log", commit: "ccccccc3333", build: "4", time: "2026-11-18T12:00:00Z").status, 1)
        let pass = try scan(Self.passing, "t2.log", commit: "ccccccc3333", build: "5", time: "2026-11-18T12:30:00Z", format: "text")
        XCTAssertEqual(pass.status, 0)
        XCTAssertTrue(pass.stdout.contains("flaky: LoginTests/testLogin failed in 1 earlier build of this commit and passed now"), pass.stdout)

        func history(_ arguments: [String]) throws -> CLI.Result {
            let result = try CLI.run(["history"] + arguments + ["--store", store], environment: environment)
            XCTAssertEqual(result.status, 0, result.stderr)
            if let secret { XCTAssertFalse((result.stdout + result.stderr).contains(secret)) }
            return result
        }
        let flaky = try json(try history(["flaky", "--since", "2026-11-01", "--format", "json"]).stdout)
        let tests = try XCTUnwrap(flaky["tests"] as? [[String: Any]])
        XCTAssertEqual(tests.count, 1)
        XCTAssertEqual(tests.first?["test"] as? String, "LoginTests/testLogin")
        XCTAssertEqual(tests.first?["flakyCommits"] as? Int, 1)
        XCTAssertEqual(tests.first?["flipRate"] as? Double, 1.0)

        let top = try json(try history(["--since", "2026-11-01", "--format", "json"]).stdout)
        XCTAssertEqual(top["builds"] as? Int, 5)
        XCTAssertEqual(top["failedBuilds"] as? Int, 4)
        let causes = try XCTUnwrap(top["causes"] as? [[String: Any]])
        XCTAssertEqual(causes.map { $0["builds"] as? Int }, [3, 1])
        let fingerprint = try XCTUnwrap(causes.first?["fingerprint"] as? String)

        let markdown = try history(["top", "--since", "2026-11-01", "--format", "markdown"]).stdout
        XCTAssertTrue(markdown.hasPrefix("## Top causes of failed builds"), markdown)
        XCTAssertTrue(markdown.contains("| 3 | 60.0% |"), markdown)

        let new = try json(try history(["new", "--since", "bbbbbbb", "--format", "json"]).stdout)
        XCTAssertEqual((new["causes"] as? [[String: Any]])?.map { $0["subject"] as? String }, ["test=LoginTests/testLogin"])

        let show = try history(["show", String(fingerprint.prefix(8))]).stdout
        XCTAssertTrue(show.contains("In 3 recorded builds"), show)
        XCTAssertTrue(show.contains("aaaaaaa1111"), show)

        let export = try history(["--since", "2026-11-01", "--export", "ndjson"]).stdout
        XCTAssertEqual(export.split(separator: "\n").count, 5)

        let prune = try history(["prune", "--older-than", "2026-11-18T11:45:00Z"]).stdout
        XCTAssertTrue(prune.hasPrefix("pruned 3 builds recorded before 2026-11-18T11:45:00Z"), prune)
        let after = try json(try history(["--since", "2026-11-01", "--format", "json"]).stdout)
        XCTAssertEqual(after["builds"] as? Int, 2)
    }

    func testDoneWhenSessionWithSQLite() throws {
        try session(store: directory.appendingPathComponent("history.sqlite").path, environment: environment)
    }

    /// The same session against a real PostgreSQL server gives the same answers; the password is
    /// given by PGPASSWORD and never printed.
    func testDoneWhenSessionWithPostgreSQL() throws {
        try Self.withPostgresDatabase(environment: environment) { store, env, password in
            try session(store: store, environment: env, secret: password)
        }
    }

    /// A fresh database on the server XCMEDIC_TEST_POSTGRES_URL names (skipped without one), dropped after
    /// `body`; `body` gets its URL without the password and an environment with PGPASSWORD.
    static func withPostgresDatabase(environment: [String: String],
                                     _ body: (_ store: String, _ environment: [String: String], _ password: String) throws -> Void) throws {
        guard let base = ProcessInfo.processInfo.environment["XCMEDIC_TEST_POSTGRES_URL"], !base.isEmpty else {
            throw XCTSkip("XCMEDIC_TEST_POSTGRES_URL is not set (.ci/run starts a PostgreSQL server and sets it)")
        }
        var components = try XCTUnwrap(URLComponents(string: base))
        let password = try XCTUnwrap(components.password)
        let database = "xcmedic_cli_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        components.password = nil
        var env = environment
        env["PGPASSWORD"] = password
        let server = components
        let psql = { (sql: String) throws -> Void in
            let r = try CLI.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", server.string!, "-c", sql], environment: env,
                                executable: URL(fileURLWithPath: "/usr/bin/env"))
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        try psql("CREATE DATABASE \(database)")
        defer { try? psql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        components.path = "/" + database
        try body(components.string!, env, password)
    }

    /// A store that cannot be used: the same report on standard output, the same exit status, one warning.
    func testAStoreThatCannotBeUsedChangesNothingButAWarning() throws {
        let path = try log("b.log", Self.missingModule("/tmp/w", line: 2))
        let plain = try CLI.run(["scan", path, "--format", "json"], environment: environment)
        let blocker = directory.appendingPathComponent("not-a-folder")
        try "x".write(to: blocker, atomically: true, encoding: .utf8)
        let stores = [blocker.appendingPathComponent("history.sqlite").path, "postgres://ci:Hunter2Secret@127.0.0.1:1/x?sslmode=disable"]
        for store in stores {
            let recorded = try CLI.run(["scan", "--record", store, path, "--format", "json"], environment: environment)
            XCTAssertEqual(recorded.status, plain.status)
            XCTAssertEqual(recorded.stdout, plain.stdout)
            XCTAssertTrue(recorded.stderr.hasPrefix("xcmedic: warning: history not recorded in "), recorded.stderr)
            XCTAssertEqual(recorded.stderr.split(separator: "\n").count, 1, recorded.stderr)
            XCTAssertFalse(recorded.stderr.contains("Hunter2Secret"), recorded.stderr)
        }
    }

    /// `--record` alone uses XCMEDIC_HISTORY, else `.xcmedic/history.sqlite` in the folder (outside a
    /// repository); the word after it is a log unless it names a store.
    func testRecordWithoutAStoreUsesTheDefault() throws {
        let path = try log("b.log", Self.missingModule("/tmp/w", line: 2))
        let result = try CLI.run(["scan", "--record", path, "--format", "json"], environment: environment, cwd: directory)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent(".xcmedic/history.sqlite").path))
        var env = environment
        let custom = directory.appendingPathComponent("custom.sqlite").path
        env["XCMEDIC_HISTORY"] = custom
        XCTAssertEqual(try CLI.run(["scan", path, "--record"], environment: env, cwd: directory).status, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: custom))
        let listed = try CLI.run(["history", "--format", "json"], environment: env, cwd: directory)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("\"builds\" : 1"), listed.stdout)
    }

    func testUsageErrorsExit2WithOneLine() throws {
        let path = try log("b.log", Self.passing)
        let cases: [[String]] = [
            ["scan", path, "--branch", "main"],
            ["history", "--store", directory.appendingPathComponent("none.sqlite").path],
            ["history", "--since", "soon", "--store", directory.appendingPathComponent("none.sqlite").path],
            ["history", "prune", "--older-than", "later"],
            ["scan", "--record", "mysql://db/x", path, "--build-time", "yesterday"],
        ]
        for arguments in cases {
            let r = try CLI.run(arguments, environment: environment, cwd: directory)
            XCTAssertEqual(r.status, 2, "\(arguments): \(r.stdout) \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(arguments): \(r.stderr)")
        }
    }
}
