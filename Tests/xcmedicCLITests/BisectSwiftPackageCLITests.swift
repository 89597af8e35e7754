import Foundation
import XCTest

/// End to end: a real Swift package whose history brings in a real Swift 6 data-race error, bisected
/// with the real `swift build` as the command.
final class BisectSwiftPackageCLITests: XCTestCase {
    func testBisectFindsTheCommitThatAddedTheDataRace() throws {
        guard let swift = ChildProcessLookup.find("swift") else {
            throw XCTSkip("swift is not on PATH: the end-to-end bisect with a real swift build needs it")
        }
        let repo = try ScriptedRepo("Meter")
        try repo.write(".gitignore", ".build/\n")
        try repo.write("Package.swift", """
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(
            name: "Meter",
            targets: [.target(name: "Meter")]
        )

        """)
        try repo.write("Sources/Meter/Meter.swift", "public struct Meter {\n    public init() {}\n}\n")
        let first = try repo.commit("Meter package")
        var culprit = ""
        let steps: [(String, String, String)] = [
            ("Sources/Meter/Reading.swift", "public struct Reading: Sendable {\n    public var value: Double\n    public init(value: Double) { self.value = value }\n}\n", "Add readings"),
            ("Sources/Meter/Units.swift", "public enum Unit: String, Sendable { case watt, kilowatt }\n", "Add units"),
            ("Sources/Meter/Launches.swift", "public func recordLaunch() {\n    launchCount += 1\n}\n\nvar launchCount = 0\n", "Count launches in a global"),
            ("Sources/Meter/Format.swift", "public func format(_ r: Reading) -> String { \"\\(r.value) W\" }\n", "Format readings"),
            ("Sources/Meter/Average.swift", "public func average(_ rs: [Reading]) -> Double {\n    rs.isEmpty ? 0 : rs.map(\\.value).reduce(0, +) / Double(rs.count)\n}\n", "Average readings"),
            ("Sources/Meter/Peak.swift", "public func peak(_ rs: [Reading]) -> Double? { rs.map(\\.value).max() }\n", "Peak reading"),
            ("Sources/Meter/Total.swift", "public func total(_ rs: [Reading]) -> Double { rs.map(\\.value).reduce(0, +) }\n", "Total of readings"),
        ]
        for (path, text, message) in steps {
            try repo.write(path, text)
            let hash = try repo.commit(message)
            if message.hasPrefix("Count launches") { culprit = hash }
        }
        // One scratch folder for every step, outside the repository: each build is incremental.
        let scratch = repo.root.deletingLastPathComponent().appendingPathComponent("scratch").path
        var env = ScriptedRepo.environment
        env.removeValue(forKey: "XCTestConfigurationFilePath")
        let r = try CLI.run(["bisect", "--no-config", "--good", first, "--timeout", "600", "--format", "json", "--", swift, "build", "--scratch-path", scratch],
                            environment: env, cwd: repo.root)
        XCTAssertEqual(r.status, 0, r.stderr + r.stdout)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stderr)
        XCTAssertEqual((doc["culprit"] as? [String: Any])?["hash"] as? String, culprit, r.stdout)
        let failure = try XCTUnwrap((doc["failure"] as? [[String: Any]])?.first, r.stdout)
        XCTAssertTrue((failure["message"] as? String ?? "").contains("'launchCount' is global mutable state"), "\(failure)")
        XCTAssertEqual(failure["file"] as? String, repo.root.appendingPathComponent("Sources/Meter/Launches.swift").path)
        XCTAssertEqual(doc["skips"] as? Int, 0)
        XCTAssertLessThanOrEqual(doc["stepCount"] as? Int ?? 99, 4)
        XCTAssertEqual(try repo.git("symbolic-ref", "--short", "HEAD"), "main")
        XCTAssertEqual(try repo.git("status", "--porcelain"), "")
    }
}

enum ChildProcessLookup {
    static func find(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
