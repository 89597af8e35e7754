import Foundation

/// Byte searches shared by the reader and the scanner.
enum Bytes {
    /// Index of the last `byte` in `base[from..<to]`, reading 8 bytes at a time.
    @inline(__always)
    static func lastIndex(of byte: UInt8, in base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        var i = to
        let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
        let raw = UnsafeRawPointer(base)
        while i - from >= 8 {
            let word = raw.loadUnaligned(fromByteOffset: i - 8, as: UInt64.self) ^ pattern
            // A zero byte in `word` marks a match.
            if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
            i -= 8
        }
        while i > from {
            i -= 1
            if base[i] == byte { return i }
        }
        return nil
    }
}

extension Bytes {
    /// Whether `needle` occurs in `haystack[0..<count]`: `memchr` for its first byte, `memcmp` for the rest.
    static func contains(_ haystack: UnsafePointer<UInt8>, count: Int, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        firstIndex(of: needle, in: haystack, count: count, from: 0) != nil
    }

    /// Where `needle` first occurs in `haystack[from..<count]`.
    static func firstIndex(of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafePointer<UInt8>, count: Int, from: Int) -> Int? {
        guard let first = needle.first else { return from <= count ? from : nil }
        var i = from
        let lastStart = count - needle.count
        while i <= lastStart {
            guard let hit = memchr(haystack + i, Int32(first), lastStart - i + 1) else { return nil }
            let at = UnsafeRawPointer(hit) - UnsafeRawPointer(haystack)
            if memcmp(haystack + at, needle.baseAddress!, needle.count) == 0 { return at }
            i = at + 1
        }
        return nil
    }

    /// Byte-wise substring test on a String's UTF-8, without Foundation's locale-aware search.
    static func contains(_ text: String, _ needle: [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { hay in
            needle.withUnsafeBufferPointer { contains(hay.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: hay.count, $0) }
        }
    }
}
