import Foundation
import XCTest
import XCMedicTestSupport

/// `xcmedic ci-scripts --post-xcodebuild` as a user runs it.
final class PostXcodebuildCLITests: XCTestCase {
    func testWritesAnExecutableScriptOnceAndRefusesTrustOptions() throws {
        let project = Scratch.url("post-cli")
        defer { try? FileManager.default.removeItem(at: project) }
        try FileManager.default.createDirectory(at: project.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
        try Data().write(to: project.appendingPathComponent("App.xcodeproj/project.pbxproj"))

        let dry = try CLI.run(["ci-scripts", "--post-xcodebuild", "--dry-run"], cwd: project)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.contains("+++ ci_scripts/ci_post_xcodebuild.sh"), dry.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: project.appendingPathComponent("ci_scripts").path))

        let first = try CLI.run(["ci-scripts", "--post-xcodebuild"], cwd: project)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("wrote ci_scripts/ci_post_xcodebuild.sh (new, executable)"), first.stdout)
        XCTAssertTrue(first.stderr.contains("xcmedic must be installed on Xcode Cloud"), first.stderr)
        let script = project.appendingPathComponent("ci_scripts/ci_post_xcodebuild.sh").path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: script))
        XCTAssertFalse(FileManager.default.fileExists(atPath: project.appendingPathComponent("ci_scripts/ci_post_clone.sh").path))

        let again = try CLI.run(["ci-scripts", "--post-xcodebuild"], cwd: project)
        XCTAssertEqual(again.stdout, "ci_scripts/ci_post_xcodebuild.sh: already up to date\n")

        let mixed = try CLI.run(["ci-scripts", "--post-xcodebuild", "--macro", "swift-case-paths:CasePathsMacros"], cwd: project)
        XCTAssertEqual(mixed.status, 2)
        XCTAssertTrue(mixed.stderr.contains("--post-xcodebuild writes only ci_post_xcodebuild.sh"), mixed.stderr)
    }
}
