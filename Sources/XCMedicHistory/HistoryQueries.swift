import Foundation
import XCMedicKit

/// The questions `xcmedic history` asks.
extension HistoryStore {
    /// `AND f.repository = ? AND f.branch = ?` for what the scope names.
    private func filter(_ scope: HistoryScope, prefix: String) -> (sql: String, binds: [SQLValue]) {
        var sql = "", binds: [SQLValue] = []
        if !scope.repository.isEmpty {
            sql += " AND \(prefix)repository = ?"
            binds.append(.text(scope.repository))
        }
        if !scope.branch.isEmpty {
            sql += " AND \(prefix)branch = ?"
            binds.append(.text(scope.branch))
        }
        return (sql, binds)
    }

    private static func seconds(_ date: Date) -> SQLValue { .int(Int64(date.timeIntervalSince1970.rounded(.down))) }

    /// The causes in the most builds of the scope.
    public func topCauses(_ scope: HistoryScope, limit: Int = 20) async throws -> TopCauses {
        let f = filter(scope, prefix: "f."), b = filter(scope, prefix: "")
        let since = HistoryStore.seconds(scope.since)
        let totals = try await backend.execute("""
            SELECT COUNT(*), COALESCE(SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END), 0) FROM builds WHERE started_at >= ?\(b.sql)
            """, [since] + b.binds)
        let rows = try await backend.execute("""
            SELECT f.fingerprint, COUNT(*), MIN(f.rule), MIN(f.category), MIN(f.title), MIN(f.subject), MAX(f.started_at)
            FROM findings f WHERE f.started_at >= ?\(f.sql)
            GROUP BY f.fingerprint ORDER BY COUNT(*) DESC, f.fingerprint LIMIT ?
            """, [since] + f.binds + [.int(Int64(limit))])
        let causes = try await withFirstSeen(rows.map(HistoryStore.summary), repository: scope.repository)
        return TopCauses(scope: scope, builds: Int(totals.first?.int(0) ?? 0), failedBuilds: Int(totals.first?.int(1) ?? 0), causes: causes)
    }

    /// The time after which a cause counts as new since `revision`: the last build recorded at that
    /// commit (a full hash or a prefix of one); nil when no build was recorded there.
    public func lastBuildTime(atCommit revision: String, repository: String) async throws -> Date? {
        var sql = "SELECT MAX(started_at), COUNT(DISTINCT commit_sha) FROM builds WHERE commit_sha LIKE ?"
        var binds: [SQLValue] = [.text(revision.lowercased().filter(\.isHexDigit) + "%")]
        if !repository.isEmpty {
            sql += " AND repository = ?"
            binds.append(.text(repository))
        }
        let rows = try await backend.execute(sql, binds)
        guard let row = rows.first, row[0] != .null else { return nil }
        if row.int(1) > 1 { throw StoreError.notFound("\(revision) names \(row.int(1)) recorded commits; give more of the hash") }
        return Date(timeIntervalSince1970: TimeInterval(row.int(0)))
    }

    /// Causes first recorded (in the repository, on the branch when given) after `after`.
    public func newCauses(since label: String, after: Date, repository: String = "", branch: String = "", limit: Int = 50) async throws -> NewCauses {
        let scope = HistoryScope(since: after, repository: repository, branch: branch)
        let f = filter(scope, prefix: "")
        let rows = try await backend.execute("""
            SELECT fingerprint, COUNT(*), MIN(rule), MIN(category), MIN(title), MIN(subject), MAX(started_at), MIN(started_at)
            FROM findings WHERE fingerprint IN (SELECT fingerprint FROM findings WHERE started_at > ?\(f.sql))\(f.sql)
            GROUP BY fingerprint HAVING MIN(started_at) > ? ORDER BY MIN(started_at) DESC, fingerprint LIMIT ?
            """, [HistoryStore.seconds(after)] + f.binds + f.binds + [HistoryStore.seconds(after), .int(Int64(limit))])
        let causes = try await withFirstSeen(rows.map(HistoryStore.summary), repository: repository, branch: branch)
        return NewCauses(since: label, after: after, repository: repository, branch: branch, causes: causes)
    }

    /// Every test that failed in the scope and changed between failing and passing, by flip rate.
    ///
    /// A test's runs are the builds where it failed and the passing builds of the same repository and
    /// branch (a passing build passed every test it ran). Flips are the changes between the two in
    /// time order; the flip rate is flips / (runs − 1). A commit with a failing and a passing build of
    /// the test makes it flaky beyond doubt (`flakyCommits`).
    public func flakyTests(_ scope: HistoryScope, limit: Int = 50) async throws -> FlakyTests {
        let f = filter(scope, prefix: "f."), b = filter(scope, prefix: "")
        let since = HistoryStore.seconds(scope.since)
        let failures = try await backend.execute("""
            SELECT f.repository, f.test, f.branch, f.started_at, f.build_id, b.commit_sha
            FROM findings f JOIN builds b ON b.id = f.build_id
            WHERE f.test IS NOT NULL AND f.started_at >= ?\(f.sql)
            """, [since] + f.binds)
        guard !failures.isEmpty else { return FlakyTests(scope: scope, tests: []) }
        let passes = try await backend.execute("""
            SELECT repository, branch, started_at, commit_sha FROM builds WHERE status = 'passed' AND started_at >= ?\(b.sql)
            """, [since] + b.binds)

        struct Lane: Hashable { var repository: String; var branch: String }
        var passTimes: [Lane: [Int64]] = [:]
        var passCommits: [String: Set<String>] = [:]
        for row in passes {
            passTimes[Lane(repository: row.text(0), branch: row.text(1)), default: []].append(row.int(2))
            if !row.text(3).isEmpty { passCommits[row.text(0), default: []].insert(row.text(3)) }
        }
        for key in passTimes.keys { passTimes[key]!.sort() }

        struct TestKey: Hashable { var repository: String; var test: String }
        var byTest: [TestKey: [Lane: Set<Int64>]] = [:]
        var failCommits: [TestKey: Set<String>] = [:]
        var failedBuilds: [TestKey: Set<Int64>] = [:]
        var lastFailed: [TestKey: Int64] = [:]
        for row in failures {
            let key = TestKey(repository: row.text(0), test: row.text(1))
            byTest[key, default: [:]][Lane(repository: row.text(0), branch: row.text(2)), default: []].insert(row.int(3))
            failedBuilds[key, default: []].insert(row.int(4))
            if !row.text(5).isEmpty { failCommits[key, default: []].insert(row.text(5)) }
            lastFailed[key] = max(lastFailed[key] ?? 0, row.int(3))
        }

        var tests: [FlakyTest] = []
        for (key, lanes) in byTest {
            var flips = 0, passCount = 0
            for (lane, failTimes) in lanes {
                let passList = passTimes[lane] ?? []
                passCount += passList.count
                flips += HistoryStore.flips(failures: failTimes.sorted(), passes: passList)
            }
            let failCount = failedBuilds[key]?.count ?? 0
            let runs = failCount + passCount
            let flakyCommits = (failCommits[key] ?? []).intersection(passCommits[key.repository] ?? []).count
            guard flips > 0 || flakyCommits > 0 else { continue }
            let rate = runs > 1 ? Double(flips) / Double(runs - 1) : 0
            tests.append(FlakyTest(repository: key.repository, test: key.test, failures: failCount, passes: passCount, flips: flips,
                                   flipRate: rate, flakyCommits: flakyCommits, lastFailed: Date(timeIntervalSince1970: TimeInterval(lastFailed[key] ?? 0))))
        }
        tests.sort { a, b in
            if a.flipRate != b.flipRate { return a.flipRate > b.flipRate }
            if a.flakyCommits != b.flakyCommits { return a.flakyCommits > b.flakyCommits }
            return (a.repository, a.test) < (b.repository, b.test)
        }
        return FlakyTests(scope: scope, tests: Array(tests.prefix(limit)))
    }

    /// Changes between failing and passing in the merged, time-ordered runs of one branch: between two
    /// failures, any pass in between is two changes; a pass before the first or after the last, one.
    /// A failure and a pass at the same second count as a change.
    static func flips(failures: [Int64], passes: [Int64]) -> Int {
        guard !failures.isEmpty, !passes.isEmpty else { return 0 }
        func passesIn(_ low: Int64, _ high: Int64) -> Bool {
            // Any pass p with low <= p <= high.
            var lo = 0, hi = passes.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if passes[mid] < low { lo = mid + 1 } else { hi = mid }
            }
            return lo < passes.count && passes[lo] <= high
        }
        var flips = 0
        if passes[0] <= failures[0] { flips += 1 }
        for i in 1..<failures.count where passesIn(failures[i - 1], failures[i]) { flips += 2 }
        if passes[passes.count - 1] >= failures[failures.count - 1] { flips += 1 }
        return flips
    }

    /// One cause (a fingerprint or a unique prefix of one), build by build, newest first.
    public func timeline(_ fingerprint: String, repository: String = "", limit: Int = 50) async throws -> CauseTimeline {
        let prefix = fingerprint.lowercased().filter(\.isHexDigit)
        guard !prefix.isEmpty else { throw StoreError.notFound("'\(fingerprint)' is not a fingerprint (hex digits, as 'xcmedic history' lists them)") }
        var repoSQL = "", binds: [SQLValue] = [.text(prefix + "%")]
        if !repository.isEmpty {
            repoSQL = " AND repository = ?"
            binds.append(.text(repository))
        }
        let matches = try await backend.execute("""
            SELECT fingerprint, COUNT(*), MIN(rule), MIN(category), MIN(title), MIN(subject), MAX(started_at)
            FROM findings WHERE fingerprint LIKE ?\(repoSQL) GROUP BY fingerprint
            """, binds)
        guard let match = matches.first else { throw StoreError.notFound("no recorded cause has the fingerprint \(fingerprint)") }
        if matches.count > 1 { throw StoreError.notFound("\(fingerprint) names \(matches.count) causes; give more of the fingerprint") }
        let cause = try await withFirstSeen([HistoryStore.summary(match)], repository: repository)[0]
        var entryBinds: [SQLValue] = [.text(cause.fingerprint)]
        if !repository.isEmpty { entryBinds.append(.text(repository)) }
        let rows = try await backend.execute("""
            SELECT b.build_number, b.build_id, b.attempt, b.commit_sha, b.branch, b.started_at, b.url, b.repository, b.job, b.status, f.message
            FROM findings f JOIN builds b ON b.id = f.build_id WHERE f.fingerprint = ?\(repoSQL.replacingOccurrences(of: "repository", with: "f.repository"))
            ORDER BY f.started_at DESC, f.build_id DESC LIMIT ?
            """, entryBinds + [.int(Int64(limit))])
        let entries = rows.map { CauseTimeline.Entry(build: HistoryStore.buildRef($0), repository: $0.text(7), job: $0.text(8), status: $0.text(9)) }
        return CauseTimeline(cause: cause, message: rows.first?.text(10) ?? "", entries: entries)
    }

    /// Deletes the builds recorded before `date`, with their failures; returns how many builds went.
    @discardableResult
    public func prune(olderThan date: Date) async throws -> Int {
        let cut = HistoryStore.seconds(date)
        return try await writeTransaction(schemaLock: false) {
            let count = try await self.backend.execute("SELECT COUNT(*) FROM builds WHERE started_at < ?", cut).first?.int(0) ?? 0
            try await self.backend.execute("DELETE FROM findings WHERE build_id IN (SELECT id FROM builds WHERE started_at < ?)", cut)
            try await self.backend.execute("DELETE FROM builds WHERE started_at < ?", cut)
            return Int(count)
        }
    }

    /// Every build in the scope with its failures, oldest first, one JSON object per line
    /// (`docs/history.md` documents the fields); returns the number of lines.
    @discardableResult
    public func exportNDJSON(_ scope: HistoryScope, write: (String) throws -> Void) async throws -> Int {
        let b = filter(scope, prefix: "")
        var cursor: (time: Int64, id: Int64)?
        var written = 0
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        while true {
            var page = "started_at >= ?"
            var binds: [SQLValue] = [HistoryStore.seconds(scope.since)]
            if let cursor {
                page += " AND (started_at > ? OR (started_at = ? AND id > ?))"
                binds += [.int(cursor.time), .int(cursor.time), .int(cursor.id)]
            }
            let builds = try await backend.execute("""
                SELECT id, service, repository, branch, commit_sha, job, build_id, build_number, attempt, url, started_at, status,
                       tool_version, fingerprint_version
                FROM builds WHERE \(page)\(b.sql) ORDER BY started_at, id LIMIT 500
                """, binds + b.binds)
            guard let last = builds.last else { break }
            cursor = (last.int(10), last.int(0))
            let ids = builds.map { $0[0] }
            let rows = try await backend.execute("""
                SELECT build_id, fingerprint, rule, category, title, message, subject, test, occurrences
                FROM findings WHERE build_id IN (\(HistoryStore.marks(ids.count))) ORDER BY build_id, fingerprint
                """, ids)
            var findings: [Int64: [ExportRecord.Failure]] = [:]
            for r in rows {
                findings[r.int(0), default: []].append(ExportRecord.Failure(
                    fingerprint: r.text(1), rule: r.text(2), category: r.text(3), title: r.text(4), message: r.text(5),
                    subject: r.text(6), test: r[7] == .null ? nil : r.text(7), occurrences: Int(r.int(8))))
            }
            for row in builds {
                let record = ExportRecord(
                    schema: ExportRecord.schemaName,
                    build: .init(service: row.text(1), repository: row.text(2), branch: row.text(3), commit: row.text(4), job: row.text(5),
                                 id: row.text(6), number: row.text(7), attempt: Int(row.int(8)), url: row.text(9),
                                 time: HistoryDates.iso(Date(timeIntervalSince1970: TimeInterval(row.int(10)))), status: row.text(11),
                                 toolVersion: row.text(12), fingerprintVersion: Int(row.int(13))),
                    failures: findings[row.int(0)] ?? [])
                try write(String(decoding: try encoder.encode(record), as: UTF8.self) + "\n")
                written += 1
            }
            if builds.count < 500 { break }
        }
        return written
    }

    /// `fingerprint, builds, rule, category, title, subject, last seen[, first seen]`.
    static func summary(_ row: SQLRow) -> CauseSummary {
        let last = Date(timeIntervalSince1970: TimeInterval(row.int(6)))
        let first = row.count > 7 ? Date(timeIntervalSince1970: TimeInterval(row.int(7))) : last
        return CauseSummary(fingerprint: row.text(0), rule: row.text(2), category: row.text(3), title: row.text(4), subject: row.text(5),
                            builds: Int(row.int(1)), firstSeen: first, lastSeen: last)
    }

    /// Fills each cause's first recorded build (in the repository and branch when given).
    func withFirstSeen(_ causes: [CauseSummary], repository: String, branch: String = "") async throws -> [CauseSummary] {
        var out = causes
        for i in out.indices {
            var sql = "f.fingerprint = ?", binds: [SQLValue] = [.text(out[i].fingerprint)]
            if !repository.isEmpty {
                sql += " AND f.repository = ?"
                binds.append(.text(repository))
            }
            if !branch.isEmpty {
                sql += " AND f.branch = ?"
                binds.append(.text(branch))
            }
            let rows = try await backend.execute("""
                SELECT b.build_number, b.build_id, b.attempt, b.commit_sha, b.branch, b.started_at, b.url
                FROM findings f JOIN builds b ON b.id = f.build_id WHERE \(sql) ORDER BY f.started_at, f.build_id LIMIT 1
                """, binds)
            if let row = rows.first {
                let ref = HistoryStore.buildRef(row)
                out[i].firstBuild = ref
                out[i].firstSeen = ref.time
            }
        }
        return out
    }
}

/// One line of `xcmedic history --export ndjson`: a build and what failed in it.
public struct ExportRecord: Codable, Sendable, Equatable {
    public static let schemaName = "xcmedic.history.export/1"

    public struct Build: Codable, Sendable, Equatable {
        public var service, repository, branch, commit, job, id, number: String
        public var attempt: Int
        public var url: String
        /// ISO 8601, UTC.
        public var time: String
        /// `failed`, `passed` or `unknown`.
        public var status: String
        public var toolVersion: String
        public var fingerprintVersion: Int
    }

    public struct Failure: Codable, Sendable, Equatable {
        public var fingerprint, rule, category, title, message, subject: String
        public var test: String?
        public var occurrences: Int
    }

    public var schema: String
    public var build: Build
    public var failures: [Failure]
}
