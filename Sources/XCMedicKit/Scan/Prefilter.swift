import Foundation

/// Finds which of a fixed set of literals occur in a byte range, so that only lines carrying one
/// ever reach a regex.
///
/// Each literal is keyed by a 3-byte window of its own (the rarest one, by a fixed byte-frequency
/// table of build logs). The hot loop reads 3 bytes per position, hashes them into a 64 Ki-bit table
/// (8 KiB, stays in L1), and only on a set bit compares the literals of that bucket. Per byte that
/// is one unaligned load, one multiply, one shift and one bit test; no allocation.
struct Prefilter {
    private(set) var literals: [[UInt8]]
    /// Offset of each literal's key window inside the literal.
    private var keyOffsets: [Int]
    private var bits: [UInt64]
    /// Bucket `h` holds `bucketItems[bucketStart[h]..<bucketStart[h+1]]`.
    private var bucketStart: [Int32]
    private var bucketItems: [Int32]

    static let tableBits = 16
    static let minimumLength = 3

    init(literals: [[UInt8]]) {
        precondition(literals.allSatisfy { $0.count >= Prefilter.minimumLength })
        self.literals = literals
        keyOffsets = literals.map(Prefilter.rarestWindow)
        let size = 1 << Prefilter.tableBits
        var counts = [Int32](repeating: 0, count: size + 1)
        var hashes: [Int] = []
        for (index, literal) in literals.enumerated() {
            let o = keyOffsets[index]
            let h = Prefilter.hash(UInt32(literal[o]) | UInt32(literal[o + 1]) << 8 | UInt32(literal[o + 2]) << 16)
            hashes.append(h)
            counts[h + 1] += 1
        }
        for h in 0..<size { counts[h + 1] += counts[h] }
        bucketStart = counts
        var fill = counts
        bucketItems = [Int32](repeating: 0, count: literals.count)
        bits = [UInt64](repeating: 0, count: size / 64)
        for (index, h) in hashes.enumerated() {
            bucketItems[Int(fill[h])] = Int32(index)
            fill[h] += 1
            bits[h >> 6] |= 1 << UInt64(h & 63)
        }
    }

    @inline(__always)
    static func hash(_ key: UInt32) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B1) >> (32 - UInt32(tableBits)))
    }

    /// Returns the first position in `base[from..<to]` where a literal starts, and its index.
    /// `to` may be followed by at least one readable byte (the key load reads 4 bytes).
    @inline(__always)
    func firstHit(_ base: UnsafePointer<UInt8>, from: Int, to: Int, paddedEnd: Bool) -> (position: Int, literal: Int)? {
        guard to - from >= Prefilter.minimumLength else { return nil }
        let lastKeyStart = to - Prefilter.minimumLength
        let fastEnd = paddedEnd ? lastKeyStart : lastKeyStart - 1
        var i = from
        let raw = UnsafeRawPointer(base)
        return bits.withUnsafeBufferPointer { table -> (Int, Int)? in
            // Four positions per 8-byte load, one branch for all four: most of a log has no hit.
            while i + 8 <= to {
                let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let h0 = Prefilter.hash(UInt32(truncatingIfNeeded: w) & 0x00FF_FFFF)
                let h1 = Prefilter.hash(UInt32(truncatingIfNeeded: w >> 8) & 0x00FF_FFFF)
                let h2 = Prefilter.hash(UInt32(truncatingIfNeeded: w >> 16) & 0x00FF_FFFF)
                let h3 = Prefilter.hash(UInt32(truncatingIfNeeded: w >> 24) & 0x00FF_FFFF)
                let t0 = table[h0 >> 6] >> UInt64(h0 & 63)
                let t1 = table[h1 >> 6] >> UInt64(h1 & 63)
                let t2 = table[h2 >> 6] >> UInt64(h2 & 63)
                let t3 = table[h3 >> 6] >> UInt64(h3 & 63)
                if (t0 | t1 | t2 | t3) & 1 != 0 {
                    for (k, (t, h)) in [(t0, h0), (t1, h1), (t2, h2), (t3, h3)].enumerated() where t & 1 != 0 {
                        if let literal = verify(base, keyAt: i + k, hash: h, from: from, to: to) {
                            return (i + k - keyOffsets[literal], literal)
                        }
                    }
                }
                i += 4
            }
            while i <= lastKeyStart {
                let key: UInt32
                if i <= fastEnd {
                    key = raw.loadUnaligned(fromByteOffset: i, as: UInt32.self) & 0x00FF_FFFF
                } else {
                    key = UInt32(base[i]) | UInt32(base[i + 1]) << 8 | UInt32(base[i + 2]) << 16
                }
                let h = Prefilter.hash(UInt32(littleEndian: key))
                if table[h >> 6] & (1 << UInt64(h & 63)) != 0, let literal = verify(base, keyAt: i, hash: h, from: from, to: to) {
                    return (i - keyOffsets[literal], literal)
                }
                i += 1
            }
            return nil
        }
    }

    /// All literal indices present in `base[from..<to]` (a single line).
    func literalsPresent(_ base: UnsafePointer<UInt8>, from: Int, to: Int, into result: inout [Int]) {
        guard to - from >= Prefilter.minimumLength else { return }
        var i = from
        while i <= to - Prefilter.minimumLength {
            let key = UInt32(base[i]) | UInt32(base[i + 1]) << 8 | UInt32(base[i + 2]) << 16
            let h = Prefilter.hash(key)
            if bits[h >> 6] & (1 << UInt64(h & 63)) != 0 {
                for k in Int(bucketStart[h])..<Int(bucketStart[h + 1]) {
                    let literal = Int(bucketItems[k])
                    if matches(literal, base, keyAt: i, from: from, to: to), !result.contains(literal) { result.append(literal) }
                }
            }
            i += 1
        }
    }

    @inline(__always)
    private func verify(_ base: UnsafePointer<UInt8>, keyAt i: Int, hash h: Int, from: Int, to: Int) -> Int? {
        for k in Int(bucketStart[h])..<Int(bucketStart[h + 1]) {
            let literal = Int(bucketItems[k])
            if matches(literal, base, keyAt: i, from: from, to: to) { return literal }
        }
        return nil
    }

    @inline(__always)
    private func matches(_ literal: Int, _ base: UnsafePointer<UInt8>, keyAt i: Int, from: Int, to: Int) -> Bool {
        let start = i - keyOffsets[literal]
        let bytes = literals[literal]
        guard start >= from, start + bytes.count <= to else { return false }
        return bytes.withUnsafeBufferPointer { memcmp(base + start, $0.baseAddress!, $0.count) == 0 }
    }

    /// Picks the 3-byte window least likely to occur in a build log, so the table's bits are rarely set.
    static func rarestWindow(_ literal: [UInt8]) -> Int {
        var best = 0
        var bestScore = Int.max
        for o in 0...(literal.count - 3) {
            let score = commonness(literal[o]) + commonness(literal[o + 1]) + commonness(literal[o + 2])
            if score < bestScore { best = o; bestScore = score }
        }
        return best
    }

    /// A rough rank of how often a byte appears in build logs (paths, flags, English text).
    private static func commonness(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "/"), UInt8(ascii: "e"), UInt8(ascii: "-"): return 10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return "etaoinsrhldcu".utf8.contains(byte) ? 8 : 5
        case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "0")...UInt8(ascii: "9"): return 7
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return 4
        case 0x80...0xFF: return 2
        default: return 3
        }
    }
}
