import Foundation
import XCTest
import XCMedicTestSupport
@testable import XCMedicKit

/// ChangeSummary on a real repository: v1 and v2 Package.resolved files, renames, toolchain files.
final class DiffChangeSummaryTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = Scratch.url("xcmedic-diff")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try sh("git init -q -b main && git config core.excludesFile /dev/null")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    @discardableResult
    func sh(_ script: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        p.currentDirectoryURL = root
        var env = ProcessInfo.processInfo.environment
        for k in ["GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"] { env[k] = "Dana Tester" }
        for k in ["GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"] { env[k] = "dana@example.com" }
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, script)
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func testXcodeWorkspaceV1ResolvedBranchPinAndRename() throws {
        let v1 = """
        {"object": {"pins": [
          {"package": "Alamofire", "repositoryURL": "https://github.com/Alamofire/Alamofire.git",
           "state": {"branch": null, "revision": "f96b619bcb2383b43d898402283924b80e2c4bae", "version": "5.4.3"}},
          {"package": "Kingfisher", "repositoryURL": "https://github.com/onevcat/Kingfisher.git",
           "state": {"branch": "master", "revision": "1111111111111111111111111111111111111111", "version": null}}
        ]}, "version": 1}
        """
        let resolvedPath = "App.xcworkspace/xcshareddata/swiftpm/Package.resolved"
        try write(resolvedPath, v1)
        try write("Sources/Old.swift", "struct Old { let a = 1; let b = 2; let c = 3 }\n")
        try write("ci_scripts/ci_post_clone.sh", "#!/bin/sh\n")
        try sh("git add -A && git commit -qm one")
        let from = try sh("git rev-parse HEAD")
        try write(resolvedPath, v1.replacingOccurrences(of: "5.4.3", with: "5.8.1")
            .replacingOccurrences(of: "1111111111111111111111111111111111111111", with: "2222222222222222222222222222222222222222"))
        try sh("git mv Sources/Old.swift Sources/New.swift && git rm -q ci_scripts/ci_post_clone.sh")
        try write(".tool-versions", "tuist 4.1.0\n")
        try sh("git add -A && git commit -qm two")
        let git = Git(directory: root.path)
        let summary = try ChangeSummary.between(from, and: "HEAD", git: git)

        XCTAssertEqual(summary.commits.map(\.subject), ["two"])
        let byID = Dictionary(uniqueKeysWithValues: summary.dependencies.map { ($0.identity, $0) })
        XCTAssertEqual(byID["alamofire"]?.old?.description, "5.4.3")
        XCTAssertEqual(byID["alamofire"]?.new?.description, "5.8.1")
        XCTAssertEqual(byID["kingfisher"]?.old?.description, "master@111111111111")
        XCTAssertEqual(byID["kingfisher"]?.new?.description, "master@222222222222")
        XCTAssertEqual(byID["kingfisher"]?.file, resolvedPath)
        let files = summary.areas.flatMap(\.files)
        XCTAssertTrue(files.contains(ChangeSummary.FileChange(status: "renamed", path: "Sources/New.swift", oldPath: "Sources/Old.swift")), "\(files)")
        XCTAssertEqual(summary.toolchain.map { "\($0.path) \($0.status) \($0.old ?? "-") \($0.new ?? "-")" }.sorted(),
                       [".tool-versions added - tuist 4.1.0", "ci_scripts/ci_post_clone.sh deleted - -"])
    }

    func testToolsVersionLine() {
        XCTAssertEqual(ChangeSummary.toolsVersion("// swift-tools-version:5.9\nimport PackageDescription"), "5.9")
        XCTAssertEqual(ChangeSummary.toolsVersion("// swift-tools-version: 6.0\n"), "6.0")
        XCTAssertEqual(ChangeSummary.toolsVersion("// swift-tools-version:5.7; (experimentalFeature)\n"), "5.7")
        XCTAssertNil(ChangeSummary.toolsVersion("import PackageDescription\n"))
        XCTAssertEqual(ChangeSummary.toolchainKind("Package@swift-5.9.swift"), "swift-tools-version")
        XCTAssertEqual(ChangeSummary.toolchainKind(".github/workflows/ci.yml"), "github-workflow")
        XCTAssertEqual(ChangeSummary.toolchainKind("ios/Podfile.lock"), "podfile-lock")
        XCTAssertNil(ChangeSummary.toolchainKind("Sources/App/App.swift"))
    }

    /// `.package(...)` in every spelling SwiftPM accepts, comments and strings with `//` or `)` in them.
    func testSwiftManifestDependencies() {
        let text = #"""
        // swift-tools-version:5.9
        import PackageDescription
        /* .package(url: "https://example.com/block-commented.git", from: "9.0.0"), */
        let package = Package(
            name: "App", // the app
            platforms: [.iOS("15.4"), .macOS(.v10_15), .watchOS(.v8)],
            dependencies: [
                .package(url: "https://github.com/apple/swift-nio.git", .upToNextMinor(from: "2.60.0")),
                .package(name: "Old", url: "git@github.com:me/old-thing.git", .exact("1.0.0")),
                .package(url: "https://github.com/me/branchy", branch: "main"),
                .package(url: "https://github.com/me/pinned.git", revision: "abc123"),
                .package(path: "../LocalKit"),
                .package(id: "mona.LinkedList", from: "1.0.0"),
                .package(url: "https://github.com/me/paren(s).git", "1.0.0"..."1.4.0"),
            ]
        )
        """#
        let m = SwiftManifest(text)
        XCTAssertEqual(m.dependencies.mapValues { $0.0 }, [
            "swift-nio": ".upToNextMinor(from: \"2.60.0\")",
            "old-thing": ".exact(\"1.0.0\")",
            "branchy": "branch: \"main\"",
            "pinned": "revision: \"abc123\"",
            "localkit": "local path",
            "mona.linkedlist": "from: \"1.0.0\"",
            "paren(s)": "\"1.0.0\"...\"1.4.0\"",
        ])
        XCTAssertEqual(m.dependencies["localkit"]?.1, "../LocalKit")
        XCTAssertEqual(m.platforms, "iOS 15.4, macOS 10.15, watchOS 8")
    }
}
