import Foundation
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import XCMedicKit

final class FingerprintTests: XCTestCase {
    private func finding(_ log: String) throws -> Finding {
        let d = try ReportFixtures.diagnosis(log + "\n** BUILD FAILED **\n")
        return try XCTUnwrap(FailureSignature.failureFindings(of: d).first)
    }

    func testTheSameCauseOnAnotherRunnerAndLineHasTheSameFingerprint() throws {
        let a = try finding("/Users/runner/work/app/app/Sources/App/App.swift:3:8: error: no such module 'Alamofire'")
        let b = try finding("/Volumes/workspace/repository/Sources/App/App.swift:12:8: error: no such module 'Alamofire'")
        XCTAssertEqual(Fingerprint(of: a), Fingerprint(of: b))
        XCTAssertFalse(Fingerprint(of: a).subject.contains("runner"), Fingerprint(of: a).subject)
        XCTAssertFalse(Fingerprint(of: a).subject.contains(":3"), Fingerprint(of: a).subject)
    }

    func testAnotherModuleIsAnotherCause() throws {
        let a = try finding("/tmp/a/App.swift:3:8: error: no such module 'Alamofire'")
        let b = try finding("/tmp/a/App.swift:3:8: error: no such module 'Kingfisher'")
        XCTAssertNotEqual(Fingerprint(of: a).value, Fingerprint(of: b).value)
    }

    func testATestIsOneCauseWhateverItsAssertionSaid() throws {
        let a = try finding(#"/tmp/T.swift:21: error: -[AppTests.LoginTests testLogin] : XCTAssertEqual failed: ("1") is not equal to ("2")"#)
        let b = try finding(#"/ci/T.swift:30: error: -[AppTests.LoginTests testLogin] : XCTAssertTrue failed"#)
        XCTAssertEqual(Fingerprint(of: a), Fingerprint(of: b))
        XCTAssertEqual(Fingerprint(of: a).test, "LoginTests/testLogin")
    }

    func testMovingPartsOfAMessageAreNormalised() {
        XCTAssertEqual(Fingerprint.normalise("crashed at 0x00007ff8123abcd in /private/var/folders/xy/T/App-abc/Build/App.app after 12.5 seconds"),
                       "crashed at 0x<address> in App.app after <n> seconds")
        XCTAssertEqual(Fingerprint.normalise("simulator 8A4F1C2E-1111-2222-3333-444455556666 ('/tmp/x/y.log:12:3')"),
                       "simulator <uuid> ('y.log')")
        XCTAssertEqual(Fingerprint.normalise("iOS 17.2 needs Xcode 15.2"), "iOS 17.2 needs Xcode 15.2")
    }

    func testTheHashIsStable() {
        // FNV-1a 64 of "a": a published test vector.
        XCTAssertEqual(Fingerprint.hash("a"), "af63dc4c8601ec8c")
    }
}

final class BuildIdentityTests: XCTestCase {
    func testGitHubActions() {
        let id = BuildIdentity.fromEnvironment([
            "GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/app", "GITHUB_REF_NAME": "main", "GITHUB_SHA": "0123abcd",
            "GITHUB_WORKFLOW": "CI", "GITHUB_JOB": "test", "GITHUB_RUN_ID": "987", "GITHUB_RUN_NUMBER": "42", "GITHUB_RUN_ATTEMPT": "2",
            "GITHUB_SERVER_URL": "https://github.com",
        ])
        XCTAssertEqual(id.service, "github-actions")
        XCTAssertEqual([id.repository, id.branch, id.commit, id.job, id.buildID, id.buildNumber], ["acme/app", "main", "0123abcd", "CI/test", "987", "42"])
        XCTAssertEqual(id.attempt, 2)
        XCTAssertEqual(id.url, "https://github.com/acme/app/actions/runs/987")
        XCTAssertEqual(id.label, "#42 (attempt 2)")
        // A pull request's branch is its head branch, not refs/pull/N/merge.
        XCTAssertEqual(BuildIdentity.fromEnvironment(["GITHUB_ACTIONS": "true", "GITHUB_HEAD_REF": "fix-login", "GITHUB_REF_NAME": "17/merge"]).branch, "fix-login")
    }

    func testEveryCIService() {
        let cases: [([String: String], [String])] = [
            (["CI_XCODE_CLOUD": "TRUE", "CI_PRODUCT": "App", "CI_BRANCH": "main", "CI_COMMIT": "c1", "CI_WORKFLOW": "Release",
              "CI_BUILD_ID": "uuid-1", "CI_BUILD_NUMBER": "77", "CI_BUILD_URL": "https://appstoreconnect.apple.com/b/1"],
             ["xcode-cloud", "App", "main", "c1", "Release", "uuid-1", "77", "https://appstoreconnect.apple.com/b/1"]),
            (["BITRISE_IO": "true", "BITRISEIO_GIT_REPOSITORY_SLUG": "app", "BITRISE_GIT_BRANCH": "dev", "BITRISE_GIT_COMMIT": "c2",
              "BITRISE_TRIGGERED_WORKFLOW_ID": "primary", "BITRISE_BUILD_SLUG": "slug", "BITRISE_BUILD_NUMBER": "9", "BITRISE_BUILD_URL": "https://app.bitrise.io/build/slug"],
             ["bitrise", "app", "dev", "c2", "primary", "slug", "9", "https://app.bitrise.io/build/slug"]),
            (["GITLAB_CI": "true", "CI_PROJECT_PATH": "acme/app", "CI_COMMIT_REF_NAME": "main", "CI_COMMIT_SHA": "c3", "CI_JOB_NAME": "test",
              "CI_JOB_ID": "555", "CI_PIPELINE_IID": "12", "CI_JOB_URL": "https://gitlab.com/acme/app/-/jobs/555"],
             ["gitlab", "acme/app", "main", "c3", "test", "555", "12", "https://gitlab.com/acme/app/-/jobs/555"]),
            (["BUILDKITE": "true", "BUILDKITE_ORGANIZATION_SLUG": "acme", "BUILDKITE_PIPELINE_SLUG": "app", "BUILDKITE_BRANCH": "main",
              "BUILDKITE_COMMIT": "c4", "BUILDKITE_LABEL": ":xcode: test", "BUILDKITE_JOB_ID": "job-1", "BUILDKITE_BUILD_NUMBER": "31",
              "BUILDKITE_BUILD_URL": "https://buildkite.com/acme/app/builds/31", "BUILDKITE_RETRY_COUNT": "1"],
             ["buildkite", "acme/app", "main", "c4", ":xcode: test", "job-1", "31", "https://buildkite.com/acme/app/builds/31"]),
            (["CIRCLECI": "true", "CIRCLE_PROJECT_USERNAME": "acme", "CIRCLE_PROJECT_REPONAME": "app", "CIRCLE_BRANCH": "main", "CIRCLE_SHA1": "c5",
              "CIRCLE_JOB": "test", "CIRCLE_BUILD_NUM": "400", "CIRCLE_BUILD_URL": "https://circleci.com/gh/acme/app/400"],
             ["circleci", "acme/app", "main", "c5", "test", "400", "400", "https://circleci.com/gh/acme/app/400"]),
            (["JENKINS_URL": "https://ci.example.com/", "GIT_URL": "https://github.com/acme/app.git", "GIT_BRANCH": "origin/main", "GIT_COMMIT": "c6",
              "JOB_NAME": "app/main", "BUILD_TAG": "jenkins-app-main-8", "BUILD_NUMBER": "8", "BUILD_URL": "https://ci.example.com/job/app/8/"],
             ["jenkins", "https://github.com/acme/app.git", "main", "c6", "app/main", "jenkins-app-main-8", "8", "https://ci.example.com/job/app/8/"]),
        ]
        for (environment, expected) in cases {
            let id = BuildIdentity.fromEnvironment(environment)
            XCTAssertEqual([id.service, id.repository, id.branch, id.commit, id.job, id.buildID, id.buildNumber, id.url], expected)
        }
        XCTAssertEqual(BuildIdentity.fromEnvironment(cases[3].0).attempt, 2, "Buildkite counts retries from 0")
        XCTAssertEqual(BuildIdentity.fromEnvironment(["CI": "true"]).service, "local")
        XCTAssertEqual(BuildIdentity.fromEnvironment(["CI": "true"]).key, "", "a build nobody identifies is always new")
    }

    func testOptionsWinAndCredentialsInURLsAreDropped() {
        let id = BuildIdentity.fromEnvironment(["GITHUB_ACTIONS": "true", "GITHUB_REF_NAME": "main"])
            .overriding(repository: "https://ci:s3cr3t-T0ken@git.example.com/acme/app.git", branch: "release", attempt: 3)
            .redacted(.standard)
        XCTAssertEqual(id.branch, "release")
        XCTAssertEqual(id.attempt, 3)
        XCTAssertEqual(id.repository, "https://git.example.com/acme/app.git")
    }

    func testDatesAndDurations() {
        XCTAssertEqual(HistoryDates.duration("30d"), 30 * 86_400)
        XCTAssertEqual(HistoryDates.duration("2w"), 14 * 86_400)
        XCTAssertNil(HistoryDates.duration("soon"))
        XCTAssertEqual(HistoryDates.parse("2026-11-20").map(HistoryDates.iso), "2026-11-20T00:00:00Z")
        XCTAssertEqual(HistoryDates.parse("2026-11-20T14:03:00+01:00").map(HistoryDates.iso), "2026-11-20T13:03:00Z")
        XCTAssertNil(HistoryDates.parse("yesterday"))
    }
}

/// Every report format carries the history facts when there are some, and nothing when there are none.
final class HistoryReportFactsTests: XCTestCase {
    private func recorded() throws -> Diagnosis {
        var d = try ReportFixtures.diagnosis("/tmp/a/App.swift:3:8: error: no such module 'Alamofire'\n** BUILD FAILED **\n")
        let i = try XCTUnwrap(FailureSignature.failureIndices(of: d).first)
        let first = BuildRef(label: "#100", commit: "aaaaaaa1111", branch: "main", time: Date(timeIntervalSince1970: 1_795_000_000))
        d.findings[i].history = CauseHistory(fingerprint: "0123456789abcdef", firstSeen: first, recurring: true, newInThisBuild: true,
                                             buildsWithCause: 3, recentBuilds: 20, branch: "main")
        d.history = BuildHistory(build: BuildRef(label: "#120", commit: "bbbbbbb", branch: "main", time: Date(timeIntervalSince1970: 1_795_100_000)),
                                 store: ".xcmedic/history.sqlite")
        return d
    }

    func testTextMarkdownAndJSONSayFirstSeenRecentAndNew() throws {
        let d = try recorded()
        let expected = "new in this build · recurring since #100 (aaaaaaa on main, 2026-11-18) · in 3 of the last 20 builds on main"
        XCTAssertTrue(Report.render(d, format: .text, options: ReportOptions()).contains("history: " + expected))
        XCTAssertTrue(Report.render(d, format: .text, options: ReportOptions()).contains("History: recorded as build #120"))
        let markdown = Report.render(d, format: .markdown, options: ReportOptions())
        XCTAssertTrue(markdown.contains("History: new in this build"), markdown)
        let json = try JSONSerialization.jsonObject(with: Data(Report.render(d, format: .json, options: ReportOptions()).utf8)) as! [String: Any]
        let findings = json["findings"] as! [[String: Any]]
        let history = try XCTUnwrap(findings.compactMap { $0["history"] as? [String: Any] }.first)
        XCTAssertEqual(history["recurring"] as? Bool, true)
        XCTAssertEqual(history["buildsWithCause"] as? Int, 3)
        XCTAssertEqual((history["firstSeen"] as? [String: Any])?["time"] as? String, "2026-11-18T11:06:40Z")
        XCTAssertEqual(((json["history"] as? [String: Any])?["build"] as? [String: Any])?["label"] as? String, "#120")
        let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/xcmedic.schema.json")
        let schema = try JSONSerialization.jsonObject(with: try Data(contentsOf: schemaURL)) as! [String: Any]
        XCTAssertEqual(SchemaValidator.validate(json, against: schema), [])
    }

    func testWithoutAStoreReportsAreUnchanged() throws {
        let d = try ReportFixtures.diagnosis("/tmp/a/App.swift:3:8: error: no such module 'Alamofire'\n** BUILD FAILED **\n")
        for format in HistoryReportFactsTests.formats {
            let report = Report.render(d, format: format, options: ReportOptions()).lowercased()
            XCTAssertFalse(report.contains("history") || report.contains("flaky"), "\(format)")
        }
    }

    // MARK: The three formats for machines and CI pages

    static let failingTestLog = """
        Test Case '-[AppTests.LoginTests testLogin]' started.
        /Users/runner/work/app/app/Tests/AppTests/LoginTests.swift:21: error: -[AppTests.LoginTests testLogin] : XCTAssertEqual failed: ("1") is not equal to ("2")
        Test Case '-[AppTests.LoginTests testLogin]' failed (0.012 seconds).
        ** TEST FAILED **
        """

    static let formats: [ReportFormat] = [.text, .markdown, .json, .github, .junit, .sarif]
    static let firstSeen = "recurring since #100 (aaaaaaa on main, 2026-11-18)"
    static let recent = "in 3 of the last 20 builds on main"
    static let flaky = "flaky: LoginTests/testLogin failed in 2 and passed in 1 builds of aaaaaaa"

    /// A failing test with what a store would say of it: recurring, new since the last green build, flaky.
    private func recordedTestFailure(branch: String = "main") throws -> Diagnosis {
        var d = try ReportFixtures.diagnosis(HistoryReportFactsTests.failingTestLog)
        let first = BuildRef(label: "#100", commit: "aaaaaaa1111", branch: branch, time: Date(timeIntervalSince1970: 1_795_000_000))
        let indices = FailureSignature.failureIndices(of: d)
        XCTAssertFalse(indices.isEmpty)
        for i in indices {
            d.findings[i].history = CauseHistory(fingerprint: "0123456789abcdef", firstSeen: first, recurring: true, newInThisBuild: true,
                                                 buildsWithCause: 3, recentBuilds: 20, branch: branch,
                                                 flaky: FlakyEvidence(test: "LoginTests/testLogin", commit: "aaaaaaa1111", failed: 2, passed: 1))
        }
        d.history = BuildHistory(build: BuildRef(label: "#120", commit: "bbbbbbb", branch: branch, time: Date(timeIntervalSince1970: 1_795_100_000)),
                                 store: ".xcmedic/history.sqlite")
        return d
    }

    /// A passing build of a commit on which the test failed before.
    private func recordedPass() throws -> Diagnosis {
        var d = try ReportFixtures.diagnosis("Test Case '-[AppTests.LoginTests testLogin]' passed (0.004 seconds).\n** TEST SUCCEEDED **\n")
        d.history = BuildHistory(build: BuildRef(label: "#121", commit: "aaaaaaa1111", branch: "main", time: Date(timeIntervalSince1970: 1_795_100_000)),
                                 store: ".xcmedic/history.sqlite",
                                 passedAfterFailing: [FlakyEvidence(test: "LoginTests/testLogin", commit: "aaaaaaa1111", failed: 2, passed: 1)])
        return d
    }

    func testEveryFormatSaysFirstSeenRecentNewAndFlaky() throws {
        let d = try recordedTestFailure()
        for format in HistoryReportFactsTests.formats {
            let report = Report.render(d, format: format, options: ReportOptions(width: 400))
            // JSON carries the facts as fields (docs/xcmedic.schema.json), the others as the line.
            let facts = format == .json
                ? ["\"label\" : \"#100\"", "\"commit\" : \"aaaaaaa1111\"", "2026-11-18", "\"buildsWithCause\" : 3", "\"recentBuilds\" : 20",
                   "\"newInThisBuild\" : true", "\"passed\" : 1"]
                : ["#100", "aaaaaaa", "2026-11-18", HistoryReportFactsTests.recent, "new in this build", HistoryReportFactsTests.flaky]
            for fact in facts {
                XCTAssertTrue(report.contains(fact), "\(format) lacks \(fact):\n\(report)")
            }
        }
    }

    func testGitHubAnnotationCarriesTheHistoryLine() throws {
        let github = GitHubReport().render(try recordedTestFailure())
        let annotations = github.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        XCTAssertFalse(annotations.isEmpty, github)
        for annotation in annotations {
            XCTAssertTrue(annotation.contains("%0AHistory: new in this build · \(HistoryReportFactsTests.firstSeen) · \(HistoryReportFactsTests.recent) · "
                                              + HistoryReportFactsTests.flaky), String(annotation))
        }
        let pass = GitHubReport().render(try recordedPass())
        XCTAssertTrue(pass.contains("::notice title=Flaky test%3A LoginTests/testLogin::LoginTests/testLogin failed in 2 earlier builds of this commit and passed now."), pass)
    }

    func testSARIFResultAndRunProperties() throws {
        let sarif = SARIFReport().render(try recordedTestFailure())
        XCTAssertEqual(SARIF210.violations(sarif), [], sarif)
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        let withHistory = results.compactMap { ($0["properties"] as? [String: Any])?["history"] as? [String: Any] }
        XCTAssertFalse(withHistory.isEmpty, sarif)
        let h = try XCTUnwrap(withHistory.first)
        let first = try XCTUnwrap(h["firstSeen"] as? [String: Any])
        XCTAssertEqual(first["label"] as? String, "#100")
        XCTAssertEqual(first["commit"] as? String, "aaaaaaa1111")
        XCTAssertEqual(first["time"] as? String, "2026-11-18T11:06:40Z")
        XCTAssertEqual(h["newInThisBuild"] as? Bool, true)
        XCTAssertEqual(h["buildsWithCause"] as? Int, 3)
        XCTAssertEqual(h["recentBuilds"] as? Int, 20)
        XCTAssertEqual((h["flaky"] as? [String: Any])?["passed"] as? Int, 1)
        let summary = results.compactMap { ($0["properties"] as? [String: Any])?["historySummary"] as? String }.first
        XCTAssertEqual(summary, "new in this build · \(HistoryReportFactsTests.firstSeen) · \(HistoryReportFactsTests.recent) · \(HistoryReportFactsTests.flaky)")
        let build = ((run["properties"] as? [String: Any])?["history"] as? [String: Any])?["build"] as? [String: Any]
        XCTAssertEqual(build?["label"] as? String, "#120")

        let pass = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(SARIFReport().render(try recordedPass()).utf8)) as? [String: Any])
        let passRun = try XCTUnwrap((pass["runs"] as? [[String: Any]])?.first)
        let flaky = ((passRun["properties"] as? [String: Any])?["history"] as? [String: Any])?["passedAfterFailing"] as? [[String: Any]]
        XCTAssertEqual(flaky?.first?["test"] as? String, "LoginTests/testLogin")
    }

    private func junitProperties(_ element: XMLElement) -> [String: String] {
        let properties = element.elements(forName: "properties").first?.elements(forName: "property") ?? []
        return Dictionary(properties.map { ($0.attribute(forName: "name")?.stringValue ?? "", $0.attribute(forName: "value")?.stringValue ?? "") },
                          uniquingKeysWith: { $1 })
    }

    func testJUnitTestCasePropertiesAndFailureBody() throws {
        let xml = JUnitReport().render(try recordedTestFailure())
        let root = try XCTUnwrap(try XMLDocument(data: Data(xml.utf8), options: []).rootElement())
        let cases = try root.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
        let login = try XCTUnwrap(cases.first { $0.attribute(forName: "name")?.stringValue == "testLogin" }, xml)
        let properties = junitProperties(login)
        XCTAssertEqual(properties["xcmedic.history.firstSeen.build"], "#100")
        XCTAssertEqual(properties["xcmedic.history.firstSeen.commit"], "aaaaaaa1111")
        XCTAssertEqual(properties["xcmedic.history.firstSeen.date"], "2026-11-18T11:06:40Z")
        XCTAssertEqual(properties["xcmedic.history.recent"], HistoryReportFactsTests.recent)
        XCTAssertEqual(properties["xcmedic.history.newInThisBuild"], "true")
        XCTAssertEqual(properties["xcmedic.flaky"], HistoryReportFactsTests.flaky)
        let failure = try XCTUnwrap(login.elements(forName: "failure").first?.stringValue)
        XCTAssertTrue(failure.hasPrefix("History: new in this build · "), failure)
        let suite = try XCTUnwrap(try root.nodes(forXPath: "//testsuite").first as? XMLElement)
        XCTAssertEqual(junitProperties(suite)["xcmedic.history.build"], "recorded as build #120 (bbbbbbb on main, 2026-11-19) in .xcmedic/history.sqlite")

        let pass = JUnitReport().render(try recordedPass())
        let passRoot = try XCTUnwrap(try XMLDocument(data: Data(pass.utf8), options: []).rootElement())
        let passed = try XCTUnwrap(try passRoot.nodes(forXPath: "//testcase").first as? XMLElement, pass)
        XCTAssertEqual(junitProperties(passed)["xcmedic.flaky"], "LoginTests/testLogin failed in 2 earlier builds of this commit and passed now", pass)
        XCTAssertEqual(passed.elements(forName: "system-out").first?.stringValue, "flaky: LoginTests/testLogin failed in 2 earlier builds of this commit and passed now")
    }

    /// What the store returns is text that leaves xcmedic like any other: redacted, and made safe for terminals.
    func testHistoryTextIsRedactedAndTerminalSafeInEveryFormat() throws {
        let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
        let d = try recordedTestFailure(branch: "fix-\u{1B}]0;pwned\u{07}-token=\(token)")
        for format in HistoryReportFactsTests.formats {
            let report = Report.render(d, format: format, options: ReportOptions(width: 400))
            XCTAssertFalse(report.contains(token), "\(format):\n\(report)")
            XCTAssertFalse(report.contains("\u{1B}]0;"), "\(format) passes an escape sequence through")
            XCTAssertTrue(report.contains("fix-"), "\(format)")
        }
        XCTAssertTrue(Report.render(d, format: .text, options: ReportOptions(width: 400)).contains("fix-\\u{1B}]0;pwned\\u{7}"))
    }
}
