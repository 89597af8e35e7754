import Foundation
import XCMedicKit

/// The history of diagnoses across builds, in SQLite or PostgreSQL: one connection, opened for one
/// command. Every statement is shared by both databases (`SQLBackend`).
public final class HistoryStore: Sendable {
    let backend: any SQLBackend
    public let location: StoreLocation

    init(backend: any SQLBackend, location: StoreLocation) {
        self.backend = backend
        self.location = location
    }

    /// Opens the store, runs `body` and closes the store, whatever `body` does.
    public static func using<T: Sendable>(_ location: StoreLocation, create: Bool = true, timeout: Double = 10, answerTimeout: Double? = nil,
                                          _ body: @Sendable (HistoryStore) async throws -> T) async throws -> T {
        let store = try await open(location, create: create, timeout: timeout, answerTimeout: answerTimeout)
        do {
            let value = try await body(store)
            await store.close()
            return value
        } catch {
            await store.close()
            throw error
        }
    }

    /// Connects (a SQLite file is created, with its folder, only when `create`), and brings the schema
    /// up to date. `timeout` bounds the wait for a connection (the server's handshake included) and for
    /// another writer's lock; `answerTimeout` (default: twice `timeout`, at least a second more) the wait for any statement's answer,
    /// after which the connection is closed. No operation on the store waits without end.
    public static func open(_ location: StoreLocation, create: Bool = true, timeout: Double = 10, answerTimeout: Double? = nil) async throws -> HistoryStore {
        let answer = answerTimeout ?? max(timeout * 2, timeout + 1)
        let backend: any SQLBackend
        switch location {
        case .sqlite(let path):
            let fm = FileManager.default
            if !fm.fileExists(atPath: path) {
                guard create else { throw StoreError.notFound("no history at \(path) (record one with 'xcmedic scan --record')") }
                let folder = (path as NSString).deletingLastPathComponent
                if !folder.isEmpty {
                    do { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                        throw StoreError.unavailable("cannot create \(folder): \(error.localizedDescription)")
                    }
                }
            }
            do { backend = try await SQLiteBackend.open(path: path, busyTimeout: timeout) } catch {
                throw StoreError.unavailable("cannot open \(path): \(HistoryStore.describe(error))")
            }
        case .postgres(let url):
            do { backend = try await PostgresBackend.connect(url, connectTimeout: timeout) } catch {
                throw StoreError.unavailable("cannot connect to \(url): \(HistoryStore.describe(error))")
            }
        }
        let store = HistoryStore(backend: DeadlineBackend(backend, seconds: answer), location: location)
        do {
            try await store.migrate()
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    public func close() async { await backend.close() }

    /// What went wrong, in one line and without the connection's details (which hold no password, but
    /// need not be printed twice).
    static func describe(_ error: any Error) -> String {
        if let error = error as? StoreError { return error.description }
        let text = String(reflecting: error)
        // PSQLError and SQLiteError describe themselves at length; keep the first line, capped.
        let line = text.split(separator: "\n").first.map(String.init) ?? text
        return line.count > 300 ? String(line.prefix(300)) + "…" : line
    }

    // MARK: - Schema

    public func schemaVersion() async throws -> Int {
        let rows = try await backend.execute("SELECT MAX(version) FROM xcmedic_schema")
        return Int(rows.first?[0].int ?? 0)
    }

    func migrate() async throws {
        if let version = try? await schemaVersion() {
            if version == Schema.currentVersion { return }
            if version > Schema.currentVersion { throw StoreError.newerSchema(found: version, known: Schema.currentVersion) }
        }
        try await writeTransaction {
            try await self.backend.execute("CREATE TABLE IF NOT EXISTS xcmedic_schema (version INTEGER NOT NULL PRIMARY KEY, applied_at BIGINT NOT NULL)")
            let version = try await self.schemaVersion()
            if version > Schema.currentVersion { throw StoreError.newerSchema(found: version, known: Schema.currentVersion) }
            for (index, statements) in Schema.migrations.enumerated() where index + 1 > version {
                for sql in statements { try await self.backend.execute(Schema.statement(sql, self.backend.dialect)) }
                try await self.backend.execute("INSERT INTO xcmedic_schema (version, applied_at) VALUES (?, ?)",
                                               .int(Int64(index + 1)), .int(Int64(Date().timeIntervalSince1970)))
            }
        }
    }

    /// A transaction that writes: SQLite takes the file's write lock at once (so two writers never
    /// deadlock upgrading a read lock); PostgreSQL takes the store's advisory lock only for schema changes.
    func writeTransaction<T: Sendable>(schemaLock: Bool = true, _ body: @Sendable () async throws -> T) async throws -> T {
        switch backend.dialect {
        case .sqlite: try await backend.execute("BEGIN IMMEDIATE")
        case .postgres:
            try await backend.execute("BEGIN")
            if schemaLock { try await backend.execute("SELECT 1 FROM (SELECT pg_advisory_xact_lock(?)) AS l", .int(0x7863_6d65_6469_63)) }
        }
        do {
            let value = try await body()
            try await backend.execute("COMMIT")
            return value
        } catch {
            _ = try? await backend.execute("ROLLBACK")
            throw error
        }
    }

    // MARK: - Recording

    /// Stores `diagnosis` as the build `identity`, and returns it with what the store knows of its causes.
    public func record(_ diagnosis: Diagnosis, as identity: BuildIdentity, window: Int = 20, toolVersion: String = ToolInfo.version) async throws -> Diagnosis {
        try await record(BuildRecord(diagnosis), as: identity, window: window, toolVersion: toolVersion).applied(to: diagnosis)
    }

    /// Stores `build` as the build `identity` (replacing an earlier record of the same run), then
    /// returns what the store knows about each recorded cause: first seen, how many of the last
    /// `window` builds on the branch had it, new in this build, flaky.
    public func record(_ build: BuildRecord, as rawIdentity: BuildIdentity, window: Int = 20, toolVersion: String = ToolInfo.version) async throws -> HistoryFacts {
        let identity = rawIdentity.redacted(.standard)
        let entries = build.causes
        let time = Int64(identity.time.timeIntervalSince1970.rounded(.down))
        let key: SQLValue = identity.key.isEmpty ? .null : .text(identity.key)
        let status = build.status.rawValue
        let buildID: Int64 = try await writeTransaction(schemaLock: false) {
            if case .text = key {
                try await self.backend.execute("DELETE FROM findings WHERE build_id IN (SELECT id FROM builds WHERE build_key = ?)", key)
                try await self.backend.execute("DELETE FROM builds WHERE build_key = ?", key)
            }
            let rows = try await self.backend.execute("""
                INSERT INTO builds (build_key, service, repository, branch, commit_sha, job, build_id, build_number, attempt, url,
                                    started_at, status, tool_version, fingerprint_version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                """, key, .text(identity.service), .text(identity.repository), .text(identity.branch), .text(identity.commit),
                .text(identity.job), .text(identity.buildID), .text(identity.buildNumber), .int(Int64(identity.attempt)), .text(identity.url),
                .int(time), .text(status), .text(toolVersion), .int(Int64(Fingerprint.version)))
            guard let id = rows.first?[0].int else { throw StoreError.unavailable("the store returned no id for the new build") }
            for chunk in stride(from: 0, to: entries.count, by: 50).map({ Array(entries[$0..<min($0 + 50, entries.count)]) }) {
                var binds: [SQLValue] = []
                for e in chunk {
                    binds += [.int(id), .text(e.fingerprint.value), .text(identity.repository), .text(identity.branch), .int(time),
                              .text(e.fingerprint.rule), .text(e.category), .text(e.title), .text(e.message), .text(e.fingerprint.subject),
                              e.fingerprint.test.map { SQLValue.text($0) } ?? SQLValue.null, .int(Int64(e.occurrences))]
                }
                let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
                try await self.backend.execute("""
                    INSERT INTO findings (build_id, fingerprint, repository, branch, started_at, rule, category, title, message, subject, test, occurrences)
                    VALUES \(values)
                    """, binds)
            }
            return id
        }

        let this = BuildRef(label: identity.label, commit: identity.commit, branch: identity.branch, time: Date(timeIntervalSince1970: TimeInterval(time)), url: identity.url)
        var facts = HistoryFacts(build: BuildHistory(build: this, store: location.description,
                                                     passedAfterFailing: try await passedAfterFailing(identity: identity, buildID: buildID, status: build.status)))
        guard !entries.isEmpty else { return facts }

        // The last `window` builds on this branch, this one included.
        let repo = SQLValue.text(identity.repository), branch = SQLValue.text(identity.branch)
        let recent = try await backend.execute("""
            SELECT id FROM builds WHERE repository = ? AND branch = ? AND (started_at < ? OR (started_at = ? AND id <= ?))
            ORDER BY started_at DESC, id DESC LIMIT ?
            """, repo, branch, .int(time), .int(time), .int(buildID), .int(Int64(max(1, window))))
        let recentIDs = recent.map { $0[0] }
        let fingerprints = entries.map { SQLValue.text($0.fingerprint.value) }
        var counts: [String: Int] = [:]
        if !recentIDs.isEmpty {
            let rows = try await backend.execute("""
                SELECT fingerprint, COUNT(*) FROM findings WHERE build_id IN (\(HistoryStore.marks(recentIDs.count)))
                AND fingerprint IN (\(HistoryStore.marks(fingerprints.count))) GROUP BY fingerprint
                """, recentIDs + fingerprints)
            for row in rows { counts[row.text(0)] = Int(row.int(1)) }
        }
        // The last passing build on this branch before this one: a cause no build since then had is new.
        let good = try await backend.execute("""
            SELECT started_at, id FROM builds WHERE repository = ? AND branch = ? AND status = 'passed'
            AND (started_at < ? OR (started_at = ? AND id < ?)) ORDER BY started_at DESC, id DESC LIMIT 1
            """, repo, branch, .int(time), .int(time), .int(buildID))
        let goodTime = good.first?.int(0) ?? Int64.min, goodID = good.first?.int(1) ?? Int64.min

        for e in entries {
            let fp = SQLValue.text(e.fingerprint.value)
            let first = try await backend.execute("""
                SELECT b.build_number, b.build_id, b.attempt, b.commit_sha, b.branch, b.started_at, b.url, b.id
                FROM findings f JOIN builds b ON b.id = f.build_id
                WHERE f.repository = ? AND f.fingerprint = ? ORDER BY f.started_at, f.build_id LIMIT 1
                """, repo, fp)
            let firstRef = first.first.map(HistoryStore.buildRef) ?? this
            let recurring = (first.first?.int(7) ?? buildID) != buildID
            var isNew = !recurring
            if recurring {
                let since = try await backend.execute("""
                    SELECT 1 FROM findings WHERE repository = ? AND fingerprint = ? AND branch = ? AND build_id <> ?
                    AND (started_at < ? OR (started_at = ? AND build_id < ?)) AND (started_at > ? OR (started_at = ? AND build_id > ?)) LIMIT 1
                    """, repo, fp, branch, .int(buildID), .int(time), .int(time), .int(buildID), .int(goodTime), .int(goodTime), .int(goodID))
                isNew = since.isEmpty
            }
            var flaky: FlakyEvidence?
            if let test = e.fingerprint.test {
                flaky = try await flakyEvidence(repository: identity.repository, test: test, preferCommit: identity.commit)
            }
            facts.causes.append(HistoryFacts.Cause(finding: e.finding, history: CauseHistory(
                fingerprint: e.fingerprint.value, firstSeen: firstRef, recurring: recurring, newInThisBuild: isNew,
                buildsWithCause: counts[e.fingerprint.value] ?? 1, recentBuilds: max(1, recentIDs.count), branch: identity.branch, flaky: flaky)))
        }
        return facts
    }

    /// A commit on which `test` failed and which also has a passing build (this commit first, else the latest).
    func flakyEvidence(repository: String, test: String, preferCommit: String) async throws -> FlakyEvidence? {
        let rows = try await backend.execute("""
            SELECT b.commit_sha, COUNT(DISTINCT f.build_id), MAX(b.started_at),
              (SELECT COUNT(*) FROM builds p WHERE p.repository = ? AND p.commit_sha = b.commit_sha AND p.status = 'passed')
            FROM findings f JOIN builds b ON b.id = f.build_id
            WHERE f.repository = ? AND f.test = ? AND b.commit_sha <> ''
            GROUP BY b.commit_sha
            """, .text(repository), .text(repository), .text(test))
        let flaky = rows.filter { $0.int(3) > 0 }
        guard let pick = flaky.first(where: { $0.text(0) == preferCommit }) ?? flaky.max(by: { $0.int(2) < $1.int(2) }) else { return nil }
        return FlakyEvidence(test: test, commit: pick.text(0), failed: Int(pick.int(1)), passed: Int(pick.int(3)))
    }

    /// For a passing build: the tests that failed in other builds of its commit.
    func passedAfterFailing(identity: BuildIdentity, buildID: Int64, status: Diagnosis.Status) async throws -> [FlakyEvidence] {
        guard status == .passed, !identity.commit.isEmpty else { return [] }
        let rows = try await backend.execute("""
            SELECT f.test, COUNT(DISTINCT f.build_id) FROM findings f JOIN builds b ON b.id = f.build_id
            WHERE b.repository = ? AND b.commit_sha = ? AND f.test IS NOT NULL AND b.id <> ? GROUP BY f.test ORDER BY f.test
            """, .text(identity.repository), .text(identity.commit), .int(buildID))
        guard !rows.isEmpty else { return [] }
        let passed = try await backend.execute("SELECT COUNT(*) FROM builds WHERE repository = ? AND commit_sha = ? AND status = 'passed'",
                                               .text(identity.repository), .text(identity.commit))
        let passes = Int(passed.first?.int(0) ?? 1)
        return rows.map { FlakyEvidence(test: $0.text(0), commit: identity.commit, failed: Int($0.int(1)), passed: passes) }
    }

    static func marks(_ n: Int) -> String { Array(repeating: "?", count: n).joined(separator: ", ") }

    /// From `build_number, build_id, attempt, commit_sha, branch, started_at, url`.
    static func buildRef(_ row: SQLRow) -> BuildRef {
        var id = BuildIdentity(buildID: row.text(1), buildNumber: row.text(0), attempt: Int(row.int(2)))
        id.service = ""
        return BuildRef(label: id.label, commit: row.text(3), branch: row.text(4), time: Date(timeIntervalSince1970: TimeInterval(row.int(5))), url: row.text(6))
    }
}
