import Foundation
import XCTest

/// Flaky builds (`--retries`), the parallel search (`-j N`), the verdict cache and the advice each
/// refusal gives, on real git histories with shell scripts as the build.
final class BisectFlakyParallelCLITests: XCTestCase {
    func bisect(_ repo: ScriptedRepo, _ arguments: [String], env: [String: String] = [:]) throws -> CLI.Result {
        var environment = ScriptedRepo.environment
        for (k, v) in env { environment[k] = v }
        return try CLI.run(["bisect", "--no-config"] + arguments, environment: environment, cwd: repo.root)
    }

    func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    /// A fresh flake folder whose `at` file names the commits whose first run cannot reach the network.
    func flakes(_ repo: ScriptedRepo, at commits: [String]) throws -> [String: String] {
        let dir = repo.root.deletingLastPathComponent().appendingPathComponent("net-flakes-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data((commits.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("at"))
        return ["NET_FLAKE_DIR": dir.path]
    }

    // MARK: - Flaky runs never change the blamed commit

    /// The first run at the bad end, at the good end, in the middle of the range, or everywhere cannot
    /// fetch dependencies. With --retries 1 (serial and -j 3) the culprit is the same every time, and
    /// the failure looked for is the one the runs at the bad end agree on, never the network error.
    func testFlakyRunsAtEitherEndOrInTheMiddleNeverChangeTheCulprit() throws {
        let made = try AppHistory.make(count: 30, culprit: 20, unrelated: 8..<12)
        let repo = made.repo
        let scenarios: [(String, [String])] = [
            ("bad end", [made.hashes[30]]),
            ("good end", [made.hashes[0]]),
            ("middle", Array(made.hashes[10...26])),
            ("everywhere", ["all"]),
        ]
        for (name, at) in scenarios {
            for jobs in ["1", "3"] {
                let r = try bisect(repo, ["--good", made.hashes[0], "--retries", "1", "--no-cache", "-j", jobs, "--format", "json", "--", "./build.sh"],
                                   env: try flakes(repo, at: at))
                XCTAssertEqual(r.status, 0, "\(name) -j \(jobs): \(r.stderr)")
                let doc = try json(r.stdout)
                XCTAssertEqual((doc["culprit"] as? [String: Any])?["hash"] as? String, made.culprit, "\(name) -j \(jobs): \(r.stdout)")
                let signature = try XCTUnwrap(doc["signature"] as? [[String: Any]])
                XCTAssertEqual(signature.map { $0["rule"] as? String }, ["global-mutable-state-not-concurrency-safe"], "\(name) -j \(jobs)")
                let steps = try XCTUnwrap(doc["steps"] as? [[String: Any]])
                // The flaky runs were run again, not judged by their first run.
                XCTAssertTrue(steps.contains { ($0["attempts"] as? Int ?? 0) > 1 }, "\(name) -j \(jobs): \(steps)")
                // The unrelated break (commits 8..<12) is skipped when tested, never blamed.
                for step in steps where made.hashes[8..<12].contains(step["commit"] as! String) {
                    XCTAssertEqual(step["verdict"] as? String, "skip", "\(name) -j \(jobs): \(step)")
                }
            }
        }
    }

    /// The failure the runs at the bad end disagree on cannot be chosen: with the flaky run alone the
    /// bad end would have been judged by the network error. Here every run at --bad differs.
    func testRunsThatNeverAgreeAreRefusedWithTheRightAdvice() throws {
        let made = try AppHistory.make(count: 8, culprit: 5, unrelated: nil)
        let counter = made.repo.root.deletingLastPathComponent().appendingPathComponent("n")
        let script = "n=$(( $(cat '\(counter.path)' 2>/dev/null || echo 0) + 1 )); echo $n > '\(counter.path)'; echo \"$PWD/Sources/App/X$n.swift:1:1: error: flaky failure number $n\"; exit 1"
        let r = try bisect(made.repo, ["--good", made.hashes[0], "--retries", "1", "--", "sh", "-c", script])
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("failed 3 times, never the same way twice ("), r.stderr)
        XCTAssertTrue(r.stderr.contains("the build is flaky there; raise --retries, or name the failure with --rule ID"), r.stderr)
    }

    // MARK: - Advice for each refusal

    func testAdviceForAMistypedCommandAndAPassingBadEnd() throws {
        let made = try AppHistory.make(count: 8, culprit: 5, unrelated: nil)
        let before = try made.repo.snapshot()
        let typo = try bisect(made.repo, ["--good", made.hashes[0], "--", "swfit", "build"])
        XCTAssertEqual(typo.status, 2, typo.stdout)
        XCTAssertTrue(typo.stderr.contains("\nxcmedic: the command could not start at the bad revision \(made.hashes[8].prefix(10)): swfit: command not found; check the command after '--'"), typo.stderr)
        XCTAssertFalse(typo.stderr.contains("--rule"), typo.stderr)
        // A run whose command never started keeps no state folder.
        XCTAssertNil(made.repo.stateFolder)
        let passes = try bisect(made.repo, ["--good", made.hashes[0], "--bad", made.hashes[3], "--", "./build.sh"])
        XCTAssertEqual(passes.status, 2)
        XCTAssertTrue(passes.stderr.contains("passes: the command succeeded there (passed); nothing to bisect: give a --bad where it fails"), passes.stderr)
        XCTAssertEqual(try made.repo.snapshot(), before)
    }

    // MARK: - -j N

    /// A 64-commit range: -j 4 needs at most half the rounds of the serial bisect and blames the same
    /// commit; the worktrees are gone afterwards and the user's tree (dirty, on its branch) untouched.
    /// A second run reuses every verdict from the cache and runs the command only at the bad end.
    func testFourJobsNeedAtMostHalfTheRoundsAndTheCacheIsReused() throws {
        let made = try AppHistory.make(count: 64, culprit: 41, unrelated: nil)
        let repo = made.repo
        try repo.git("checkout", "-q", "-b", "work")
        let serial = try bisect(repo, ["--good", made.hashes[0], "--no-cache", "--format", "json", "--", "./build.sh"])
        XCTAssertEqual(serial.status, 0, serial.stderr)
        let serialDoc = try json(serial.stdout)
        let serialRounds = try XCTUnwrap(serialDoc["rounds"] as? Int)

        try repo.write("Sources/App/Feature3.swift", "struct Feature3 { let id = 3; let dirty = true }\n")
        let before = try repo.snapshot()
        let marker = repo.root.deletingLastPathComponent().appendingPathComponent("steps.txt")
        let parallel = try bisect(repo, ["--good", made.hashes[0], "-j", "4", "--format", "json", "--", "./build.sh"], env: ["STEP_MARKER": marker.path])
        XCTAssertEqual(parallel.status, 0, parallel.stderr)
        let doc = try json(parallel.stdout)
        XCTAssertEqual((doc["culprit"] as? [String: Any])?["hash"] as? String, made.culprit, parallel.stdout)
        XCTAssertEqual((serialDoc["culprit"] as? [String: Any])?["hash"] as? String, made.culprit)
        let rounds = try XCTUnwrap(doc["rounds"] as? Int)
        XCTAssertEqual(doc["jobs"] as? Int, 4)
        XCTAssertLessThanOrEqual(rounds * 2, serialRounds, "-j 4: \(rounds) rounds, serial: \(serialRounds)")
        XCTAssertEqual(try repo.snapshot(), before)
        XCTAssertEqual(try repo.git("worktree", "list", "--porcelain").split(separator: "\n").filter { $0.hasPrefix("worktree ") }, ["worktree \(repo.root.path)"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.root.appendingPathComponent(".git/xcmedic/worktrees").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.root.appendingPathComponent(".git/xcmedic/running.json").path))
        // Progress: each round says what it tests; the text table lists every commit tried.
        XCTAssertTrue(parallel.stderr.contains("xcmedic: round 1 of about 3, 64 commits left: testing 4 at once: "), parallel.stderr)

        // Again: the bad end runs (its output gives the failure to look for); every other verdict is cached.
        let ran = (try String(contentsOf: marker, encoding: .utf8)).split(separator: "\n").count
        let again = try bisect(repo, ["--good", made.hashes[0], "-j", "4", "--", "./build.sh"], env: ["STEP_MARKER": marker.path])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.hasPrefix("xcmedic: first bad commit \(made.culprit)\n"), again.stdout)
        XCTAssertEqual((try String(contentsOf: marker, encoding: .utf8)).split(separator: "\n").count, ran + 1)
        XCTAssertTrue(again.stdout.contains("Commits tried:"), again.stdout)
        XCTAssertTrue(again.stdout.contains("cached"), again.stdout)
        XCTAssertEqual(try repo.snapshot(), before)
    }

    /// Skips around the middle (an unrelated break): with -j 3 the neighbours of a skipped commit are
    /// tested in the next round, and the culprit is still found.
    func testSkippedCommitsNeighboursAreTestedAndTheCulpritFound() throws {
        let made = try AppHistory.make(count: 40, culprit: 31, unrelated: 17..<25)
        let r = try bisect(made.repo, ["--good", made.hashes[0], "-j", "3", "--format", "json", "--", "./build.sh"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try json(r.stdout)
        XCTAssertEqual((doc["culprit"] as? [String: Any])?["hash"] as? String, made.culprit, r.stdout)
        XCTAssertGreaterThan(doc["skips"] as? Int ?? 0, 0, r.stdout)
    }

    /// Skips right before the culprit leave candidates; the text report says which were skipped and why.
    func testCandidatesSayWhichWereSkippedAndWhy() throws {
        let made = try AppHistory.make(count: 30, culprit: 20, unrelated: 17..<20)
        let r = try bisect(made.repo, ["--good", made.hashes[0], "-j", "2", "--", "./build.sh"])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("xcmedic: no single first bad commit: skipped commits leave 4 candidates"), r.stdout)
        let lines = r.stdout.split(separator: "\n")
        // The culprit commit also undid the unrelated break, so the three before it are skipped.
        XCTAssertTrue(lines.contains { $0.hasPrefix("  \(made.culprit.prefix(10)) ") && $0.hasSuffix(" [tested bad]") }, r.stdout)
        XCTAssertEqual(lines.filter { $0.hasSuffix(" [skipped: other failure: no-such-module module=NetworkKit]") }.count, 3, r.stdout)
    }
}
