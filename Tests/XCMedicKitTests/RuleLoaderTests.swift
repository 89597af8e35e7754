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

    func testAmbiguousAlternationUnderRepetitionIsRefusedAtLoad() {
        for risky in [#"(a|aa)+$"#, #"(\w|\d)+x"#, #"(?:ab|a)*c"#, #"(x|[a-z])+y"#, #"(?i)(a|A)+$"#, #"(?:\s|[ \t])+$"#, #"(a|(?:b|a))+"#] {
            XCTAssertNotNil(RegexSafety.catastrophicRisk(in: risky), risky)
        }
        let error = loadError(valid.replacingOccurrences(of: "'boom (?<what>\\w+)'", with: "'boom (a|aa)+$'"))
        XCTAssertEqual(error?.field, "patterns[0].regex")
        XCTAssertTrue(error?.problem.contains("same character") ?? false, error?.problem ?? "")
        // Alternatives that start apart, bounded repetition, possessive and atomic groups are fine.
        for safe in [#"(?:\\.|[^"\\])*""#, #"(?:error|warning)+"#, #"([a-z]|[0-9])+"#, #"(?:[^()]|\(\))*"#, #"(a|aa)++$"#,
                     #"(?>a|aa)+$"#, #"(a|aa){1,3}$"#, #"(?:x|y)?z"#, #"(?=a|aa)+"#] {
            XCTAssertNil(RegexSafety.catastrophicRisk(in: safe), safe)
        }
    }

    func testASlowRegexIsStoppedAndReportedWhileTheScanGoesOn() throws {
        // Adjacent overlapping repetitions pass the static check but take polynomial time (n^6) on "aaaa…".
        let slow = valid.replacingOccurrences(of: "'boom (?<what>\\w+)'", with: "'boom a*a*a*a*a*a*b'")
        let rules = try RuleLoader.load(yaml: slow, origin: "team.yml")
        let scanner = Scanner(ruleSet: try RuleSet(rules: rules))
        let started = Date()
        try scanner.scan(text: "boom " + String(repeating: "a", count: 2_000) + "\nerror: after the slow line\n")
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

    // MARK: - consequence_of and test_restart

    func testConsequenceOfAndTestRestartAreReadAndChecked() throws {
        let rule = try XCTUnwrap(RuleLoader.load(yaml: valid.replacingOccurrences(of: "  role: cause\n", with: """
              role: cause
              consequence_of: [codesign-certificate, provisioning-profile]
              test_restart: false

            """), origin: "team.yml").first)
        XCTAssertEqual(rule.consequenceOf, ["codesign-certificate", "provisioning-profile"])
        XCTAssertFalse(rule.testRestart)
        XCTAssertEqual(try RuleLoader.load(yaml: valid, origin: "team.yml").first?.consequenceOf, [])

        func problem(_ replacement: String, of field: String = "  role: cause\n") -> String? {
            loadError(valid.replacingOccurrences(of: field, with: replacement)).map { "\($0.field ?? ""): \($0.problem)" }
        }
        XCTAssertEqual(problem("  role: cause\n  consequence_of: []\n"), "consequence_of: must list at least one category")
        XCTAssertEqual(problem("  role: cause\n  consequence_of: [Signing]\n"), "consequence_of: 'Signing' is not a category name (kebab-case)")
        XCTAssertEqual(problem("  role: symptom\n  consequence_of: codesign-other\n"),
                       "consequence_of: only a rule with role: cause can be demoted to a symptom")
        XCTAssertEqual(problem("  role: cause\n  test_restart: yes\n"), "test_restart: must be true or false")
        XCTAssertEqual(problem("  role: cause\n  test_restart: true\n"), "test_restart: patterns[0].regex must capture the restarted test as (?<test>...)")
    }

    func testCategoryOutsideBuildIsReadCheckedAndWarnedAbout() throws {
        let rule = try XCTUnwrap(RuleLoader.load(yaml: valid.replacingOccurrences(of: "  role: cause\n", with: "  role: cause\n  category_outside_build: ci-environment\n"),
                                                 origin: "team.yml").first)
        XCTAssertEqual(rule.categoryOutsideBuild, "ci-environment")
        XCTAssertNil(try RuleLoader.load(yaml: valid, origin: "team.yml").first?.categoryOutsideBuild)
        let bad = loadError(valid.replacingOccurrences(of: "  role: cause\n", with: "  role: cause\n  category_outside_build: CI Env\n"))
        XCTAssertEqual(bad.map { "\($0.field ?? ""): \($0.problem)" }, "category_outside_build: 'CI Env' is not a category name (kebab-case)")
        var unknown = rule
        unknown.categoryOutsideBuild = "ci-enviroment"
        XCTAssertEqual(try FindingCategory.warnings(for: [unknown]).filter { $0.contains("category_outside_build") },
                       ["rule '\(rule.id)': category_outside_build: 'ci-enviroment' is not a known category ('xcmedic rules --categories' lists them)"])
    }

    /// The two fields work for users' rules as they do for the built-in ones.
    func testUsersRulesCanBeConsequencesAndTestRestarts() throws {
        let rules = try RuleLoader.load(yaml: """
            - id: deploy-refused
              title: Deploy refused
              category: ci-environment
              severity: error
              role: cause
              consequence_of: [codesign-certificate]
              patterns: [{literal: 'deploy refused', regex: 'deploy refused'}]
              explanation: Our deploy step refuses to run after a signing failure.
              examples: {match: ['deploy refused']}
            - id: our-cert-missing
              title: Certificate missing
              category: codesign-certificate
              severity: error
              role: cause
              patterns: [{literal: 'no cert', regex: 'no cert'}]
              explanation: The signing certificate is missing.
              examples: {match: ['no cert']}
            - id: our-runner-restarted
              title: Runner restarted
              category: test-runner-crash
              severity: error
              role: cause
              test_restart: true
              patterns: [{literal: 'runner restarted in', regex: 'runner restarted in (?<test>\\w+)'}]
              explanation: Our runner restarts after a test crashed.
              examples: {match: ['runner restarted in testA']}
            """, origin: "team.yml")
        func causes(_ log: String) throws -> [String] {
            let scanner = Scanner(ruleSet: try RuleSet(rules: rules + BuiltinCatalog.rules()))
            try scanner.scan(text: log)
            return scanner.finish().causes.map(\.rule)
        }
        XCTAssertEqual(try causes("deploy refused\n"), ["deploy-refused"])
        XCTAssertEqual(try causes("no cert\ndeploy refused\n"), ["our-cert-missing"])
        XCTAssertEqual(try causes("Test Case '-[Suite testB]' passed (0.1 seconds).\nrunner restarted in testA\n"), [])
        // Alone (no test and no success shown), the restart is all the log says: the cause.
        XCTAssertEqual(try causes("runner restarted in testA\n"), ["our-runner-restarted"])
        XCTAssertEqual(try causes("Fatal error: boom\nrunner restarted in testA\n").sorted(), ["our-runner-restarted", "swift-runtime-trap"])
    }

    /// A notice printed in its tool's error style stays a warning; another warning symptom on such a line
    /// is raised to an error, so the line is not lost. A notice cannot be declared an error.
    func testANoticeKeepsItsSeverityOnAnErrorLookingLine() throws {
        func rule(_ id: String, notice: Bool) -> String {
            """
            - id: \(id)
              title: \(id)
              category: ci-environment
              severity: warning
              role: symptom
              notice: \(notice)
              patterns: [{literal: '\(id) unable', regex: '\(id) unable'}]
              explanation: A line our tool prints.
              examples: {match: ['[!] \(id) unable to read']}
            """
        }
        let rules = try RuleLoader.load(yaml: rule("ours-notice", notice: true) + "\n" + rule("ours-other", notice: false), origin: "team.yml")
        XCTAssertEqual(rules.map(\.notice), [true, false])
        func severities(_ log: String) throws -> [String: Severity] {
            let scanner = Scanner(ruleSet: try RuleSet(rules: rules + BuiltinCatalog.rules()))
            try scanner.scan(text: log)
            return Dictionary(uniqueKeysWithValues: scanner.finish().findings.map { ($0.rule, $0.severity) })
        }
        XCTAssertEqual(try severities("[!] ours-notice unable to read the file\n"), ["ours-notice": .warning])
        XCTAssertEqual(try severities("[!] ours-other unable to read the file\n"), ["ours-other": .error])
        XCTAssertEqual(loadError(valid.replacingOccurrences(of: "  role: cause\n", with: "  role: cause\n  notice: true\n")).map { "\($0.field ?? ""): \($0.problem)" },
                       "notice: a notice is never an error: give it severity warning or info")
    }
}
