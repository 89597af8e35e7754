import Foundation
@testable import XCMedicKit

/// Logs and rules the report tests share.
enum ReportFixtures {
    /// Swift 6 compiler output of the shape swiftc 6.3.1 prints on Linux (see the concurrency rules'
    /// examples), an error no rule knows, and xcodebuild's wrappers. Paths are under a GitHub runner's
    /// workspace so the relative paths of annotations can be checked.
    static let workspace = "/Users/runner/work/app/app"
    static let compileLog = """
    [4/4] Compiling App Loader.swift
    \(workspace)/Sources/App/Loader.swift:6:13: error: capture of 'self' with non-Sendable type 'Loader' in a '@Sendable' closure [#SendableClosureCaptures]
        DispatchQueue.global().async { self.load() }
                ^
    \(workspace)/Sources/App/Store.swift:9:13: error: sending 'ns' risks causing data races [#SendingRisksDataRace]
    \(workspace)/Sources/App/Model.swift:3:5: error: cannot find 'undefinedThing' in scope
    /tmp/with,comma:and colon/Odd.swift:7:1: error: 100% odd, really: an error no rule knows, token ghp_abcdefghijklmnopqrstuvwxyz0123
    Macro "CasePathsMacros" from package "swift-case-paths" must be enabled before it can be used
    ** BUILD FAILED **
    """

    /// Test-failure rules written for these tests, so they do not depend on the built-in catalog's
    /// test rules. The lines are the real formats of XCTest (xcodebuild) and Swift Testing output.
    static let testRulesYAML = #"""
    - id: report-test-xctest-assertion
      title: XCTest assertion failed
      category: test-failure
      severity: error
      role: cause
      patterns:
        - literal: 'error: -['
          regex: 'error: -\[(?<suite>[\w.]+) (?<test>\w+)\] : (?<issue>.+)$'
      message: '{issue}'
      explanation: An XCTest assertion failed in the test named here.
      fixes:
        - summary: Run the test locally and fix the code or the expectation
      examples:
        match:
          - line: '/path/T.swift:12: error: -[AppTests.LoginTests testLogin] : XCTAssertEqual failed: ("1") is not equal to ("2")'
    - id: report-test-xctest-case-failed
      title: XCTest test case failed
      category: test-failure
      severity: error
      role: cause
      patterns:
        - literal: "Test Case '-["
          regex: "Test Case '(?<test>-\\[[\\w.]+ \\w+\\])' failed"
      explanation: xcodebuild's summary line for a failed XCTest test case.
      fixes:
        - summary: Read the assertion above this line
      examples:
        match:
          - line: "Test Case '-[AppTests.LoginTests testLogin]' failed (0.003 seconds)."
    - id: report-test-swift-testing-issue
      title: Swift Testing issue recorded
      category: test-failure
      severity: error
      role: cause
      patterns:
        - literal: 'recorded an issue at'
          regex: 'Test (?<test>.+?) recorded an issue at (?<file>[^:]+):(?<line>\d+):(?<column>\d+): (?<issue>.+)$'
      message: '{issue}'
      explanation: A Swift Testing expectation failed in the test named here.
      fixes:
        - summary: Run the test locally with swift test --filter and fix it
      examples:
        match:
          - line: '✘ Test loginFails() recorded an issue at LoginTests.swift:9:5: Expectation failed: (user → nil) != nil'
    - id: report-test-swift-testing-failed
      title: Swift Testing test failed
      category: test-failure
      severity: error
      role: cause
      patterns:
        - literal: ') failed after'
          regex: 'Test (?<test>\S+\)) failed after'
      explanation: Swift Testing's summary line for a failed test.
      fixes:
        - summary: Read the issues recorded above this line
      examples:
        match:
          - line: '✘ Test loginFails() failed after 0.001 seconds with 1 issue.'
    """#

    /// xcodebuild running XCTest: one failing, one passing test.
    static let xctestLog = """
    Test Suite 'LoginTests' started at 2026-11-22 10:00:00.000.
    Test Case '-[AppTests.LoginTests testLogin]' started.
    /Users/runner/work/app/app/Tests/AppTests/LoginTests.swift:12: error: -[AppTests.LoginTests testLogin] : XCTAssertEqual failed: ("1") is not equal to ("2")
    Test Case '-[AppTests.LoginTests testLogin]' failed (0.003 seconds).
    Test Case '-[AppTests.LoginTests testLogout]' started.
    Test Case '-[AppTests.LoginTests testLogout]' passed (0.001 seconds).
    Test Case '-[AppTests.CartTests testTotal]' started.
    /Users/runner/work/app/app/Tests/AppTests/CartTests.swift:30: error: -[AppTests.CartTests testTotal] : XCTAssertTrue failed - total was "<&'>" \u{01}
    Test Case '-[AppTests.CartTests testTotal]' failed (0.002 seconds).
    ** TEST FAILED **
    """

    /// `swift test` running Swift Testing: one failing, one passing test.
    static let swiftTestingLog = """
    ◇ Test run started.
    ◇ Test loginFails() started.
    ◇ Test loginWorks() started.
    ✔ Test loginWorks() passed after 0.001 seconds.
    ✘ Test loginFails() recorded an issue at LoginTests.swift:9:5: Expectation failed: (user → nil) != nil
    ✘ Test loginFails() failed after 0.001 seconds with 1 issue.
    ✘ Test run with 2 tests failed after 0.002 seconds with 1 issue.
    """

    static func diagnosis(_ log: String, extraRules: String? = nil) throws -> Diagnosis {
        var rules: [Rule] = []
        if let extraRules { rules += try RuleLoader.load(yaml: extraRules, origin: "report-tests") }
        rules += try BuiltinCatalog.rules()
        let scanner = Scanner(ruleSet: try RuleSet(rules: rules))
        try scanner.scan(text: log, name: "build.log")
        return scanner.finish()
    }
}
