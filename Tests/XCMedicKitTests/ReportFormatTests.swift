import XCTest
@testable import XCMedicKit

final class ReportFormatTests: XCTestCase {
    func testAutoIsGitHubOnGitHubActionsAndTextElsewhere() {
        XCTAssertEqual(ReportFormat.auto.resolved(environment: ["GITHUB_ACTIONS": "true"]), .github)
        XCTAssertEqual(ReportFormat.auto.resolved(environment: [:]), .text)
        XCTAssertEqual(ReportFormat.auto.resolved(environment: ["GITHUB_ACTIONS": "false"]), .text)
        for variable in ["CI_XCODE_CLOUD", "BITRISE_IO", "GITLAB_CI", "BUILDKITE", "CIRCLECI"] {
            XCTAssertEqual(ReportFormat.auto.resolved(environment: [variable: "true"]), .text, variable)
        }
        XCTAssertEqual(ReportFormat.sarif.resolved(environment: ["GITHUB_ACTIONS": "true"]), .sarif)
    }

    func testProvidersAreRecognisedFromTheirVariables() {
        XCTAssertEqual(CIEnvironment(["CI_XCODE_CLOUD": "TRUE", "CI": "TRUE"]).provider, .xcodeCloud)
        XCTAssertEqual(CIEnvironment(["BITRISE_IO": "true"]).provider, .bitrise)
        XCTAssertEqual(CIEnvironment(["GITLAB_CI": "true"]).provider, .gitlab)
        XCTAssertEqual(CIEnvironment(["BUILDKITE": "true"]).provider, .buildkite)
        XCTAssertEqual(CIEnvironment(["CIRCLECI": "true"]).provider, .circleci)
        XCTAssertNil(CIEnvironment(["CI": "true"]).provider)
    }

    func testNoColourOnXcodeCloudOrWithNoColor() {
        XCTAssertFalse(CIEnvironment(["CI_XCODE_CLOUD": "TRUE"]).allowsColor)
        XCTAssertFalse(CIEnvironment(["NO_COLOR": "1"]).allowsColor)
        XCTAssertTrue(CIEnvironment(["NO_COLOR": ""]).allowsColor)
        XCTAssertTrue(CIEnvironment(["GITLAB_CI": "true"]).allowsColor)
    }

    func testWorkspaceRootComesFromTheProvidersCheckoutVariable() {
        XCTAssertEqual(CIEnvironment(["GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": "/w/app"]).workspaceRoot, "/w/app")
        XCTAssertEqual(CIEnvironment(["CI_XCODE_CLOUD": "TRUE", "CI_PRIMARY_REPOSITORY_PATH": "/Volumes/workspace/repository"]).workspaceRoot,
                       "/Volumes/workspace/repository")
        XCTAssertNil(CIEnvironment(["GITHUB_WORKSPACE": "/w/app"]).workspaceRoot, "only on GitHub Actions")
        XCTAssertEqual(relativePath("/w/app/Sources/A.swift", to: "/w/app"), "Sources/A.swift")
        XCTAssertEqual(relativePath("/w/application/A.swift", to: "/w/app"), "/w/application/A.swift")
    }

    func testEveryFormatRendersThroughReport() throws {
        let diagnosis = try ReportFixtures.diagnosis(ReportFixtures.compileLog)
        for format in ReportFormat.allCases {
            let text = Report.render(diagnosis, format: format, options: ReportOptions())
            XCTAssertFalse(text.isEmpty, format.rawValue)
        }
        XCTAssertTrue(Report.render(diagnosis, format: .github, options: ReportOptions()).hasPrefix("::error "))
        XCTAssertTrue(Report.render(diagnosis, format: .junit, options: ReportOptions()).hasPrefix("<?xml"))
    }

    /// An unrecognised line keeps its own `Error: `; the text report does not put another level in front of it
    /// (rcodesign's line, indygreg/apple-platform-rs#53).
    func testAnUnrecognisedLineIsNotGivenItsLevelTwice() throws {
        let diagnosis = try ReportFixtures.diagnosis("Error: error interacting with Notary API\n")
        XCTAssertEqual(diagnosis.findings.first?.rule, Finding.unrecognizedID)
        let text = Report.render(diagnosis, format: .text, options: ReportOptions())
        XCTAssertTrue(text.contains("   error: error interacting with Notary API"), text)
        XCTAssertFalse(text.contains("error: Error:"), text)
    }
}
