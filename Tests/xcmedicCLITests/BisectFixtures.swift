import Foundation
import XCTest
import XCMedicTestSupport

/// A real git repository in a temporary folder, built commit by commit by a test.
final class ScriptedRepo {
    let root: URL
    static let identity = [
        "GIT_AUTHOR_NAME": "Dana Tester", "GIT_AUTHOR_EMAIL": "dana@example.com",
        "GIT_COMMITTER_NAME": "Dana Tester", "GIT_COMMITTER_EMAIL": "dana@example.com",
    ]
    private var tick = 0

    init(_ name: String = "repo") throws {
        root = Scratch.url("xcmedic-bisect").appendingPathComponent(name)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try git("init", "-q", "-b", "main")
        try git("config", "advice.detachedHead", "false")
        // The machine's own ignore rules (some ignore Package.resolved) must not shape the history.
        try git("config", "core.excludesFile", "/dev/null")
    }

    deinit { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }

    /// The environment every process of a test runs with: a fixed identity, the real PATH.
    static var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        for (k, v) in identity { env[k] = v }
        env["LC_ALL"] = "C"
        return env
    }

    @discardableResult
    func git(_ arguments: String...) throws -> String { try git(arguments) }

    @discardableResult
    func git(_ arguments: [String], allowFailure: Bool = false) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["git", "-C", root.path] + arguments
        var env = ScriptedRepo.environment
        // Commits one minute apart, so dates in reports are distinct and stable.
        env["GIT_AUTHOR_DATE"] = "2026-01-01T\(10 + tick / 3600):\(String(format: "%02d", tick / 60 % 60)):\(String(format: "%02d", tick % 60))Z"
        env["GIT_COMMITTER_DATE"] = env["GIT_AUTHOR_DATE"]
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        if p.terminationStatus != 0, !allowFailure {
            throw NSError(domain: "git", code: Int(p.terminationStatus), userInfo: [NSLocalizedDescriptionKey: "git \(arguments.joined(separator: " ")): \(String(decoding: e, as: UTF8.self))"])
        }
        return String(decoding: o, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    func write(_ path: String, _ text: String, executable: Bool = false) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
    }

    func read(_ path: String) throws -> String { try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) }

    func remove(_ path: String) throws { try FileManager.default.removeItem(at: root.appendingPathComponent(path)) }

    @discardableResult
    func commit(_ message: String) throws -> String {
        tick += 60
        try git("add", "-A")
        try git("commit", "-q", "--allow-empty", "-m", message)
        return try git("rev-parse", "HEAD")
    }

    /// Branch, HEAD, `git status` (untracked too), stash list and the content of every changed file:
    /// what "the repository is as it was" means.
    func snapshot() throws -> [String] {
        let status = try git("status", "--porcelain", "--untracked-files=all")
        var contents: [String] = []
        for line in status.split(separator: "\n") {
            let path = String(line.dropFirst(3))
            contents.append("\(path): \((try? read(path)) ?? "(gone)")")
        }
        return [
            "branch: " + (try git(["symbolic-ref", "--quiet", "--short", "HEAD"], allowFailure: true)),
            "head: " + (try git("rev-parse", "HEAD")),
            "status: " + status,
            "stash: " + (try git("stash", "list", "--format=%H %s")),
            "bisect: " + String(FileManager.default.fileExists(atPath: root.appendingPathComponent(".git/BISECT_START").path)),
            "worktrees: " + (try git("worktree", "list", "--porcelain")).split(separator: "\n").filter { $0.hasPrefix("worktree ") }.joined(separator: ", "),
        ] + contents
    }

    /// The newest bisect state folder xcmedic made.
    var stateFolder: URL? {
        let base = root.appendingPathComponent(".git/xcmedic")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        return names.filter { $0.hasPrefix("bisect-") }.sorted().last.map { base.appendingPathComponent($0) }
    }
}

/// The history the bisect tests share: a small app whose stand-in compiler (`build.sh`, a shell
/// script in the repository) prints the errors `swift build` prints for the defects planted in it.
enum AppHistory {
    /// Prints swiftc-style errors for the two defects the histories plant:
    /// a global `var sharedCounter` (the Swift 6 data-race error) and `import NetworkKit` (a missing module).
    static let buildScript = #"""
    #!/bin/sh
    # Stand-in for `swift build`: prints the compiler's errors for the defects this history plants.
    [ -n "$STEP_MARKER" ] && git rev-parse HEAD >> "$STEP_MARKER"
    [ -n "$SLOW_STEP" ] && sleep "$SLOW_STEP"
    # A flaky network: the first run at each commit named in $NET_FLAKE_DIR/at (or at every commit when
    # it says "all") cannot fetch the package's dependencies; the next run can.
    if [ -n "$NET_FLAKE_DIR" ]; then
      head=$(git rev-parse HEAD)
      if grep -q -e "$head" -e all "$NET_FLAKE_DIR/at" && [ ! -e "$NET_FLAKE_DIR/$head.net" ]; then
        : > "$NET_FLAKE_DIR/$head.net"
        echo "Fetching https://github.com/apple/swift-collections.git"
        echo "error: Failed to clone repository https://github.com/apple/swift-collections.git:"
        echo "    fatal: unable to access 'https://github.com/apple/swift-collections.git/': Could not resolve host: github.com"
        exit 1
      fi
    fi
    echo "Building for debugging..."
    status=0
    for f in Sources/App/*.swift; do
      n=$(grep -n '^var sharedCounter' "$f" | cut -d: -f1 | head -n 1)
      if [ -n "$n" ]; then
        echo "$PWD/$f:$n:5: error: var 'sharedCounter' is not concurrency-safe because it is nonisolated global shared mutable state; this is an error in the Swift 6 language mode"
        echo "$n | var sharedCounter = 0"
        echo "  |     |- error: var 'sharedCounter' is not concurrency-safe because it is nonisolated global shared mutable state; this is an error in the Swift 6 language mode"
        status=1
      fi
      if grep -q '^import NetworkKit' "$f"; then
        echo "$PWD/$f:1:8: error: no such module 'NetworkKit'"
        status=1
      fi
    done
    # A flaky machine: the first run at each commit fails like the real defect, the next one passes.
    if [ -n "$FLAKE_DIR" ] && [ $status = 0 ]; then
      head=$(git rev-parse HEAD)
      if [ ! -e "$FLAKE_DIR/$head" ]; then
        : > "$FLAKE_DIR/$head"
        echo "$PWD/Sources/App/Counter.swift:3:5: error: var 'sharedCounter' is not concurrency-safe because it is nonisolated global shared mutable state; this is an error in the Swift 6 language mode"
        status=1
      fi
    fi
    if [ $status != 0 ]; then
      echo "error: emit-module command failed with exit code 1 (use -v to see invocation)"
      exit 1
    fi
    echo "Build complete! (0.42s)"
    """#

    struct Made {
        var repo: ScriptedRepo
        var hashes: [String] // hashes[0] is the first commit (good end)
        var culprit: String
        var unrelatedStart: String?
    }

    /// `count` commits after the first; the data race arrives at `culprit`; when `unrelated` is given,
    /// `import NetworkKit` breaks the build at its lower bound and is fixed at its upper bound.
    static func make(count: Int = 40, culprit: Int = 31, unrelated: Range<Int>? = 17..<25) throws -> Made {
        let repo = try ScriptedRepo()
        try repo.write("build.sh", buildScript, executable: true)
        try repo.write("Sources/App/App.swift", "struct App {}\n")
        try repo.write("Sources/App/Net.swift", "import Foundation\n\nstruct Net {}\n")
        try repo.write(".gitignore", ".build/\n")
        var hashes = [try repo.commit("Initial app")]
        var culpritHash = "", unrelatedHash: String?
        for i in 1...count {
            try repo.write("Sources/App/Feature\(i).swift", "struct Feature\(i) { let id = \(i) }\n")
            var message = "Add feature \(i)"
            if i == culprit {
                try repo.write("Sources/App/Counter.swift", "import Foundation\n\nvar sharedCounter = 0\n")
                message = "Count launches in a global"
            }
            if let unrelated, i == unrelated.lowerBound {
                try repo.write("Sources/App/Net.swift", "import NetworkKit\n\nstruct Net {}\n")
                message = "Use NetworkKit for requests"
            }
            if let unrelated, i == unrelated.upperBound {
                try repo.write("Sources/App/Net.swift", "import Foundation\n\nstruct Net {}\n")
                message = "Back to URLSession: NetworkKit is not in the package yet"
            }
            let hash = try repo.commit(message)
            hashes.append(hash)
            if i == culprit { culpritHash = hash }
            if let unrelated, i == unrelated.lowerBound { unrelatedHash = hash }
        }
        return Made(repo: repo, hashes: hashes, culprit: culpritHash, unrelatedStart: unrelatedHash)
    }
}

extension CLI {
    /// Starts xcmedic without waiting (for the interrupt tests).
    static func start(_ arguments: [String], cwd: URL, environment: [String: String]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = cwd
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, out, err)
    }

    /// Polls `condition` every 50 ms for up to `seconds`.
    static func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }
}
