import XCTest
@testable import XCMedicKit

/// A reader of GitHub's workflow-command syntax as the Actions runner reads it (`::name k=v,k=v::data`,
/// escapes `%25 %0D %0A` in data and also `%3A %2C` in property values), written here independently of
/// the renderer so a wrong escape shows up as a wrong decoded value.
struct WorkflowCommand: Equatable {
    var name: String
    var properties: [String: String]
    var data: String

    static func parse(_ line: Substring) -> WorkflowCommand? {
        guard line.hasPrefix("::") else { return nil }
        let rest = line.dropFirst(2)
        guard let end = rest.range(of: "::") else { return nil }
        let info = rest[..<end.lowerBound]
        let data = rest[end.upperBound...]
        let name: Substring
        var properties: [String: String] = [:]
        if let space = info.firstIndex(of: " ") {
            name = info[..<space]
            for pair in info[info.index(after: space)...].split(separator: ",") {
                guard let eq = pair.firstIndex(of: "=") else { return nil }
                guard let value = unescape(pair[pair.index(after: eq)...], property: true) else { return nil }
                properties[String(pair[..<eq])] = value
            }
        } else {
            name = info
        }
        guard let text = unescape(data, property: false) else { return nil }
        return WorkflowCommand(name: String(name), properties: properties, data: text)
    }

    /// Left to right, so `%250A` is the text `%0A`, not a line break. An unknown escape is an error:
    /// it would mean the renderer left a raw `%` in.
    static func unescape(_ text: Substring, property: Bool) -> String? {
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            guard c == "%" else {
                out.append(c)
                i = text.index(after: i)
                continue
            }
            guard let end = text.index(i, offsetBy: 3, limitedBy: text.endIndex) else { return nil }
            switch text[text.index(after: i)..<end] {
            case "25": out.append("%")
            case "0D": out.append("\r")
            case "0A": out.append("\n")
            case "3A" where property: out.append(":")
            case "2C" where property: out.append(",")
            default: return nil
            }
            i = end
        }
        return out
    }
}

final class ReportGitHubTests: XCTestCase {
    func testOneAnnotationPerLocatedFindingWithTheFullMessage() throws {
        let diagnosis = try ReportFixtures.diagnosis(ReportFixtures.compileLog)
        let output = GitHubReport(workspaceRoot: ReportFixtures.workspace).render(diagnosis)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let commands = try lines.map { try XCTUnwrap(WorkflowCommand.parse($0), "not a workflow command: \($0)") }
        // `** BUILD FAILED **` repeats the causes: every finding but the symptoms gets its annotation.
        XCTAssertEqual(commands.count, diagnosis.findings.filter { $0.role != .symptom }.count)
        XCTAssertTrue(diagnosis.findings.contains { $0.role == .symptom }, "the fixture has a symptom to leave out")
        XCTAssertFalse(commands.contains { $0.data.contains("BUILD FAILED") }, output)

        let located = diagnosis.findings.filter { $0.location != nil }
        XCTAssertGreaterThanOrEqual(located.count, 4, "the fixture has four compiler-style errors")
        let annotated = commands.filter { $0.properties["file"] != nil }
        XCTAssertEqual(annotated.count, located.count)

        for finding in located {
            let loc = finding.location!
            let file = loc.file.hasPrefix(ReportFixtures.workspace + "/") ? String(loc.file.dropFirst(ReportFixtures.workspace.count + 1)) : loc.file
            let matches = annotated.filter { $0.properties["file"] == file && $0.properties["line"] == loc.line.map(String.init) }
            XCTAssertEqual(matches.count, 1, "one annotation for \(file):\(loc.line ?? 0)")
            guard let a = matches.first else { continue }
            XCTAssertEqual(a.name, finding.severity == .error ? "error" : "warning")
            XCTAssertEqual(a.properties["col"], loc.column.map(String.init))
            XCTAssertEqual(a.properties["title"], finding.title)
            // The whole message, the explanation and the first fix, on separate lines.
            XCTAssertTrue(a.data.hasPrefix(Redactor.standard.redact(finding.message) + "\n"), a.data)
            XCTAssertTrue(a.data.contains(finding.explanation), a.data)
            if let fix = finding.fixes.first { XCTAssertTrue(a.data.contains(fix.summary), a.data) }
        }
    }

    func testPropertiesAndDataSurviveCommasColonsPercentsAndNewLines() throws {
        let diagnosis = try ReportFixtures.diagnosis(ReportFixtures.compileLog)
        let commands = GitHubReport().render(diagnosis).split(separator: "\n").compactMap(WorkflowCommand.parse)
        let odd = try XCTUnwrap(commands.first { $0.properties["file"] == "/tmp/with,comma:and colon/Odd.swift" })
        XCTAssertEqual(odd.properties["line"], "7")
        XCTAssertEqual(odd.properties["col"], "1")
        XCTAssertTrue(odd.data.hasPrefix("100% odd, really: an error no rule knows, token [REDACTED]\n"), odd.data)
        XCTAssertFalse(odd.data.contains("ghp_"), "a token from the log must not reach an annotation")
    }

    func testFindingsWithoutAFileAreAnnotatedWithoutOne() throws {
        let diagnosis = try ReportFixtures.diagnosis(ReportFixtures.compileLog)
        let commands = GitHubReport().render(diagnosis).split(separator: "\n").compactMap(WorkflowCommand.parse)
        let macro = try XCTUnwrap(commands.first { $0.properties["title"] == "Package macro not trusted on this machine" })
        XCTAssertNil(macro.properties["file"])
        XCTAssertEqual(macro.name, "error")
        XCTAssertTrue(macro.data.contains("xcmedic ci-scripts --macro swift-case-paths:CasePathsMacros"), macro.data)
    }

    func testSeveritiesMapToErrorWarningNotice() {
        func finding(_ severity: Severity) -> Finding {
            let line = severity == .error ? 1 : severity == .warning ? 2 : 3
            return Finding(rule: "r", category: "c", severity: severity, role: .cause, title: "T", message: "m", captures: [:], collected: [:],
                    count: 1, occurrences: [Occurrence(line: line, input: 0, location: SourceLocation(file: "a.swift", line: line, column: 2))],
                    excerpt: [], explanation: "e", fixes: [], docs: [], errorInSwift6: false)
        }
        let diagnosis = Diagnosis(status: .failed, inputs: [.init(path: "-", bytes: 0, lines: 1, dialect: "plain")],
                                  findings: [finding(.error), finding(.warning), finding(.info)], droppedFindings: 0)
        let names = GitHubReport().render(diagnosis).split(separator: "\n").compactMap(WorkflowCommand.parse).map(\.name)
        XCTAssertEqual(names, ["error", "warning", "notice"])
    }

    func testEscapesAreGitHubToolkitEscapes() {
        XCTAssertEqual(GitHubReport.escapeData("a%b\r\nc:d,e"), "a%25b%0D%0Ac:d,e")
        XCTAssertEqual(GitHubReport.escapeProperty("a%b\r\nc:d,e"), "a%25b%0D%0Ac%3Ad%2Ce")
        XCTAssertEqual(WorkflowCommand.unescape("100%250A", property: false), "100%0A")
    }

    func testACleanLogGivesNoAnnotation() throws {
        let diagnosis = try ReportFixtures.diagnosis("Build complete! (1.2s)\n")
        let output = GitHubReport().render(diagnosis)
        XCTAssertFalse(output.hasPrefix("::"), output)
    }

    /// A log with no build result is not clean: one warning says so and shows where it stops, secrets cut.
    func testALogWithNoBuildResultGivesAWarningWithItsLastLines() throws {
        let diagnosis = try ReportFixtures.diagnosis("Exporting ipa with ExportOptions.plist\npassword=hunter2secret\ntarget not found: ED09\n")
        XCTAssertEqual(diagnosis.status, .unknown)
        let commands = GitHubReport().render(diagnosis).split(separator: "\n").compactMap(WorkflowCommand.parse)
        XCTAssertEqual(commands.map(\.name), ["warning"])
        XCTAssertEqual(commands.first?.properties["title"], "xcmedic: no build result in build.log")
        XCTAssertTrue(commands.first?.data.hasSuffix("ends with:\nExporting ipa with ExportOptions.plist\npassword=[REDACTED]\ntarget not found: ED09") == true,
                      commands.first?.data ?? "")
    }
}
