import Foundation
import XCTest
@testable import XCMedicKit

/// The JSON report writes each finding with `PrettyJSON`, not `JSONEncoder`: the text must be the
/// encoder's, byte for byte (the schema and every consumer of `--format json` see the same report).
final class PrettyJSONTests: XCTestCase {
    private func encoderText(_ value: JSONReport.FindingJSON) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return TerminalSafe.escapeJSONControls(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Two levels into the report, the text is the same with each non-empty line indented by four spaces.
    private func assertNested(_ value: JSONReport.FindingJSON, _ file: String = "", line: UInt = #line) throws {
        let nested = try XCTUnwrap(value.prettyBytes(depth: 2))
        XCTAssertEqual(nested, JSONReport.indented(try encoderText(value), by: 2), file, line: line)
    }

    /// Every control character (C0, DEL, C1) and ASCII punctuation, characters beyond ASCII, empty and nested
    /// containers, absent optionals, keys in mixed case and with digits.
    func testTheEncodersTextForEdgeCases() throws {
        let every = String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init))) + "\u{80}\u{85}\u{9F}\u{A0}é\u{2028}\u{2029}🚫/\\\""
        let finding = JSONReport.FindingJSON(
            rule: "r", category: every, severity: "error", role: "cause", title: "", message: every,
            captures: ["b": every, "B": "", "a10": "x", "a9": "y", "a": "z", "fileLine": "1", "file": "2"],
            collected: ["k": [], "K": ["a", every], "k2": [""]],
            count: 3,
            occurrences: [JSONReport.OccurrenceJSON(line: 1, input: 0, file: nil, fileLine: nil, column: nil),
                          JSONReport.OccurrenceJSON(line: -2, input: 1, file: every, fileLine: 0, column: 12)],
            excerpt: [], explanation: "a\nb",
            fixes: [JSONReport.FixJSON(summary: "s", commands: [], snippet: nil, docs: nil),
                    JSONReport.FixJSON(summary: every, commands: ["x", every], snippet: "a\tb", docs: "https://x/y")],
            docs: ["https://a/b"], errorInSwift6: true, history: nil)
        XCTAssertEqual(finding.prettyText(), try encoderText(finding))
        try assertNested(finding)
        var empty = finding
        empty.captures = [:]; empty.collected = [:]; empty.occurrences = []; empty.fixes = []; empty.docs = []; empty.errorInSwift6 = false
        XCTAssertEqual(empty.prettyText(), try encoderText(empty))
        try assertNested(empty)
    }

    /// Every finding of every case of `Tests/Corpus` and `Tests/Holdout`.
    func testTheEncodersTextForEveryCorpusFinding() throws {
        let set = try RuleSet.builtin()
        var compared = 0
        for folder in [CorpusTests.folder("Corpus"), CorpusTests.folder("Holdout")] {
            for c in try CorpusTests.cases(in: folder) {
                let scanner = Scanner(ruleSet: set)
                try scanner.scan(path: folder.appendingPathComponent("cases").appendingPathComponent(c.file).path)
                let diagnosis = ReportContext(scanner.finish(), redactor: .standard, controls: .escapedByFormat).diagnosis
                for finding in diagnosis.findings {
                    let json = JSONReport.findingJSON(finding)
                    XCTAssertEqual(json.prettyText(), try encoderText(json), c.file)
                    try assertNested(json, c.file)
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 4_000)
    }
}
