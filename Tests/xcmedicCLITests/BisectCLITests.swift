import Foundation
import XCTest
import XCMedicTestSupport

/// `xcmedic bisect` on real git histories, with shell scripts as the build.
final class BisectCLITests: XCTestCase {
    func bisect(_ repo: ScriptedRepo, _ arguments: [String], env: [String: String] = [:]) throws -> CLI.Result {
        var environment = ScriptedRepo.environment
        for (k, v) in env { environment[k] = v }
        return try CLI.run(["bisect", "--no-config"] + arguments, environment: environment, cwd: repo.root)
    }

    func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    /// The acceptance case: an unrelated breakage straddles the middle of the range. Plain
    /// `git bisect run` with the same command blames it; xcmedic skips it and names the culprit.
    func testUnrelatedBreakageIsSkippedWherePlainGitBisectBlamesIt() throws {
        let made = try AppHistory.make(count: 40, culprit: 31, unrelated: 17..<25)
        let repo = made.repo
        try repo.git("checkout", "-q", "-b", "work")
        let before = try repo.snapshot()

        let r = try bisect(repo, ["--good", made.hashes[0], "--format", "json", "--", "./build.sh"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try json(r.stdout)
        let culprit = try XCTUnwrap(doc["culprit"] as? [String: Any], r.stdout)
        XCTAssertEqual(culprit["hash"] as? String, made.culprit, r.stdout)
        XCTAssertEqual(culprit["subject"] as? String, "Count launches in a global")
        XCTAssertEqual(culprit["author"] as? String, "Dana Tester <dana@example.com>")
        let steps = try XCTUnwrap(doc["steps"] as? [[String: Any]])
        let bisectSteps = steps.filter { $0["phase"] as? String == "bisect" }
        // Never blamed: every step inside the broken stretch was a skip, never bad.
        let broken = Set(made.hashes[17..<25])
        for step in bisectSteps where broken.contains(step["commit"] as! String) {
            XCTAssertEqual(step["verdict"] as? String, "skip", "\(step)")
            XCTAssertTrue((step["reason"] as? String ?? "").contains("no-such-module module=NetworkKit"), "\(step)")
        }
        let skips = doc["skips"] as! Int
        XCTAssertGreaterThan(skips, 0, "the middle of the range is broken, so some step must have been skipped")
        // Within about log2(range) + skips + 2.
        XCTAssertLessThanOrEqual(bisectSteps.count, Int(ceil(log2(40.0))) + skips + 2, "\(bisectSteps.count) steps")
        let failure = try XCTUnwrap((doc["failure"] as? [[String: Any]])?.first)
        XCTAssertTrue((failure["message"] as? String ?? "").contains("'sharedCounter' is global mutable state"), "\(failure)")
        let changes = try XCTUnwrap(doc["changes"] as? [String: Any])
        let areas = try XCTUnwrap(changes["areas"] as? [[String: Any]])
        XCTAssertTrue(areas.contains { ($0["files"] as? [[String: Any]] ?? []).contains { $0["path"] as? String == "Sources/App/Counter.swift" } }, "\(areas)")
        XCTAssertEqual(doc["reproduce"] as? String, "git checkout \(made.culprit.prefix(12)) && ./build.sh")
        // The state folder keeps every step's output and git's bisect log.
        let folder = try XCTUnwrap(doc["stateFolder"] as? String)
        XCTAssertTrue(folder.hasPrefix(repo.root.path + "/.git/xcmedic/bisect-"), folder)
        let log = try String(contentsOfFile: folder + "/bisect-log.txt", encoding: .utf8)
        XCTAssertTrue(log.contains("# first bad commit: [\(made.culprit)]"), log)
        for step in steps { XCTAssertTrue(FileManager.default.fileExists(atPath: step["log"] as! String), "\(step)") }
        XCTAssertEqual(try repo.snapshot(), before)

        // Plain git bisect run, same command: blames the commit that broke the import.
        try repo.git("bisect", "start", made.hashes[40], made.hashes[0])
        let plain = try repo.git("bisect", "run", "./build.sh")
        try repo.git("bisect", "reset")
        XCTAssertTrue(plain.contains("\(made.unrelatedStart!) is the first bad commit"), plain)
        XCTAssertNotEqual(made.unrelatedStart, made.culprit)
    }

    func testTextReportNamesCulpritStepsAndReproduce() throws {
        let made = try AppHistory.make(count: 32, culprit: 9, unrelated: nil)
        let mark = try CLI.run(["mark-good", made.hashes[0]], environment: ScriptedRepo.environment, cwd: made.repo.root)
        XCTAssertEqual(mark.status, 0, mark.stderr)
        let r = try bisect(made.repo, ["--good", "last-good", "--", "./build.sh"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("xcmedic: first bad commit \(made.culprit)\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("subject: Count launches in a global"), r.stdout)
        XCTAssertTrue(r.stdout.contains("error: var 'sharedCounter' is not concurrency-safe"), r.stdout)
        XCTAssertTrue(r.stdout.contains("A Sources/App/Counter.swift"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Reproduce: git checkout \(made.culprit.prefix(12)) && ./build.sh"), r.stdout)
        XCTAssertTrue(r.stdout.contains("0 skipped"), r.stdout)
        XCTAssertEqual(try made.repo.git("symbolic-ref", "--short", "HEAD"), "main")
    }

    /// The build fails like the real defect on the first run at every commit. Without retries the
    /// good end already "fails the same way"; with one retry each flake passes and the culprit is right.
    func testFlakyStepNeedsRetries() throws {
        let made = try AppHistory.make(count: 30, culprit: 20, unrelated: nil)
        let flakes = made.repo.root.deletingLastPathComponent().appendingPathComponent("flakes")
        try FileManager.default.createDirectory(at: flakes, withIntermediateDirectories: true)
        let noRetry = try bisect(made.repo, ["--good", made.hashes[0], "--", "./build.sh"], env: ["FLAKE_DIR": flakes.path])
        XCTAssertEqual(noRetry.status, 2, noRetry.stdout)
        // Run once more, the good end passes: the advice is --retries, not an older --good.
        XCTAssertTrue(noRetry.stderr.contains("the good revision \(made.hashes[0].prefix(10)) failed the same way ("), noRetry.stderr)
        XCTAssertTrue(noRetry.stderr.contains("then passed when run again: the build is flaky; run the bisect with --retries 1 (or more)"), noRetry.stderr)

        try FileManager.default.removeItem(at: flakes)
        try FileManager.default.createDirectory(at: flakes, withIntermediateDirectories: true)
        let r = try bisect(made.repo, ["--good", made.hashes[0], "--retries", "1", "--format", "json", "--", "./build.sh"], env: ["FLAKE_DIR": flakes.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try json(r.stdout)
        XCTAssertEqual((doc["culprit"] as? [String: Any])?["hash"] as? String, made.culprit, r.stdout)
        let steps = doc["steps"] as! [[String: Any]]
        XCTAssertTrue(steps.contains { $0["verdict"] as? String == "good" && $0["attempts"] as? Int == 2 }, "\(steps)")
        XCTAssertTrue(steps.contains { ($0["reason"] as? String ?? "").hasPrefix("passed on attempt 2 of 2") }, "\(steps)")
    }

    /// A feature branch breaks the build inside it and is merged; --first-parent blames the merge
    /// and tests only commits of the main line.
    func testFirstParentBlamesTheMerge() throws {
        let made = try AppHistory.make(count: 30, culprit: 1000, unrelated: nil)
        let repo = made.repo
        try repo.git("checkout", "-q", "-b", "feature", made.hashes[10])
        var inside: [String] = []
        for i in 1...6 {
            try repo.write("Sources/App/Branch\(i).swift", "struct Branch\(i) {}\n")
            if i == 3 { try repo.write("Sources/App/Counter.swift", "import Foundation\n\nvar sharedCounter = 0\n") }
            inside.append(try repo.commit(i == 3 ? "Count launches in a global" : "Branch work \(i)"))
        }
        try repo.git("checkout", "-q", "main")
        try repo.git("merge", "-q", "--no-ff", "-m", "Merge feature", "feature")
        let merge = try repo.git("rev-parse", "HEAD")
        for i in 1...5 {
            try repo.write("Sources/App/After\(i).swift", "struct After\(i) {}\n")
            try repo.commit("After merge \(i)")
        }
        let mainLine = Set(try repo.git("rev-list", "--first-parent", "HEAD").split(separator: "\n").map(String.init))

        let r = try bisect(repo, ["--good", made.hashes[0], "--first-parent", "--format", "json", "--", "./build.sh"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try json(r.stdout)
        XCTAssertEqual((doc["culprit"] as? [String: Any])?["hash"] as? String, merge, r.stdout)
        for step in doc["steps"] as! [[String: Any]] { XCTAssertTrue(mainLine.contains(step["commit"] as! String), "\(step)") }

        let plain = try bisect(repo, ["--good", made.hashes[0], "--format", "json", "--", "./build.sh"])
        XCTAssertEqual(((try json(plain.stdout))["culprit"] as? [String: Any])?["hash"] as? String, inside[2], plain.stdout)
        XCTAssertEqual(try repo.git("symbolic-ref", "--short", "HEAD"), "main")
    }

    /// The commits just before the culprit are broken otherwise: git cannot tell which of them came
    /// first, so the report lists the candidates (and exits 1) instead of guessing.
    func testSkipsNextToTheCulpritLeaveCandidates() throws {
        let made = try AppHistory.make(count: 30, culprit: 12, unrelated: 10..<15)
        let r = try bisect(made.repo, ["--good", made.hashes[0], "--format", "json", "--", "./build.sh"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let doc = try json(r.stdout)
        XCTAssertEqual(doc["result"] as? String, "candidates")
        XCTAssertNil(doc["culprit"] as? [String: Any])
        let candidates = Set((doc["candidates"] as? [[String: Any]] ?? []).compactMap { $0["hash"] as? String })
        XCTAssertTrue(candidates.contains(made.culprit), "\(candidates)")
        XCTAssertTrue(candidates.isSubset(of: Set(made.hashes[10...12])), "\(candidates)")
        let text = try bisect(made.repo, ["--good", made.hashes[0], "--", "./build.sh"])
        XCTAssertTrue(text.stdout.hasPrefix("xcmedic: no single first bad commit: skipped commits leave \(candidates.count) candidates\n"), text.stdout)
    }

    /// A build that rewrites a tracked file (as `swift build` does to Package.resolved) must not stop
    /// git from checking out the next commit.
    func testCommandThatChangesTrackedFilesDoesNotBlockTheBisect() throws {
        let made = try AppHistory.make(count: 30, culprit: 22, unrelated: nil)
        try made.repo.git("checkout", "-q", "-b", "work")
        let before = try made.repo.snapshot()
        let r = try bisect(made.repo, ["--good", made.hashes[0], "--format", "json", "--", "sh", "-c", "echo '// generated' >> Sources/App/App.swift; ./build.sh"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try json(r.stdout)
        XCTAssertEqual((doc["culprit"] as? [String: Any])?["hash"] as? String, made.culprit, r.stdout)
        XCTAssertTrue((doc["steps"] as! [[String: Any]]).allSatisfy { ($0["reason"] as! String).contains("reset after the step") }, r.stdout)
        XCTAssertEqual(try made.repo.snapshot(), before)
    }

    /// Commits 15 to 18 hang; --timeout ends them (and the sleep they started) and skips them.
    func testTimeoutSkipsHangingCommits() throws {
        let made = try AppHistory.make(count: 30, culprit: 25, unrelated: nil)
        let hang = "if [ -e Sources/App/Feature15.swift ] && [ ! -e Sources/App/Feature19.swift ]; then sleep 60; fi; exec ./build.sh"
        let started = Date()
        let r = try bisect(made.repo, ["--good", made.hashes[0], "--timeout", "2", "--format", "json", "--", "sh", "-c", hang])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try json(r.stdout)
        XCTAssertEqual((doc["culprit"] as? [String: Any])?["hash"] as? String, made.culprit, r.stdout)
        let skipped = (doc["steps"] as! [[String: Any]]).filter { $0["verdict"] as? String == "skip" }
        XCTAssertFalse(skipped.isEmpty, r.stdout)
        for step in skipped {
            XCTAssertEqual(step["reason"] as? String, "timed out after 2s")
            XCTAssertTrue(Set(made.hashes[15...18]).contains(step["commit"] as! String), "\(step)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "a hanging step must not wait for its sleep")
    }

    /// When the good revision is the bad one's parent, git names the culprit without a step.
    func testAdjacentEndpoints() throws {
        let made = try AppHistory.make(count: 30, culprit: 30, unrelated: nil)
        let r = try bisect(made.repo, ["--good", made.hashes[29], "--format", "json", "--", "./build.sh"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try json(r.stdout)
        XCTAssertEqual((doc["culprit"] as? [String: Any])?["hash"] as? String, made.culprit, r.stdout)
        XCTAssertEqual(doc["stepCount"] as? Int, 0)
        XCTAssertEqual((doc["failure"] as? [[String: Any]])?.count, 1, r.stdout)
        XCTAssertEqual(try made.repo.git("symbolic-ref", "--short", "HEAD"), "main")
    }

    func testDirtyTreeIsRefusedAndAutostashRestoresIt() throws {
        let made = try AppHistory.make(count: 30, culprit: 12, unrelated: nil)
        let repo = made.repo
        try repo.write("Sources/App/App.swift", "struct App { var edited = true }\n")
        let before = try repo.snapshot()
        let r = try bisect(repo, ["--good", made.hashes[0], "--", "./build.sh"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderr, "xcmedic: uncommitted changes to tracked files (Sources/App/App.swift); commit or stash them, or pass --autostash (or -j 2 or more, which never touches your tree)\n")
        XCTAssertEqual(try repo.snapshot(), before)
        XCTAssertNil(repo.stateFolder, "a refused bisect leaves nothing behind")

        let stashed = try bisect(repo, ["--good", made.hashes[0], "--autostash", "--", "./build.sh"])
        XCTAssertEqual(stashed.status, 0, stashed.stderr)
        XCTAssertTrue(stashed.stdout.contains(made.culprit), stashed.stdout)
        XCTAssertEqual(try repo.snapshot(), before)

        // -j 2: the commits are checked out in xcmedic's own worktrees, so the dirty tree needs no stash.
        let parallel = try bisect(repo, ["--good", made.hashes[0], "-j", "2", "--no-cache", "--", "./build.sh"])
        XCTAssertEqual(parallel.status, 0, parallel.stderr)
        XCTAssertTrue(parallel.stdout.hasPrefix("xcmedic: first bad commit \(made.culprit)\n"), parallel.stdout)
        XCTAssertEqual(try repo.snapshot(), before)
        XCTAssertEqual(try repo.git("worktree", "list", "--porcelain").split(separator: "\n").filter { $0.hasPrefix("worktree ") }.count, 1)
    }

    func testRefusalsOutsideARepositoryAndDuringABisect() throws {
        let outside = Scratch.url("xcmedic-not-git")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        let r = try CLI.run(["bisect", "--good", "HEAD~3", "--", "true"], environment: ScriptedRepo.environment, cwd: outside)
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderr, "xcmedic: \(outside.path) is not inside a git work tree\n")

        let made = try AppHistory.make(count: 30, culprit: 12, unrelated: nil)
        try made.repo.git("bisect", "start", made.hashes[30], made.hashes[0])
        let busy = try bisect(made.repo, ["--good", made.hashes[0], "--", "./build.sh"])
        XCTAssertEqual(busy.status, 2)
        XCTAssertTrue(busy.stderr.contains("a git bisect is already in progress"), busy.stderr)
        try made.repo.git("bisect", "reset")

        let noRef = try bisect(made.repo, ["--good", "last-good", "--", "./build.sh"])
        XCTAssertEqual(noRef.status, 2)
        XCTAssertTrue(noRef.stderr.contains("run 'xcmedic mark-good' on a green build"), noRef.stderr)
    }

    func testEndpointsThatDoNotBehaveAreNamed() throws {
        let made = try AppHistory.make(count: 30, culprit: 12, unrelated: nil)
        let before = try made.repo.snapshot()
        let goodFails = try bisect(made.repo, ["--good", made.hashes[15], "--", "./build.sh"])
        XCTAssertEqual(goodFails.status, 2)
        XCTAssertTrue(goodFails.stderr.contains("the good revision \(made.hashes[15].prefix(10)) already fails the same way"), goodFails.stderr)
        let badPasses = try bisect(made.repo, ["--good", made.hashes[0], "--bad", made.hashes[5], "--", "./build.sh"])
        XCTAssertEqual(badPasses.status, 2)
        XCTAssertTrue(badPasses.stderr.contains("the bad revision \(made.hashes[5].prefix(10)) passes"), badPasses.stderr)
        let wrongRule = try bisect(made.repo, ["--good", made.hashes[0], "--rule", "macro-not-trusted", "--", "./build.sh"])
        XCTAssertEqual(wrongRule.status, 2)
        XCTAssertTrue(wrongRule.stderr.contains("fails, but not with --rule macro-not-trusted"), wrongRule.stderr)
        XCTAssertEqual(try made.repo.snapshot(), before)
    }

    /// A command that cannot start (exit 127 from the shell) is skipped, never "bad" as git would count it.
    func testCommandThatCannotStartIsSkippedNotBlamed() throws {
        let made = try AppHistory.make(count: 30, culprit: 25, unrelated: nil)
        let repo = made.repo
        // Commits 13..<18, around the middle of the range, have no build.sh at all.
        try repo.git("checkout", "-q", "-b", "rewritten", made.hashes[9])
        let script = try repo.read("build.sh")
        for i in 10...30 {
            try repo.git("cherry-pick", made.hashes[i])
            if i == 13 { try repo.remove("build.sh"); try repo.git("commit", "-q", "--amend", "-a", "--no-edit") }
            if i == 18 { try repo.write("build.sh", script, executable: true); try repo.git("add", "build.sh"); try repo.git("commit", "-q", "--amend", "--no-edit") }
        }
        let culprit = try repo.git("log", "--format=%H", "--grep", "Count launches", "-1")
        let r = try bisect(repo, ["--good", made.hashes[0], "--format", "json", "--", "sh", "-c", "./build.sh"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try json(r.stdout)
        XCTAssertEqual((doc["culprit"] as? [String: Any])?["hash"] as? String, culprit, r.stdout)
        let skipped = (doc["steps"] as! [[String: Any]]).filter { $0["verdict"] as? String == "skip" }
        XCTAssertFalse(skipped.isEmpty, r.stdout)
        XCTAssertTrue(skipped.allSatisfy { $0["phase"] as? String == "bisect" }, r.stdout)
        for step in skipped { XCTAssertTrue((step["reason"] as! String).contains("exit 127 means command not found"), "\(step)") }

        // Plain git bisect run counts exit 127 as bad and blames the commit that removed the script.
        try repo.git("bisect", "start", "HEAD", made.hashes[0])
        let plain = try repo.git("bisect", "run", "sh", "-c", "./build.sh")
        try repo.git("bisect", "reset")
        XCTAssertTrue(plain.contains("is the first bad commit"), plain)
        XCTAssertFalse(plain.contains("\(culprit) is the first bad commit"), plain)
    }
}

/// SIGINT at each phase (and SIGTERM) leaves branch, work tree and stash exactly as they were.
final class BisectInterruptCLITests: XCTestCase {
    enum Phase { case verify, bisect, report }

    func interrupt(at phase: Phase, signal: Int32 = SIGINT) throws {
        let made = try AppHistory.make(count: 30, culprit: 20, unrelated: nil)
        let repo = made.repo
        try repo.git("checkout", "-q", "-b", "work")
        // A stash of the user's own, an untracked file, and a dirty tracked file for --autostash.
        try repo.write("Sources/App/App.swift", "struct App { let stashedByUser = 1 }\n")
        try repo.git("stash", "push", "-q", "-m", "user's own stash")
        try repo.write("notes.txt", "untracked notes\n")
        try repo.write("Sources/App/Feature3.swift", "struct Feature3 { let id = 3; let dirty = true }\n")
        let before = try repo.snapshot()

        let marker = repo.root.deletingLastPathComponent().appendingPathComponent("steps.txt")
        var env = ScriptedRepo.environment
        env["STEP_MARKER"] = marker.path
        env["SLOW_STEP"] = phase == .report ? "" : "1"
        if phase == .report { env["XCMEDIC_BISECT_PAUSE"] = "report" }
        let (process, out, err) = try CLI.start(["bisect", "--no-config", "--autostash", "--good", made.hashes[0], "--", "./build.sh"], cwd: repo.root, environment: env)
        func markerLines() -> Int { ((try? String(contentsOf: marker, encoding: .utf8)) ?? "").split(separator: "\n").count }
        let reached: Bool
        switch phase {
        case .verify: reached = CLI.waitFor(30) { markerLines() >= 1 }
        case .bisect: reached = CLI.waitFor(60) { markerLines() >= 3 }
        case .report:
            reached = CLI.waitFor(60) {
                guard let folder = repo.stateFolder else { return false }
                return ((try? String(contentsOf: folder.appendingPathComponent("phase"), encoding: .utf8)) ?? "").hasPrefix("report (paused)")
            }
        }
        XCTAssertTrue(reached, "phase \(phase) not reached")
        kill(process.processIdentifier, signal)
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 128 + signal, stdout + stderr)
        XCTAssertTrue(stderr.contains("interrupted by \(signal == SIGINT ? "SIGINT" : "SIGTERM"); the repository is back as it was"), stderr)
        XCTAssertEqual(try repo.snapshot(), before)
        // Nothing of the step is left running: the marker stops growing.
        let lines = markerLines()
        usleep(1_500_000)
        XCTAssertEqual(markerLines(), lines)
    }

    func testInterruptWhileVerifyingEndpoints() throws { try interrupt(at: .verify) }
    func testInterruptDuringBisectRun() throws { try interrupt(at: .bisect) }
    func testInterruptDuringReport() throws { try interrupt(at: .report) }
    func testTerminateDuringBisectRun() throws { try interrupt(at: .bisect, signal: SIGTERM) }
}
