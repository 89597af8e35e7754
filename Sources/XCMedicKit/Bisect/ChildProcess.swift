import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT/SIGTERM/SIGHUP arrived while xcmedic was changing the repository. The driver catches it, puts the
/// repository back, and exits 128 + the signal (130, 143, 129).
public struct Interrupted: Error, Sendable, CustomStringConvertible {
    public var signal: Int32
    public var description: String { "interrupted by \(signal == SIGTERM ? "SIGTERM" : signal == SIGHUP ? "SIGHUP" : "SIGINT")" }
}

/// Remembers SIGINT/SIGTERM/SIGHUP instead of dying, so that a bisect can be undone first.
///
/// Children are started in their own process group (see `ChildProcess`), so a Ctrl-C on the
/// terminal reaches only xcmedic, which then ends the children's groups itself. A closed terminal
/// (SIGHUP) is handled the same way; SIGKILL cannot be, which is what watched children and the
/// recovery record (`BisectRecovery`) are for.
public enum Interrupts {
    nonisolated(unsafe) static var received: Int32 = 0

    /// Installs the handlers (a handler, not SIG_IGN: ignored signals would stay ignored in children).
    public static func install() {
        signal(SIGINT) { Interrupts.received = $0 }
        signal(SIGTERM) { Interrupts.received = $0 }
        signal(SIGHUP) { Interrupts.received = $0 }
        // A closed pipe or terminal makes writes fail (EPIPE, EIO) instead of killing xcmedic mid-bisect.
        signal(SIGPIPE, SIG_IGN)
        // Past a file-size limit (ulimit -f) a write fails with EFBIG instead of killing xcmedic in the
        // middle of a step: it can then stop the bisect and put the repository back.
        signal(SIGXFSZ, SIG_IGN)
    }

    public static var pending: Int32? { received == 0 ? nil : received }

    /// Throws `Interrupted` when a signal has arrived.
    public static func check() throws {
        if let signal = pending { throw Interrupted(signal: signal) }
    }
}

/// How a child process ended.
public enum ChildExit: Sendable, Equatable {
    /// It ran and exited with this status (a status of 128+n when a signal n ended it).
    case exited(Int32)
    /// `timeout` passed; the whole process group was ended.
    case timedOut
    /// It could not be started (no such program, not executable).
    case couldNotStart(String)
}

/// Starts programs with posix_spawn in a process group of their own, waits for them with a timeout,
/// and ends the whole group (a build spawns compilers) on timeout or interrupt.
public enum ChildProcess {
    /// Spawns and watcher pipes one at a time (a parallel bisect starts children from several threads).
    static let spawnLock = NSLock()

    public struct Options: Sendable {
        public var directory: String?
        public var environment: [String: String] = [:]
        /// The file standard input reads; nil: /dev/null.
        public var inputPath: String?
        /// Where standard output and standard error go (both to the same file); nil: /dev/null.
        public var outputPath: String?
        public var errorPath: String?
        public var timeout: Double?
        /// End the child and throw `Interrupted` when SIGINT/SIGTERM arrives.
        public var interruptible = true
        /// Called about once a second while the child runs (progress reports).
        public var tick: (@Sendable () -> Void)?
        /// Start a watcher that ends the child's whole process group if xcmedic dies (even by SIGKILL)
        /// before the child is done: for the long-running children (build commands, `git bisect run`).
        public var watched = false

        public init(directory: String? = nil, environment: [String: String] = [:], outputPath: String? = nil,
                    errorPath: String? = nil, timeout: Double? = nil, interruptible: Bool = true) {
            self.directory = directory
            self.environment = environment
            self.outputPath = outputPath
            self.errorPath = errorPath
            self.timeout = timeout
            self.interruptible = interruptible
        }
    }

    /// Finds `name` on PATH (or returns it when it contains a slash).
    public static func resolve(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        if name.contains("/") { return name }
        for dir in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    public static func run(_ arguments: [String], _ options: Options) throws -> ChildExit {
        guard var program = arguments.first else { return .couldNotStart("no command") }
        var arguments = arguments
        if let directory = options.directory, program.contains("/"), !program.hasPrefix("/") {
            program = (directory as NSString).appendingPathComponent(program)
            arguments[0] = program
        }
        guard let executable = resolve(program) else { return .couldNotStart("\(program): command not found") }
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: executable, isDirectory: &isDir), isDir.boolValue {
            return .couldNotStart("\(program): is a directory")
        }
        guard access(executable, X_OK) == 0 else {
            return .couldNotStart(FileManager.default.fileExists(atPath: executable) ? "\(program): permission denied" : "\(program): no such file")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, options.inputPath ?? "/dev/null", O_RDONLY, 0)
        let out = options.outputPath ?? "/dev/null"
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        if let err = options.errorPath, err != out {
            posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Own process group: a timeout or an interrupt ends the command and everything it started.
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGHUP)
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGXFSZ)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        // posix_spawn_file_actions_addchdir_np is not visible to Swift on every libc: a shell changes
        // the directory and then becomes the program (exec), so nothing else differs.
        var spawnPath = executable
        if let directory = options.directory {
            arguments = ["/bin/sh", "-c", #"cd -- "$0" && exec "$@""#, directory, executable] + arguments.dropFirst()
            spawnPath = "/bin/sh"
        }
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in options.environment { environment[key] = value }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        spawnLock.lock()
        let spawned = posix_spawn(&pid, spawnPath, &actions, &attributes, argv, envp)
        spawnLock.unlock()
        guard spawned == 0 else { return .couldNotStart("\(program): \(String(cString: strerror(spawned)))") }
        let watcher = options.watched ? Watcher(group: pid) : nil
        defer { watcher?.release() }
        return try wait(pid, options)
    }

    /// Becomes `arguments` (an exec: the same process, standard streams and environment; signal
    /// dispositions reset to default). Returns only when that fails, with why.
    public static func replaceProcess(with arguments: [String]) -> String {
        guard let program = arguments.first else { return "no command" }
        // SIG_IGN survives exec: what xcmedic ignored must not stay ignored in the program it becomes.
        for sig in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGXFSZ] { signal(sig, SIG_DFL) }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        execv(program, argv)
        let why = String(cString: strerror(errno))
        for p in argv { free(p) }
        return "\(program): \(why)"
    }

    /// A `/bin/sh` that reads a pipe only xcmedic holds the writing end of. When the child is done,
    /// xcmedic writes a line and the watcher exits quietly; when xcmedic dies any way at all (SIGKILL,
    /// an OOM kill), the kernel closes the pipe, the read ends without a line, and the watcher kills
    /// the child's whole process group. Works the same on Linux and macOS.
    final class Watcher {
        private var fd: Int32 = -1
        private var pid: pid_t = 0

        init?(group: pid_t) {
            var fds: [Int32] = [-1, -1]
            // Under the spawn lock: no child started by another thread may inherit the pipe before
            // it is close-on-exec (it would keep the pipe open after xcmedic died).
            spawnLock.lock()
            defer { spawnLock.unlock() }
            guard pipe(&fds) == 0 else { return nil }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            // Its own group too: a Ctrl-C or a closed terminal must not end the watcher before xcmedic.
            posix_spawnattr_setpgroup(&attributes, 0)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            sigaddset(&defaults, SIGINT)
            sigaddset(&defaults, SIGTERM)
            sigaddset(&defaults, SIGHUP)
            sigaddset(&defaults, SIGPIPE)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))
            let script = #"read done || { kill -TERM "-$1" 2>/dev/null; sleep 2; kill -KILL "-$1" 2>/dev/null; }"#
            let words: [String] = ["/bin/sh", "-c", script, "xcmedic-watch", String(group)]
            let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
            let envp: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
            defer { for p in argv + envp { free(p) } }
            var child: pid_t = 0
            let spawned = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, envp)
            close(fds[0])
            guard spawned == 0 else {
                close(fds[1])
                return nil
            }
            fd = fds[1]
            pid = child
        }

        /// The child is done: the watcher exits without touching anything.
        func release() {
            guard fd >= 0 else { return }
            var line: [UInt8] = Array("done\n".utf8)
            _ = write(fd, &line, line.count)
            close(fd)
            fd = -1
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// Linux: asks the kernel to send `signal` to this process when its parent dies
    /// (`prctl(PR_SET_PDEATHSIG)`; prctl is variadic in C, so it is called through its symbol).
    /// Returns false elsewhere, or when the parent is already gone.
    @discardableResult
    public static func dieWithParent(signal: Int32 = SIGTERM) -> Bool {
        #if os(Linux)
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        let parent = getppid()
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else { return false }
        let prctl = unsafeBitCast(symbol, to: Prctl.self)
        let setDeathSignal: Int32 = 1 // PR_SET_PDEATHSIG
        guard prctl(setDeathSignal, UInt(signal), 0, 0, 0) == 0 else { return false }
        // The parent may have died before the call: then no signal will ever come.
        if getppid() != parent { kill(getpid(), signal) }
        return true
        #else
        return false
        #endif
    }

    private static func wait(_ pid: pid_t, _ options: Options) throws -> ChildExit {
        let deadline = options.timeout.map { Date().addingTimeInterval($0) }
        var status: Int32 = 0
        var pause: useconds_t = 2_000
        var lastTick = Date()
        while true {
            if let tick = options.tick, Date().timeIntervalSince(lastTick) >= 1 {
                lastTick = Date()
                tick()
            }
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0, errno != EINTR { return .exited(255) }
            if options.interruptible, let signal = Interrupts.pending {
                end(pid)
                throw Interrupted(signal: signal)
            }
            if let deadline, Date() >= deadline {
                end(pid)
                return .timedOut
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, written out: the C macros are not imported.
        let signal = status & 0x7f
        if signal == 0 { return .exited((status >> 8) & 0xff) }
        return .exited(128 + signal)
    }

    /// SIGTERM to the group, SIGKILL after two seconds if it is still there; reaps the child.
    static func end(_ pid: pid_t) {
        kill(-pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<40 {
            if waitpid(pid, &status, WNOHANG) == pid {
                // Give the rest of the group time to end on its own (a bisect step ends its own
                // command's group first, which may take its own two seconds), then kill what is left.
                for _ in 0..<100 where kill(-pid, 0) == 0 { usleep(50_000) }
                kill(-pid, SIGKILL)
                return
            }
            usleep(50_000)
        }
        kill(-pid, SIGKILL)
        waitpid(pid, &status, 0)
    }
}
