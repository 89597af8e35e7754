import Foundation

/// The inputs a user names, opened as text the scanner reads, whatever their format.
public enum LogInput {
    /// Opens a log: plain text or gzip as it is; an Xcode activity log (SLF, detected by its
    /// content, compressed or not) decoded and rendered as the text its build printed.
    public static func open(_ path: String) throws -> ByteSource {
        let raw = try ByteSource(path: path)
        guard try raw.peek(4) == Array("SLF0".utf8) else { return raw }
        return activityLogText(raw)
    }

    /// The text of an activity log (`source` starts with `SLF0`): step titles, output and messages
    /// as console lines. A decoding error is an `InputError` naming the source and the byte.
    public static func activityLogText(_ source: ByteSource) -> ByteSource {
        let decoder = SLFDecoder(source: source)
        let renderer = StructuredLineRenderer(next: decoder.next)
        return ByteSource(name: source.name) { buffer, count in
            do {
                return try renderer.read(into: buffer, count: count)
            } catch let error as SLFError {
                throw InputError(path: source.name, problem: "not a readable activity log: \(error.problem) at byte \(error.offset) of its decompressed content")
            }
        }
    }

    /// Each path as it is, except a folder: its `.xcactivitylog` files at any depth (`Logs/Build`,
    /// `Logs/Test`, a whole DerivedData), newest first. A folder without one is an error.
    public static func expand(_ paths: [String]) throws -> [String] {
        var result: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                result.append(path)
                continue
            }
            let logs = activityLogs(in: path)
            guard !logs.isEmpty else {
                throw InputError(path: path, problem: "is a directory with no .xcactivitylog files (name a log file, or a Logs/Build or DerivedData folder)")
            }
            result.append(contentsOf: logs)
        }
        return result
    }

    static func activityLogs(in folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        var found: [(path: String, modified: Int)] = []
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".xcactivitylog") else { continue }
            let path = base + relative
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            #if canImport(Darwin)
            let modified = Int(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int(info.st_mtimespec.tv_nsec)
            #else
            let modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
            #endif
            found.append((path, modified))
        }
        return found.sorted { $0.modified != $1.modified ? $0.modified > $1.modified : $0.path < $1.path }.map(\.path)
    }
}
