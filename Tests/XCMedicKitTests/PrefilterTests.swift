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

    /// Walks the buffer as the scanner does: a hit names its line, the line's literals are listed, and
    /// the walk goes on after the line. Returns, per line start, the literals listed.
    private func prefilterLines(_ text: [UInt8], _ prefilter: Prefilter) -> [Int: Set<Int>] {
        let padded = text + [UInt8](repeating: 0, count: 8)
        return padded.withUnsafeBufferPointer { buffer -> [Int: Set<Int>] in
            let base = buffer.baseAddress!
            var found: [Int: Set<Int>] = [:]
            var pos = 0
            while let hit = prefilter.firstHit(base, from: pos, to: text.count, paddedEnd: true) {
                let lineStart = Scanner.lineStart(base, before: hit.position, notBefore: pos)
                let lineEnd = Scanner.lineEnd(base, from: hit.position, end: text.count)
                var present: [Int] = []
                prefilter.literalsPresent(base, from: lineStart, to: lineEnd, into: &present)
                found[lineStart] = Set(present)
                pos = lineEnd + 1
            }
            return found
        }
    }

    /// Per line start, the literals a naive search finds in that line.
    private func naiveLines(_ text: [UInt8], _ literals: [[UInt8]]) -> [Int: Set<Int>] {
        var found: [Int: Set<Int>] = [:]
        var start = 0
        for (i, byte) in (text + [0x0A]).enumerated() where byte == 0x0A {
            let hits = naiveHits(Array(text[start..<i]), literals).values.reduce(Set<Int>()) { $0.union($1) }
            if !hits.isEmpty { found[start] = hits }
            start = i + 1
        }
        return found
    }

    /// The scanner's contract: every line holding a literal is found, with all its literals. (Which of
    /// two overlapping literals `firstHit` names first does not matter: they share the line.)
    func testRandomTextWithPlantedLiteralsFindsTheSameLinesAsANaiveSearch() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("ab rorE:*\"”\n".utf8)
        let inLine = alphabet.filter { $0 != 0x0A }
        for round in 0..<500 {
            let literals: [[UInt8]] = (0..<Int.random(in: 1...12, using: &rng)).map { _ in
                (0..<Int.random(in: 3...9, using: &rng)).map { _ in inLine.randomElement(using: &rng)! }
            }
            var text = (0..<Int.random(in: 0...300, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            for literal in literals where Bool.random(using: &rng) {
                let at = Int.random(in: 0...text.count, using: &rng)
                text.insert(contentsOf: literal, at: at)
            }
            let prefilter = Prefilter(literals: literals)
            XCTAssertEqual(prefilterLines(text, prefilter), naiveLines(text, literals), "round \(round): \(String(decoding: text, as: UTF8.self))")
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
