import Foundation

/// The inputs a user names, opened as text the scanner reads, whatever their format.
public enum LogInput {
    /// Opens a log: plain text or gzip as it is; an Xcode activity log (SLF, detected by its
    /// content, compressed or not) decoded and rendered as the text its build printed; the JSON
    /// `xcrun xcresulttool` prints (detected by its content) and, on macOS, an `.xcresult` bundle
    /// rendered as the lines xcodebuild would have printed for its issues and failing tests.
    public static func open(_ path: String, hasXcresulttool: Bool = XCResultBundle.platformHasXcresulttool,
                            jsonLimit: Int = XCResultJSON.defaultLimit) throws -> ByteSource {
        if path != "-", XCResultBundle.isBundle(path) {
            let lines = try XCResultBundle.read(path, hasXcresulttool: hasXcresulttool, limit: jsonLimit)
            return ByteSource(name: path, bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
        }
        let raw = try ByteSource(path: path)
        let start = try raw.peek(4)
        if start == Array("SLF0".utf8) { return activityLogText(raw) }
        // Only an input that opens a JSON object waits for more than four bytes (pipe mode streams on).
        let opening = start.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if opening == UInt8(ascii: "{"),
           XCResultJSON.looksLikeXCResultJSON(try raw.peek(64 << 10)) {
            return try xcresultJSONText(raw, limit: jsonLimit)
        }
        return raw
    }

    /// xcresulttool's JSON (read whole, at most `limit` bytes) as console lines; JSON of no known
    /// shape is scanned as the text it is.
    static func xcresultJSONText(_ source: ByteSource, limit: Int) throws -> ByteSource {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0.baseAddress!, count: $0.count) }
            if n == 0 { break }
            guard bytes.count + n <= limit else {
                throw InputError(path: source.name, problem: "xcresulttool JSON larger than \(limit >> 20) MB; xcmedic reads it whole and refuses more (scan the bundle's build-results and test-results separately)")
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
        guard let lines = XCResultJSON.lines(from: Data(bytes)) else { return ByteSource(name: source.name, bytes: bytes) }
        return ByteSource(name: source.name, bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
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

    /// Each path as it is (a result bundle too), except a folder: its `.xcactivitylog` files at any depth (`Logs/Build`,
    /// `Logs/Test`, a whole DerivedData), newest first. A folder without one is an error.
    public static func expand(_ paths: [String]) throws -> [String] {
        var result: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
                  !XCResultBundle.isBundle(path) else {
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
