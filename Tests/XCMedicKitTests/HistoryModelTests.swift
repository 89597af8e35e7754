import Foundation
import XCTest
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
        for format in [ReportFormat.text, .markdown, .json] {
            XCTAssertFalse(Report.render(d, format: format, options: ReportOptions()).lowercased().contains("history"), "\(format)")
        }
    }
}
