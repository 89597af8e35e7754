// The history store under load (Benchmarks/history-load.sh runs this): WRITERS concurrent writers,
// each with its own connection as separate CI jobs would have, record BUILDS builds made from real
// corpus logs (`scan --record` does the same: the insert, then the facts of its causes); then each
// `history` question is asked repeatedly on the full store and its p50/p99 printed.
import Foundation
import XCMedicHistory
import XCMedicKit

struct Arguments {
    var store = ""
    var builds = 100_000
    var writers = 16
    var corpus = "Tests/Corpus/cases"
    var repeats = 20

    init() {
        var args = CommandLine.arguments.dropFirst().makeIterator()
        while let a = args.next() {
            switch a {
            case "--store": store = args.next() ?? ""
            case "--builds": builds = Int(args.next() ?? "") ?? builds
            case "--writers": writers = Int(args.next() ?? "") ?? writers
            case "--corpus": corpus = args.next() ?? corpus
            case "--repeats": repeats = Int(args.next() ?? "") ?? repeats
            default:
                FileHandle.standardError.write(Data("usage: xcmedic-history-load --store PATH|URL [--builds N] [--writers W] [--corpus DIR] [--repeats R]\n".utf8))
                exit(2)
            }
        }
        if store.isEmpty {
            FileHandle.standardError.write(Data("--store is required\n".utf8))
            exit(2)
        }
    }
}

/// A small deterministic generator (the same builds on every run).
struct LCG {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

final class Latencies: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Double] = []
    func add(_ v: Double) { lock.lock(); values.append(v); lock.unlock() }
    var all: [Double] { lock.lock(); defer { lock.unlock() }; return values }
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

@main
enum HistoryLoad {
    static func main() throws {
        let arguments = Arguments()
        let location: StoreLocation
        do {
            location = try StoreLocation.resolve(arguments.store, environment: ProcessInfo.processInfo.environment, root: FileManager.default.currentDirectoryPath)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(2)
        }

        // Real diagnoses: the failing corpus logs (each a different mix of causes), and one passing log.
        let ruleSet = try RuleSet.builtin()
        var failing: [Diagnosis] = []
        let files = (try FileManager.default.contentsOfDirectory(atPath: arguments.corpus)).filter { $0.hasSuffix(".log") }.sorted()
        for file in files where failing.count < 120 {
            let scanner = Scanner(ruleSet: ruleSet)
            try scanner.scan(path: (arguments.corpus as NSString).appendingPathComponent(file))
            let d = scanner.finish()
            if d.status == .failed, !FailureSignature.failureFindings(of: d).isEmpty { failing.append(d) }
        }
        // Failing tests in XCTest's own format, 60 tests in 12 suites: most builds that fail a test fail one
        // of a few, and a re-run of the same commit that passes makes it flaky.
        var tests: [Diagnosis] = []
        for k in 0..<60 {
            let scanner = Scanner(ruleSet: ruleSet)
            try scanner.scan(text: """
                Test Case '-[AppTests.Suite\(k % 12) test\(k)]' started.
                /Users/runner/work/app/app/Tests/AppTests/Suite\(k % 12).swift:\(20 + k): error: -[AppTests.Suite\(k % 12) test\(k)] : XCTAssertTrue failed
                Test Case '-[AppTests.Suite\(k % 12) test\(k)]' failed (0.010 seconds).
                ** TEST FAILED **

                """, name: "test.log")
            tests.append(scanner.finish())
        }
        let failingTests = tests
        let failingLogs = failing
        let passingScanner = Scanner(ruleSet: ruleSet)
        try passingScanner.scan(text: "** TEST SUCCEEDED **\n", name: "pass.log")
        let passing = passingScanner.finish()
        guard !failing.isEmpty else {
            FileHandle.standardError.write(Data("no failing logs under \(arguments.corpus)\n".utf8))
            exit(2)
        }

        /// Build `i`: 5 repositories, a main branch and 20 others, a new commit every 3 builds of a branch,
        /// 90 days of history; 30% pass, 15% fail a test (of 60), failures skewed so a few causes dominate, and
        /// one build in 20 a re-run of the previous commit (which gives flaky tests).
        let start = Date().addingTimeInterval(-90 * 86_400)
        let span = 90.0 * 86_400
        @Sendable func build(_ i: Int) -> (Diagnosis, BuildIdentity) {
            var rng = LCG(state: UInt64(i) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
            let r = rng.below(5)
            let repo = "acme/app\(r)"
            let branch = rng.below(3) == 0 ? "feature-\(rng.below(20))" : "main"
            let rerun = rng.below(20) == 0
            let commit = String(format: "%08x%08x", (i / 3 - (rerun ? 1 : 0)) & 0x7fff_ffff, r)
            let diagnosis: Diagnosis
            let roll = rng.below(20)
            if roll < 6 {
                diagnosis = passing
            } else if roll < 9 {
                let u = Double(rng.below(10_000)) / 10_000
                diagnosis = failingTests[min(failingTests.count - 1, Int(u * u * u * Double(failingTests.count)))]
            } else {
                // Skewed: the square of a uniform draw picks low indices more often.
                let u = Double(rng.below(10_000)) / 10_000
                diagnosis = failingLogs[min(failingLogs.count - 1, Int(u * u * Double(failingLogs.count)))]
            }
            let identity = BuildIdentity(service: "buildkite", repository: repo, branch: branch, commit: commit, job: "test",
                                         buildID: "b\(i)", buildNumber: "\(i)", attempt: 1, url: "",
                                         time: start.addingTimeInterval(span * Double(i) / Double(arguments.builds)))
            return (diagnosis, identity)
        }

        print("store: \(location)")
        print("builds: \(arguments.builds), writers: \(arguments.writers), failing logs: \(failing.count)")

        let latencies = Latencies()
        let began = Date()
        try Blocking.run {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<arguments.writers {
                    group.addTask {
                        let store = try await HistoryStore.open(location, timeout: 60)
                        var i = writer
                        while i < arguments.builds {
                            let (diagnosis, identity) = build(i)
                            let t = Date()
                            _ = try await store.record(diagnosis, as: identity)
                            latencies.add(Date().timeIntervalSince(t))
                            i += arguments.writers
                        }
                        await store.close()
                    }
                }
                try await group.waitForAll()
            }
        }
        let elapsed = Date().timeIntervalSince(began)
        print(String(format: "recorded %d builds in %.1f s: %.0f builds/s; record p50 %@, p99 %@", arguments.builds, elapsed,
                     Double(arguments.builds) / elapsed, ms(percentile(latencies.all, 0.5)), ms(percentile(latencies.all, 0.99))))

        // The questions of `xcmedic history`, on the full store.
        let store = try Blocking.run { try await HistoryStore.open(location, create: false, timeout: 60) }
        let now = start.addingTimeInterval(span)
        let month = HistoryScope(since: now.addingTimeInterval(-30 * 86_400))
        let top = try Blocking.run { try await store.topCauses(month) }
        let fingerprint = top.causes.first?.fingerprint ?? "0"
        let (_, midBuild) = build(arguments.builds * 2 / 3)

        func measure(_ name: String, _ body: @escaping @Sendable () async throws -> Void) throws {
            var times: [Double] = []
            for _ in 0..<arguments.repeats {
                let t = Date()
                try Blocking.run { try await body() }
                times.append(Date().timeIntervalSince(t))
            }
            print("\(name.padding(toLength: 58, withPad: " ", startingAt: 0)) p50 \(ms(percentile(times, 0.5)).padding(toLength: 10, withPad: " ", startingAt: 0)) p99 \(ms(percentile(times, 0.99)))")
        }

        try measure("history top --since 30d") { _ = try await store.topCauses(month) }
        try measure("history top --since 30d --repository acme/app0 --branch main") {
            _ = try await store.topCauses(HistoryScope(since: month.since, repository: "acme/app0", branch: "main"))
        }
        try measure("history new --since <commit 1/3 from the end>") {
            let after = try await store.lastBuildTime(atCommit: midBuild.commit, repository: midBuild.repository) ?? month.since
            _ = try await store.newCauses(since: midBuild.commit, after: after, repository: midBuild.repository)
        }
        try measure("history flaky --since 30d") { _ = try await store.flakyTests(month) }
        try measure("history show <top cause> (--limit 50)") { _ = try await store.timeline(fingerprint) }
        try measure("history --since 1d --export ndjson (to /dev/null)") {
            _ = try await store.exportNDJSON(HistoryScope(since: now.addingTimeInterval(-86_400))) { _ in }
        }
        let flaky = try Blocking.run { try await store.flakyTests(month) }
        print("top causes in 30 days: \(top.causes.count) listed of \(top.failedBuilds) failed builds; flaky tests: \(flaky.tests.count)")
        _ = try Blocking.run { await store.close() }

    }
}
