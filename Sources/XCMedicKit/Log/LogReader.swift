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
        var filled = 0 // bytes in buffer, normalised except possibly a held-back trailing CR
        var nextLine = 1
        var continuing = false
        var endOfInput = false
        var heldCR = false

        while !endOfInput {
            let room = min(chunkBytes, capacity - 8 - filled)
            let n = try source.read(into: buffer + filled, count: room)
            if n == 0 {
                endOfInput = true
            } else {
                rawObserver?(UnsafeRawBufferPointer(start: buffer + filled, count: n))
                bytesRead += n
            }
            let fresh = heldCR ? filled - 1 : filled
            filled += n
            // Hold back a CR at the very end: the next read may bring its LF.
            let holdCR = !endOfInput && filled > 0 && buffer[filled - 1] == 0x0D
            let normaliseEnd = holdCR ? filled - 1 : filled
            let newEnd = LineNormaliser.normalise(buffer, from: fresh, to: normaliseEnd)
            if holdCR { buffer[newEnd] = 0x0D }
            filled = newEnd + (holdCR ? 1 : 0)
            heldCR = holdCR

            // Hand over everything up to the last complete line.
            var cut = 0
            if let lastLF = lastIndex(of: 0x0A, in: buffer, count: holdCR ? filled - 1 : filled) {
                cut = lastLF + 1
            }
            if endOfInput {
                cut = filled
            } else if cut == 0 && filled >= maxLine {
                cut = filled - (holdCR ? 1 : 0)
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

/// In-place clean-up of freshly read bytes: line ends and terminal escape sequences.
enum LineNormaliser {
    /// Normalises `buffer[from..<to]` in place and returns the new end. CRLF becomes LF, a lone CR
    /// becomes LF, ANSI CSI/OSC sequences and other escapes are dropped. Bytes are touched only when
    /// the range holds a CR or an ESC, so clean logs cost two `memchr` calls.
    static func normalise(_ buffer: UnsafeMutablePointer<UInt8>, from: Int, to: Int) -> Int {
        guard to > from else { return to }
        let hasCR = memchr(buffer + from, 0x0D, to - from) != nil
        let hasESC = memchr(buffer + from, 0x1B, to - from) != nil
        guard hasCR || hasESC else { return to }
        var read = from
        var write = from
        while read < to {
            let byte = buffer[read]
            if byte == 0x0D {
                if read + 1 < to && buffer[read + 1] == 0x0A {
                    read += 1 // drop CR of CRLF
                    continue
                }
                buffer[write] = 0x0A
                write += 1
                read += 1
                continue
            }
            if byte == 0x1B {
                read = skipEscape(buffer, at: read, end: to)
                continue
            }
            buffer[write] = byte
            write += 1
            read += 1
        }
        return write
    }

    /// Returns the index after the escape sequence starting at `start`.
    private static func skipEscape(_ buffer: UnsafeMutablePointer<UInt8>, at start: Int, end: Int) -> Int {
        var i = start + 1
        guard i < end else { return i }
        let kind = buffer[i]
        if kind == UInt8(ascii: "[") { // CSI: parameters then one final byte 0x40-0x7E
            i += 1
            while i < end {
                let b = buffer[i]
                if b == 0x0A { return i }
                i += 1
                if (0x40...0x7E).contains(b) { return i }
            }
            return i
        }
        if kind == UInt8(ascii: "]") { // OSC: until BEL or ESC \
            i += 1
            while i < end {
                let b = buffer[i]
                if b == 0x07 { return i + 1 }
                if b == 0x0A { return i }
                if b == 0x1B && i + 1 < end && buffer[i + 1] == UInt8(ascii: "\\") { return i + 2 }
                i += 1
            }
            return i
        }
        return kind == 0x0A ? i : i + 1 // two-byte escape
    }
}
