import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system side of writing ci_post_clone.sh: checks that say in one line what is in the way,
/// a lock so concurrent runs serialise, and a replace that never leaves a half-written or empty script.
public enum ScriptFile {
    enum Node { case missing, file, folder, symlink(String), other }

    static func node(_ path: String) -> Node {
        var st = stat()
        guard lstat(path, &st) == 0 else { return .missing }
        switch st.st_mode & S_IFMT {
        case S_IFLNK: return .symlink((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        default: return .other
        }
    }

    /// Read-only by its mode bits (root ignores them, so access(2) alone would not say), or by access(2).
    static func readOnly(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        return st.st_mode & 0o222 == 0 || access(path, W_OK) != 0
    }

    static func octal(_ path: String) -> String {
        var st = stat()
        guard stat(path, &st) == 0 else { return "?" }
        return String(Int(st.st_mode & 0o7777), radix: 8)
    }

    /// The checks on the folder and the script, before anything is read or written. `creating`: the
    /// folder will be created if missing (so its parent must be writable).
    public static func preflight(scriptsDirectory dir: String, scriptName: String, creating: Bool) throws {
        switch node(dir) {
        case .symlink(let target):
            throw CIScriptsError("\(dir) is a symbolic link (to \(target)); xcmedic does not write through links: replace it with the folder itself")
        case .file, .other:
            throw CIScriptsError("\(dir) is a file, not a folder; Xcode Cloud needs a folder there: move the file away (git mv \(ShellQuote.quote(dir)) \(ShellQuote.quote(dir + ".old"))) and run again")
        case .missing:
            let parent = URL(fileURLWithPath: dir).deletingLastPathComponent().path
            switch node(parent) {
            case .folder: if creating && readOnly(parent) { throw CIScriptsError("\(parent) is read-only (mode \(octal(parent))), so \(URL(fileURLWithPath: dir).lastPathComponent)/ cannot be created there; chmod u+w \(ShellQuote.quote(parent))") }
            case .missing: throw CIScriptsError("\(parent): no such folder")
            default: throw CIScriptsError("\(parent) is not a folder")
            }
            return
        case .folder:
            if creating && readOnly(dir) {
                throw CIScriptsError("\(dir) is read-only (mode \(octal(dir))), so the script cannot be replaced safely; chmod u+w \(ShellQuote.quote(dir))")
            }
        }
        try checkScript(dir + "/" + scriptName)
        if creating, case .file = node(dir + "/" + scriptName), readOnly(dir + "/" + scriptName) {
            let path = dir + "/" + scriptName
            throw CIScriptsError("\(path) is read-only (mode \(octal(path))); xcmedic will not overwrite it: chmod u+w \(ShellQuote.quote(path)) if it should")
        }
    }

    /// The script must be a plain file (or absent): not a folder, not a link.
    static func checkScript(_ path: String) throws {
        switch node(path) {
        case .missing, .file: return
        case .folder: throw CIScriptsError("\(path) is a folder, not a script; move it away and run again")
        case .symlink(let target): throw CIScriptsError("\(path) is a symbolic link (to \(target)); xcmedic does not write through links: replace it with the file itself (Xcode Cloud needs a real file there)")
        case .other: throw CIScriptsError("\(path) is not a regular file")
        }
    }

    /// The script's bytes, nil when it does not exist.
    static func read(_ path: String) throws -> [UInt8]? {
        guard case .file = node(path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CIScriptsError("\(path) cannot be read (mode \(octal(path)))")
        }
        return [UInt8](data)
    }

    public final class Lock: @unchecked Sendable {
        let fd: Int32
        init(fd: Int32) { self.fd = fd }
        public func unlock() { _ = flock(fd, LOCK_UN); close(fd) }
    }

    /// Creates the folder if needed and takes an exclusive flock(2) on the folder itself (opened read-only),
    /// waiting for other runs. Locking the folder rather than a lock file in it leaves nothing behind for
    /// `git add ci_scripts` to pick up; flock works on a directory's descriptor on Linux and macOS alike.
    public static func lock(scriptsDirectory dir: String, scriptName: String) throws -> Lock {
        if case .missing = node(dir) {
            if mkdir(dir, 0o755) != 0 && errno != EEXIST {
                throw CIScriptsError("\(dir) cannot be created: \(String(cString: strerror(errno)))")
            }
            try preflight(scriptsDirectory: dir, scriptName: scriptName, creating: true)
        }
        let fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw CIScriptsError("\(dir) cannot be opened for locking: \(String(cString: strerror(errno)))") }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let message = String(cString: strerror(errno))
            close(fd)
            throw CIScriptsError("\(dir) cannot be locked: \(message)")
        }
        return Lock(fd: fd)
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return false }
            offset += n
        }
        return true
    }

    static func readAll(_ fd: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var offset: off_t = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if n < 0 { if errno == EINTR { continue }; break }
            if n == 0 { break }
            result += buffer[..<n]
            offset += off_t(n)
        }
        return result
    }

    /// Temporary files a killed run left (`.SCRIPT.xcmedic-PID.tmp`); removed under the lock.
    static func removeStaleTemporaries(in dir: String, scriptName: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where name.hasPrefix(".\(scriptName).xcmedic-") && name.hasSuffix(".tmp") {
            unlink(dir + "/" + name)
        }
    }

    /// Replaces `path` with `bytes`: written to a temporary file in the same folder, flushed, given the old
    /// file's mode and owner (755 for a new one), then renamed over it, so a kill or a full disk leaves the old
    /// file or the new one, never a part. Refuses when the file is no longer `expected` (changed since read).
    /// `remerge` rebuilds the new text from the old file when someone appended to it during the rename.
    static func replace(path: String, expected: [UInt8]?, with bytes: [UInt8], remerge: ([UInt8]) throws -> [UInt8]) throws {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path, name = url.lastPathComponent
        removeStaleTemporaries(in: dir, scriptName: name)
        var bytes = bytes
        var expected = expected
        for _ in 0..<3 {
            // The file as it is now, held open so a write to it after the rename is seen.
            var oldFD: Int32 = -1
            var oldStat = stat()
            if expected != nil {
                oldFD = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
                guard oldFD >= 0, fstat(oldFD, &oldStat) == 0 else {
                    if oldFD >= 0 { close(oldFD) }
                    throw CIScriptsError("\(path) changed while xcmedic was updating it (it is gone now); nothing written: run again")
                }
            }
            defer { if oldFD >= 0 { close(oldFD) } }
            let temp = dir + "/.\(name).xcmedic-\(getpid()).tmp"
            unlink(temp)
            let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 else { throw CIScriptsError("\(dir): cannot create a temporary file there: \(String(cString: strerror(errno)))") }
            let mode = expected == nil ? mode_t(0o755) : oldStat.st_mode & 0o7777
            var ok = writeAll(fd, bytes)
            let writeError = errno
            if ok { ok = fchmod(fd, mode) == 0 }
            if ok, expected != nil, oldStat.st_uid != geteuid() || oldStat.st_gid != getegid() {
                _ = fchown(fd, oldStat.st_uid, oldStat.st_gid) // kept where allowed; an unprivileged user cannot give files away
            }
            if ok { ok = fsync(fd) == 0 }
            close(fd)
            guard ok else {
                unlink(temp)
                throw CIScriptsError("\(temp): cannot be written (\(String(cString: strerror(writeError == 0 ? errno : writeError)))); \(name) is unchanged")
            }
            if let pause = ProcessInfo.processInfo.environment["XCMEDIC_TEST_PAUSE_BEFORE_RENAME"], let seconds = Double(pause) {
                Thread.sleep(forTimeInterval: seconds) // tests kill the process here
            }
            // Compare-then-rename: the bytes read at the start must still be what is there.
            if let expected {
                let now = readAll(oldFD)
                var current = stat()
                let samePath = lstat(path, &current) == 0 && current.st_ino == oldStat.st_ino && current.st_dev == oldStat.st_dev
                guard samePath, now == expected else {
                    unlink(temp)
                    throw CIScriptsError("\(path) changed while xcmedic was updating it; nothing written: run again")
                }
                guard rename(temp, path) == 0 else {
                    let message = String(cString: strerror(errno))
                    unlink(temp)
                    throw CIScriptsError("\(path) cannot be replaced: \(message)")
                }
            } else {
                // A new file: link() fails instead of replacing one that appeared meanwhile.
                guard link(temp, path) == 0 else {
                    let message = String(cString: strerror(errno))
                    unlink(temp)
                    throw CIScriptsError(errno == EEXIST ? "\(path) appeared while xcmedic was creating it; nothing written: run again" : "\(path) cannot be created: \(message)")
                }
                unlink(temp)
            }
            let dirFD = open(dir, O_RDONLY | O_CLOEXEC)
            if dirFD >= 0 { _ = fsync(dirFD); close(dirFD) }
            // An append to the old file between the check and the rename went to the file now replaced: merge it in.
            guard let before = expected else { return }
            let after = readAll(oldFD)
            if after == before { return }
            expected = bytes
            bytes = try remerge(after)
        }
        throw CIScriptsError("\(path) keeps changing while xcmedic updates it; run again when nothing else writes it")
    }
}
