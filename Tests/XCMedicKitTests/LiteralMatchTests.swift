import XCTest
@testable import XCMedicKit

/// A rule's literal is matched against the line as read (as the prefilter sees it), so it may name a
/// formatter glyph that line stripping removes before the regex runs.
final class LiteralMatchTests: XCTestCase {
    private let yaml = #"""
    - id: glyph-failing-test
      title: Failing test behind a glyph
      category: test-failure
      severity: error
      role: cause
      patterns:
        - literal: '✖ '
          regex: '^(?<test>test\w*), (?<message>.+)$'
      explanation: A test failed, as xcbeautify prints it.
      fixes: [Fix the test]
      examples:
        match: ['✖ testA, boom']
    """#

    private func findings(_ text: String) throws -> [Finding] {
        let scanner = Scanner(ruleSet: try RuleSet(rules: RuleLoader.load(yaml: yaml, origin: "test")))
        try scanner.scan(text: text)
        return scanner.finish().findings.filter { $0.rule == "glyph-failing-test" }
    }

    func testLiteralThatIncludesAStrippedGlyphMatches() throws {
        let found = try findings("    ✖ testLegacyLoads, XCTAssertTrue failed\n")
        XCTAssertEqual(found.map { $0.captures["test"] }, ["testLegacyLoads"])
    }

    func testSameTextWithoutTheGlyphDoesNotMatch() throws {
        XCTAssertEqual(try findings("    ✔ testLegacyLoads, XCTAssertTrue failed\ntestOther, plain text\n").count, 0)
    }
}
