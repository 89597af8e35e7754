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
