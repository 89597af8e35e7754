import Foundation
import XCTest
@testable import XCMedicKit

/// A log of thousands of distinct errors is reported in bounded memory (issue 17): occurrences kept across
/// the whole diagnosis are capped, report copies share what they do not change, and the JSON report is
/// written finding by finding with the same bytes as encoding the whole document.
final class ReportStreamingTests: XCTestCase {
    /// `count` distinct errors, each printed `repeats` times from a different file.
    private func errorLog(distinct count: Int, repeats: Int) -> String {
        var lines: [String] = []
        for r in 0..<repeats {
            for k in 0..<count { lines.append("/src/Module\(r)/File\(k).swift:\(k + 1):5: error: cannot find 'value\(k)' in scope") }
        }
        lines.append("** BUILD FAILED **")
        return lines.joined(separator: "\n")
    }

    private func diagnose(_ log: String) throws -> Diagnosis {
        let scanner = Scanner(ruleSet: try RuleSet.builtin())
        try scanner.scan(text: log, name: "build.log")
        return scanner.finish()
    }

    func testOccurrencesKeptAcrossFindingsAreCappedButCountsStayExact() throws {
        // 300 findings seen 100 times each: 30,000 occurrences, more than the 20,000 kept.
        let diagnosis = try diagnose(errorLog(distinct: 300, repeats: 100))
        let errors = diagnosis.findings.filter { $0.captures["name"]?.hasPrefix("value") == true || $0.message.contains("'value") }
        XCTAssertEqual(errors.count, 300)
        XCTAssertTrue(errors.allSatisfy { $0.count == 100 }, "every occurrence is counted")
        XCTAssertTrue(errors.allSatisfy { !$0.occurrences.isEmpty }, "every finding keeps its first occurrence")
        let kept = errors.reduce(0) { $0 + $1.occurrences.count }
        XCTAssertLessThanOrEqual(kept, Diagnosis.maxStoredOccurrences + errors.count)
        XCTAssertGreaterThan(kept, Diagnosis.maxStoredOccurrences / 2, "the budget is used, not thrown away")
        // The first occurrence is the first line that printed it, also for findings past the budget.
        let last = try XCTUnwrap(errors.max { $0.firstLine < $1.firstLine })
        XCTAssertEqual(last.firstLine, 300)
    }

    func testJSONWrittenByFindingIsTheWholeDocumentsEncoding() throws {
        let log = errorLog(distinct: 3, repeats: 2) + """

        Macro "M" from package "p" must be enabled before it can be used
        error: the flux capacitor broke \u{1B}]8;;https://evil\u{07} \u{9B}31m
        Test Case '-[ShopTests.CartTests testAdd]' passed (0.001 seconds).
        """
        for diagnosis in [try diagnose(log), try diagnose("** BUILD SUCCEEDED **")] {
            let streamed = JSONReport.render(diagnosis)
            // The reference: the whole document through one encoder, as the report was made before.
            let prepared = ReportContext(diagnosis, redactor: .standard, controls: .escapedByFormat).diagnosis
            let partial = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(streamed.utf8)) as? [String: Any])
            XCTAssertEqual((partial["findings"] as? [Any])?.count, prepared.findings.count)
            struct Whole: Encodable {
                var findings: [JSONReport.FindingJSON]
                var rest: [String: AnyCodable]
                func encode(to encoder: Encoder) throws {
                    var c = encoder.container(keyedBy: Key.self)
                    try c.encode(findings, forKey: Key("findings"))
                    for (k, v) in rest where k != "findings" { try c.encode(v, forKey: Key(k)) }
                }
                struct Key: CodingKey {
                    var stringValue: String
                    var intValue: Int? { nil }
                    init(_ s: String) { stringValue = s }
                    init?(stringValue: String) { self.stringValue = stringValue }
                    init?(intValue: Int) { nil }
                }
            }
            let whole = Whole(findings: prepared.findings.map(JSONReport.findingJSON),
                              rest: partial.mapValues(AnyCodable.init))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let reference = TerminalSafe.escapeJSONControls(String(decoding: try encoder.encode(whole), as: UTF8.self)) + "\n"
            XCTAssertEqual(streamed, reference)
        }
    }

    func testReportCopiesShareWhatRedactionDoesNotChange() throws {
        let diagnosis = try diagnose(errorLog(distinct: 2, repeats: 3) + "\nerror: token ghp_abcdefghijklmnopqrstuvwxyz0123456789 rejected")
        let redacted = Redactor.standard.redact(diagnosis)
        func storage<T>(_ a: [T]) -> UnsafeRawPointer? { a.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) } }
        var shared = 0
        for (original, copy) in zip(diagnosis.findings, redacted.findings) {
            if copy.excerpt.joined().contains("ghp_") { XCTFail("a token reached the report") }
            if original.excerpt == copy.excerpt {
                XCTAssertEqual(storage(original.excerpt), storage(copy.excerpt), "unchanged excerpt of \(original.rule) is copied")
                XCTAssertEqual(storage(original.occurrences), storage(copy.occurrences))
                shared += 1
            } else {
                XCTAssertNotEqual(storage(original.excerpt), storage(copy.excerpt))
            }
        }
        XCTAssertGreaterThanOrEqual(shared, 2)
        XCTAssertTrue(redacted.findings.contains { $0.excerpt.joined().contains(SecretShapes.replacement) })
    }

    func testStreamWritesEverythingInBlocksAndReportsAClosedReader() throws {
        let path = NSTemporaryDirectory() + "xcmedic-stream-\(getpid()).txt"
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let pieces = (0..<20_000).map { "line \($0) ✓\n" } + [String(repeating: "x", count: 200_000), "end\n"]
        var stream = FDTextStream(fd: fd)
        for piece in pieces { stream.write(piece) }
        guard case .ok = stream.finish() else { return XCTFail("write failed") }
        close(fd)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), pieces.joined())

        var fds: [Int32] = [0, 0]
        // A reader that went away: the outcome says so, and later writes are dropped quietly.
        XCTAssertEqual(pipe(&fds), 0)
        close(fds[0])
        signal(SIGPIPE, SIG_IGN)
        var closed = FDTextStream(fd: fds[1])
        closed.write(String(repeating: "y", count: 100_000))
        closed.write("more")
        guard case .closed = closed.finish() else { return XCTFail("a closed reader is not reported") }
        close(fds[1])
    }
}

/// A decoded JSON value encoded again as it was.
private struct AnyCodable: Encodable {
    let value: Any
    init(_ value: Any) { self.value = value }
    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch value {
        case let v as Int: try c.encode(v)
        case let v as String: try c.encode(v)
        case let v as [Any]: try c.encode(v.map(AnyCodable.init))
        case let v as [String: Any]: try c.encode(v.mapValues(AnyCodable.init))
        case is NSNull: try c.encodeNil()
        default: throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(type(of: value))"))
        }
    }
}
