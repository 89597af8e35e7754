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

    /// Manifests and CI files read as the build reads them: a package dependency added with its
    /// requirement, one changed, platforms, a renamed versioned manifest, Podfile, Podfile.lock,
    /// Cartfile.resolved, the runner image and the Xcode a workflow selects.
    func testManifestsAndCIFilesAreRead() throws {
        let repo = try ScriptedRepo()
        func manifest(_ deps: String, platforms: String) -> String {
            "// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n    name: \"App\",\n    platforms: [\(platforms)],\n    dependencies: [\n\(deps)    ],\n    targets: [.target(name: \"App\")]\n)\n"
        }
        let parser = "        .package(url: \"https://github.com/apple/swift-argument-parser.git\", from: \"1.2.0\"),\n"
        try repo.write("Package.swift", manifest(parser + "        // .package(url: \"https://github.com/old/commented.git\", from: \"1.0.0\"),\n", platforms: ".iOS(.v15), .macOS(.v12)"))
        try repo.write("Package@swift-5.6.swift", "// swift-tools-version:5.6\nimport PackageDescription\n\nlet package = Package(\n    name: \"App\",\n    dependencies: [\n" + parser + "    ],\n    targets: [.target(name: \"App\")]\n)\n")
        try repo.write("Podfile", "platform :ios, '14.0'\ntarget 'App' do\n  pod 'Alamofire', '~> 5.6'\nend\n")
        try repo.write("Podfile.lock", "PODS:\n  - Alamofire (5.6.4)\n\nDEPENDENCIES:\n  - Alamofire (~> 5.6)\n\nCOCOAPODS: 1.12.1\n")
        try repo.write("Cartfile.resolved", "github \"ReactiveX/RxSwift\" \"6.5.0\"\n")
        try repo.write(".github/workflows/ci.yml", "jobs:\n  build:\n    runs-on: macos-13\n    steps:\n      - run: sudo xcode-select -s /Applications/Xcode_15.2.app\n")
        let from = try repo.commit("Before")
        try repo.write("Package.swift", manifest(parser.replacingOccurrences(of: "1.2.0", with: "1.3.0")
            + "        .package(url: \"https://github.com/apple/swift-collections.git\", \"1.0.0\"..<\"2.0.0\"),\n", platforms: ".iOS(.v16), .macOS(.v12)"))
        try repo.git("mv", "Package@swift-5.6.swift", "Package@swift-5.8.swift")
        try repo.write("Package@swift-5.8.swift", (try repo.read("Package@swift-5.8.swift")).replacingOccurrences(of: "5.6", with: "5.8"))
        try repo.write("Podfile", "platform :ios, '15.0'\ntarget 'App' do\n  pod 'Alamofire', '~> 5.8'\n  pod 'SnapKit'\nend\n")
        try repo.write("Podfile.lock", "PODS:\n  - Alamofire (5.8.1)\n  - SnapKit (5.7.1)\n\nDEPENDENCIES:\n  - Alamofire (~> 5.8)\n\nCOCOAPODS: 1.15.2\n")
        try repo.write("Cartfile.resolved", "github \"ReactiveX/RxSwift\" \"6.6.0\"\n")
        try repo.write(".github/workflows/ci.yml", "jobs:\n  build:\n    runs-on: macos-14\n    steps:\n      - uses: maxim-lobanov/setup-xcode@v1\n        with:\n          xcode-version: '16.1'\n")
        let to = try repo.commit("After")
        let r = try CLI.run(["diff", "--from", from, "--to", to], environment: ScriptedRepo.environment, cwd: repo.root)
        XCTAssertEqual(r.status, 0, r.stderr)
        let expected = [
            "  .github/workflows/ci.yml: ~ runner macos-13 → macos-14",
            "  .github/workflows/ci.yml: ~ Xcode 15.2 → 16.1",
            "  Cartfile.resolved: ~ ReactiveX/RxSwift 6.5.0 → 6.6.0",
            "  Package.swift: ~ swift-argument-parser from: \"1.2.0\" → from: \"1.3.0\"  (https://github.com/apple/swift-argument-parser.git)",
            "  Package.swift: + swift-collections \"1.0.0\"..<\"2.0.0\"  (https://github.com/apple/swift-collections.git)",
            "  Package.swift: ~ platforms iOS 15, macOS 12 → iOS 16, macOS 12",
            "  Podfile: ~ Alamofire '~> 5.6' → '~> 5.8'",
            "  Podfile: + SnapKit any version",
            "  Podfile: ~ platform ios 14.0 → ios 15.0",
            "  Podfile.lock: ~ Alamofire 5.6.4 → 5.8.1",
            "  Podfile.lock: ~ COCOAPODS 1.12.1 → 1.15.2",
            "  Podfile.lock: + SnapKit 5.7.1",
        ]
        let section = r.stdout.components(separatedBy: "Manifests and CI files:\n").last?.components(separatedBy: "\n\n").first ?? ""
        XCTAssertEqual(section.split(separator: "\n").map(String.init), expected, r.stdout)
        XCTAssertFalse(r.stdout.contains("commented"), r.stdout)
        XCTAssertTrue(r.stdout.contains("    R Package@swift-5.6.swift → Package@swift-5.8.swift\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  Package@swift-5.6.swift → Package@swift-5.8.swift swift-tools-version: 5.6 → 5.8\n"), r.stdout)

        let j = try CLI.run(["diff", "--from", from, "--to", to, "--format", "json"], environment: ScriptedRepo.environment, cwd: repo.root)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any])
        let manifests = try XCTUnwrap(doc["manifests"] as? [[String: Any]])
        let added = try XCTUnwrap(manifests.first { $0["name"] as? String == "swift-collections" })
        XCTAssertEqual(added["kind"] as? String, "package-dependency")
        XCTAssertEqual(added["change"] as? String, "added")
        XCTAssertEqual(added["new"] as? String, "\"1.0.0\"..<\"2.0.0\"")
        XCTAssertEqual(added["location"] as? String, "https://github.com/apple/swift-collections.git")
    }
}
