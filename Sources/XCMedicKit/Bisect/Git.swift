import Foundation

/// A git command that failed, with what git said.
public struct GitError: Error, Sendable, CustomStringConvertible {
    public var arguments: [String]
    public var status: Int32
    public var message: String
    public var description: String {
        let said = message.split(separator: "\n").first.map(String.init) ?? "exit status \(status)"
        return "git \(arguments.prefix(3).joined(separator: " ")) failed: \(said)"
    }
}

/// A thin wrapper over the git binary in one repository.
public struct Git: Sendable {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var ok: Bool { status == 0 }
    }

    /// Any folder inside the work tree.
    public var directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// Runs git; never throws for a non-zero status (see `run`). Output goes through temporary files.
    public func result(_ arguments: [String], timeout: Double? = nil, interruptible: Bool = false) throws -> Result {
        let temp = FileManager.default.temporaryDirectory
        let id = UUID().uuidString
        let out = temp.appendingPathComponent("xcmedic-git-\(id).out").path
        let err = temp.appendingPathComponent("xcmedic-git-\(id).err").path
        defer {
            try? FileManager.default.removeItem(atPath: out)
            try? FileManager.default.removeItem(atPath: err)
        }
        let exit = try ChildProcess.run(
            ["git", "-C", directory] + arguments,
            .init(environment: ["GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"], outputPath: out, errorPath: err,
                  timeout: timeout, interruptible: interruptible)
        )
        let stdout = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        switch exit {
        case .exited(let status): return Result(status: status, stdout: stdout, stderr: stderr)
        case .timedOut: return Result(status: 124, stdout: stdout, stderr: "timed out")
        case .couldNotStart(let why): throw GitError(arguments: arguments, status: 127, message: why)
        }
    }

    /// Runs git and returns its standard output; throws `GitError` on a non-zero status.
    @discardableResult
    public func run(_ arguments: String...) throws -> String { try run(arguments) }

    @discardableResult
    public func run(_ arguments: [String]) throws -> String {
        let r = try result(arguments)
        guard r.ok else { throw GitError(arguments: arguments, status: r.status, message: r.stderr.isEmpty ? r.stdout : r.stderr) }
        return r.stdout
    }

    /// The output without its trailing newline.
    public func line(_ arguments: String...) throws -> String {
        try run(arguments).trimmingCharacters(in: .newlines)
    }

    // MARK: - Questions the bisect asks

    public var isWorkTree: Bool {
        (try? result(["rev-parse", "--is-inside-work-tree"]))?.stdout.hasPrefix("true") ?? false
    }

    public func topLevel() throws -> String { try line("rev-parse", "--show-toplevel") }

    public func gitDirectory() throws -> String { try line("rev-parse", "--absolute-git-dir") }

    /// The commit `revision` names, or nil when it names none.
    public func commit(_ revision: String) -> String? {
        guard let r = try? result(["rev-parse", "--verify", "--quiet", "--end-of-options", "\(revision)^{commit}"]), r.ok else { return nil }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The branch HEAD is on (`main`), or nil when HEAD is detached.
    public func currentBranch() -> String? {
        guard let r = try? result(["symbolic-ref", "--quiet", "--short", "HEAD"]), r.ok else { return nil }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Tracked files with changes, staged or not (`git status --porcelain --untracked-files=no`).
    public func trackedChanges() throws -> [String] {
        try run("status", "--porcelain", "--untracked-files=no").split(separator: "\n").map(String.init)
    }

    public var bisectInProgress: Bool {
        guard let dir = try? gitDirectory() else { return false }
        return FileManager.default.fileExists(atPath: dir + "/BISECT_START")
    }

    /// Commit hashes of the stash list, newest first.
    public func stashList() throws -> [String] {
        try run("stash", "list", "--format=%H").split(separator: "\n").map(String.init)
    }

    public func version() throws -> (major: Int, minor: Int) {
        let text = try line("--version") // "git version 2.39.5"
        let numbers = text.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
        return (numbers.first ?? 0, numbers.count > 1 ? numbers[1] : 0)
    }

    /// The contents of `path` at `revision`, or nil when it has no such file.
    public func show(_ revision: String, path: String) -> Data? {
        guard let r = try? result(["cat-file", "blob", "\(revision):\(path)"]), r.ok else { return nil }
        return Data(r.stdout.utf8)
    }

    /// Every file path at `revision`.
    public func files(at revision: String) throws -> [String] {
        try run("ls-tree", "-r", "--name-only", "-z", revision).split(separator: "\0").map(String.init)
    }

    /// One commit as people name it.
    public func commitInfo(_ revision: String) throws -> CommitInfo {
        let fields = try run("show", "-s", "--format=%H%x00%an <%ae>%x00%aI%x00%s", revision)
            .trimmingCharacters(in: .newlines).components(separatedBy: "\0")
        guard fields.count == 4 else { throw GitError(arguments: ["show", revision], status: 0, message: "unexpected output") }
        return CommitInfo(hash: fields[0], author: fields[1], date: fields[2], subject: fields[3])
    }

    /// Commits reachable from `to` and not from `from`, newest first.
    public func commits(from: String, to: String, firstParent: Bool = false) throws -> [CommitInfo] {
        var args = ["log", "--format=%H%x00%an <%ae>%x00%aI%x00%s%x1e"]
        if firstParent { args.append("--first-parent") }
        args.append("\(from)..\(to)")
        return try run(args).components(separatedBy: "\u{1e}").compactMap { record in
            let fields = record.trimmingCharacters(in: .newlines).components(separatedBy: "\0")
            guard fields.count == 4 else { return nil }
            return CommitInfo(hash: fields[0], author: fields[1], date: fields[2], subject: fields[3])
        }
    }
}

/// A commit as a report names it.
public struct CommitInfo: Sendable, Codable, Equatable {
    public var hash: String
    public var author: String
    /// ISO 8601 author date.
    public var date: String
    public var subject: String

    public var short: String { String(hash.prefix(10)) }
}
