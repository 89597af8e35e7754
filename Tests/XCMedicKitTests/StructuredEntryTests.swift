import Foundation
import XCTest
@testable import XCMedicKit

/// The scanner's line-level entry: lines a structured reader decoded keep the level, location and step
/// of their record, where rendering them as text and parsing it again would lose or garble them.
final class StructuredEntryTests: XCTestCase {
    private func scan(_ lines: [StructuredLine], chunkBytes: Int? = nil) throws -> Diagnosis {
        let scanner = Scanner(ruleSet: try RuleSet(rules: BuiltinCatalog.rules()))
        if let chunkBytes { scanner.chunkBytes = chunkBytes }
        try scanner.scan(lines: DecodedLines(name: "build.xcactivitylog", lines: lines))
        return scanner.finish()
    }

    func testAMessageKeepsTheLocationOfItsRecordEvenWhereTextWouldMisreadIt() throws {
        // A folder named like a location (`Build 2:3:`) would make `file:line:col:` parsing stop early.
        let file = "/Users/ci/Build 2:3: nightly/App/Model.swift"
        let diagnosis = try scan([
            StructuredLine(kind: .stepTitle, text: "Compile Model.swift (arm64)", step: "Compile Model.swift (arm64)"),
            StructuredLine(kind: .message, text: "cannot find 'Widget' in scope", location: SourceLocation(file: file, line: 12, column: 5),
                           level: .error, step: "Compile Model.swift (arm64)"),
            .output("** BUILD FAILED **"),
        ])
        let cause = try XCTUnwrap(diagnosis.findings.first { $0.role == .cause })
        XCTAssertEqual(cause.location, SourceLocation(file: file, line: 12, column: 5))
        XCTAssertEqual(diagnosis.status, .failed)

        // The same message as rendered text loses the path: the record is what keeps it.
        let text = Scanner(ruleSet: try RuleSet(rules: BuiltinCatalog.rules()))
        try text.scan(text: "\(file):12:5: error: cannot find 'Widget' in scope\n** BUILD FAILED **\n")
        XCTAssertNotEqual(text.finish().findings.first { $0.role == .cause }?.location?.file, file)
    }

    func testAMessageWithoutALevelWordIsAnErrorByItsRecord() throws {
        // Xcode records the message text alone; its level is a field, not an `error:` in the text.
        let diagnosis = try scan([
            StructuredLine(kind: .message, text: "The operation couldn’t be completed. Something nobody has a rule for", level: .error, step: "Build target App"),
        ])
        XCTAssertEqual(diagnosis.status, .failed)
        let warning = try scan([
            StructuredLine(kind: .message, text: "The operation couldn’t be completed. Something nobody has a rule for", level: .warning, step: "Build target App"),
        ])
        XCTAssertNotEqual(warning.status, .failed)
    }

    func testAFailedScriptIsExplainedByItsOwnStepWhateverItsTitle() throws {
        // A step title no text rule knows still bounds the step: the lines of the step before are not its output.
        let before = "Some Other Step"
        let step = "Run Tuist Generated Script"
        let diagnosis = try scan([
            StructuredLine(kind: .stepTitle, text: before, step: before),
            .output("error: this line belongs to the step before and is not the script's output", step: before),
            StructuredLine(kind: .stepTitle, text: step, step: step),
            .output("Linting Swift files in current working directory", step: step),
            .output("Found 3 violations, 3 serious in 120 files.", step: step),
            StructuredLine(kind: .message, text: "Command PhaseScriptExecution failed with a nonzero exit code", level: .error, step: step),
        ])
        let explained = diagnosis.findings.first { $0.message.contains("Found 3 violations") }
        XCTAssertNotNil(explained, "\(diagnosis.findings.map(\.message))")
        XCTAssertFalse(explained?.excerpt.joined().contains("belongs to the step before") ?? true)
    }

    func testChunkBoundariesDoNotChangeTheDiagnosis() throws {
        var lines: [StructuredLine] = []
        for i in 0..<400 {
            let step = "Compile File\(i).swift (arm64)"
            lines.append(StructuredLine(kind: .stepTitle, text: step, step: step))
            lines.append(.output("    cd /Users/ci/project", step: step))
            if i % 37 == 0 {
                lines.append(StructuredLine(kind: .message, text: "cannot find 'thing\(i)' in scope",
                                            location: SourceLocation(file: "/p/File\(i).swift", line: i + 1, column: 2), level: .error, step: step))
                lines.append(StructuredLine(kind: .message, text: "did you mean 'thing'?\nsecond line of the note",
                                            location: SourceLocation(file: "/p/File\(i).swift", line: 1, column: 1), level: .note, step: step))
            }
        }
        func summary(_ d: Diagnosis) -> [String] {
            d.findings.map { "\($0.rule) \($0.location?.file ?? "-"):\($0.location?.line ?? 0) \($0.occurrences.map(\.line))" }
        }
        let whole = try scan(lines)
        let small = try scan(lines, chunkBytes: 512)
        XCTAssertEqual(summary(small), summary(whole))
        XCTAssertEqual(whole.findings.filter { $0.role == .cause }.count, 11)
        XCTAssertEqual(whole.inputs.first?.lines, 400 * 2 + 11 * 3, "a message's second line is a line of its own")
    }
}
