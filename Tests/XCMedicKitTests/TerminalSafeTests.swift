import Foundation
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import XCMedicKit

/// No report lets a log (or a rules file) drive the terminal that shows it: every control character but tab
/// and newline is written as `\u{XX}` in text, github and markdown, and escaped as the format says in json,
/// sarif and junit.
final class TerminalSafeTests: XCTestCase {
    /// What a hostile log carries after the reader has removed ANSI escape sequences and CR line ends:
    /// backspaces that overprint, NUL, VT, FF, DEL, C1 CSI (U+009B) and OSC (U+009D) with its BEL (and, on
    /// another line, C1 NEL, U+0085, which a rule's `.` does not match).
    static let hostile = "evil\u{8}\u{8}\u{8}\u{8}fine \u{0} \u{B} \u{C} \u{7F} \u{9B}2J \u{9D}0;pwned\u{7} end"
    static let shownAs = #"evil\u{8}\u{8}\u{8}\u{8}fine \u{0} \u{B} \u{C} \u{7F} \u{9B}2J \u{9D}0;pwned\u{7} end"#

    /// A user rule whose own texts carry escapes too (YAML's "\e" is ESC).
    static let rules = #"""
    - id: hostile-rule
      title: "Hostile \e]0;title\a rule"
      category: phase-script-failed
      severity: error
      role: cause
      patterns:
        - literal: 'error: hostile: '
          regex: '(?s)error: hostile: (?<detail>.+)'
      message: 'Hostile: {detail}'
      explanation: "Explains \e[2J itself."
      fixes:
        - summary: 'Fix {detail}'
          commands: ["echo \e[31m{detail}"]
      examples:
        match:
          - line: 'error: hostile: x'
            source: written for these tests
        no_match:
          - line: 'error: x'
    """#

    func diagnosis() throws -> Diagnosis {
        let rules = try RuleLoader.load(yaml: TerminalSafeTests.rules, origin: "hostile.yml") + BuiltinCatalog.rules()
        let scanner = Scanner(ruleSet: try RuleSet(rules: rules))
        let log = "error: hostile: \(TerminalSafeTests.hostile)\nerror: unknown \(TerminalSafeTests.hostile) \u{85} NEL\n** BUILD FAILED **\n"
        try scanner.scan(text: log, name: "build\u{9B}.log")
        return scanner.finish()
    }

    func controls(in text: String, allowing allowed: Set<UInt32> = [0x09, 0x0A]) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { ($0 < 0x20 || (0x7F...0x9F).contains($0)) && !allowed.contains($0) }
    }

    func testTextGitHubMarkdownAndTheStepSummaryShowControlsVisibly() throws {
        let d = try diagnosis()
        // The log's controls reach the finding as they were read: the reports must deal with them.
        XCTAssertTrue(d.findings.contains { $0.message.contains("\u{9B}") && $0.message.contains("\u{8}") })
        let outputs: [(String, String)] = [
            // Wide enough that the summary line is not cut with an ellipsis before the part checked below.
            ("text", Report.render(d, format: .text, options: ReportOptions(width: 400))),
            ("github", Report.render(d, format: .github, options: ReportOptions())),
            ("markdown", Report.render(d, format: .markdown, options: ReportOptions())),
            ("step summary", Report.stepSummary(d, options: ReportOptions())),
        ]
        for (name, out) in outputs {
            XCTAssertEqual(controls(in: out), [], "\(name)\n\(out)")
            XCTAssertTrue(out.contains("\\u{9B}2J") || out.contains("\\\\u{9B}2J"), "\(name)\n\(out)")
        }
        let text = outputs[0].1
        XCTAssertTrue(text.contains("Hostile: " + TerminalSafeTests.shownAs), text)
        XCTAssertTrue(text.contains(#"Hostile \u{1B}]0;title\u{7} rule"#), text)
        XCTAssertTrue(text.contains(#"Explains \u{1B}[2J itself."#), text)
        XCTAssertTrue(text.contains(#"build\u{9B}.log"#), text)
        // The report's own colours are still escapes: only what came from outside is made visible.
        let colored = Report.render(d, format: .text, options: ReportOptions(color: true))
        XCTAssertEqual(Set(controls(in: colored)), [0x1B], colored)
        XCTAssertFalse(colored.contains("\u{1B}[2J"))
    }

    func testJSONAndSARIFEscapeControlsAndKeepTheText() throws {
        let d = try diagnosis()
        for format in [ReportFormat.json, .sarif] {
            let out = Report.render(d, format: format, options: ReportOptions())
            XCTAssertEqual(controls(in: out), [], "\(format)")
            XCTAssertTrue(out.contains(#"\u009b2J"#), "\(format)")
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(out.utf8)), "\(format)")
        }
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(Report.render(d, format: .json, options: ReportOptions()).utf8)) as? [String: Any])
        let findings = try XCTUnwrap(json["findings"] as? [[String: Any]])
        XCTAssertTrue(findings.contains { ($0["message"] as? String) == "Hostile: " + TerminalSafeTests.hostile })
    }

    func testJUnitCarriesNoRawControl() throws {
        let d = try diagnosis()
        let xml = Report.render(d, format: .junit, options: ReportOptions())
        XCTAssertEqual(controls(in: xml), [], xml)
        XCTAssertTrue(xml.contains("&#x9B;2J"), xml)
        XCTAssertTrue(xml.contains(#"evil\u{8}\u{8}"#), xml)
        let document = try XMLDocument(data: Data(xml.utf8), options: [])
        XCTAssertNotNil(document.rootElement())
    }

    func testVisibleForm() {
        XCTAssertEqual(TerminalSafe.visible("a\tb\nc"), "a\tb\nc")
        XCTAssertEqual(TerminalSafe.visible("\u{0}\u{1B}\u{7F}\u{80}\u{9F}\u{A0}é"), #"\u{0}\u{1B}\u{7F}\u{80}\u{9F}"# + "\u{A0}é")
        XCTAssertEqual(TerminalSafe.visible("\r"), #"\u{D}"#)
        XCTAssertEqual(TerminalSafe.escapeJSONControls(#"{"a":"x"# + "\u{7F}\u{9B}" + #""}"#), #"{"a":"x\u007f\u009b"}"#)
    }

    /// `hasControl` reads eight bytes at a time: every control, at every offset in a word and across a word's end,
    /// is found, and tabs, newlines, other bytes below 0x20's neighbours and non-C1 two-byte characters are not.
    func testControlsAreFoundAtEveryOffset() {
        for length in 0..<24 {
            let plain = String(repeating: "a", count: length)
            XCTAssertFalse(TerminalSafe.hasControl(plain + "\t\n é ~ \u{A0}\u{100}"), "\(length)")
            for control in ["\u{0}", "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9F}", "\r"] {
                XCTAssertTrue(TerminalSafe.hasControl(plain + control), "\(length) \(control.unicodeScalars.first!.value)")
                XCTAssertTrue(TerminalSafe.hasControl(plain + control + String(repeating: "b", count: 9)), "\(length)")
            }
        }
    }
}
