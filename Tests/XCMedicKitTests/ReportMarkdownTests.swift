import XCTest
@testable import XCMedicKit

final class ReportMarkdownTests: XCTestCase {
    func testDiagnosisTableFixesAndCollapsedExcerpts() throws {
        let diagnosis = try ReportFixtures.diagnosis(ReportFixtures.compileLog)
        let md = MarkdownReport(workspaceRoot: ReportFixtures.workspace).render(diagnosis)
        XCTAssertTrue(md.hasPrefix("## ❌ xcmedic: the build failed\n"), md)
        XCTAssertTrue(md.contains("### Root causes\n"), md)
        // The table: a header, a separator and one row per finding.
        let rows = md.split(separator: "\n").filter { $0.hasPrefix("| ") }
        XCTAssertEqual(rows.count, diagnosis.findings.count + 1)
        for row in rows {
            // Cell borders are the `|` not escaped by a backslash.
            let borders = zip(row, [" "] + Array(row)).filter { $0.0 == "|" && $0.1 != "\\" }.count
            XCTAssertEqual(borders, 7, "six cells: \(row)")
        }
        XCTAssertTrue(md.contains("`Sources/App/Loader.swift:6:13`"), md)
        // Fixes as code blocks.
        XCTAssertTrue(md.contains("```sh\nxcmedic ci-scripts --macro swift-case-paths:CasePathsMacros\n```"), md)
        // Excerpts collapsed.
        XCTAssertTrue(md.contains("<details><summary>Log excerpt (log line 2)</summary>\n\n```text\n"), md)
        XCTAssertTrue(md.contains("DispatchQueue.global().async { self.load() }"), md)
        XCTAssertFalse(md.contains("ghp_"), "secrets are redacted")
    }

    func testLogTextCannotBecomeMarkupOrBreakOutOfFences() throws {
        let log = """
        /src/A.swift:1:1: error: <img src=x onerror=alert(1)> [link](https://evil.example) | cell *bold* `code` ```
        ** BUILD FAILED **
        """
        let md = MarkdownReport().render(try ReportFixtures.diagnosis(log))
        XCTAssertNil(outsideFences(md).range(of: #"(?<!\\)<img"#, options: .regularExpression), md)
        XCTAssertTrue(md.contains(#"\<img src=x onerror=alert(1)\> \[link\](https://evil.example) \| cell \*bold\* \`code\` \`\`\`"#), md)
        // The excerpt holds a run of three backticks, so its fence has four.
        XCTAssertTrue(md.contains("````text\n"), md)
    }

    /// The Markdown without its fenced code blocks (where any text is inert).
    private func outsideFences(_ md: String) -> String {
        var fence: Substring?
        var kept: [Substring] = []
        for line in md.split(separator: "\n", omittingEmptySubsequences: false) {
            let ticks = line.prefix { $0 == "`" }
            if let open = fence {
                if ticks.count >= open.count && line.allSatisfy({ $0 == "`" }) { fence = nil }
                continue
            }
            if ticks.count >= 3 { fence = ticks; continue }
            kept.append(line)
        }
        return kept.joined(separator: "\n")
    }

    func testACleanLogSaysSo() throws {
        let md = MarkdownReport().render(try ReportFixtures.diagnosis("Build complete! (1.2s)\n"))
        XCTAssertTrue(md.contains("No failures found."), md)
    }

    func testFenceIsLongerThanAnyBacktickRun() {
        XCTAssertEqual(Markdown.fence("a ````` b", info: ""), "``````\na ````` b\n``````\n")
        XCTAssertEqual(Markdown.fence("plain", info: "sh"), "```sh\nplain\n```\n")
    }
}

/// A passing build's warnings are not called root causes.
final class ReportMarkdownPassingTests: XCTestCase {
    func testPassingLogListsWarningsNotRootCauses() throws {
        let scanner = Scanner(ruleSet: try RuleSet.builtin())
        let log = "/src/UseA.swift:5:17: warning: capture of 'l' with non-Sendable type 'Legacy' in a '@Sendable' closure; this is an error in the Swift 6 language mode\n** BUILD SUCCEEDED **\n"
        try scanner.scan(text: log)
        let diagnosis = scanner.finish()
        XCTAssertEqual(diagnosis.status, .passed)
        let markdown = Report.render(diagnosis, format: .markdown, color: false, redactor: .standard)
        XCTAssertTrue(markdown.contains("### Warnings\n"), markdown)
        XCTAssertFalse(markdown.contains("### Root cause"), markdown)
    }
}
