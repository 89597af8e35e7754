import Foundation
import XCTest
@testable import XCMedicKit

/// `--lint` finds each pitfall in a real git repository that has it, and nothing in one that has none.
final class CIScriptsLintTests: XCTestCase {
    var repo: URL!
    var project: SampleProject!

    override func setUpWithError() throws {
        try ShellSandbox.require("git")
        project = try SampleProject(resolved: ResolvedFixture.text(format: 3, [CIScriptsRunTests.casePaths, CIScriptsRunTests.lint]))
        repo = project.directory
        try git("init", "-q")
        try git("config", "user.email", "t@example.com")
        try git("config", "user.name", "t")
    }

    @discardableResult
    func git(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", repo.path] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw CIScriptsError("git \(arguments.joined(separator: " ")): \(text)") }
        return text
    }

    func write(_ relative: String, _ text: String, mode: Int = 0o755) throws {
        let url = repo.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
    }

    func commitAll() throws {
        try git("add", "-A")
        try git("commit", "-qm", "x")
    }

    func kinds() throws -> [LintProblem.Kind] {
        try CIScriptsLint.run(projectDirectory: repo.path).map(\.kind)
    }

    let good = "#!/bin/zsh\nset -euo pipefail\ndefaults write com.apple.dt.Xcode IDESkipMacroFingerprintValidation -bool YES\n"

    func testCleanGeneratedFolderHasNoProblem() throws {
        try project.generate([TrustTarget(kind: .macro, package: "swift-case-paths", target: "CasePathsMacros")])
        try write("Sources/CIScripts/Generator.swift", "struct Generator {}\n", mode: 0o644) // a near name that is not a ci_scripts folder
        try commitAll()
        XCTAssertEqual(try CIScriptsLint.run(projectDirectory: repo.path), [])
    }

    func testWrongFolder() throws {
        // The project moves into a sub-folder; ci_scripts stays at the root, where Xcode Cloud does not look.
        try FileManager.default.createDirectory(at: repo.appendingPathComponent("iOS"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: repo.appendingPathComponent("App.xcodeproj"), to: repo.appendingPathComponent("iOS/App.xcodeproj"))
        try write("ci_scripts/ci_post_clone.sh", good)
        try commitAll()
        let problems = try CIScriptsLint.run(projectDirectory: repo.appendingPathComponent("iOS").path)
        XCTAssertEqual(problems.map(\.kind), [.wrongFolder])
        XCTAssertTrue(problems[0].fix.contains("git mv"), problems[0].fix)
        XCTAssertTrue(problems[0].fix.contains("iOS/ci_scripts"), problems[0].fix)
    }

    func testMisnamedFolderAndScript() throws {
        try write("ci-scripts/ci_post_clone.sh", good)
        try write("ci_scripts/ci-post-clone.sh", good)
        try commitAll()
        XCTAssertEqual(Set(try kinds()), [.wrongFolder, .misnamedScript])
    }

    func testNotExecutableInFileMode() throws {
        try write("ci_scripts/ci_post_clone.sh", good, mode: 0o644)
        try git("add", "--chmod=+x", "ci_scripts/ci_post_clone.sh")
        try git("commit", "-qm", "x")
        XCTAssertEqual(try kinds(), [.notExecutable])
    }

    func testNotExecutableInGitsIndex() throws {
        try write("ci_scripts/ci_post_clone.sh", good)
        try commitAll()
        try git("update-index", "--chmod=-x", "ci_scripts/ci_post_clone.sh")
        XCTAssertTrue(try git("ls-files", "-s", "ci_scripts/ci_post_clone.sh").hasPrefix("100644"))
        let problems = try CIScriptsLint.run(projectDirectory: repo.path)
        XCTAssertEqual(problems.map(\.kind), [.notExecutableInGit])
        XCTAssertTrue(problems[0].fix.contains("git update-index --chmod=+x"), problems[0].fix)
    }

    func testNotCommitted() throws {
        try write("ci_scripts/ci_post_clone.sh", good)
        XCTAssertEqual(try kinds(), [.notCommitted])
    }

    func testNoShebang() throws {
        try write("ci_scripts/ci_post_clone.sh", "set -e\n" + good.dropFirst("#!/bin/zsh\n".count))
        try commitAll()
        XCTAssertEqual(try kinds(), [.noShebang])
    }

    func testMisspelledAndIgnoredDefaultsKeys() throws {
        try write("ci_scripts/ci_post_clone.sh", """
            #!/bin/zsh
            defaults write com.apple.dt.Xcode IDESkipPackagePluginFingerprintValidation -bool YES
            defaults write com.apple.dt.Xcode IDESkipMacroFingerprintValidaton -bool YES

            """)
        try commitAll()
        let problems = try CIScriptsLint.run(projectDirectory: repo.path)
        XCTAssertEqual(problems.map(\.kind), [.ignoredDefaultsKey, .ignoredDefaultsKey])
        XCTAssertTrue(problems[0].fix.contains("IDESkipPackagePluginFingerprintValidatation"), problems[0].fix)
        XCTAssertTrue(problems[1].fix.contains("IDESkipMacroFingerprintValidation -bool YES"), problems[1].fix)
    }

    func testBothPluginSpellingsTogetherAreFine() throws {
        try write("ci_scripts/ci_post_clone.sh", "#!/bin/zsh\ndefaults write com.apple.dt.Xcode IDESkipPackagePluginFingerprintValidatation -bool YES\ndefaults write com.apple.dt.Xcode IDESkipPackagePluginFingerprintValidation -bool YES\n")
        try commitAll()
        XCTAssertEqual(try kinds(), [])
    }

    func testDefaultsOnlyInPreXcodebuild() throws {
        try write("ci_scripts/ci_post_clone.sh", "#!/bin/zsh\nbrew install swiftgen\n")
        try write("ci_scripts/ci_pre_xcodebuild.sh", good)
        try commitAll()
        let problems = try CIScriptsLint.run(projectDirectory: repo.path)
        XCTAssertEqual(problems.map(\.kind), [.trustSetTooLate])
        XCTAssertTrue(problems[0].path.hasSuffix("ci_pre_xcodebuild.sh"))
    }

    func testCommittedAllowListWithStaleFingerprints() throws {
        try write("ci_scripts/ci_post_clone.sh", "#!/bin/zsh\nmkdir -p ~/Library/org.swift.swiftpm/security\ncp macros.json ~/Library/org.swift.swiftpm/security/\n")
        // Copied from a Mac before swift-case-paths was updated: its fingerprint is the old revision.
        try write("ci_scripts/macros.json", ResolvedFixture.allowList([("9810c8d6c2914de251e072312f01d3bf80071852", "swift-case-paths", "CasePathsMacros")]), mode: 0o644)
        try write("ci_scripts/plugins.json", ResolvedFixture.allowList([(CIScriptsRunTests.lint.revision!, "swiftlintplugins", "SwiftLintBuildToolPlugin")]), mode: 0o644)
        try commitAll()
        let problems = try CIScriptsLint.run(projectDirectory: repo.path)
        XCTAssertEqual(problems.map(\.kind), [.staleAllowList], "\(problems)")
        XCTAssertTrue(problems[0].path.hasSuffix("macros.json"))
        XCTAssertTrue(problems[0].problem.contains("trusts 9810c8d6c291 but 1.7.2 is pinned at 698997626"), problems[0].problem)
        XCTAssertTrue(problems[0].fix.contains("xcmedic ci-scripts --macro 'swift-case-paths:CasePathsMacros'"), problems[0].fix)
    }
}
