import Foundation
import XCTest

/// SIGKILL (an OOM kill, a CI timeout) and SIGHUP (a closed terminal) at each phase of a bisect:
/// nothing xcmedic started keeps running, and the repository ends exactly as it was (branch, HEAD,
/// index, work tree, stash, worktrees) — by xcmedic itself on SIGHUP, by `xcmedic bisect --recover`
/// after SIGKILL, which the next `xcmedic bisect` announces with what it will do.
final class BisectKillCLITests: XCTestCase {
    enum Phase: String { case stash, verify, bisect, report }

    /// Processes whose working folder or command line is inside the test's temporary folder.
    static func leftovers(_ folder: URL) -> [String] {
        let me = ProcessInfo.processInfo.processIdentifier
        var found: [String] = []
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap({ Int32($0) }) ?? [] where pid != me {
            let cwd = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")) ?? ""
            let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { String(decoding: $0, as: UTF8.self).replacingOccurrences(of: "\0", with: " ") } ?? ""
            if cwd.hasPrefix(folder.path) || cmdline.contains(folder.path) { found.append("\(pid) \(cmdline)") }
        }
        return found
    }

    func kill(at phase: Phase, signal: Int32, jobs: Int = 1) throws {
        #if !os(Linux)
        throw XCTSkip("the process check reads /proc")
        #endif
        let made = try AppHistory.make(count: 30, culprit: 20, unrelated: nil)
        let repo = made.repo
        // On a branch, with a stash of the user's own, an untracked file, a staged new file and a dirty tracked file.
        try repo.git("checkout", "-q", "-b", "work")
        try repo.write("Sources/App/App.swift", "struct App { let stashedByUser = 1 }\n")
        try repo.git("stash", "push", "-q", "-m", "user's own stash")
        try repo.write("notes.txt", "untracked notes\n")
        try repo.write("Sources/App/Staged.swift", "struct Staged {}\n")
        try repo.git("add", "Sources/App/Staged.swift")
        try repo.write("Sources/App/Feature3.swift", "struct Feature3 { let id = 3; let dirty = true }\n")
        let before = try repo.snapshot()
        let temp = repo.root.deletingLastPathComponent()
        let marker = temp.appendingPathComponent("steps.txt")
        func markerLines() -> Int { ((try? String(contentsOf: marker, encoding: .utf8)) ?? "").split(separator: "\n").count }
        func phaseFile() -> String {
            guard let folder = repo.stateFolder else { return "" }
            return (try? String(contentsOf: folder.appendingPathComponent("phase"), encoding: .utf8)) ?? ""
        }
        var env = ScriptedRepo.environment
        env["STEP_MARKER"] = marker.path
        env["SLOW_STEP"] = "1"
        if phase == .stash || phase == .report { env["XCMEDIC_BISECT_PAUSE"] = phase.rawValue }
        let args = ["bisect", "--no-config", "--no-cache", "--autostash", "--good", made.hashes[0], "-j", String(jobs), "--", "./build.sh"]
        let (process, out, err) = try CLI.start(args, cwd: repo.root, environment: env)
        let reached: Bool
        switch phase {
        case .stash, .report: reached = CLI.waitFor(90) { phaseFile().hasPrefix("\(phase.rawValue) (paused)") }
        case .verify: reached = CLI.waitFor(30) { markerLines() >= 1 }
        case .bisect: reached = CLI.waitFor(60) { markerLines() >= 3 }
        }
        XCTAssertTrue(reached, "phase \(phase) not reached")
        let atKill = markerLines()
        Foundation.kill(process.processIdentifier, signal)
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        // Nothing xcmedic started is left: not git, not the step, not the build nor what it started
        // (the watchers end them within their two seconds' grace), and no build starts after the kill
        // (one may have been starting at that very moment; in a parallel round, all `jobs` of the round start
        // together). Unwatched, git bisect run would go on checking out and building commits in the user's
        // tree, a build a second here (7 builds after the kill with the watcher switched off).
        XCTAssertTrue(CLI.waitFor(5) { Self.leftovers(temp).isEmpty }, "left running: \(Self.leftovers(temp))")
        usleep(1_500_000)
        XCTAssertLessThanOrEqual(markerLines(), atKill + jobs, "builds went on after xcmedic died")

        if signal == SIGKILL {
            XCTAssertEqual(process.terminationReason, .uncaughtSignal)
            // The next bisect says what --recover will do, and changes nothing.
            let stuck = try repo.snapshot()
            let next = try CLI.run(["bisect", "--no-config", "--good", made.hashes[0], "--", "./build.sh"], environment: ScriptedRepo.environment, cwd: repo.root)
            XCTAssertEqual(next.status, 2, next.stdout)
            XCTAssertTrue(next.stderr.contains("ended without putting the repository back; 'xcmedic bisect --recover' will: 1) "), next.stderr)
            XCTAssertEqual(try repo.snapshot(), stuck)
            let recovered = try CLI.run(["bisect", "--recover"], environment: ScriptedRepo.environment, cwd: repo.root)
            XCTAssertEqual(recovered.status, 0, recovered.stderr)
            XCTAssertTrue(recovered.stdout.hasPrefix("xcmedic: the repository is back as it was before the bisect:\n"), recovered.stdout)
        } else {
            XCTAssertEqual(process.terminationStatus, 128 + signal, stdout + stderr)
            XCTAssertTrue(stderr.contains("interrupted by SIGHUP; the repository is back as it was"), stderr)
            let recovered = try CLI.run(["bisect", "--recover"], environment: ScriptedRepo.environment, cwd: repo.root)
            XCTAssertEqual(recovered.stdout, "xcmedic: nothing to recover: no bisect left this repository half-done\n")
        }
        XCTAssertEqual(try repo.snapshot(), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.root.appendingPathComponent(".git/xcmedic/running.json").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.root.appendingPathComponent(".git/xcmedic/worktrees").path))
        // And the repository bisects again as usual.
        let again = try CLI.run(["bisect", "--no-config", "--autostash", "--good", made.hashes[0], "--", "./build.sh"], environment: ScriptedRepo.environment, cwd: repo.root)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try repo.snapshot(), before)
    }

    func testKillWhileStashing() throws { try kill(at: .stash, signal: SIGKILL) }
    func testKillWhileVerifying() throws { try kill(at: .verify, signal: SIGKILL) }
    func testKillDuringBisectRun() throws { try kill(at: .bisect, signal: SIGKILL) }
    func testKillDuringReport() throws { try kill(at: .report, signal: SIGKILL) }
    func testKillDuringParallelVerify() throws { try kill(at: .verify, signal: SIGKILL, jobs: 3) }
    func testKillDuringParallelRounds() throws { try kill(at: .bisect, signal: SIGKILL, jobs: 3) }
    func testHangUpWhileStashing() throws { try kill(at: .stash, signal: SIGHUP) }
    func testHangUpWhileVerifying() throws { try kill(at: .verify, signal: SIGHUP) }
    func testHangUpDuringBisectRun() throws { try kill(at: .bisect, signal: SIGHUP) }
    func testHangUpDuringReport() throws { try kill(at: .report, signal: SIGHUP) }
    func testHangUpDuringParallelRounds() throws { try kill(at: .bisect, signal: SIGHUP, jobs: 3) }
}
