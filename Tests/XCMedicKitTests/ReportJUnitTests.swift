import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import XCMedicKit

final class ReportJUnitTests: XCTestCase {
    struct TestCase: Equatable {
        var classname: String
        var name: String
        var file: String?
        var line: String?
        var failureMessage: String?
        var failureText: String?
    }

    /// Parses with Foundation's XML parser (libxml2 on Linux), which rejects malformed XML.
    func parse(_ xml: String) throws -> (root: XMLElement, cases: [TestCase]) {
        let document = try XMLDocument(data: Data(xml.utf8), options: [])
        let root = try XCTUnwrap(document.rootElement())
        let cases = try root.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }.map { element in
            let failure = element.elements(forName: "failure").first
            return TestCase(
                classname: element.attribute(forName: "classname")?.stringValue ?? "",
                name: element.attribute(forName: "name")?.stringValue ?? "",
                file: element.attribute(forName: "file")?.stringValue,
                line: element.attribute(forName: "line")?.stringValue,
                failureMessage: failure?.attribute(forName: "message")?.stringValue,
                failureText: failure?.stringValue
            )
        }
        return (root, cases)
    }

    func testXCTestFailuresAreFailedTestcasesByName() throws {
        let diagnosis = try ReportFixtures.diagnosis(ReportFixtures.xctestLog, extraRules: ReportFixtures.testRulesYAML)
        let xml = JUnitReport().render(diagnosis)
        let (root, cases) = try parse(xml)
        XCTAssertEqual(root.name, "testsuites")

        let failed = cases.filter { $0.failureMessage != nil }
        XCTAssertEqual(failed.map(\.name).sorted(), ["testLogin", "testTotal"], xml)
        let login = try XCTUnwrap(failed.first { $0.name == "testLogin" })
        XCTAssertEqual(login.classname, "AppTests.LoginTests")
        XCTAssertEqual(login.file, "/Users/runner/work/app/app/Tests/AppTests/LoginTests.swift")
        XCTAssertEqual(login.line, "12")
        // The assertion, not the `failed (0.003 seconds)` summary, is the message.
        XCTAssertEqual(login.failureMessage, #"XCTAssertEqual failed: ("1") is not equal to ("2")"#)
        XCTAssertTrue(login.failureText?.contains("Test Case '-[AppTests.LoginTests testLogin]' failed") ?? false, login.failureText ?? "")
        let logout = try XCTUnwrap(cases.first { $0.name == "testLogout" }, "a passing test the log names is a testcase")
        XCTAssertNil(logout.failureMessage)
        // `** TEST FAILED **` only wraps the failures above; it is not a testcase of its own.
        XCTAssertFalse(cases.contains { $0.classname == "build-failed" }, xml)
    }

    func testSwiftTestingFailuresAreFailedTestcasesByName() throws {
        let diagnosis = try ReportFixtures.diagnosis(ReportFixtures.swiftTestingLog, extraRules: ReportFixtures.testRulesYAML)
        let xml = JUnitReport().render(diagnosis)
        let (_, cases) = try parse(xml)
        let tests = cases.filter { $0.failureMessage != nil && $0.name.hasSuffix(")") }
        XCTAssertEqual(tests.map(\.name), ["loginFails()"], xml)
        let test = tests[0]
        // Swift Testing names no suite here; the test is filed under its source file.
        XCTAssertEqual(test.classname, "LoginTests")
        XCTAssertEqual(test.file, "LoginTests.swift")
        XCTAssertEqual(test.line, "9")
        XCTAssertEqual(test.failureMessage, "Expectation failed: (user → nil) != nil")
        let passing = try XCTUnwrap(cases.first { $0.name == "loginWorks()" }, xml)
        XCTAssertNil(passing.failureMessage)
    }

    func testBuildBreakingFindingsAreFailedTestcasesOfTheirCategory() throws {
        let diagnosis = try ReportFixtures.diagnosis(ReportFixtures.compileLog)
        let (root, cases) = try parse(JUnitReport().render(diagnosis))
        let errors = diagnosis.findings.filter { $0.severity == .error && $0.role != .symptom }
        XCTAssertEqual(cases.count, errors.count)
        XCTAssertEqual(root.attribute(forName: "failures")?.stringValue, String(errors.count))
        XCTAssertEqual(Set(cases.map(\.classname)), Set(errors.map(\.category)))
        let macro = try XCTUnwrap(cases.first { $0.classname == "macro-validation" })
        XCTAssertTrue(macro.failureMessage?.contains("CasePathsMacros") ?? false)
        XCTAssertTrue(cases.allSatisfy { $0.failureMessage != nil })
        XCTAssertFalse(cases.contains { $0.classname == "build-failed" }, "wrappers are left out when a cause is known")
    }

    func testOnlyWrappersStillFailTheReport() throws {
        let diagnosis = try ReportFixtures.diagnosis("Compiling…\n** BUILD FAILED **\n")
        let (_, cases) = try parse(JUnitReport().render(diagnosis))
        XCTAssertEqual(cases.map(\.classname), ["build-failed"])
    }

    func testACleanLogHasOnePassingTestcase() throws {
        let diagnosis = try ReportFixtures.diagnosis("Build complete! (1.2s)\n")
        let (root, cases) = try parse(JUnitReport().render(diagnosis))
        XCTAssertEqual(cases.count, 1)
        XCTAssertNil(cases[0].failureMessage)
        XCTAssertEqual(root.attribute(forName: "failures")?.stringValue, "0")
    }

    func testXMLSpecialAndForbiddenCharactersAreEscapedOrMadeVisible() throws {
        let diagnosis = try ReportFixtures.diagnosis(ReportFixtures.xctestLog, extraRules: ReportFixtures.testRulesYAML)
        let xml = JUnitReport().render(diagnosis)
        let (_, cases) = try parse(xml)
        let total = try XCTUnwrap(cases.first { $0.name == "testTotal" })
        // `<&'>` survive as text; U+0001, which XML 1.0 forbids, is written as `\u{1}`.
        XCTAssertEqual(total.failureMessage, #"XCTAssertTrue failed - total was "<&'>" \u{1}"#)
        XCTAssertFalse(xml.unicodeScalars.contains { $0.value == 1 })

        // C0 visible, DEL and C1 as character references, U+FFFE dropped.
        XCTAssertEqual(XML.escape("a&b<c>d\"e'f\u{0}\u{1B}\u{FFFE}g\u{1F600}\u{7F}\u{9B}"),
                       #"a&amp;b&lt;c&gt;d&quot;e&apos;f\u{0}\u{1B}g"# + "\u{1F600}&#x7F;&#x9B;")
        XCTAssertEqual(XML.escape("x\ny\tz\r"), "x&#10;y&#9;z&#13;")
    }

    func testALongMessageIsClippedInTheAttributeAndWholeInTheBody() throws {
        let long = String(repeating: "x", count: 3_000)
        let diagnosis = try ReportFixtures.diagnosis("/src/A.swift:1:1: error: \(long)\n")
        let (_, cases) = try parse(JUnitReport().render(diagnosis))
        XCTAssertEqual(cases.first?.failureMessage, String(repeating: "x", count: 1_000) + "…")
        XCTAssertTrue(cases.first?.failureText?.contains(long) ?? false)
    }

    func testTestIdentifiersSplitIntoSuiteAndName() {
        XCTAssertEqual(JUnitReport.splitTestID("-[AppTests.LoginTests testLogin]").suite, "AppTests.LoginTests")
        XCTAssertEqual(JUnitReport.splitTestID("-[AppTests.LoginTests testLogin]").name, "testLogin")
        XCTAssertEqual(JUnitReport.splitTestID("AppTests.LoginTests.testLogin()").suite, "AppTests.LoginTests")
        XCTAssertEqual(JUnitReport.splitTestID("AppTests.LoginTests.testLogin()").name, "testLogin()")
        XCTAssertEqual(JUnitReport.splitTestID("LoginTests/testLogin").suite, "LoginTests")
        XCTAssertEqual(JUnitReport.splitTestID("login(user:)").name, "login(user:)")
        XCTAssertNil(JUnitReport.splitTestID("login(user.name:)").suite)
        // The ASCII identifiers split on their bytes, the others by characters: the same rules for both.
        let cases: [(String, String?, String)] = [
            ("Target/Suite/test()", "Target.Suite", "test()"), ("Target/Suité/tést()", "Target.Suité", "tést()"),
            ("-[Suite test]", "Suite", "test"), ("-[Suïte tëst]", "Suïte", "tëst"), ("-[]", nil, ""), ("-[single]", nil, "single"),
            ("  Suite.test() ", "Suite", "test()"), ("\u{00A0}Suite.test()", "Suite", "test()"), ("\"a.b/c\"", nil, "a.b/c"),
            (".test", nil, ".test"), ("test", nil, "test"), ("a.b(c.d)", "a", "b(c.d)"), ("", nil, ""),
        ]
        for (id, suite, name) in cases {
            let split = JUnitReport.splitTestID(id)
            XCTAssertEqual(split.suite, suite, id)
            XCTAssertEqual(split.name, name, id)
        }
    }

    func testCollectedTestListsBecomeTestcases() throws {
        let yaml = #"""
        - id: report-test-failing-list
          title: Failing tests
          category: test-failure
          severity: error
          role: cause
          patterns:
            - literal: 'Failing tests:'
              regex: '^Failing tests:$'
          continuation:
            while: '^\S+\.\S+\(\)$'
            collect: '^(?<tests>\S+\(\))$'
          message: Tests failed
          explanation: xcodebuild lists the tests that failed at the end of a test run.
          fixes:
            - summary: Run each failing test locally
          examples:
            match:
              - line: 'Failing tests:'
        """#
        let log = "Failing tests:\n\tAppTests.LoginTests.testLogin()\n\tAppTests.CartTests.testTotal()\n\n** TEST FAILED **\n"
        let diagnosis = try ReportFixtures.diagnosis(log, extraRules: yaml)
        let (_, cases) = try parse(JUnitReport().render(diagnosis))
        XCTAssertEqual(cases.map { "\($0.classname)/\($0.name)" }.sorted(), ["AppTests.CartTests/testTotal()", "AppTests.LoginTests/testLogin()"])
    }
}
