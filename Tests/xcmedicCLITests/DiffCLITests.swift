import Foundation
import XCTest

/// `xcmedic diff` and `xcmedic mark-good` on a real repository.
final class DiffCLITests: XCTestCase {
    static func resolved(_ pins: [(String, String, String)]) -> String {
        let entries = pins.map { id, version, revision in
            """
                {
                  "identity" : "\(id)",
                  "kind" : "remoteSourceControl",
                  "location" : "https://github.com/apple/\(id).git",
                  "state" : {
                    "revision" : "\(revision)",
                    "version" : "\(version)"
                  }
                }
            """
        }
        return "{\n  \"originHash\" : \"abc\",\n  \"pins\" : [\n\(entries.joined(separator: ",\n"))\n  ],\n  \"version\" : 3\n}\n"
    }

    func makeRepo() throws -> (ScriptedRepo, String, String) {
        let repo = try ScriptedRepo()
        try repo.write("Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"App\")\n")
        try repo.write("Package.resolved", Self.resolved([
            ("swift-collections", "1.0.4", "937e904258d22af6e447a0b72c0bc67583ef64a2"),
            ("swift-log", "1.5.3", "532d8b529501fb73a2455b179e0bbb6d49b652ed"),
        ]))
        try repo.write(".xcode-version", "15.4\n")
        try repo.write("Sources/App/App.swift", "struct App {}\n")
        let from = try repo.commit("App on Xcode 15.4")
        try repo.write("Sources/App/Feature.swift", "struct Feature {}\n")
        try repo.commit("Add a feature")
        try repo.write("Package.resolved", Self.resolved([
            ("swift-collections", "1.1.0", "94cf62b3ba8d4bed62680a282d4c25f9c63c2efb"),
            ("swift-algorithms", "1.2.0", "f6919dfc309e7f1b56224378b11e28bab5bccc42"),
        ]))
        try repo.write(".xcode-version", "16.0\n")
        try repo.write("Package.swift", "// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: \"App\")\n")
        try repo.write(".github/workflows/ci.yml", "on: push\n")
        try repo.write("Docs/notes.md", "notes\n")
        let to = try repo.commit("Bump swift-collections, Xcode 16, Swift 6 manifest")
        return (repo, from, to)
    }

    func testDependencyBumpShowsOldVersionToNewVersion() throws {
        let (repo, from, to) = try makeRepo()
        let r = try CLI.run(["diff", "--from", from, "--to", to], environment: ScriptedRepo.environment, cwd: repo.root)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("2 commits from \(from.prefix(10)) to \(to.prefix(10)):\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("~ swift-collections  1.0.4 → 1.1.0  (Package.resolved)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("+ swift-algorithms   1.2.0  (added, Package.resolved)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("- swift-log          1.5.3  (removed, Package.resolved)"), r.stdout)
        XCTAssertTrue(r.stdout.contains(".xcode-version: 15.4 → 16.0"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Package.swift swift-tools-version: 5.9 → 6.0"), r.stdout)
        XCTAssertTrue(r.stdout.contains(".github/workflows/ci.yml: added"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  Docs/ (1)\n    A Docs/notes.md"), r.stdout)

        let j = try CLI.run(["diff", "--from", from, "--to", to, "--format", "json"], environment: ScriptedRepo.environment, cwd: repo.root)
        XCTAssertEqual(j.status, 0, j.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any])
        let deps = try XCTUnwrap(doc["dependencies"] as? [[String: Any]])
        let collections = try XCTUnwrap(deps.first { $0["identity"] as? String == "swift-collections" })
        XCTAssertEqual(collections["change"] as? String, "changed")
        XCTAssertEqual((collections["old"] as? [String: Any])?["version"] as? String, "1.0.4")
        XCTAssertEqual((collections["new"] as? [String: Any])?["version"] as? String, "1.1.0")
        XCTAssertEqual((doc["commits"] as? [Any])?.count, 2)
    }

    func testMarkGoodThenDiffFromLastGood() throws {
        let (repo, from, _) = try makeRepo()
        let missing = try CLI.run(["diff"], environment: ScriptedRepo.environment, cwd: repo.root)
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "xcmedic: no last good revision recorded (refs/xcmedic/last-good does not exist); run 'xcmedic mark-good' on a green build, or fetch the one CI pushed: git fetch origin '+refs/xcmedic/last-good:refs/xcmedic/last-good'\n")

        let mark = try CLI.run(["mark-good", from], environment: ScriptedRepo.environment, cwd: repo.root)
        XCTAssertEqual(mark.status, 0, mark.stderr)
        XCTAssertEqual(mark.stdout, "refs/xcmedic/last-good → \(from.prefix(10)) App on Xcode 15.4\n")
        XCTAssertEqual(try repo.git("rev-parse", "refs/xcmedic/last-good"), from)

        let r = try CLI.run(["diff", "--from", "last-good"], environment: ScriptedRepo.environment, cwd: repo.root)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("swift-collections  1.0.4 → 1.1.0"), r.stdout)

        let bad = try CLI.run(["mark-good", "no-such-rev"], environment: ScriptedRepo.environment, cwd: repo.root)
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "xcmedic: 'no-such-rev' is not a commit in this repository\n")
    }
}
