import XCTest
@testable import XCMedicKit

/// The prefilter finds exactly what a naive search finds, wherever a literal sits.
final class PrefilterTests: XCTestCase {
    private func naiveHits(_ text: [UInt8], _ literals: [[UInt8]]) -> [Int: Set<Int>] {
        var hits: [Int: Set<Int>] = [:]
        for (index, literal) in literals.enumerated() where literal.count <= text.count {
            for start in 0...(text.count - literal.count) where Array(text[start..<(start + literal.count)]) == literal {
                hits[start, default: []].insert(index)
            }
        }
        return hits
    }

    /// Walks the buffer with `firstHit` as the scanner does and collects every hit position.
    private func prefilterHits(_ text: [UInt8], _ prefilter: Prefilter) -> Set<Int> {
        var padded = text + [UInt8](repeating: 0, count: 8)
        return padded.withUnsafeMutableBufferPointer { buffer -> Set<Int> in
            let base = UnsafePointer(buffer.baseAddress!)
            var found = Set<Int>()
            var pos = 0
            while let hit = prefilter.firstHit(base, from: pos, to: text.count, paddedEnd: true) {
                found.insert(hit.position)
                pos = hit.position + 1
            }
            return found
        }
    }

    func testRandomTextWithPlantedLiteralsMatchesANaiveSearch() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("ab rorE:*\"”\n".utf8)
        for round in 0..<200 {
            let literals: [[UInt8]] = (0..<Int.random(in: 1...12, using: &rng)).map { _ in
                (0..<Int.random(in: 3...9, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            }
            var text = (0..<Int.random(in: 0...300, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            for literal in literals where Bool.random(using: &rng) {
                let at = Int.random(in: 0...text.count, using: &rng)
                text.insert(contentsOf: literal, at: at)
            }
            let prefilter = Prefilter(literals: literals)
            let expected = Set(naiveHits(text, literals).keys)
            // firstHit may skip a later hit inside the same 8-byte group only if an earlier one exists,
            // so walking it hit by hit must find every start.
            XCTAssertEqual(prefilterHits(text, prefilter), expected, "round \(round): \(String(decoding: text, as: UTF8.self))")
        }
    }

    func testLiteralsPresentListsEveryLiteralOfALine() {
        let literals = [Array("rror:".utf8), Array("must be enabled".utf8), Array("FAILED **".utf8)]
        let prefilter = Prefilter(literals: literals)
        let line = Array("error: x must be enabled ** BUILD FAILED **".utf8)
        var present: [Int] = []
        line.withUnsafeBufferPointer { prefilter.literalsPresent($0.baseAddress!, from: 0, to: line.count, into: &present) }
        XCTAssertEqual(Set(present), [0, 1, 2])
    }

    func testLiteralAtTheVeryEndWithoutPadding() {
        let prefilter = Prefilter(literals: [Array("end".utf8)])
        let text = Array("xxxxxxxxxxxxxxxxxxxxxxxxend".utf8)
        let hit = text.withUnsafeBufferPointer { prefilter.firstHit($0.baseAddress!, from: 0, to: text.count, paddedEnd: false) }
        XCTAssertEqual(hit?.position, text.count - 3)
    }

    func testKeysAvoidCommonPairs() {
        // "ing" words: the key must not be "ng", one of the most common pairs in build logs.
        let literal = Array("risks causing data races".utf8)
        let o = Prefilter.rarestPair(literal)
        XCTAssertNotEqual(Array(literal[o...(o + 1)]), Array("ng".utf8))
    }
}
