import XCTest
@testable import XCMedicKit

/// The concurrency rules must recognise Swift 5.10 to 6.3 wording, while their examples are mostly
/// 6.3 lines produced here. Each example error line is rewritten the way older compilers and Xcode
/// print the same diagnostic (changes documented in shared/reference/failures-notes.md, section B),
/// and must still be claimed by the same rule.
final class ConcurrencyWordingTests: XCTestCase {
    struct Variant {
        var name: String
        var line: String
        var warning: Bool
        var swift6Suffix: Bool
    }

    static func groupRemoved(_ s: String) -> String {
        s.replacingOccurrences(of: #" \[#[A-Za-z0-9:_-]+\]$"#, with: "", options: .regularExpression)
    }

    static func variants(of line: String) -> [Variant] {
        guard line.contains(": error: ") else { return [] }
        let bare = groupRemoved(line)
        let group = line.count == bare.count ? "" : String(line.dropFirst(bare.count))
        let asWarning = bare.replacingOccurrences(of: ": error: ", with: ": warning: ")
        var out = [
            Variant(name: "without [#Group] (<= 6.1)", line: bare, warning: false, swift6Suffix: false),
            Variant(name: "Swift 5 mode, 6.x suffix", line: asWarning + "; this is an error in the Swift 6 language mode" + group, warning: true, swift6Suffix: true),
            Variant(name: "Swift 5 mode, 5.10 suffix", line: asWarning + "; this is an error in Swift 6", warning: true, swift6Suffix: true),
            Variant(name: "non-sendable (<= 6.1)", line: bare.replacingOccurrences(of: "non-Sendable", with: "non-sendable"), warning: false, swift6Suffix: false),
            Variant(name: "backticks around @Sendable (<= 6.0)", line: bare.replacingOccurrences(of: "'@Sendable'", with: "`@Sendable`"), warning: false, swift6Suffix: false),
            Variant(name: "non-isolated (5.10)", line: bare.replacingOccurrences(of: "nonisolated", with: "non-isolated"), warning: false, swift6Suffix: false),
        ]
        // Xcode's issue navigator: the message alone, first letter capitalised.
        if let range = bare.range(of: ": error: ") {
            let message = bare[range.upperBound...]
            out.append(Variant(name: "issue navigator", line: message.prefix(1).uppercased() + message.dropFirst(), warning: false, swift6Suffix: false))
        }
        return out
    }

    func testEveryConcurrencyErrorExampleIsRecognisedInOlderAndXcodeWording() throws {
        let rules = try BuiltinCatalog.rules()
        let set = try RuleSet(rules: rules)
        var checked = 0
        for rule in rules where rule.origin == "builtin:concurrency" {
            for example in rule.matches {
                for variant in Self.variants(of: example.line) {
                    let diagnosis = RuleExamples.scan(variant.line, set)
                    let finding = diagnosis.findings.first
                    XCTAssertEqual(finding?.rule, rule.id, "\(variant.name): \(variant.line)")
                    if variant.warning { XCTAssertEqual(finding?.severity, .warning, "\(variant.name): \(variant.line)") }
                    XCTAssertEqual(finding?.errorInSwift6, variant.swift6Suffix, "\(variant.name): \(variant.line)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }

    /// A real Swift 5.10 line (cybozu/WebUI#8): the old suffix marks it as an error in Swift 6.
    func testSwift510SuffixMarksTheWarningAsAnErrorInSwift6() throws {
        let line = "Sources/WebUI/EnvironmentValues.swift:4:16: warning: static property 'defaultValue' is not concurrency-safe because it is non-isolated global shared mutable state; this is an error in Swift 6"
        let finding = RuleExamples.scan(line, try RuleSet.builtin()).findings.first
        XCTAssertEqual(finding?.rule, "global-mutable-state-not-concurrency-safe")
        XCTAssertEqual(finding?.severity, .warning)
        XCTAssertEqual(finding?.errorInSwift6, true)
    }

    /// Notes never decide a match: a note line alone gives no finding, even when it repeats a rule's text.
    func testNoteLinesAloneGiveNoFinding() throws {
        let notes = """
        TaskCapturesParameter.swift:8:9: note: closure captures 'model' which is accessible to code in the current task
        SendingToActor.swift:11:17: note: sending task-isolated 'document' to actor-isolated instance method 'save' risks causing data races between actor-isolated and task-isolated uses
        ConformanceIsolation.swift:8:10: note: main actor-isolated instance method 'render()' cannot satisfy nonisolated requirement
        """
        XCTAssertEqual(RuleExamples.scan(notes, try RuleSet.builtin()).findings.map(\.rule), [])
    }
}
