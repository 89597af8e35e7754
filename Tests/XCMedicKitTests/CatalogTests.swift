import XCTest
@testable import XCMedicKit

/// Every built-in rule proves itself with its own examples, run through the real scanner against the
/// whole catalog (so a rule whose lines an earlier rule claims fails here).
final class CatalogTests: XCTestCase {
    func testEveryBuiltinExampleMatchesItsRuleAndNoMatchExamplesDoNot() throws {
        let rules = try BuiltinCatalog.rules()
        let failures = RuleExamples.check(rules, catalog: try RuleSet(rules: rules))
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    }

    /// Rules match the message, not the line's wrapping: every one-line example is also recognised
    /// pasted alone, inside a diagnostic box, behind glyphs, timestamps and CI prefixes.
    func testEveryBuiltinExampleMatchesInEveryWrapping() throws {
        let rules = try BuiltinCatalog.rules()
        let failures = RuleExamples.checkWrappedForms(rules, catalog: try RuleSet(rules: rules))
        XCTAssertEqual(failures, [], "\(failures.count) forms not recognised:\n" + failures.joined(separator: "\n"))
    }

    func testEveryRuleIsComplete() throws {
        for rule in try BuiltinCatalog.rules() {
            XCTAssertFalse(rule.fixes.isEmpty, "\(rule.id) has no fix")
            XCTAssertFalse(rule.matches.isEmpty, "\(rule.id) has no example that must match")
            XCTAssertFalse(rule.nonMatches.isEmpty, "\(rule.id) has no example that must not match")
            XCTAssertTrue(rule.matches.allSatisfy { $0.source?.isEmpty == false }, "\(rule.id) has a match example without a source")
            XCTAssertGreaterThan(rule.explanation.count, 40, "\(rule.id) explanation is too short")
        }
    }

    /// Catalog/categories.yml lists every category a built-in rule uses or names, and those the code relies on.
    func testEveryCategoryIsKnown() throws {
        let known = try FindingCategory.known()
        XCTAssertEqual(try FindingCategory.warnings(for: BuiltinCatalog.rules()), [])
        let names = known.map(\.name)
        for name in [FindingCategory.testFailure, FindingCategory.testRunnerCrash, FindingCategory.macroValidation,
                     FindingCategory.pluginValidation, FindingCategory.xcmedic, FindingCategory.unrecognized] {
            XCTAssertTrue(names.contains(name), name)
        }
        XCTAssertTrue(known.allSatisfy { $0.description.count > 10 }, "\(known.filter { $0.description.count <= 10 })")
    }

    func testACategoriesFileIsCheckedAndAnUnknownCategoryIsAWarning() throws {
        XCTAssertEqual(try FindingCategory.load(yaml: "a-b: One\nc: Two\n", origin: "c.yml").map(\.name), ["a-b", "c"])
        for (yaml, problem) in [("- a\n", "expected a mapping"), ("Bad: x\n", "kebab-case"), ("a: ''\n", "one-line description")] {
            XCTAssertThrowsError(try FindingCategory.load(yaml: yaml, origin: "c.yml"), yaml) { error in
                XCTAssertTrue("\(error)".contains(problem), "\(error)")
            }
        }
        var rule = try XCTUnwrap(BuiltinCatalog.rules().first)
        rule.category = "our-own"
        rule.consequenceOf = ["codesign-other", "their-own"]
        XCTAssertEqual(try FindingCategory.warnings(for: [rule]), [
            "rule '\(rule.id)': category 'our-own' is not a known category ('xcmedic rules --categories' lists them)",
            "rule '\(rule.id)': consequence_of: 'their-own' is not a known category ('xcmedic rules --categories' lists them)",
        ])
    }

    func testRuleIDsAreUnique() throws {
        let ids = try BuiltinCatalog.rules().map(\.id)
        XCTAssertEqual(ids.count, Set(ids).count)
    }
}
