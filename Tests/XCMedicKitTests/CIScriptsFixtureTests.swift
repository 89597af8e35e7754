import Foundation
import XCTest
import XCMedicTestSupport
@testable import XCMedicKit

/// Lint on real ci_post_clone.sh files in their real layouts (Fixtures/ci_post_clone): every problem
/// they have is reported, and nothing else is.
final class CIScriptsFixtureTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/ci_post_clone")

    struct Fixture {
        var name: String
        var source: String
        var scriptPath: String
        var layout: [String]?
        var expected: [String]
    }

    static func fixtures() throws -> [Fixture] {
        let text = try String(contentsOf: folder.appendingPathComponent("fixtures.tsv"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Fixture(name: f[0], source: f[1], scriptPath: f[2], layout: f[3] == "-" ? nil : f[3].split(separator: ",").map(String.init),
                           expected: f.count > 4 ? f[4].split(separator: ",").map(String.init).sorted() : [])
        }
    }

    /// The layout as empty files in a temporary folder, the script where it was.
    func build(_ fixture: Fixture, script: Data) throws -> URL {
        let root = Scratch.url("xcmedic-fix")
        for entry in fixture.layout ?? [] {
            let url = root.appendingPathComponent(entry)
            if entry.hasSuffix("/") {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                if entry.hasSuffix(".xcodeproj/") { try Data().write(to: url.appendingPathComponent("project.pbxproj")) }
                if entry.hasSuffix(".xcworkspace/") { try Data("<Workspace/>\n".utf8).write(to: url.appendingPathComponent("contents.xcworkspacedata")) }
            } else {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                let contents = ["project.yml": "name: App\n", "pubspec.yaml": "name: app\n", "package.json": "{}\n", "Package.swift": "// swift-tools-version:5.9\n"]
                try Data((contents[url.lastPathComponent] ?? "").utf8).write(to: url)
            }
        }
        let scriptURL = root.appendingPathComponent(fixture.scriptPath)
        try FileManager.default.createDirectory(at: scriptURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try script.write(to: scriptURL)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scriptURL.path)
        return root
    }

    func testRealScriptsEveryProblemFlaggedNoFalseAlarm() throws {
        let fixtures = try Self.fixtures()
        XCTAssertGreaterThanOrEqual(fixtures.count, 20)
        let scripts = Self.folder.appendingPathComponent("scripts")
        let missing = fixtures.filter { !FileManager.default.fileExists(atPath: scripts.appendingPathComponent($0.name + ".sh").path) }
        if missing.count == fixtures.count {
            throw XCTSkip("the real scripts are not committed (see Tests/XCMedicKitTests/Fixtures/ci_post_clone/README.md); put them in its scripts/ folder to run this test")
        }
        XCTAssertEqual(missing.map(\.name), [], "fixtures listed in fixtures.tsv without their script in scripts/")
        var expectedTotal = 0, flagged = 0, missed: [String] = [], falseAlarms: [String] = [], layouts = 0, clean = 0
        for fixture in fixtures where !missing.contains(where: { $0.name == fixture.name }) {
            let data = try Data(contentsOf: scripts.appendingPathComponent(fixture.name + ".sh"))
            let problems: [LintProblem]
            if fixture.layout != nil {
                layouts += 1
                let root = try build(fixture, script: data)
                let report = try CIScriptsLint.report(projectDirectory: root.path)
                problems = report.problems
                // Lint and the generator agree on the project the workflow builds.
                XCTAssertEqual(try ProjectLocator.locate(in: root.path).directory, report.project.directory, fixture.name)
            } else {
                problems = CIScriptsLint.scriptProblems([UInt8](data), name: "ci_post_clone.sh", path: fixture.scriptPath)
            }
            var got = problems.map(\.kind.rawValue).sorted()
            expectedTotal += fixture.expected.count
            if got.isEmpty && fixture.expected.isEmpty { clean += 1 }
            for kind in fixture.expected {
                if let i = got.firstIndex(of: kind) { got.remove(at: i); flagged += 1 } else { missed.append("\(fixture.name): \(kind)") }
            }
            falseAlarms += got.map { kind in "\(fixture.name): \(kind): " + (problems.first { $0.kind.rawValue == kind }?.problem ?? "") }
        }
        XCTAssertEqual(missed, [], "real problems lint did not report")
        XCTAssertEqual(falseAlarms, [], "false alarms")
        print("real ci_post_clone.sh: \(fixtures.count) scripts (\(layouts) in their layouts), \(expectedTotal) real problems, \(flagged) flagged, \(missed.count) missed, \(falseAlarms.count) false alarms; \(clean) scripts clean")
    }
}
