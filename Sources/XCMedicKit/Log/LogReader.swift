import Foundation

/// A run of complete, normalised lines handed to the scanner.
///
/// `bytes` ends with a line feed unless it is the log's last line (no final newline) or a
/// fragment of a line longer than `LogReader.maxLineBytes`. Carriage returns are gone (CRLF and
/// lone CR both end a line) and ANSI escape sequences are removed; everything else is as read.
public struct LogChunk {
    public var bytes: UnsafeBufferPointer<UInt8>
    /// 1-based number of the first line in `bytes`.
    public var firstLine: Int
    /// The first line continues a fragment of the previous chunk.
    public var continuesLine: Bool
}

/// Turns a byte source into chunks of whole lines in bounded memory, whatever the log's size.
public final class LogReader {
    public static let defaultChunkBytes = 1 << 20
    /// A line longer than this is handed over in fragments of this size.
    public static let maxLineBytes = 1 << 20

    private let source: ByteSource
    private let chunkBytes: Int
    private let maxLine: Int
    /// Receives every byte exactly as read (pipe mode).
    public var rawObserver: ((UnsafeRawBufferPointer) -> Void)?

    public private(set) var bytesRead = 0
    /// Lines seen so far; a final line without a newline counts.
    public private(set) var lineCount = 0

    public init(source: ByteSource, chunkBytes: Int = LogReader.defaultChunkBytes, maxLineBytes: Int = LogReader.maxLineBytes) {
        self.source = source
        self.chunkBytes = max(chunkBytes, 16)
        self.maxLine = max(maxLineBytes, 16)
    }

    public func forEachChunk(_ body: (LogChunk) throws -> Void) throws {
        let capacity = chunkBytes + maxLine + 8
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var filled = 0 // bytes in buffer, normalised except the last `held`
        var nextLine = 1
        var continuing = false
        var endOfInput = false
        // Bytes at the end not normalised yet: a CR whose LF the next read may bring, an escape sequence a read cut
        // (the first read of a log that opens with a colour code brings only the encoding sniff's 3 bytes).
        var held = 0

        var text = TextDecoder(source: source, observe: { [self] raw in
            rawObserver?(raw)
            bytesRead += raw.count
        })
        while !endOfInput {
            let room = min(chunkBytes, capacity - 8 - filled)
            let n = try text.read(into: buffer + filled, count: room)
            if n == 0 { endOfInput = true }
            let fresh = filled - held
            filled += n
            (filled, held) = LineNormaliser.normalise(buffer, from: fresh, to: filled, final: endOfInput,
                                                      maxHeld: min(LineNormaliser.maxHeldEscape, chunkBytes / 2))
            let normalised = filled - held
            // A read that brought less than a chunk (a pipe, or a file's last bytes before the read that says it
            // ended) is not handed over yet: a log's last line without a newline would otherwise come alone, after
            // the lines whose look-ahead needs it (the caret line of a code frame under `❌  (App.swift:5:3)`).
            if !endOfInput && filled < chunkBytes { continue }

            // Hand over everything up to the last complete line.
            var cut = 0
            if let lastLF = lastIndex(of: 0x0A, in: buffer, count: normalised) {
                cut = lastLF + 1
            }
            if endOfInput {
                cut = filled
            } else if cut == 0 && filled >= maxLine {
                cut = normalised
            }
            guard cut > 0 else { continue }
            let chunk = UnsafeBufferPointer(start: buffer, count: cut)
            let newlines = countNewlines(chunk)
            try body(LogChunk(bytes: chunk, firstLine: nextLine, continuesLine: continuing))
            let endsWithLF = buffer[cut - 1] == 0x0A
            nextLine += newlines
            lineCount = nextLine - 1
            continuing = !endsWithLF
            if continuing && endOfInput { lineCount = nextLine }
            // Move the incomplete tail to the front.
            let tail = filled - cut
            if tail > 0 { (buffer).update(from: buffer + cut, count: tail) }
            filled = tail
        }
    }

    private func countNewlines(_ chunk: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        var p = UnsafeRawPointer(chunk.baseAddress!)
        var remaining = chunk.count
        while remaining > 0, let hit = memchr(p, 0x0A, remaining) {
            count += 1
            let consumed = UnsafeRawPointer(hit) - p + 1
            p += consumed
            remaining -= consumed
        }
        return count
    }

    private func lastIndex(of byte: UInt8, in buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int? {
        Bytes.lastIndex(of: byte, in: buffer, from: 0, to: count)
    }
}

/// The log's text as UTF-8, whatever its encoding: a UTF-8 byte-order mark is dropped, and UTF-16
/// with a byte-order mark (either byte order: Windows tools and some CI exports write it) is
/// transcoded as it streams. Anything else passes through as read. `observe` sees every byte exactly
/// as read (pipe mode copies those).
struct TextDecoder {
    enum Encoding { case utf8, utf16LE, utf16BE }

    let source: ByteSource
    let observe: (UnsafeRawBufferPointer) -> Void
    private(set) var encoding: Encoding?
    /// Bytes read while sniffing for a byte-order mark, not yet handed over.
    private var pending: [UInt8] = []
    /// UTF-16: an odd byte left at the end of a read, and a high surrogate waiting for its pair.
    private var oddByte: UInt8?
    private var highSurrogate: UInt16?
    private var raw: [UInt8] = []

    init(source: ByteSource, observe: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.source = source
        self.observe = observe
    }

    private func readRaw(into pointer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        let n = try source.read(into: pointer, count: count)
        if n > 0 { observe(UnsafeRawBufferPointer(start: pointer, count: n)) }
        return n
    }

    private mutating func sniff() throws {
        var head = [UInt8](repeating: 0, count: 3)
        var got = 0
        while got < 3 {
            let n = try head.withUnsafeMutableBytes { try readRaw(into: $0.baseAddress! + got, count: 3 - got) }
            if n == 0 { break }
            got += n
        }
        head.removeLast(3 - got)
        if head.starts(with: [0xEF, 0xBB, 0xBF]) {
            encoding = .utf8
        } else if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) {
            // Build logs are mostly ASCII: in real UTF-16 most units have a zero high byte. Bytes that
            // only start like a byte-order mark (binary garbage) are kept as they are.
            let bigEndian = head[0] == 0xFE
            var ahead = Array(head.dropFirst(2))
            var buffer = [UInt8](repeating: 0, count: 256)
            while ahead.count < 256 {
                let n = try buffer.withUnsafeMutableBytes { try readRaw(into: $0.baseAddress!, count: 256 - ahead.count) }
                if n == 0 { break }
                ahead += buffer[0..<n]
            }
            let units = ahead.count / 2
            let ascii = stride(from: 0, to: units * 2, by: 2).filter { ahead[$0 + (bigEndian ? 0 : 1)] == 0 }.count
            if units < 4 || ascii * 2 >= units {
                encoding = bigEndian ? .utf16BE : .utf16LE
                pending = ahead
            } else {
                encoding = .utf8
                pending = Array(head.prefix(2)) + ahead
            }
        } else {
            encoding = .utf8
            pending = head
        }
    }

    /// Up to `count` bytes of UTF-8 into `buffer`; 0 at the end of the input.
    mutating func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        if encoding == nil { try sniff() }
        guard encoding != .utf8 else {
            if !pending.isEmpty {
                let n = min(count, pending.count)
                for i in 0..<n { buffer[i] = pending[i] }
                pending.removeFirst(n)
                return n
            }
            return try readRaw(into: buffer, count: count)
        }
        // UTF-16: each 2-byte unit becomes at most 3 bytes of UTF-8.
        let rawCount = max(2, count / 3 * 2)
        while true {
            var raw = self.raw
            raw.removeAll(keepingCapacity: true)
            if let odd = oddByte { raw.append(odd); oddByte = nil }
            raw.append(contentsOf: pending)
            pending.removeAll()
            var endOfInput = false
            if raw.count < rawCount {
                let start = raw.count
                raw.append(contentsOf: repeatElement(0, count: rawCount - start))
                let n = try raw.withUnsafeMutableBytes { try readRaw(into: $0.baseAddress! + start, count: rawCount - start) }
                raw.removeLast(rawCount - start - n)
                endOfInput = n == 0
            }
            defer { self.raw = raw }
            var written = 0
            var i = 0
            while i + 1 < raw.count {
                let unit = encoding == .utf16LE ? UInt16(raw[i]) | UInt16(raw[i + 1]) << 8 : UInt16(raw[i]) << 8 | UInt16(raw[i + 1])
                i += 2
                written += encode(unit, into: buffer + written)
            }
            if i < raw.count { oddByte = raw[i] }
            if endOfInput, highSurrogate != nil || oddByte != nil { // a truncated unit: the replacement character
                highSurrogate = nil
                oddByte = nil
                written += put(0xFFFD, into: buffer + written)
            }
            if written > 0 || endOfInput { return written }
        }
    }

    private mutating func encode(_ unit: UInt16, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        if let high = highSurrogate {
            highSurrogate = nil
            if (0xDC00...0xDFFF).contains(unit) {
                let scalar = 0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00)
                return put(scalar, into: out)
            }
            written += put(0xFFFD, into: out)
        }
        if (0xD800...0xDBFF).contains(unit) {
            highSurrogate = unit
            return written
        }
        if (0xDC00...0xDFFF).contains(unit) { return written + put(0xFFFD, into: out + written) }
        return written + put(UInt32(unit), into: out + written)
    }

    private func put(_ scalar: UInt32, into out: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case 0..<0x80:
            out[0] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            out[0] = UInt8(0xC0 | scalar >> 6)
            out[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            out[0] = UInt8(0xE0 | scalar >> 12)
            out[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            out[0] = UInt8(0xF0 | scalar >> 18)
            out[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            out[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }
}

/// In-place clean-up of freshly read bytes: line ends and terminal escape sequences.
enum LineNormaliser {
    /// The longest escape sequence held back for the next read when a read ends inside it (colour codes are under 20
    /// bytes; a longer one, an OSC hyperlink, is dropped in parts as before).
    static let maxHeldEscape = 32

    /// Normalises `buffer[from..<to]` in place and returns the new end. CRLF becomes LF, a lone CR
    /// becomes LF, ANSI CSI/OSC sequences and other escapes are dropped. Bytes are touched only when
    /// the range holds a CR or an ESC, so clean logs cost two `memchr` calls.
    ///
    /// Unless the input ends here (`final`), a CR at the very end and an escape sequence the end cuts (of at most
    /// `maxHeld` bytes) are left as read after the normalised bytes: `held` counts them, and the next call, from
    /// `end - held`, normalises them with what follows.
    static func normalise(_ buffer: UnsafeMutablePointer<UInt8>, from: Int, to: Int, final: Bool = true,
                          maxHeld: Int = maxHeldEscape) -> (end: Int, held: Int) {
        guard to > from else { return (to, 0) }
        let hasCR = memchr(buffer + from, 0x0D, to - from) != nil
        let hasESC = memchr(buffer + from, 0x1B, to - from) != nil
        guard hasCR || hasESC else { return (to, 0) }
        var read = from
        var write = from
        while read < to {
            let byte = buffer[read]
            if byte == 0x0D {
                if read + 1 < to {
                    if buffer[read + 1] == 0x0A {
                        read += 1 // drop CR of CRLF
                        continue
                    }
                } else if !final {
                    buffer[write] = 0x0D
                    return (write + 1, 1)
                }
                buffer[write] = 0x0A
                write += 1
                read += 1
                continue
            }
            if byte == 0x1B {
                let (next, complete) = skipEscape(buffer, at: read, end: to)
                if !complete, !final, to - read <= maxHeld {
                    let count = to - read
                    if write != read { memmove(buffer + write, buffer + read, count) }
                    return (write + count, count)
                }
                read = next
                continue
            }
            buffer[write] = byte
            write += 1
            read += 1
        }
        return (write, 0)
    }

    /// The index after the escape sequence starting at `start`, and whether the sequence ended before `end`.
    private static func skipEscape(_ buffer: UnsafeMutablePointer<UInt8>, at start: Int, end: Int) -> (Int, complete: Bool) {
        var i = start + 1
        guard i < end else { return (i, false) }
        let kind = buffer[i]
        if kind == UInt8(ascii: "[") { // CSI: parameters then one final byte 0x40-0x7E
            i += 1
            while i < end {
                let b = buffer[i]
                if b == 0x0A { return (i, true) }
                i += 1
                if (0x40...0x7E).contains(b) { return (i, true) }
            }
            return (i, false)
        }
        if kind == UInt8(ascii: "]") { // OSC: until BEL or ESC \
            i += 1
            while i < end {
                let b = buffer[i]
                if b == 0x07 { return (i + 1, true) }
                if b == 0x0A { return (i, true) }
                if b == 0x1B && i + 1 < end && buffer[i + 1] == UInt8(ascii: "\\") { return (i + 2, true) }
                i += 1
            }
            return (i, false)
        }
        return (kind == 0x0A ? i : i + 1, true) // two-byte escape
    }
}
