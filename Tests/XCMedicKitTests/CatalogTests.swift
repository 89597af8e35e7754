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

    func testEveryRuleIsComplete() throws {
        for rule in try BuiltinCatalog.rules() {
            XCTAssertFalse(rule.fixes.isEmpty, "\(rule.id) has no fix")
            XCTAssertFalse(rule.matches.isEmpty, "\(rule.id) has no example that must match")
            XCTAssertFalse(rule.nonMatches.isEmpty, "\(rule.id) has no example that must not match")
            XCTAssertTrue(rule.matches.allSatisfy { $0.source?.isEmpty == false }, "\(rule.id) has a match example without a source")
            XCTAssertGreaterThan(rule.explanation.count, 40, "\(rule.id) explanation is too short")
        }
    }

    func testRuleIDsAreUnique() throws {
        let ids = try BuiltinCatalog.rules().map(\.id)
        XCTAssertEqual(ids.count, Set(ids).count)
    }
}
