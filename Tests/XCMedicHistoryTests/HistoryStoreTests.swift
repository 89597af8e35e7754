import Foundation
import XCTest
@testable import XCMedicHistory
@testable import XCMedicKit

/// What the store must answer, whatever database is behind it. `SQLiteHistoryStoreTests` and
/// `PostgresHistoryStoreTests` run every one of these.
struct StoreBehaviour {
    var location: StoreLocation
    let t0 = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18

    func at(_ hours: Double) -> Date { t0.addingTimeInterval(hours * 3600) }

    func open() throws -> HistoryStore {
        let location = self.location
        return try Blocking.run { try await HistoryStore.open(location) }
    }

    func close(_ store: HistoryStore) { _ = try? Blocking.run { await store.close() } }

    @discardableResult
    func record(_ store: HistoryStore, _ log: String, commit: String, branch: String = "main", build: String, hours: Double,
                repository: String = "acme/app", attempt: Int = 1) throws -> Diagnosis {
        let diagnosis = try HistoryLogs.diagnosis(log)
        let identity = BuildIdentity(service: "github-actions", repository: repository, branch: branch, commit: commit, job: "CI/test",
                                     buildID: build, buildNumber: build, attempt: attempt, time: at(hours))
        return try Blocking.run { try await store.record(diagnosis, as: identity) }
    }

    func cause(_ d: Diagnosis) throws -> Finding {
        try XCTUnwrap(d.findings.first { $0.history != nil }, "no finding got history facts")
    }

    /// Two failing builds with the same cause on different commits (and runners): recurring, first
    /// seen in the first; a cause after a passing build is new again.
    func recurringCause() throws {
        let store = try open()
        defer { close(store) }
        let first = try record(store, HistoryLogs.missingModule(workspace: "/Users/runner/work/app/app", line: 3), commit: "aaaaaaa1111", build: "100", hours: 0)
        let f1 = try cause(first)
        XCTAssertEqual(f1.rule, try cause(first).rule)
        XCTAssertFalse(try XCTUnwrap(f1.history).recurring)
        XCTAssertTrue(f1.history!.newInThisBuild)
        XCTAssertEqual(f1.history!.buildsWithCause, 1)

        let second = try record(store, HistoryLogs.missingModule(workspace: "/Volumes/workspace/repository", line: 5), commit: "bbbbbbb2222", build: "101", hours: 1)
        let h2 = try XCTUnwrap(try cause(second).history)
        XCTAssertEqual(h2.fingerprint, f1.history!.fingerprint, "the path and line moved; the cause did not")
        XCTAssertTrue(h2.recurring)
        XCTAssertEqual(h2.firstSeen.commit, "aaaaaaa1111")
        XCTAssertEqual(h2.firstSeen.label, "#100")
        XCTAssertEqual(h2.firstSeen.time, at(0))
        XCTAssertFalse(h2.newInThisBuild, "the build before had it")
        XCTAssertEqual(h2.buildsWithCause, 2)
        XCTAssertEqual(h2.recentBuilds, 2)
        XCTAssertTrue(h2.text.contains("recurring since #100 (aaaaaaa on main, 2026-11-18)"), h2.text)

        let green = try record(store, HistoryLogs.passing, commit: "ccccccc3333", build: "102", hours: 2)
        XCTAssertEqual(green.history?.build.label, "#102")
        let third = try record(store, HistoryLogs.missingModule(), commit: "ddddddd4444", build: "103", hours: 3)
        let h3 = try XCTUnwrap(try cause(third).history)
        XCTAssertTrue(h3.recurring)
        XCTAssertTrue(h3.newInThisBuild, "no build since the last passing one had it")
        XCTAssertEqual(h3.buildsWithCause, 3)
        XCTAssertEqual(h3.recentBuilds, 4)

        // Another branch's builds do not count on this one; the first seen is the repository's.
        let other = try record(store, HistoryLogs.missingModule(), commit: "eeeeeee5555", branch: "feature", build: "104", hours: 4)
        let h4 = try XCTUnwrap(try cause(other).history)
        XCTAssertEqual(h4.recentBuilds, 1)
        XCTAssertEqual(h4.buildsWithCause, 1)
        XCTAssertEqual(h4.firstSeen.label, "#100")
        XCTAssertTrue(h4.newInThisBuild)
    }

    /// A test failing then passing on one commit is flaky; its assertion's text does not split it in two.
    func flakyTest() throws {
        let store = try open()
        defer { close(store) }
        let failed = try record(store, HistoryLogs.failingTest(value: 2), commit: "f00dfeed01", build: "200", hours: 0)
        XCTAssertNil(try cause(failed).history?.flaky, "one failure is not flaky")
        let passed = try record(store, HistoryLogs.passing, commit: "f00dfeed01", build: "200", hours: 0.5, attempt: 2)
        XCTAssertEqual(passed.history?.passedAfterFailing, [FlakyEvidence(test: "LoginTests/testLogin", commit: "f00dfeed01", failed: 1, passed: 1)])
        let again = try record(store, HistoryLogs.failingTest(value: 7), commit: "f00dfeed01", build: "200", hours: 1, attempt: 3)
        let h = try XCTUnwrap(try cause(again).history)
        XCTAssertEqual(h.flaky, FlakyEvidence(test: "LoginTests/testLogin", commit: "f00dfeed01", failed: 2, passed: 1))
        XCTAssertTrue(h.recurring)

        // A test that stays broken on successive commits is not flaky.
        try record(store, HistoryLogs.failingTest(), commit: "0ddba11001", build: "300", hours: 0, repository: "acme/other")
        try record(store, HistoryLogs.failingTest(), commit: "0ddba11002", build: "301", hours: 1, repository: "acme/other")

        let since = at(-1)
        let flaky = try Blocking.run { try await store.flakyTests(HistoryScope(since: since)) }
        XCTAssertEqual(flaky.tests.count, 1, "\(flaky.tests)")
        let t = try XCTUnwrap(flaky.tests.first)
        XCTAssertEqual(t.repository, "acme/app")
        XCTAssertEqual(t.test, "LoginTests/testLogin")
        XCTAssertEqual(t.failures, 2)
        XCTAssertEqual(t.passes, 1)
        XCTAssertEqual(t.flips, 2)
        XCTAssertEqual(t.flipRate, 1.0)
        XCTAssertEqual(t.flakyCommits, 1)
    }

    /// `history`: top causes, new since a commit or a date, one cause's timeline, export, prune.
    func queries() throws {
        let store = try open()
        defer { close(store) }
        try record(store, HistoryLogs.missingModule(), commit: "1111111aaaa", build: "1", hours: 0)
        try record(store, HistoryLogs.missingModule(), commit: "2222222bbbb", build: "2", hours: 1)
        try record(store, HistoryLogs.failingTest(), commit: "2222222bbbb", build: "3", hours: 2)
        try record(store, HistoryLogs.passing, commit: "3333333cccc", build: "4", hours: 3)
        try record(store, HistoryLogs.missingModule() + "\n" + HistoryLogs.failingTest(), commit: "4444444dddd", build: "5", hours: 4)

        let scope = HistoryScope(since: at(-1), repository: "acme/app")
        let top = try Blocking.run { try await store.topCauses(scope) }
        XCTAssertEqual(top.builds, 5)
        XCTAssertEqual(top.failedBuilds, 4)
        XCTAssertEqual(top.causes.map(\.builds), [3, 2])
        XCTAssertEqual(top.causes.first?.firstBuild?.label, "#1")
        XCTAssertTrue(top.causes[0].subject.contains("Alamofire"), top.causes[0].subject)
        XCTAssertEqual(top.causes[1].subject, "test=LoginTests/testLogin")

        // Only the window counts.
        let late = try Blocking.run { try await store.topCauses(HistoryScope(since: self.at(2.5))) }
        XCTAssertEqual(late.builds, 2)
        XCTAssertEqual(late.causes.map(\.builds), [1, 1])

        let commitTime = try Blocking.run { try await store.lastBuildTime(atCommit: "1111111", repository: "acme/app") }
        XCTAssertEqual(commitTime, at(0))
        let new = try Blocking.run { try await store.newCauses(since: "1111111", after: commitTime!, repository: "acme/app") }
        XCTAssertEqual(new.causes.map(\.subject), ["test=LoginTests/testLogin"])
        XCTAssertEqual(new.causes.first?.firstBuild?.label, "#3")
        let none = try Blocking.run { try await store.newCauses(since: "x", after: self.at(2), repository: "acme/app") }
        XCTAssertEqual(none.causes, [])
        let unknown = try Blocking.run { try await store.lastBuildTime(atCommit: "9999", repository: "") }
        XCTAssertNil(unknown)

        let fingerprint = top.causes[0].fingerprint
        let timeline = try Blocking.run { try await store.timeline(String(fingerprint.prefix(6)), limit: 2) }
        XCTAssertEqual(timeline.cause.fingerprint, fingerprint)
        XCTAssertEqual(timeline.cause.builds, 3)
        XCTAssertEqual(timeline.entries.map(\.build.label), ["#5", "#2"])
        XCTAssertEqual(timeline.entries.first?.status, "failed")
        XCTAssertThrowsError(try Blocking.run { try await store.timeline("ffffffffffff") })

        let lines = LinesBox()
        let count = try Blocking.run { try await store.exportNDJSON(HistoryScope(since: self.at(-1))) { lines.append($0) } }
        XCTAssertEqual(count, 5)
        let records = try lines.values.map { try JSONDecoder().decode(ExportRecord.self, from: Data($0.utf8)) }
        XCTAssertEqual(records.map(\.build.number), ["1", "2", "3", "4", "5"])
        XCTAssertEqual(records.map(\.failures.count), [1, 1, 1, 0, 2])
        XCTAssertEqual(records[0].schema, ExportRecord.schemaName)
        XCTAssertEqual(records[3].build.status, "passed")
        XCTAssertEqual(records[2].failures.first?.test, "LoginTests/testLogin")
        XCTAssertTrue(lines.values.allSatisfy { $0.hasSuffix("\n") && !$0.dropLast().contains("\n") })

        let pruned = try Blocking.run { try await store.prune(olderThan: self.at(1.5)) }
        XCTAssertEqual(pruned, 2)
        let after = try Blocking.run { try await store.topCauses(HistoryScope(since: self.at(-1))) }
        XCTAssertEqual(after.builds, 3)
        XCTAssertEqual(after.causes.first?.subject, "test=LoginTests/testLogin")
        XCTAssertEqual(after.causes.map(\.builds), [2, 1], "the test keeps builds #3 and #5, the module only #5")
    }

    /// Recording one CI run again replaces it; a local scan (no build id) is always a new build.
    func rerecordingReplaces() throws {
        let store = try open()
        defer { close(store) }
        try record(store, HistoryLogs.missingModule(), commit: "abc", build: "7", hours: 0)
        let again = try record(store, HistoryLogs.missingModule(), commit: "abc", build: "7", hours: 0)
        XCTAssertEqual(try cause(again).history?.buildsWithCause, 1)
        XCTAssertEqual(try cause(again).history?.recentBuilds, 1)
        let diagnosis = try HistoryLogs.diagnosis(HistoryLogs.missingModule())
        for _ in 0..<2 {
            _ = try Blocking.run { try await store.record(diagnosis, as: BuildIdentity(repository: "acme/app", branch: "main", time: self.at(1))) }
        }
        let top = try Blocking.run { try await store.topCauses(HistoryScope(since: self.at(-1))) }
        XCTAssertEqual(top.builds, 3)
    }

    /// Secrets in a message never reach the store.
    func secretsAreRedacted() throws {
        let store = try open()
        defer { close(store) }
        let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
        let log = "/Users/runner/work/app/app/Sources/Odd.swift:7:1: error: fetching with \(token) was refused\n** BUILD FAILED **\n"
        let identity = BuildIdentity(repository: "https://x-access-token:\(token)@github.com/acme/app.git", branch: "main", commit: "abc", time: at(0))
        let diagnosis = try HistoryLogs.diagnosis(log)
        _ = try Blocking.run { try await store.record(diagnosis, as: identity) }
        let rows = try Blocking.run {
            try await store.backend.execute("SELECT f.message, f.subject, f.fingerprint, b.repository FROM findings f JOIN builds b ON b.id = f.build_id")
        }
        XCTAssertEqual(rows.count, 1)
        let stored = rows[0].map { $0.text ?? "" }.joined(separator: " | ")
        XCTAssertFalse(stored.contains(token), stored)
        XCTAssertTrue(stored.contains("[REDACTED]"), stored)
        XCTAssertTrue(stored.contains("github.com/acme/app.git"), stored)
    }

    /// Many jobs recording at once: every build is stored once.
    func concurrentWriters() throws {
        let location = self.location
        let diagnosis = try HistoryLogs.diagnosis(HistoryLogs.missingModule() + "\n" + HistoryLogs.failingTest())
        let base = t0
        try Blocking.run {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        let store = try await HistoryStore.open(location, timeout: 30)
                        for n in 0..<15 {
                            let id = BuildIdentity(service: "buildkite", repository: "acme/app", branch: "main", commit: "c\(writer)\(n)",
                                                   buildID: "w\(writer)-\(n)", time: base.addingTimeInterval(Double(n)))
                            _ = try await store.record(diagnosis, as: id)
                        }
                        await store.close()
                    }
                }
                try await group.waitForAll()
            }
        }
        let store = try open()
        defer { close(store) }
        let top = try Blocking.run { try await store.topCauses(HistoryScope(since: base.addingTimeInterval(-1))) }
        XCTAssertEqual(top.builds, 120)
        XCTAssertEqual(top.causes.map(\.builds), [120, 120])
    }

    /// Another connection holding a lock (`lock`'s statements) that recording needs: recording gives up after
    /// the timeout with one warning that `says` why, and the scan's findings are unchanged.
    func lockedStoreIsAWarning(lock: [String], says: String) throws {
        let location = self.location
        let holder = try Blocking.run { () -> HistoryStore in
            let store = try await HistoryStore.open(location)
            for sql in lock { try await store.backend.execute(sql) }
            return store
        }
        defer { _ = try? Blocking.run { _ = try? await holder.backend.execute("ROLLBACK"); await holder.close() } }
        let diagnosis = try HistoryLogs.diagnosis(HistoryLogs.missingModule())
        var warnings: [String] = []
        let started = Date()
        let result = HistoryRecorder.record(diagnosis, to: location, as: BuildIdentity(repository: "acme/app", commit: "abc"), window: 20,
                                            toolVersion: "test", timeout: 0.5) { warnings.append($0) }
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings.first?.contains(says) ?? false, "\(warnings)")
        XCTAssertNil(result.history)
        XCTAssertEqual(result.findings.map(\.rule), diagnosis.findings.map(\.rule))
    }

    /// A store written by a newer xcmedic is left alone.
    func newerSchemaIsRefused() throws {
        let store = try open()
        _ = try Blocking.run { try await store.backend.execute("INSERT INTO xcmedic_schema (version, applied_at) VALUES (99, 0)") }
        close(store)
        let location = self.location
        XCTAssertThrowsError(try Blocking.run { try await HistoryStore.open(location) }) { error in
            XCTAssertEqual(error as? StoreError, .newerSchema(found: 99, known: Schema.currentVersion))
        }
    }
}

final class LinesBox: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var values: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}

final class SQLiteHistoryStoreTests: XCTestCase {
    func behaviour() throws -> StoreBehaviour { StoreBehaviour(location: TestStores.sqlite(in: try temporaryDirectory("sqlite"))) }

    func testRecurringCause() throws { try behaviour().recurringCause() }
    func testFlakyTest() throws { try behaviour().flakyTest() }
    func testQueries() throws { try behaviour().queries() }
    func testRerecordingReplaces() throws { try behaviour().rerecordingReplaces() }
    func testSecretsAreRedacted() throws { try behaviour().secretsAreRedacted() }
    func testConcurrentWriters() throws { try behaviour().concurrentWriters() }
    func testNewerSchemaIsRefused() throws { try behaviour().newerSchemaIsRefused() }

    /// Many jobs opening a new store file at the same moment: every one opens it. Switching a new file to
    /// WAL needs it alone, and SQLite answers "busy" at once there, without waiting (a job of
    /// testConcurrentWriters failed so, 1 run in 30).
    func testManyOpenANewFileAtOnce() throws {
        for round in 0..<15 {
            let location = TestStores.sqlite(in: try temporaryDirectory("sqlite-open-\(round)"))
            try Blocking.run {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<12 {
                        group.addTask { try await HistoryStore.using(location, timeout: 30) { _ in } }
                    }
                    try await group.waitForAll()
                }
            }
        }
    }

    /// Another process holding the write lock: recording gives up after the timeout with a warning.
    func testLockedStoreIsAWarningNotAFailure() throws {
        try behaviour().lockedStoreIsAWarning(lock: ["BEGIN IMMEDIATE"], says: "locked")
    }
}

final class PostgresHistoryStoreTests: XCTestCase {
    func behaviour() throws -> StoreBehaviour {
        let database = try TestStores.postgres()
        addTeardownBlock { TestStores.dropPostgres(database.name) }
        return StoreBehaviour(location: database.location)
    }

    func testRecurringCause() throws { try behaviour().recurringCause() }
    func testFlakyTest() throws { try behaviour().flakyTest() }
    func testQueries() throws { try behaviour().queries() }
    func testRerecordingReplaces() throws { try behaviour().rerecordingReplaces() }
    func testSecretsAreRedacted() throws { try behaviour().secretsAreRedacted() }
    func testConcurrentWriters() throws { try behaviour().concurrentWriters() }
    func testNewerSchemaIsRefused() throws { try behaviour().newerSchemaIsRefused() }

    /// Another session holding a lock the record needs: the server's lock timeout ends the wait, and the
    /// scan gets its warning (PostgreSQL has no lock timeout of its own: without one this waits forever).
    func testALockHeldElsewhereIsAWarningNotAWait() throws {
        try behaviour().lockedStoreIsAWarning(lock: ["BEGIN", "LOCK TABLE builds IN ACCESS EXCLUSIVE MODE"], says: "lock timeout")
    }

    /// A server that stops answering in the middle of a session: the statement waiting for it ends at the
    /// answer deadline (twice the timeout), the connection is closed, and nothing waits on after it.
    func testAServerSilentInTheMiddleOfASessionIsGivenUp() throws {
        let database = try TestStores.postgres()
        addTeardownBlock { TestStores.dropPostgres(database.name) }
        var components = try XCTUnwrap(URLComponents(string: database.url))
        let proxy = try FreezingProxy(to: try XCTUnwrap(components.port))
        defer { proxy.stop() }
        components.port = proxy.port
        let location = try StoreLocation.resolve(components.string!, environment: [:], root: "/")
        let store = try Blocking.run { try await HistoryStore.open(location, timeout: 1) }
        proxy.freeze()
        let diagnosis = try HistoryLogs.diagnosis(HistoryLogs.missingModule())
        let started = Date()
        XCTAssertThrowsError(try Blocking.run { try await store.record(diagnosis, as: BuildIdentity(repository: "acme/app")) }) { error in
            XCTAssertEqual(error as? StoreError, .unavailable("the store: no answer within 2s"))
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        try Blocking.run { await store.close() }
        let end = Date().addingTimeInterval(10)
        while !proxy.closedByClient, Date() < end { usleep(20_000) }
        XCTAssertTrue(proxy.closedByClient, "the connection to the silent server was left open")
    }

    /// A wrong password or a server that is not there: a warning that never shows the password.
    func testUnreachableServerIsAWarningWithoutTheCredential() throws {
        guard let base = TestStores.postgresURL else { throw XCTSkip("XCMEDIC_TEST_POSTGRES_URL is not set") }
        var components = URLComponents(string: base)!
        components.password = "wrong-secret-Pa55word"
        let wrong = try StoreLocation.resolve(components.string!, environment: [:], root: "/")
        components.port = 1
        let down = try StoreLocation.resolve(components.string!, environment: [:], root: "/")
        let diagnosis = try HistoryLogs.diagnosis(HistoryLogs.missingModule())
        for location in [wrong, down] {
            var warnings: [String] = []
            let result = HistoryRecorder.record(diagnosis, to: location, as: BuildIdentity(), window: 20, toolVersion: "test", timeout: 5) { warnings.append($0) }
            XCTAssertNil(result.history)
            XCTAssertEqual(warnings.count, 1)
            XCTAssertFalse(warnings[0].contains("wrong-secret-Pa55word"), warnings[0])
            XCTAssertTrue(warnings[0].contains("postgres://xcmedic@127.0.0.1:"), warnings[0])
        }
    }
}

/// A store that does not answer: recording ends in the one warning within a bounded time, and leaves
/// nothing behind (the connection is closed, no task still waits on it).
final class UnansweringStoreTests: XCTestCase {
    func testAServerThatAcceptsAndNeverAnswersIsAWarning() throws {
        let server = try SilentServer()
        defer { server.stop() }
        let diagnosis = try HistoryLogs.diagnosis(HistoryLogs.missingModule())
        // sslmode=disable: the client sends its startup message and waits for the server's; prefer: it asks for TLS first.
        for mode in ["disable", "prefer"] {
            let location = try StoreLocation.resolve("postgres://ci:Hunter2Secret@127.0.0.1:\(server.port)/history?sslmode=\(mode)", environment: [:], root: "/")
            var warnings: [String] = []
            let started = Date()
            let result = HistoryRecorder.record(diagnosis, to: location, as: BuildIdentity(repository: "acme/app"), window: 20,
                                                toolVersion: "test", timeout: 1) { warnings.append($0) }
            let elapsed = Date().timeIntervalSince(started)
            XCTAssertNil(result.history)
            XCTAssertEqual(result.findings.map(\.rule), diagnosis.findings.map(\.rule))
            XCTAssertEqual(warnings.count, 1, "\(warnings)")
            XCTAssertTrue(warnings.first?.hasPrefix("history not recorded in postgres://ci@127.0.0.1:\(server.port)/history: ") ?? false, "\(warnings)")
            XCTAssertFalse(warnings.joined().contains("Hunter2Secret"))
            // The bound is the connection's deadline (1 s); a loaded machine gets room, a wait without end does not.
            XCTAssertLessThan(elapsed, 30, "sslmode=\(mode)")
        }
        XCTAssertGreaterThanOrEqual(server.connections, 2, "the client reached the server")
        XCTAssertTrue(server.closedByPeer(within: 10), "a connection to the silent server was left open")
    }

    /// A deadline that passes closes the connection, which ends the work waiting on it.
    func testADeadlineClosesTheConnectionAndEndsTheWork() throws {
        let closed = LinesBox()
        let started = Date()
        XCTAssertThrowsError(try Blocking.run {
            try await Deadline.run(seconds: 0.2, what: "the store", abort: { closed.append("closed") }) {
                // Work that ends only when cancelled or when its connection is closed, as a query to a silent server.
                while closed.values.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
                throw StoreError.unavailable("connection closed")
            }
        }) { error in
            XCTAssertEqual(error as? StoreError, .unavailable("the store: no answer within 0.2s"))
        }
        XCTAssertEqual(closed.values, ["closed"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        XCTAssertEqual(try Blocking.run { try await Deadline.run(seconds: 30, what: "x", abort: {}) { 42 } }, 42)
    }

    /// Waiting for the store on a thread of the concurrency pool could stall the pool; it is refused.
    func testBlockingInsideATaskIsRefused() throws {
        let refused = expectation(description: "refused")
        Task.detached {
            do {
                _ = try Blocking.run { 1 }
            } catch let error as StoreError {
                XCTAssertTrue(error.description.contains("inside a task"), error.description)
                refused.fulfill()
            }
        }
        wait(for: [refused], timeout: 60)
    }
}
