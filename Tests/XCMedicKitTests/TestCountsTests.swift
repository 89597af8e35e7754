import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import XCMedicKit

/// Issue 13: one failure, one test result, one annotation. Real logs from `Tests/Corpus` (each with its
/// source in `labels.tsv`); the expected totals are read from the log's own lines by this test, not from
/// the scanner: XCTest's `Executed N tests, with M failures` of each run's outermost suite, Swift Testing's
/// `Test run with N tests`, and the failing tests the log names.
final class TestCountsTests: XCTestCase {
    func corpusLog(_ prefix: String) throws -> (name: String, text: String) {
        let folder = CorpusTests.corpus.appendingPathComponent("cases")
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix(prefix) })
        return (name, String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self))
    }

    func diagnosis(_ text: String, name: String) throws -> Diagnosis {
        let scanner = Scanner(ruleSet: try RuleSet.builtin())
        try scanner.scan(text: text, name: name)
        return scanner.finish()
    }

    /// What the log says: the sum over runs of the `Executed` line after `Test Suite 'All tests'|'Selected tests'
    /// passed/failed`, plus Swift Testing's `Test run with N tests`.
    func stated(_ text: String) -> (tests: Int, failures: Int) {
        var tests = 0, failures = 0, outer = false
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("Test Suite 'All tests' ") || line.hasPrefix("Test Suite 'Selected tests' ") {
                outer = line.contains("' passed") || line.contains("' failed")
                continue
            }
            if outer, let m = line.range(of: #"^Executed (\d+) tests?, with (\d+) failures?"#, options: .regularExpression) {
                let numbers = line[m].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
                tests += numbers[0]
                failures += numbers[1]
                outer = false
            }
            if let m = line.range(of: #"Test run with \d+ tests?"#, options: .regularExpression) {
                tests += Int(line[m].split(separator: " ")[3]) ?? 0
            }
        }
        return (tests, failures)
    }

    func junitTotals(_ d: Diagnosis) throws -> (tests: Int, failures: Int, cases: [XMLElement]) {
        let xml = JUnitReport().render(d)
        let root = try XCTUnwrap(try XMLDocument(data: Data(xml.utf8), options: []).rootElement())
        let cases = try root.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
        let failures = cases.filter { !$0.elements(forName: "failure").isEmpty }.count
        XCTAssertEqual(root.attribute(forName: "tests")?.stringValue, String(cases.count), xml)
        XCTAssertEqual(root.attribute(forName: "failures")?.stringValue, String(failures), xml)
        return (cases.count, failures, cases)
    }

    func annotations(_ d: Diagnosis) -> Int {
        GitHubReport().render(d).split(separator: "\n").filter { $0.hasPrefix("::error") }.count
    }

    func sarifResults(_ d: Diagnosis) throws -> Int {
        let object = try JSONSerialization.jsonObject(with: Data(SARIFReport().render(d).utf8)) as? [String: Any]
        let run = (object?["runs"] as? [[String: Any]])?.first
        return (run?["results"] as? [[String: Any]])?.filter { $0["level"] as? String == "error" }.count ?? -1
    }

    /// Logs whose every test has its result line: JUnit's totals are the log's.
    func testJUnitTotalsEqualTheLogsOwnTotals() throws {
        // single XCTest UI test; two runs in one log (unit, then UI); Swift Testing under `swift test`.
        for (prefix, expected) in [("d006", (1, 1)), ("d076", (3, 0)), ("d078", (3, 1)), ("d007", (4, 3))] {
            let (name, text) = try corpusLog(prefix)
            let d = try diagnosis(text, name: name)
            let junit = try junitTotals(d)
            let log = stated(text)
            XCTAssertEqual(junit.tests, log.tests, name)
            XCTAssertEqual(junit.tests, expected.0, name)
            XCTAssertEqual(junit.failures, expected.1, name)
            if prefix != "d007" { XCTAssertEqual(junit.failures, log.failures, name) } // Swift Testing states issues, not failed tests
        }
    }

    /// XCTest's assertion, its `Test Case … failed` line and the closing `Failing tests:` list are one failure:
    /// one testcase, one annotation, one SARIF result.
    func testOneFailingTestIsOneTestcaseAndOneAnnotation() throws {
        let (name, text) = try corpusLog("d078") // a UI test's launch failure, its `failed` line and the `Failing tests:` list
        let d = try diagnosis(text, name: name)
        let junit = try junitTotals(d)
        XCTAssertEqual(junit.failures, 1)
        XCTAssertEqual(annotations(d), 1, GitHubReport().render(d))
        XCTAssertEqual(try sarifResults(d), 1)
        let failed = try XCTUnwrap(junit.cases.first { !$0.elements(forName: "failure").isEmpty })
        XCTAssertEqual(failed.attribute(forName: "name")?.stringValue, "testExample")
        XCTAssertEqual(failed.attribute(forName: "classname")?.stringValue, "ios_xcode_8_0UITests.ios_xcode_8_0UITests")
        XCTAssertEqual(failed.attribute(forName: "time")?.stringValue, "46.773")
    }

    /// Parallel testing (Xcode 26's clone lines, no totals printed): each `failed on 'Clone N of …'` line is one test.
    func testParallelCloneLinesAreOneTestcaseEach() throws {
        let (name, text) = try corpusLog("d003")
        let d = try diagnosis(text, name: name)
        let failedLines = text.split(separator: "\n").filter { $0.hasPrefix("Test case '") && $0.contains("' failed on 'Clone") }.count
        XCTAssertEqual(failedLines, 2)
        let junit = try junitTotals(d)
        XCTAssertEqual(junit.tests, failedLines)
        XCTAssertEqual(junit.failures, failedLines)
        XCTAssertEqual(Set(junit.cases.compactMap { $0.attribute(forName: "classname")?.stringValue }), ["ExampleTestTests", "ExampleTestUITests"])
    }

    /// A crash: the test that started and never finished is one failure, carrying the crash's lines; the
    /// tests that finished before it keep their results.
    func testACrashedTestIsOneFailure() throws {
        let (name, text) = try corpusLog("d041") // assertionFailure() in a test: `fatal error`, no result line
        let d = try diagnosis(text, name: name)
        let junit = try junitTotals(d)
        XCTAssertEqual(junit.tests, 2)
        XCTAssertEqual(junit.failures, 1)
        let crashed = try XCTUnwrap(junit.cases.first { !$0.elements(forName: "failure").isEmpty })
        XCTAssertEqual(crashed.attribute(forName: "name")?.stringValue, "testThatDoesntGetReported")
        XCTAssertEqual(annotations(d), 1, GitHubReport().render(d))

        let (name2, text2) = try corpusLog("k102") // one failed assertion, then a trap in the next test
        let d2 = try diagnosis(text2, name: name2)
        let junit2 = try junitTotals(d2)
        XCTAssertEqual(junit2.tests, 2)
        XCTAssertEqual(junit2.failures, 2)
        XCTAssertEqual(annotations(d2), 2, GitHubReport().render(d2))
        XCTAssertEqual(try sarifResults(d2), 2)
    }

    /// Swift Testing names no suite: the one suite the log ran holds its tests; a parameterized test's
    /// `with 3 test cases` result is one testcase.
    func testSwiftTestingResultsAreTestcases() throws {
        let (name, text) = try corpusLog("d009")
        let d = try diagnosis(text, name: name)
        let junit = try junitTotals(d)
        let swiftTesting = junit.cases.filter { $0.attribute(forName: "classname")?.stringValue == "SwiftTestingGroup" }
        XCTAssertEqual(swiftTesting.compactMap { $0.attribute(forName: "name")?.stringValue }.sorted(),
                       ["parameterizedFailingTest(value:)", "parameterizedPassingTest(value:)", "testFailTrueIsFalse()", "testTrueIsTrue()"])
        XCTAssertEqual(swiftTesting.filter { !$0.elements(forName: "failure").isEmpty }.count, 2)
    }

    /// A retried test (`-retry-tests-on-failure`): its last result is its verdict, one testcase.
    func testARetriedTestIsOneTestcaseWithItsLastResult() throws {
        // The start line xcodebuild prints under a test plan that retries (`started (Iteration 2 of 3).`).
        let log = """
        Test Suite 'All tests' started at 2024-01-01 10:00:00.000.
        Test Case '-[AppTests.FlakyTests testNetwork]' started (Iteration 1 of 3).
        /Users/ci/App/AppTests/FlakyTests.swift:9: error: -[AppTests.FlakyTests testNetwork] : XCTAssertTrue failed
        Test Case '-[AppTests.FlakyTests testNetwork]' failed (0.010 seconds).
        Test Case '-[AppTests.FlakyTests testNetwork]' started (Iteration 2 of 3).
        Test Case '-[AppTests.FlakyTests testNetwork]' passed (0.008 seconds).
        Test Case '-[AppTests.FlakyTests testOther]' started.
        Test Case '-[AppTests.FlakyTests testOther]' passed (0.001 seconds).
        """
        let d = try diagnosis(log, name: "retry.log")
        let junit = try junitTotals(d)
        XCTAssertEqual(junit.tests, 2)
        XCTAssertEqual(junit.failures, 0, JUnitReport().render(d))
        XCTAssertEqual(d.tests.results.first { $0.name == "testNetwork" }?.runs, 2)
    }
}
