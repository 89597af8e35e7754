import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the repository was before a bisect changed anything, written to `.git/xcmedic/running.json`
/// before the first change and deleted once everything is back. A bisect that dies without putting
/// the repository back (SIGKILL, an OOM kill, a power cut) leaves it; the next `xcmedic bisect` finds
/// it, says what it will do, and `xcmedic bisect --recover` does it.
public struct RecoveryRecord: Sendable, Codable, Equatable {
    public var version = 1
    /// The xcmedic that wrote it.
    public var pid: Int32
    /// ISO 8601, UTC.
    public var started: String
    /// The branch HEAD was on, or nil when it was detached.
    public var branch: String?
    public var head: String
    /// The stash list (commit hashes, newest first) before the bisect.
    public var stashBefore: [String]
    /// `--autostash`: the stash commit holding the user's changes to tracked files (index and work
    /// tree), made with `git stash create` and recorded here before it is stored and the tree reset.
    public var autostash: String?
    /// `-j N`: the `git worktree` checkouts xcmedic made (none of them is the user's tree).
    public var worktrees: [String]
    public var stateFolder: String
}

/// One thing recovery does, in the order it does them.
public enum RecoveryAction: Sendable, Equatable, CustomStringConvertible {
    case discardCommandChanges(at: String)
    case endGitBisect
    case checkout(branch: String?, head: String)
    case reapplyStash(hash: String, index: Int?)
    case removeWorktree(String)
    case forgetRecord

    public var description: String {
        switch self {
        case .discardCommandChanges(let at):
            return "discard changes to tracked files at \(at.prefix(10)) (the build's, not yours: yours are in the autostash or there were none) with git reset --hard"
        case .endGitBisect: return "end git's bisect (git bisect reset)"
        case .checkout(let branch?, let head): return "check out branch \(branch) (it was at \(head.prefix(10)))"
        case .checkout(nil, let head): return "check out \(head.prefix(10)) (detached, as it was)"
        case .reapplyStash(let hash, let index?):
            return "re-apply your changes (index and work tree) from stash@{\(index)} \(hash.prefix(10)) and drop that entry (git stash pop --index)"
        case .reapplyStash(let hash, nil):
            return "re-apply your changes (index and work tree) from the stash commit \(hash.prefix(10)) (git stash apply --index)"
        case .removeWorktree(let path): return "remove xcmedic's worktree \(path) (git worktree remove --force)"
        case .forgetRecord: return "delete the record \(BisectRecovery.fileName)"
        }
    }
}

public enum BisectRecovery {
    public static let fileName = "running.json"

    static func path(_ git: Git) throws -> String {
        ((try git.gitDirectory() as NSString).appendingPathComponent("xcmedic") as NSString).appendingPathComponent(fileName)
    }

    public static func load(_ git: Git) -> RecoveryRecord? {
        guard let path = try? path(git), let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(RecoveryRecord.self, from: data)
    }

    /// Written to a temporary file and renamed: a record is whole or absent.
    static func write(_ record: RecoveryRecord, _ git: Git) throws {
        let path = try path(git)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let temp = path + ".tmp-\(getpid())"
        try encoder.encode(record).write(to: URL(fileURLWithPath: temp))
        guard rename(temp, path) == 0 else { throw BisectError.refused("cannot write \(path): \(String(cString: strerror(errno)))") }
    }

    static func remove(_ git: Git) {
        if let path = try? path(git) { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The xcmedic that wrote the record is still running (not a zombie, not a reused pid).
    public static func ownerIsAlive(_ record: RecoveryRecord) -> Bool {
        guard record.pid != getpid(), kill(record.pid, 0) == 0 || errno == EPERM else { return false }
        #if os(Linux)
        // A killed process not yet reaped has no command line; a reused pid has someone else's.
        guard let cmdline = FileManager.default.contents(atPath: "/proc/\(record.pid)/cmdline") else { return false }
        return String(decoding: cmdline, as: UTF8.self).contains("bisect")
        #else
        return true
        #endif
    }

    /// What `recover` will do to the repository as it is now.
    public static func plan(_ record: RecoveryRecord, _ git: Git) throws -> [RecoveryAction] {
        var actions: [RecoveryAction] = []
        let head = try git.line("rev-parse", "HEAD")
        let branch = git.currentBranch()
        let stash = try git.stashList()
        let stored = record.autostash.flatMap { hash in stash.firstIndex(of: hash).map { (hash, $0) } }
        let moved = head != record.head || branch != record.branch
        let dirty = !(try git.trackedChanges()).isEmpty
        if dirty, git.bisectInProgress || (moved && branch == nil) || stored != nil {
            actions.append(.discardCommandChanges(at: head))
        }
        if git.bisectInProgress { actions.append(.endGitBisect) }
        if moved || git.bisectInProgress { actions.append(.checkout(branch: record.branch, head: record.head)) }
        if let (hash, index) = stored { actions.append(.reapplyStash(hash: hash, index: index)) }
        for tree in record.worktrees where FileManager.default.fileExists(atPath: tree) || registered(tree, git) {
            actions.append(.removeWorktree(tree))
        }
        actions.append(.forgetRecord)
        return actions
    }

    static func registered(_ tree: String, _ git: Git) -> Bool {
        ((try? git.run("worktree", "list", "--porcelain")) ?? "").split(separator: "\n").contains { $0 == "worktree \(tree)" }
    }

    /// Does what `plan` says; returns the problems (empty: the repository is as it was).
    public static func recover(_ record: RecoveryRecord, _ git: Git) throws -> [String] {
        var problems: [String] = []
        try waitForIndexLock(git, record)
        for action in try plan(record, git) {
            switch action {
            case .discardCommandChanges:
                _ = try git.result(["reset", "--quiet", "--hard"])
            case .endGitBisect:
                if !(try git.result(["bisect", "reset"])).ok {
                    _ = try? git.result(["reset", "--quiet", "--hard"])
                    let again = try git.result(["bisect", "reset"])
                    if !again.ok { problems.append("git bisect reset failed: \(again.stderr.trimmingCharacters(in: .whitespacesAndNewlines))") }
                }
            case .checkout(let branch, let head):
                var checkout = ["checkout", "--quiet"]
                checkout += branch.map { [$0] } ?? ["--detach", head]
                var back = try git.result(checkout)
                if !back.ok {
                    _ = try? git.result(["reset", "--quiet", "--hard"])
                    back = try git.result(checkout)
                }
                if !back.ok { problems.append("could not check out \(branch ?? head): \(back.stderr.trimmingCharacters(in: .whitespacesAndNewlines))") }
            case .reapplyStash(let hash, _):
                // Found again by hash: the index may have moved if something else stashed meanwhile.
                guard let index = try git.stashList().firstIndex(of: hash) else { continue }
                let pop = try git.result(["stash", "pop", "--index", "--quiet", "stash@{\(index)}"])
                if !pop.ok { problems.append("your changes are in the stash (\(hash.prefix(10))) and could not be re-applied: run 'git stash pop --index stash@{\(index)}'") }
            case .removeWorktree(let tree):
                Worktrees.remove(tree, git)
            case .forgetRecord:
                if problems.isEmpty { remove(git) }
            }
        }
        return problems
    }

    /// How long (in 50 ms waits) the restore waits for another git's `index.lock` to go: 10 s.
    static let indexLockWaits = 200

    static func waitForIndexLock(_ git: Git, _ record: RecoveryRecord) throws {
        guard let lock = try? (git.gitDirectory() as NSString).appendingPathComponent("index.lock"),
              FileManager.default.fileExists(atPath: lock) else { return }
        // Another git (an editor's, a second terminal's) holds the index; every step back needs it.
        for _ in 0..<indexLockWaits where FileManager.default.fileExists(atPath: lock) { usleep(50_000) }
        if FileManager.default.fileExists(atPath: lock) {
            let stash = record.autostash.flatMap { hash in (try? git.stashList())?.contains(hash) == true ? hash : nil }
            let pop = stash.map { " && git stash pop --index (your changes are in stash \($0.prefix(10)))" } ?? ""
            throw BisectError.restoreFailed("\(lock) exists: another git process is running, or one crashed; when no git runs, delete it, then run: git bisect reset && git checkout \(record.branch ?? "--detach " + record.head)\(pop)")
        }
    }

    /// The one-line refusal when a record is found: who left it and exactly what `--recover` will do.
    public static func describe(_ record: RecoveryRecord, _ git: Git) throws -> String {
        let steps = try plan(record, git).enumerated().map { "\($0.offset + 1)) \($0.element)" }.joined(separator: "; ")
        return "an xcmedic bisect (pid \(record.pid), started \(record.started)) ended without putting the repository back; 'xcmedic bisect --recover' will: \(steps)"
    }
}

/// The `git worktree` checkouts of a parallel bisect, under `.git/xcmedic/worktrees/`.
enum Worktrees {
    static func remove(_ path: String, _ git: Git) {
        _ = try? git.result(["worktree", "remove", "--force", "--force", path])
        if FileManager.default.fileExists(atPath: path) { try? FileManager.default.removeItem(atPath: path) }
        _ = try? git.result(["worktree", "prune"])
        // `.git/xcmedic/worktrees` goes with its last worktree.
        rmdir((path as NSString).deletingLastPathComponent)
    }
}
