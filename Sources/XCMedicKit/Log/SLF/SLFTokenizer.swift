import Foundation

/// Why an activity log could not be decoded, and where (a byte offset in the decompressed SLF).
public struct SLFError: Error, Equatable, Sendable {
    public var offset: Int
    public var problem: String
}

/// The tokens of Xcode's SLF serialisation (`SLF0` then values, each `<payload><delimiter>`):
/// `12#` integer, `<16 hex>^` double, `-` null, `5"Hello` string, `3*{…}` JSON, `21%Name` class
/// name (registered, never returned), `2@` instance of the second class name, `4(` array of four.
enum SLFToken: Equatable {
    case int(UInt64)
    case double(Double)
    case null
    /// A string of this many bytes follows; read it with `readString`, `readLine` or `skip`.
    case string(Int)
    case json(Int)
    case instance(String)
    case array(Int)
}

/// Reads SLF tokens from a byte source through a fixed buffer: memory never depends on the log.
final class SLFTokenizer {
    static let bufferBytes = 1 << 18
    /// The longest payload before a delimiter: a 64-bit integer in decimal, a double in hex.
    static let maxPayloadDigits = 20
    static let maxClassNames = 4096

    private let source: ByteSource
    private let buffer: UnsafeMutablePointer<UInt8>
    private var start = 0
    private var end = 0
    private var atEnd = false
    /// Bytes dropped from the front of the buffer so far.
    private var consumedBefore = 0
    private var classNames: [String] = []

    init(source: ByteSource) {
        self.source = source
        buffer = .allocate(capacity: SLFTokenizer.bufferBytes)
    }

    deinit { buffer.deallocate() }

    /// Offset of the next unread byte in the decoded stream.
    var offset: Int { consumedBefore + start }

    func fail(_ problem: String, at offset: Int? = nil) -> SLFError {
        SLFError(offset: offset ?? self.offset, problem: problem)
    }

    /// Makes at least `count` bytes available unless the input ends first; returns what is available.
    @discardableResult
    private func ensure(_ count: Int) throws -> Int {
        if end - start >= count || atEnd { return end - start }
        if start > 0 {
            let kept = end - start
            if kept > 0 { buffer.update(from: buffer + start, count: kept) }
            consumedBefore += start
            start = 0
            end = kept
        }
        while end - start < count && !atEnd {
            let n = try source.read(into: buffer + end, count: SLFTokenizer.bufferBytes - end)
            if n == 0 { atEnd = true } else { end += n }
        }
        return end - start
    }

    /// Reads the `SLF0` header.
    func readHeader() throws {
        guard try ensure(4) >= 4, memcmp(buffer + start, "SLF0", 4) == 0 else {
            throw fail("no SLF0 header")
        }
        start += 4
    }

    /// The next token, or nil at the end of the input.
    func next() throws -> SLFToken? {
        while true {
            let available = try ensure(SLFTokenizer.maxPayloadDigits + 2)
            if available == 0 { return nil }
            let tokenStart = offset
            var decimal: UInt64 = 0
            var hex: UInt64 = 0
            var digits = 0
            var decimalOnly = true
            var overflow = false
            var i = start
            while i < end {
                let byte = buffer[i]
                let value: UInt64
                switch byte {
                case 0x30...0x39: value = UInt64(byte - 0x30)
                case 0x61...0x66: value = UInt64(byte - 0x61 + 10); decimalOnly = false
                default: value = 16
                }
                if value == 16 { break }
                if decimalOnly {
                    let (times, o1) = decimal.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times.addingReportingOverflow(value)
                    decimal = sum
                    overflow = overflow || o1 || o2
                }
                hex = hex &<< 4 | value
                digits += 1
                i += 1
                if digits > SLFTokenizer.maxPayloadDigits { throw fail("a token's value is longer than \(SLFTokenizer.maxPayloadDigits) digits", at: tokenStart) }
            }
            guard i < end else { throw fail("the log ends in the middle of a token", at: tokenStart) }
            let delimiter = buffer[i]
            start = i + 1
            let count = decimalOnly && !overflow && digits > 0 ? Int(exactly: decimal) : nil
            switch delimiter {
            case UInt8(ascii: "#"):
                guard decimalOnly, !overflow, digits > 0 else { throw fail("bad integer", at: tokenStart) }
                return .int(decimal)
            case UInt8(ascii: "^"):
                guard digits == 16 else { throw fail("bad double", at: tokenStart) }
                return .double(Double(bitPattern: hex.byteSwapped))
            case UInt8(ascii: "-"):
                guard digits == 0 else { throw fail("a null with a value", at: tokenStart) }
                return .null
            case UInt8(ascii: "\""):
                guard let count else { throw fail("bad string length", at: tokenStart) }
                return .string(count)
            case UInt8(ascii: "*"):
                guard let count else { throw fail("bad JSON length", at: tokenStart) }
                return .json(count)
            case UInt8(ascii: "("):
                guard let count else { throw fail("bad array length", at: tokenStart) }
                return .array(count)
            case UInt8(ascii: "%"):
                guard let count, count <= 1024 else { throw fail("bad class name length", at: tokenStart) }
                guard classNames.count < SLFTokenizer.maxClassNames else { throw fail("more than \(SLFTokenizer.maxClassNames) class names", at: tokenStart) }
                classNames.append(try readString(count, limit: count))
                continue
            case UInt8(ascii: "@"):
                guard let count, count >= 1, count <= classNames.count else {
                    throw fail("an instance of class \(digits > 0 ? String(decimal) : "?") before its name", at: tokenStart)
                }
                return .instance(classNames[count - 1])
            default:
                let shown = (0x21...0x7E).contains(delimiter) ? "'\(Character(Unicode.Scalar(delimiter)))'" : String(format: "0x%02X", delimiter)
                throw fail("unexpected byte \(shown)", at: offset - 1)
            }
        }
    }

    /// Reads a string payload of `length` bytes, keeping at most `limit` of them, without the white
    /// space (ASCII) at either end.
    func readString(_ length: Int, limit: Int) throws -> String {
        if length <= end - start && length <= limit {
            // The common case: the whole string is in the buffer.
            let text = SLFTokenizer.trimmed(UnsafeBufferPointer(start: buffer + start, count: length))
            start += length
            return text
        }
        var remaining = length
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(length, limit))
        while remaining > 0 {
            if try ensure(1) == 0 { throw fail("the log ends inside a string") }
            let n = min(remaining, end - start)
            let kept = min(n, limit - bytes.count)
            if kept > 0 { bytes.append(contentsOf: UnsafeBufferPointer(start: buffer + start, count: kept)) }
            start += n
            remaining -= n
        }
        return bytes.withUnsafeBufferPointer { SLFTokenizer.trimmed($0) }
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }
        var from = 0
        var to = bytes.count
        while from < to && isSpace(bytes[from]) { from += 1 }
        while to > from && isSpace(bytes[to - 1]) { to -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
    }

    /// Skips a payload of `length` bytes.
    func skip(_ length: Int) throws {
        var remaining = length
        while remaining > 0 {
            if try ensure(1) == 0 { throw fail("the log ends inside a string") }
            let n = min(remaining, end - start)
            start += n
            remaining -= n
        }
    }

    /// Reads the next line of a string payload into `line` (without its line feed), taking at most
    /// `limit` bytes: a longer line comes back in fragments. Decrements `remaining` by what it read.
    func readLine(remaining: inout Int, limit: Int, into line: inout [UInt8]) throws {
        line.removeAll(keepingCapacity: true)
        while remaining > 0 && line.count < limit {
            if try ensure(1) == 0 { throw fail("the log ends inside a string") }
            let available = min(remaining, end - start, limit - line.count)
            if let hit = memchr(buffer + start, 0x0A, available) {
                let n = UnsafeRawPointer(hit) - UnsafeRawPointer(buffer + start)
                line.append(contentsOf: UnsafeBufferPointer(start: buffer + start, count: n))
                start += n + 1
                remaining -= n + 1
                return
            }
            line.append(contentsOf: UnsafeBufferPointer(start: buffer + start, count: available))
            start += available
            remaining -= available
        }
    }
}
