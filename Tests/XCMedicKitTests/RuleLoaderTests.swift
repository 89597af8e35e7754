import Foundation
import XCTest
@testable import XCMedicKit

/// A rules file a user wrote cannot crash, hang or silently mislead a scan: every problem names
/// the file, the rule and the field.
final class RuleLoaderTests: XCTestCase {
    private let valid = """
    - id: my-rule
      title: Mine
      category: test-failure
      severity: error
      role: cause
      patterns:
        - literal: 'boom'
          regex: 'boom (?<what>\\w+)'
      explanation: A rule for the tests.
      fixes: [Do something]
      examples:
        match: [{line: 'boom now', source: test, captures: {what: now}}]
        no_match: ['quiet']
    """

    private func loadError(_ yaml: String) -> RuleFileError? {
        do {
            _ = try RuleLoader.load(yaml: yaml, origin: "team.yml")
            return nil
        } catch {
            return error as? RuleFileError
        }
    }

    func testValidFileLoadsAndItsExamplesPass() throws {
        let rules = try RuleLoader.load(yaml: valid, origin: "team.yml")
        XCTAssertEqual(rules.map(\.id), ["my-rule"])
        XCTAssertEqual(RuleExamples.check(rules), [])
    }

    func testInvalidYAMLNamesTheFile() {
        let error = loadError("- id: [unclosed\n")
        XCTAssertEqual(error?.file, "team.yml")
        XCTAssertTrue(error?.problem.hasPrefix("invalid YAML") ?? false, "\(String(describing: error))")
    }

    func testInvalidRegexNamesRuleAndField() {
        let error = loadError(valid.replacingOccurrences(of: "'boom (?<what>\\w+)'", with: "'boom (unclosed'"))
        XCTAssertEqual(error?.ruleID, "my-rule")
        XCTAssertEqual(error?.field, "patterns[0].regex")
        XCTAssertTrue(error?.description.hasPrefix("team.yml:") ?? false)
    }

    func testDuplicateIDsAreRefused() {
        let error = loadError(valid + "\n" + valid)
        XCTAssertEqual(error?.ruleID, "my-rule")
        XCTAssertEqual(error?.field, "id")
        XCTAssertTrue(error?.problem.contains("duplicate") ?? false)
    }

    func testMissingFieldIsNamed() {
        let error = loadError(valid.replacingOccurrences(of: "  explanation: A rule for the tests.\n", with: ""))
        XCTAssertEqual(error?.ruleID, "my-rule")
        XCTAssertEqual(error?.field, "explanation")
        XCTAssertEqual(error?.problem, "missing")
    }

    func testUnknownFieldAndBadSeverityAreNamed() {
        XCTAssertEqual(loadError(valid.replacingOccurrences(of: "  title: Mine", with: "  title: Mine\n  titel: typo"))?.field, "titel")
        XCTAssertEqual(loadError(valid.replacingOccurrences(of: "severity: error", with: "severity: fatal"))?.field, "severity")
    }

    func testNestedUnboundedRepetitionIsRefusedAtLoad() {
        let error = loadError(valid.replacingOccurrences(of: "'boom (?<what>\\w+)'", with: "'boom (a+)+$'"))
        XCTAssertEqual(error?.field, "patterns[0].regex")
        XCTAssertTrue(error?.problem.contains("exponential") ?? false)
        XCTAssertNil(RegexSafety.catastrophicRisk(in: #"Macro ["“](?<macro>[^"”]+)["”] from package"#))
        XCTAssertNotNil(RegexSafety.catastrophicRisk(in: #"(\w*\s?)*x"#))
        XCTAssertNil(RegexSafety.catastrophicRisk(in: #"(?:a+)b"#))
    }

    func testASlowRegexIsStoppedAndReportedWhileTheScanGoesOn() throws {
        // (a|aa)+$ passes the static check but backtracks exponentially on "aaaa…b".
        let slow = valid.replacingOccurrences(of: "'boom (?<what>\\w+)'", with: "'boom (a|aa)+$'")
        let rules = try RuleLoader.load(yaml: slow, origin: "team.yml")
        let scanner = Scanner(ruleSet: try RuleSet(rules: rules))
        let started = Date()
        try scanner.scan(text: "boom " + String(repeating: "a", count: 60) + "b\nerror: after the slow line\n")
        let diagnosis = scanner.finish()
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the match was not stopped")
        let timeout = try XCTUnwrap(diagnosis.findings.first { $0.rule == "rule-timed-out" })
        XCTAssertEqual(timeout.captures["rule"], "my-rule")
        XCTAssertEqual(timeout.occurrences.first?.line, 1)
        XCTAssertTrue(diagnosis.findings.contains { $0.role == .unrecognized && $0.occurrences.first?.line == 2 })
    }

    func testMissingRulesFileIsAnError() {
        XCTAssertThrowsError(try RuleLoader.load(file: "/no/such/rules.yml")) { error in
            XCTAssertEqual((error as? RuleFileError)?.description, "/no/such/rules.yml: no such file")
        }
    }
}
