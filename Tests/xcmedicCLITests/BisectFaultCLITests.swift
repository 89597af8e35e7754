import Foundation
import XCTest

/// Faults injected during a bisect (on top of BisectInterruptCLITests): the command or the step killed
/// with SIGKILL, git failing, another git holding the index, the disk full for the step logs. Each
/// leaves branch, HEAD, work tree (tracked and untracked), index and stash as they were, and says
/// what happened in one line.
final class BisectFaultCLITests: XCTestCase {
    struct Setup {
        var made: AppHistory.Made
        var repo: ScriptedRepo { made.repo }
        var before: [String]
        var marker: URL
        var env: [String: String]
        func markerLines() -> Int { ((try? String(contentsOf: marker, encoding: .utf8)) ?? "").split(separator: "\n").count }
    }

    /// The user's repository in the state the interrupt tests use: on a branch, with a stash of their
    /// own, an untracked file, a staged new file and a dirty tracked file (so --autostash has work).
    func setup() throws -> Setup {
        let made = try AppHistory.make(count: 30, culprit: 20, unrelated: nil)
        let repo = made.repo
        try repo.git("checkout", "-q", "-b", "work")
        try repo.write("Sources/App/App.swift", "struct App { let stashedByUser = 1 }\n")
        try repo.git("stash", "push", "-q", "-m", "user's own stash")
        try repo.write("notes.txt", "untracked notes\n")
        try repo.write("Sources/App/Staged.swift", "struct Staged {}\n")
        try repo.git("add", "Sources/App/Staged.swift")
        try repo.write("Sources/App/Feature3.swift", "struct Feature3 { let id = 3; let dirty = true }\n")
        let marker = repo.root.deletingLastPathComponent().appendingPathComponent("steps.txt")
        var env = ScriptedRepo.environment
        env["STEP_MARKER"] = marker.path
        return Setup(made: made, before: try repo.snapshot(), marker: marker, env: env)
    }

    func bisect(_ s: Setup, _ command: [String], env: [String: String]? = nil, extra: [String] = []) throws -> CLI.Result {
        try CLI.run(["bisect", "--no-config", "--autostash", "--good", s.made.hashes[0]] + extra + ["--"] + command,
                    environment: env ?? s.env, cwd: s.repo.root)
    }

    /// A shell condition true at commits lo..<hi of the history (by the feature files they add).
    func atCommits(_ lo: Int, _ hi: Int) -> String { "[ -e Sources/App/Feature\(lo).swift ] && [ ! -e Sources/App/Feature\(hi).swift ]" }

    // MARK: - SIGKILL

    /// The command is killed (the OOM killer, a runner's watchdog) at some commits: those are skipped,
    /// never blamed, and the culprit is still found.
    func testCommandKilledMidStepIsSkipped() throws {
        let s = try setup()
        let r = try bisect(s, ["sh", "-c", "if \(atCommits(12, 18)); then kill -KILL $$; fi; exec ./build.sh"], extra: ["--format", "json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
        XCTAssertEqual((doc["culprit"] as? [String: Any])?["hash"] as? String, s.made.culprit, r.stdout)
        let skipped = (doc["steps"] as! [[String: Any]]).filter { $0["verdict"] as? String == "skip" }
        XCTAssertFalse(skipped.isEmpty, r.stdout)
        for step in skipped { XCTAssertTrue((step["reason"] as! String).contains("ended by signal 9"), "\(step)") }
        XCTAssertEqual(try s.repo.snapshot(), s.before)
    }

    /// The step itself (xcmedic bisect-step) is killed: git bisect run stops; xcmedic says so in one
    /// line and puts everything back.
    func testStepKilledMidStepStopsTheBisectCleanly() throws {
        let s = try setup()
        let r = try bisect(s, ["sh", "-c", "if \(atCommits(8, 23)); then kill -KILL $PPID; sleep 1; fi; exec ./build.sh"])
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        let last = r.stderr.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(last.hasPrefix("xcmedic: the step at "), r.stderr)
        XCTAssertTrue(last.contains(" ended without a verdict (killed by signal 9), so git bisect run stopped; its output: "), r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(try s.repo.snapshot(), s.before)
    }

    // MARK: - git failing

    /// A `git` earlier on PATH that fails the Nth call of one git subcommand, then works again.
    func failingGit(_ s: Setup, subcommand: String, at n: Int) throws -> [String: String] {
        let dir = s.repo.root.deletingLastPathComponent().appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let real = try XCTUnwrap(ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
            .map { "\($0)/git" }.first { FileManager.default.isExecutableFile(atPath: $0) })
        let count = dir.appendingPathComponent("count").path
        let script = """
        #!/bin/sh
        # Fails call number \(n) of 'git \(subcommand)' (with or without -C DIR before it).
        sub=$1; [ "$1" = "-C" ] && sub=$3
        if [ "$sub" = "\(subcommand)" ]; then
          k=$(( $(cat '\(count)' 2>/dev/null || echo 0) + 1 )); echo $k > '\(count)'
          if [ $k = \(n) ]; then echo "fatal: injected failure of git \(subcommand)" >&2; exit 128; fi
        fi
        exec '\(real)' "$@"

        """
        try Data(script.utf8).write(to: dir.appendingPathComponent("git"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.appendingPathComponent("git").path)
        var env = s.env
        env["PATH"] = dir.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        return env
    }

    /// `git checkout` fails when the bisect moves to the good revision.
    func testGitCheckoutFailingWhileVerifying() throws {
        let s = try setup()
        let r = try bisect(s, ["./build.sh"], env: try failingGit(s, subcommand: "checkout", at: 2))
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.hasSuffix("xcmedic: git checkout --quiet --detach failed: fatal: injected failure of git checkout\n"), r.stderr)
        XCTAssertEqual(try s.repo.snapshot(), s.before)
    }

    /// `git bisect log` fails while git's bisect is in progress: it is ended and everything put back.
    func testGitFailingDuringTheBisect() throws {
        let s = try setup()
        let r = try bisect(s, ["./build.sh"], env: try failingGit(s, subcommand: "bisect", at: 2))
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.hasSuffix("xcmedic: git bisect log failed: fatal: injected failure of git bisect\n"), r.stderr)
        XCTAssertEqual(try s.repo.snapshot(), s.before)
    }

    // MARK: - A locked index

    /// Another git holds `.git/index.lock` in the middle of the run: git bisect cannot check out the
    /// next commit; xcmedic waits for the lock to go and puts everything back.
    func testIndexLockedMidRun() throws {
        let s = try setup()
        var env = s.env
        env["SLOW_STEP"] = "1"
        let (process, out, err) = try CLI.start(["bisect", "--no-config", "--autostash", "--good", s.made.hashes[0], "--", "./build.sh"],
                                                cwd: s.repo.root, environment: env)
        XCTAssertTrue(CLI.waitFor(60) { s.markerLines() >= 3 }, "the bisect did not reach its second step")
        let lock = s.repo.root.appendingPathComponent(".git/index.lock")
        XCTAssertTrue(FileManager.default.createFile(atPath: lock.path, contents: nil))
        usleep(3_000_000)
        try FileManager.default.removeItem(at: lock)
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 2, stdout + stderr)
        let last = stderr.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(last.hasPrefix("xcmedic: git bisect run failed: "), stderr)
        XCTAssertEqual(try s.repo.snapshot(), s.before)
    }

    /// A lock that stays (a crashed git): xcmedic cannot put the repository back and says exactly what to do.
    func testIndexLockThatStaysIsNamedWithTheWayBack() throws {
        let s = try setup()
        let lock = s.repo.root.appendingPathComponent(".git/index.lock")
        let r = try bisect(s, ["sh", "-c", "if \(atCommits(8, 23)); then : > .git/index.lock; fi; exec ./build.sh"])
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        let lines = r.stderr.split(separator: "\n")
        let last = String(lines.last ?? "")
        XCTAssertTrue(last.contains("\(lock.path) exists: another git process is running, or one crashed; when no git runs, delete it, then run: git bisect reset && git checkout work && git stash pop --index"), r.stderr)
        // Following the line gives the repository back.
        try FileManager.default.removeItem(at: lock)
        try s.repo.git("bisect", "reset")
        try s.repo.git("checkout", "-q", "work")
        try s.repo.git("stash", "pop", "-q", "--index")
        XCTAssertEqual(try s.repo.snapshot(), s.before)
    }

    // MARK: - Disk full

    /// The step logs cannot be written past a file-size limit (`ulimit -f`: writes fail with EFBIG as they
    /// fail with ENOSPC on a full disk), while git's own small files still can. The build's output is cut;
    /// xcmedic stops instead of judging commits by half a log, and puts everything back.
    func testDiskFullForStepLogsStopsTheBisect() throws {
        let s = try setup()
        // 64 KiB per file: the index, git's logs and the state files fit; a verbose build's log does not.
        let noisy = "yes 'Compiling App Feature.swift' | head -n 4000; exec ./build.sh"
        let r = try CLI.run(["-c", "ulimit -f 128; exec \"$0\" \"$@\"", CLI.binary.path,
                             "bisect", "--no-config", "--autostash", "--good", s.made.hashes[0], "--", "sh", "-c", noisy],
                            environment: s.env, cwd: s.repo.root, executable: URL(fileURLWithPath: "/bin/sh"))
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        let last = r.stderr.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(last.hasPrefix("xcmedic: cannot write the step's output "), r.stderr)
        XCTAssertTrue(last.hasSuffix(": File too large; free some space, then run the bisect again"), r.stderr)
        XCTAssertEqual(try s.repo.snapshot(), s.before)
    }

    /// The same during `git bisect run` (the endpoints' logs fit; the bisect steps' do not).
    func testDiskFullDuringBisectRunStopsTheBisect() throws {
        let s = try setup()
        let noisy = "if \(atCommits(5, 25)); then yes 'Compiling App Feature.swift' | head -n 4000; fi; exec ./build.sh"
        let r = try CLI.run(["-c", "ulimit -f 128; exec \"$0\" \"$@\"", CLI.binary.path,
                             "bisect", "--no-config", "--autostash", "--good", s.made.hashes[0], "--", "sh", "-c", noisy],
                            environment: s.env, cwd: s.repo.root, executable: URL(fileURLWithPath: "/bin/sh"))
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        let last = r.stderr.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(last.hasPrefix("xcmedic: cannot write the step's output "), r.stderr)
        XCTAssertTrue(last.contains("step-03-"), r.stderr)
        XCTAssertEqual(try s.repo.snapshot(), s.before)
    }
}
