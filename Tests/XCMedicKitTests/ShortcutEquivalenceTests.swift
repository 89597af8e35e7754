import Foundation
import XCTest
@testable import XCMedicKit

/// The shortcuts taken for error-dense logs (issue 17) must decide exactly what the long way decides, on
/// every line of Tests/Corpus and Tests/Holdout and on the secret shapes' fixture: which secret shapes a text
/// triggers (one pass with a byte-pair table instead of a search per trigger), which category the keyword
/// classifier gives (regexes skipped when a text lacks the text they require), which lines are source
/// code (a regex compiled once instead of Foundation's `range(of:options:)`), and which messages are blank.
final class ShortcutEquivalenceTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every line of the corpus and hold-out logs, and of the secret shapes' fixture.
    static let lines: [String] = {
        var files: [URL] = []
        for folder in ["Tests/Corpus", "Tests/Holdout"] {
            let url = root.appendingPathComponent(folder)
            if let walk = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) {
                for case let file as URL in walk where file.pathExtension == "log" { files.append(file) }
            }
        }
        files.append(root.appendingPathComponent("Tests/XCMedicKitTests/Fixtures/secrets/shapes.txt"))
        var lines: [String] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            guard let data = FileManager.default.contents(atPath: file.path) else { continue }
            lines += String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
        }
        return lines
    }()

    func testSecretTriggersInOnePassAreTheTriggersSearchedOneByOne() throws {
        XCTAssertGreaterThan(Self.lines.count, 5_000)
        var triggeredTexts = 0
        // Single lines, and the same lines upper-cased (triggers are matched lower-cased).
        for line in Self.lines + Self.lines.map({ $0.uppercased() }) {
            var lowered = Array(line.utf8)
            for i in lowered.indices where lowered[i] >= 0x41 && lowered[i] <= 0x5A { lowered[i] |= 0x20 }
            let naive = SecretShapes.shapes.map { shape in
                shape.triggers.contains { needle in
                    lowered.withUnsafeBufferPointer { hay in
                        needle.withUnsafeBufferPointer { Bytes.contains(hay.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: hay.count, $0) }
                    }
                }
            }
            let fast = SecretShapes.Triggers.table.shapes(triggeredIn: lowered)
            if naive != fast { XCTFail("triggers differ on: \(line)"); return }
            if naive.contains(true) { triggeredTexts += 1 }
        }
        XCTAssertGreaterThan(triggeredTexts, 100) // the check compared texts that trigger shapes, not only ones that do not
    }

    func testKeywordCategoryIsTheSameWithoutTheRequiredTextShortcut() throws {
        let classifier = try KeywordClassifier.builtin()
        func naive(_ text: String) -> String? {
            let subject = text.utf16.count > 4096 ? String(text.prefix(4096)) : text
            let range = NSRange(location: 0, length: (subject as NSString).length)
            return classifier.entries.first { $0.words.contains { $0.firstMatch(in: subject, range: range) != nil } }?.category
        }
        XCTAssertTrue(classifier.entries.contains { $0.required.contains { !$0.isEmpty } }) // the shortcut is in use
        // The classifier reads errors: every line with an error word, one line in 5 of the rest, and
        // texts of several lines; plus the words in other cases than the catalog writes them.
        var texts = Self.lines.enumerated().filter { $0.element.lowercased().contains("rror") || $0.offset % 5 == 0 }.map(\.element)
        texts += stride(from: 0, to: Self.lines.count, by: 50).map { Self.lines[$0..<min(Self.lines.count, $0 + 6)].joined(separator: "\n") }
        texts += ["CONNECTION TIMED OUT", "No Such Module 'Foo'", "error: PROVISIONING PROFILE missing", "Podfile.LOCK out of date",
                  "could not RESOLVE host", "Permission Denied (publickey)", "ſimulator", "K\u{212A}eychain locked", "\u{212A}EYCHAIN"]
        var categorised = 0
        for text in texts {
            let expected = naive(text)
            XCTAssertEqual(classifier.category(of: text), expected, text)
            if expected != nil { categorised += 1 }
        }
        XCTAssertGreaterThan(categorised, 20)
    }

    func testBlankIsWhatTrimmingWhiteSpaceLeavesEmpty() {
        let spaces = ["", " ", "\t", " \t \u{00A0}\u{2003}", "\u{3000}", "\n", " \r", "\u{200B}", " a ", "\t\u{2028}"]
        for text in Self.lines + spaces + Self.lines.map({ "  " + $0.prefix(1) }) {
            XCTAssertEqual(Scanner.isBlank(text), text.trimmingCharacters(in: .whitespaces).isEmpty, text.debugDescription)
        }
        XCTAssertTrue(Scanner.isBlank(" \t\u{00A0}"))
        XCTAssertFalse(Scanner.isBlank(" \n"))
    }

    func testSourceLinesAreTheOnesFoundationsRegexFinds() {
        let pattern = #"^\d+ \||[{};=]\s*$|^(?:let|var|func|if|guard|return|import|class|struct|self)\b"#
        var source = 0
        for line in Self.lines {
            let text = LogLine(raw: line).text
            let expected = text.range(of: #"^\d+ \|"#, options: .regularExpression) != nil
                || text.range(of: #"[{};=]\s*$|^(?:let|var|func|if|guard|return|import|class|struct|self)\b"#, options: .regularExpression) != nil
            XCTAssertEqual(Scanner.isSourceLine(text), expected, text)
            XCTAssertEqual(expected, text.range(of: pattern, options: .regularExpression) != nil, text)
            if expected { source += 1 }
        }
        XCTAssertGreaterThan(source, 50)
    }
}
