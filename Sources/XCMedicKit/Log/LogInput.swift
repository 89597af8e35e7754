import Foundation

/// The inputs a user names, opened as text the scanner reads, whatever their format.
public enum LogInput {
    /// An input opened for the scanner: text it splits into lines itself, or lines a structured
    /// reader decoded with their location, level and step.
    public enum Opened {
        case text(ByteSource)
        case lines(LineSource)
    }

    /// Opens a log for the scanner: plain text or gzip as it is; an Xcode activity log (SLF, detected
    /// by its content, compressed or not) as the lines its decoder reads; the JSON `xcrun xcresulttool`
    /// prints (detected by its content) and, on macOS, an `.xcresult` bundle, as the issues and failing
    /// tests it records.
    public static func reader(_ path: String, hasXcresulttool: Bool = XCResultBundle.platformHasXcresulttool,
                              jsonLimit: Int = XCResultJSON.defaultLimit) throws -> Opened {
        if path != "-", XCResultBundle.isBundle(path) {
            return .lines(DecodedLines(name: path, lines: try XCResultBundle.read(path, hasXcresulttool: hasXcresulttool, limit: jsonLimit)))
        }
        let raw = try ByteSource(path: path)
        let start = try raw.peek(4)
        if start == Array("SLF0".utf8) { return .lines(ActivityLogLines(raw)) }
        // Only an input that opens a JSON object waits for more than four bytes (pipe mode streams on).
        let opening = start.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if opening == UInt8(ascii: "{"),
           XCResultJSON.looksLikeXCResultJSON(try raw.peek(64 << 10)) {
            return try xcresultJSON(raw, limit: jsonLimit)
        }
        return .text(raw)
    }

    /// The text of an input as the console would have shown it (`xcmedic decode`): structured lines
    /// rendered as step titles, output and compiler-style `file:line:col: level: message` lines.
    public static func open(_ path: String, hasXcresulttool: Bool = XCResultBundle.platformHasXcresulttool,
                            jsonLimit: Int = XCResultJSON.defaultLimit) throws -> ByteSource {
        switch try reader(path, hasXcresulttool: hasXcresulttool, jsonLimit: jsonLimit) {
        case .text(let source): return source
        case .lines(let lines): return StructuredLineRenderer.text(of: lines)
        }
    }

    /// xcresulttool's JSON (read whole, at most `limit` bytes) as the lines it records; JSON of no known
    /// shape is scanned as the text it is.
    static func xcresultJSON(_ source: ByteSource, limit: Int) throws -> Opened {
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
        guard let lines = XCResultJSON.lines(from: Data(bytes)) else { return .text(ByteSource(name: source.name, bytes: bytes)) }
        return .lines(DecodedLines(name: source.name, lines: lines))
    }

    /// The console text of an activity log (`source` starts with `SLF0`).
    public static func activityLogText(_ source: ByteSource) -> ByteSource {
        StructuredLineRenderer.text(of: ActivityLogLines(source))
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

/// An activity log's lines, streamed from its SLF decoder; a decoding error is an `InputError` naming
/// the input and the byte where it broke.
public final class ActivityLogLines: LineSource {
    public let name: String
    private let decoder: SLFDecoder

    /// `source` starts with `SLF0` (after decompression).
    public init(_ source: ByteSource) {
        name = source.name
        decoder = SLFDecoder(source: source)
    }

    public func next() throws -> StructuredLine? {
        do {
            return try decoder.next()
        } catch let error as SLFError {
            throw InputError(path: name, problem: "not a readable activity log: \(error.problem) at byte \(error.offset) of its decompressed content")
        }
    }
}
