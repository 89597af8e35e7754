import XCTest
@testable import XCMedicKit

/// Properties of the linker, compiler, test and layout families that a single example line cannot show.
final class BuildAndTestFamilyTests: XCTestCase {
    /// The generic compile-error rule claims any `file:line: error:` line, so every specific family must
    /// come before it; only the wrappers and the failure evidence, which never claim compiler
    /// diagnostics, may follow.
    func testGenericCompileErrorFamilyIsLastBeforeWrappers() {
        let names = BuiltinCatalog.families.map(\.name)
        XCTAssertEqual(Array(names.suffix(3)), ["compile-errors", "wrappers", "evidence"], "\(names)")
    }

    /// A failing-test finding is only useful when it says which test failed.
    func testEveryTestFailureCauseNamesTheTest() throws {
        let rules = try BuiltinCatalog.rules()
        let set = try RuleSet(rules: rules)
        // The totals (`Executed 114 tests, with 27 failures`) are the cause only when no failing test is in the log:
        // they have no test to name, and say so.
        let totals = "test-totals-with-failures"
        XCTAssertTrue(try XCTUnwrap(rules.first { $0.id == totals }).message?.contains("not in this log") == true)
        // A UI test's query line (`No matches found for …`, `UI Testing Failure - …`) has no test name; KIF's has it
        // when it is there, and the message says when it cannot be.
        let uiTests = "ui-test-element-not-found"
        XCTAssertTrue(try XCTUnwrap(rules.first { $0.id == uiTests }).explanation.contains("do not name the test"))
        let testRules = rules.filter { $0.category == FindingCategory.testFailure && $0.role == .cause && $0.id != totals }
        XCTAssertGreaterThan(testRules.count, 5)
        for rule in testRules {
            for example in rule.matches where rule.id != uiTests || example.line.contains("-[") {
                let scanner = Scanner(ruleSet: set)
                try scanner.scan(text: example.line)
                let finding = try XCTUnwrap(scanner.finish().findings.first { $0.rule == rule.id }, "\(rule.id): \(example.line)")
                let named = !(finding.captures["test"] ?? "").isEmpty || !(finding.collected["tests"] ?? []).isEmpty
                XCTAssertTrue(named, "\(rule.id) does not name the test for: \(example.line)")
            }
        }
    }

    /// The symbol names after "Undefined symbols" belong to that one finding, and the linker's closing
    /// lines do not become findings of their own.
    func testUndefinedSymbolsBlockIsOneFindingWithItsSymbols() throws {
        let log = """
        Undefined symbols for architecture arm64:
          "_OBJC_CLASS_$_JGProgressHUDSuccessIndicatorView", referenced from:
              objc-class-ref in previewLayer.o
          "_OBJC_CLASS_$_JGProgressHUD", referenced from:
              objc-class-ref in previewLayer.o
        ld: symbol(s) not found for architecture arm64
        clang: error: linker command failed with exit code 1 (use -v to see invocation)

        """
        let scanner = Scanner(ruleSet: try RuleSet.builtin())
        try scanner.scan(text: log)
        let findings = scanner.finish().findings
        XCTAssertEqual(findings.map(\.rule), ["linker-undefined-symbols", "linker-command-failed"])
        XCTAssertEqual(findings.first?.collected["symbols"], ["_OBJC_CLASS_$_JGProgressHUDSuccessIndicatorView", "_OBJC_CLASS_$_JGProgressHUD"])
        XCTAssertEqual(findings.first?.count, 1)
    }

    /// Passing runs in the formats these rules read produce no error.
    func testPassingTestLinesProduceNoError() throws {
        let log = """
        Test Case '-[XcbeautifyLibTests.CaptureGroupTests testMatchSwiftTestingIssueArgument1]' passed (0.002 seconds).
        Test case 'BuildFlagTests.test_logClicksToConsole_isFalse()' passed on 'Clone 1 of iPhone 13 mini - xctest (32507)' (0.003 seconds)
        ✔ Test testTrueIsTrue() passed after 0.001 seconds.
        ✔ Test run with 4 tests passed after 0.010 seconds.
             Executed 4 tests, with 0 failures (0 unexpected) in 0.166 (0.166) seconds

        """
        let scanner = Scanner(ruleSet: try RuleSet.builtin())
        try scanner.scan(text: log)
        let diagnosis = scanner.finish()
        XCTAssertEqual(diagnosis.findings.map(\.rule), [])
        XCTAssertEqual(diagnosis.status, .passed)
    }
}
