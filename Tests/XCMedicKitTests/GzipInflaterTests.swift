import Foundation
import XCTest
@testable import XCMedicKit

final class GzipInflaterTests: XCTestCase {
    private func readAll(_ path: String) throws -> [UInt8] {
        let source = try ByteSource(path: path)
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0.baseAddress!, count: $0.count) }
            if n == 0 { return out }
            out += chunk[0..<n]
        }
    }

    private let text = Array((0..<20_000).map { "line \($0) of a build log\n" }.joined().utf8)

    func testDecompressesWhatGzipWrote() throws {
        let path = try GzipForTests.write(try GzipForTests.compress(text), name: "log.gz")
        XCTAssertEqual(try readAll(path), text)
    }

    func testConcatenatedMembersAreOneStream() throws {
        let first = try GzipForTests.compress(Array(text.prefix(1000)))
        let second = try GzipForTests.compress(Array(text.dropFirst(1000)))
        let path = try GzipForTests.write(first + second + [0, 0, 0, 0], name: "joined.gz")
        XCTAssertEqual(try readAll(path), text)
    }

    func testATruncatedStreamIsAnErrorNamingWhereItEnds() throws {
        let whole = try GzipForTests.compress(text)
        let path = try GzipForTests.write(Array(whole.prefix(whole.count / 2)), name: "cut.gz")
        XCTAssertThrowsError(try readAll(path)) { error in
            XCTAssertEqual(error as? InputError, InputError(path: path, problem: "gzip stream is truncated: it ends at byte \(whole.count / 2) before its last member does"))
        }
        // Only the 8-byte trailer (CRC and length) missing: still not the whole log.
        let noTrailer = try GzipForTests.write(Array(whole.dropLast(8)), name: "no-trailer.gz")
        XCTAssertThrowsError(try readAll(noTrailer))
    }

    func testCorruptDataIsAnErrorNamingTheByte() throws {
        var whole = try GzipForTests.compress(text)
        for i in 100..<140 { whole[i] ^= 0x5A }
        let path = try GzipForTests.write(whole, name: "bad.gz")
        XCTAssertThrowsError(try readAll(path)) { error in
            let problem = (error as? InputError)?.problem ?? "\(error)"
            XCTAssertTrue(problem.hasPrefix("gzip stream is corrupt at byte "), problem)
        }
        var badCRC = try GzipForTests.compress(text)
        badCRC[badCRC.count - 6] ^= 0xFF
        XCTAssertThrowsError(try readAll(try GzipForTests.write(badCRC, name: "crc.gz")))
    }

    func testGarbageAfterTheLastMemberIsAnError() throws {
        let path = try GzipForTests.write(try GzipForTests.compress(text) + Array("trailing".utf8), name: "trailing.gz")
        XCTAssertThrowsError(try readAll(path))
    }

    /// A scan of many inputs holds one file open at a time.
    func testNoDescriptorIsLeftOpenPerInput() throws {
        let fdDirectory = "/proc/self/fd"
        guard FileManager.default.fileExists(atPath: fdDirectory) else { throw XCTSkip("no /proc/self/fd here") }
        let plain = try GzipForTests.write(text, name: "a.log")
        let gz = try GzipForTests.write(try GzipForTests.compress(text), name: "a.log.gz")
        let activity = try GzipForTests.write(try GzipForTests.compress(SLFWriter.log(SampleBuild.root)), name: "a.xcactivitylog")
        let scanner = Scanner(ruleSet: try RuleSet(rules: BuiltinCatalog.rules()))
        let before = try FileManager.default.contentsOfDirectory(atPath: fdDirectory).count
        for _ in 0..<30 {
            for path in [plain, gz, activity] { try scanner.scan(path: path) }
        }
        let after = try FileManager.default.contentsOfDirectory(atPath: fdDirectory).count
        XCTAssertLessThanOrEqual(after, before)
        XCTAssertEqual(scanner.finish().inputs.count, 90)
    }
}
