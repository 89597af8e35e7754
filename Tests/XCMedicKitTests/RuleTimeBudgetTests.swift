import Foundation
import XCTest
@testable import XCMedicKit

/// A slow rule from the user's files is switched off for the rest of the scan and named with its file;
/// built-in rules are never counted.
final class RuleTimeBudgetTests: XCTestCase {
    /// A pattern the load-time check cannot see (adjacent overlapping repetitions, n^6 steps on "aaaa…").
    static func rules(pattern: String) -> String {
        """
        - id: slow-rule
          title: Slow rule
          category: phase-script-failed
          severity: error
          role: cause
          patterns:
            - literal: 'boom '
              regex: '\(pattern)'
          explanation: A rule that backtracks.
          fixes:
            - summary: Do not write rules like this
          examples:
            match:
              - line: 'boom aab'
                source: written for these tests
            no_match:
              - line: 'boom'
        """
    }

    func testARuleThatTimesOutIsSwitchedOffAfterAFewTimeoutsAndNamedWithItsFile() throws {
        let rules = try RuleLoader.load(yaml: RuleTimeBudgetTests.rules(pattern: "boom a*a*a*a*a*a*b"), origin: "/work/app/.xcmedic.yml")
        let scanner = Scanner(ruleSet: try RuleSet(rules: rules + BuiltinCatalog.rules()))
        let slowLine = "boom " + String(repeating: "a", count: 2_000)
        let log = Array(repeating: slowLine, count: 40).joined(separator: "\n") + "\nerror: after the slow lines\n"
        try scanner.scan(text: log, name: "build.log")
        let d = scanner.finish()
        let timeouts = try XCTUnwrap(d.findings.first { $0.rule == "rule-timed-out" })
        XCTAssertEqual(timeouts.count, RuleTimeBudget.maxTimeouts, "stopped on the first lines, then never tried again")
        let off = try XCTUnwrap(d.findings.first { $0.rule == "rule-switched-off" })
        XCTAssertEqual(off.severity, .warning)
        XCTAssertEqual(off.captures["rule"], "slow-rule")
        XCTAssertEqual(off.captures["origin"], "/work/app/.xcmedic.yml")
        XCTAssertEqual(off.occurrences.first?.line, RuleTimeBudget.maxTimeouts)
        XCTAssertTrue(off.message.contains("'slow-rule' from /work/app/.xcmedic.yml was switched off"), off.message)
        // The scan went on with the other rules.
        XCTAssertTrue(d.findings.contains { $0.role == .unrecognized && $0.occurrences.first?.line == 41 })
        // And the report says so.
        let text = Report.render(d, format: .text, options: ReportOptions())
        XCTAssertTrue(text.contains("Rule 'slow-rule' from /work/app/.xcmedic.yml was switched off"), text)
    }

    func testTheCostliestUserRuleIsSwitchedOffWhenUserRulesOutrunTheRestOfTheScan() {
        var budget = RuleTimeBudget(ruleCount: 3)
        budget.start()
        let t = RuleTimeBudget.now()
        XCTAssertTrue(budget.account(rule: 1, nanos: 1_000_000, timedOut: false, now: t + 2_000_000).isEmpty)
        // 701 ms of user rules against about 100 ms for the rest, more than the 500 ms grace: rule 0 goes.
        let off = budget.account(rule: 0, nanos: 700_000_000, timedOut: false, now: t + 800_000_000)
        XCTAssertEqual(off.map(\.rule), [0])
        if case .overBudget(let spent, _) = off.first?.reason { XCTAssertEqual(spent, 700_000_000) } else { XCTFail("\(off)") }
        XCTAssertEqual(budget.isOff, [true, false, false])
        // Once the rest of the scan has caught up, the cheap rule runs on.
        XCTAssertTrue(budget.account(rule: 1, nanos: 1_000_000, timedOut: false, now: t + 3_000_000_000).isEmpty)
        XCTAssertEqual(budget.isOff, [true, false, false])
    }

    func testAFewTimeoutsSwitchARuleOff() {
        var budget = RuleTimeBudget(ruleCount: 2)
        budget.start()
        let t = RuleTimeBudget.now() + 10_000_000_000 // a long scan: the total budget is not what stops it
        for n in 1..<RuleTimeBudget.maxTimeouts {
            XCTAssertTrue(budget.account(rule: 1, nanos: 100_000_000, timedOut: true, now: t).isEmpty, "timeout \(n)")
        }
        let off = budget.account(rule: 1, nanos: 100_000_000, timedOut: true, now: t)
        XCTAssertEqual(off.map(\.rule), [1])
        XCTAssertEqual(off.first?.reason, .timedOut(RuleTimeBudget.maxTimeouts))
    }

    func testBuiltInRulesAreNotCounted() throws {
        let ruleSet = try RuleSet(rules: try RuleLoader.load(yaml: RuleTimeBudgetTests.rules(pattern: "boom (?<x>a+)b"), origin: ".xcmedic.yml")
            + BuiltinCatalog.rules())
        XCTAssertTrue(ruleSet.compiled[0].isUserRule)
        XCTAssertFalse(ruleSet.compiled.dropFirst().contains { $0.isUserRule })
    }
}
