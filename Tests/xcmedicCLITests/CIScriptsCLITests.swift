import Foundation
import XCTest
import XCMedicTestSupport

/// `xcmedic ci-scripts` and `xcmedic flags` run as a user runs them, and the scripts they write run by zsh.
final class CIScriptsCLITests: XCTestCase {
    static func tool(_ name: String) -> String? {
        ["/usr/local/bin", "/usr/bin", "/bin"].map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A copy of Examples/SampleApp in a temporary folder.
    func sampleCopy() throws -> URL {
        let dir = Scratch.url("xcmedic-cli")
        try FileManager.default.copyItem(at: CLI.repositoryRoot.appendingPathComponent("Examples/SampleApp"), to: dir)
        return dir
    }

    var resolvedPath: String { "SampleApp.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved" }

    /// Runs `script` with zsh, HOME in a temporary folder and original-awk as awk; returns the security folder.
    func runWithZsh(_ script: URL) throws -> URL {
        guard let zsh = Self.tool("zsh"), let awk = Self.tool("original-awk") else {
            throw XCTSkip("zsh or original-awk is not installed (apt-get install zsh original-awk); the generated script is not run")
        }
        let root = Scratch.url("xcmedic-run")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("bin/awk").path, withDestinationPath: awk)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: zsh)
        process.arguments = [script.path]
        process.currentDirectoryURL = script.deletingLastPathComponent()
        process.environment = ["HOME": root.appendingPathComponent("home").path, "PATH": root.appendingPathComponent("bin").path + ":/usr/bin:/bin"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, message)
        return root.appendingPathComponent("home/Library/org.swift.swiftpm/security")
    }

    func fingerprints(_ file: URL) throws -> [String: String] {
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: String]])
        return Dictionary(uniqueKeysWithValues: entries.map { ("\($0["packageIdentity"]!):\($0["targetName"]!)", $0["fingerprint"]!) })
    }

    func revisions(_ resolved: URL) throws -> [String: String] {
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: resolved)) as? [String: Any])
        let pins = try XCTUnwrap(root["pins"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: pins.map { ($0["identity"] as! String, ($0["state"] as! [String: Any])["revision"] as! String) })
    }

    /// Done-when: failing log naming two macros and one plugin → executable script → allow-lists with the pins'
    /// revisions; after the revisions change, the same script writes the new ones.
    func testFromLogWritesAScriptWhoseAllowListsFollowPackageResolved() throws {
        let project = try sampleCopy()
        let result = try CLI.run(["ci-scripts", "--from-log", "build.log"], cwd: project)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("wrote ci_scripts/ci_post_clone.sh (new, executable)"), result.stdout)
        let script = project.appendingPathComponent("ci_scripts/ci_post_clone.sh")
        let mode = (try FileManager.default.attributesOfItem(atPath: script.path)[.posixPermissions] as! NSNumber).intValue
        XCTAssertEqual(mode & 0o111, 0o111)

        let resolved = project.appendingPathComponent(resolvedPath)
        var pins = try revisions(resolved)
        var security = try runWithZsh(script)
        XCTAssertEqual(try fingerprints(security.appendingPathComponent("macros.json")),
                       ["swift-case-paths:CasePathsMacros": pins["swift-case-paths"]!, "swift-perception:PerceptionMacros": pins["swift-perception"]!])
        XCTAssertEqual(try fingerprints(security.appendingPathComponent("plugins.json")),
                       ["swiftlintplugins:SwiftLintBuildToolPlugin": pins["swiftlintplugins"]!])

        // A dependency update: new revisions in Package.resolved, nothing else touched.
        var text = try String(contentsOf: resolved, encoding: .utf8)
        for (identity, revision) in pins {
            let bumped = String(revision.reversed())
            text = text.replacingOccurrences(of: revision, with: bumped)
            pins[identity] = bumped
        }
        try Data(text.utf8).write(to: resolved)
        XCTAssertEqual(try revisions(resolved), pins)
        security = try runWithZsh(script)
        XCTAssertEqual(try fingerprints(security.appendingPathComponent("macros.json")),
                       ["swift-case-paths:CasePathsMacros": pins["swift-case-paths"]!, "swift-perception:PerceptionMacros": pins["swift-perception"]!])
        XCTAssertEqual(try fingerprints(security.appendingPathComponent("plugins.json")),
                       ["swiftlintplugins:SwiftLintBuildToolPlugin": pins["swiftlintplugins"]!])
    }

    /// Done-when: a hand-written ci_post_clone.sh survives byte for byte outside the block; a second run changes nothing.
    func testHandWrittenScriptSurvivesAndSecondRunChangesNothing() throws {
        let project = try sampleCopy()
        let script = project.appendingPathComponent("ci_scripts/ci_post_clone.sh")
        try FileManager.default.createDirectory(at: script.deletingLastPathComponent(), withIntermediateDirectories: true)
        let mine = "#!/bin/sh\n# my own steps\nset -e\necho \"$CI_WORKFLOW\" > workflow.txt\nbrew install xcodegen && xcodegen\n"
        try Data(mine.utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        let first = try CLI.run(["ci-scripts", "--macro", "swift-case-paths:CasePathsMacros"], cwd: project)
        XCTAssertEqual(first.status, 0, first.stderr)
        let after = try String(contentsOf: script, encoding: .utf8)
        let begin = try XCTUnwrap(after.range(of: "# >>> xcmedic >>>\n")), end = try XCTUnwrap(after.range(of: "# <<< xcmedic <<<\n"))
        XCTAssertEqual(String(after[..<begin.lowerBound]) + String(after[end.upperBound...]), mine)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: script.path)[.posixPermissions] as! NSNumber).intValue, 0o700)
        let second = try CLI.run(["ci-scripts", "--macro", "swift-case-paths:CasePathsMacros"], cwd: project)
        XCTAssertEqual(second.status, 0)
        XCTAssertTrue(second.stdout.contains("already up to date"), second.stdout)
        XCTAssertEqual(try String(contentsOf: script, encoding: .utf8), after)
    }

    /// Done-when: two --from-log runs with different failures leave both trusted; the Xcode 15 checkout-path
    /// wording needs no --macro; the summary says what was added, kept and removed.
    func testLogRunsAccumulateAndTheCheckoutPathNamesThePackage() throws {
        let project = try sampleCopy()
        try Data("error: Plugin \"SwiftLintBuildToolPlugin\" from package \"SwiftLintPlugins\" must be enabled before it can be used\n".utf8)
            .write(to: project.appendingPathComponent("plugin.log"))
        try Data("/Users/me/Library/Developer/Xcode/DerivedData/App-x/SourcePackages/checkouts/swift-case-paths/Package.swift:PACKAGE-TARGET:CasePathsMacros: error: Target 'CasePathsMacros' must be enabled before it can be used.\n".utf8)
            .write(to: project.appendingPathComponent("xcode15.log"))
        let first = try CLI.run(["ci-scripts", "--from-log", "plugin.log"], cwd: project)
        XCTAssertEqual(first.status, 0, first.stderr)
        let second = try CLI.run(["ci-scripts", "--from-log", "xcode15.log"], cwd: project)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("  added   macro  swift-case-paths:CasePathsMacros"), second.stdout)
        XCTAssertTrue(second.stdout.contains("  kept    plugin swiftlintplugins:SwiftLintBuildToolPlugin"), second.stdout)
        XCTAssertTrue(second.stdout.contains("1 added, 1 kept, 0 removed"), second.stdout)
        let script = try String(contentsOf: project.appendingPathComponent("ci_scripts/ci_post_clone.sh"), encoding: .utf8)
        XCTAssertTrue(script.contains("'swift-case-paths' 'CasePathsMacros'") && script.contains("'swiftlintplugins' 'SwiftLintBuildToolPlugin'"), script)
        let removed = try CLI.run(["ci-scripts", "--remove", "SwiftLintPlugins:SwiftLintBuildToolPlugin"], cwd: project)
        XCTAssertTrue(removed.stdout.contains("0 added, 1 kept, 1 removed"), removed.stdout)
        let lint = try CLI.run(["ci-scripts", "--lint"], cwd: project)
        XCTAssertTrue(lint.stdout.hasPrefix("Xcode Cloud runs ci_scripts/ (beside SampleApp.xcodeproj, Xcode project)\n"), lint.stdout)
    }

    func testDryRunPrintsTheChangeAndWritesNothing() throws {
        let project = try sampleCopy()
        let result = try CLI.run(["ci-scripts", "--dry-run", "--plugin", "swiftlintplugins:SwiftLintBuildToolPlugin"], cwd: project)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("--- /dev/null\n+++ ci_scripts/ci_post_clone.sh\n@@ -0,0 +1,"), result.stdout)
        XCTAssertTrue(result.stdout.contains("+  'swiftlintplugins' 'SwiftLintBuildToolPlugin'"), result.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: project.appendingPathComponent("ci_scripts").path))
    }

    func testSkipValidationSaysWhatItTradesAway() throws {
        let project = try sampleCopy()
        let result = try CLI.run(["ci-scripts", "--skip-validation"], cwd: project)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("This trades away Xcode's review"), result.stdout)
        let text = try String(contentsOf: project.appendingPathComponent("ci_scripts/ci_post_clone.sh"), encoding: .utf8)
        XCTAssertTrue(text.contains("IDESkipPackagePluginFingerprintValidatation -bool YES"))
        XCTAssertTrue(text.contains("What this trades away"))
    }

    /// Done-when: --lint finds each pitfall in a folder that has it (exit 1), and passes a clean one (exit 0).
    func testLintExitsOneWithEachProblemAndItsFix() throws {
        let project = try sampleCopy()
        let scripts = project.appendingPathComponent("ci_scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try Data("defaults write com.apple.dt.Xcode IDESkipPackagePluginFingerprintValidation -bool YES\n".utf8).write(to: scripts.appendingPathComponent("ci_post_clone.sh"))
        try Data("#!/bin/zsh\ndefaults write com.apple.dt.Xcode IDESkipMacroFingerprintValidation -bool YES\n".utf8).write(to: scripts.appendingPathComponent("ci_pre_xcodebuild.sh"))
        try Data(#"[{"fingerprint":"0000000000000000000000000000000000000000","packageIdentity":"swift-case-paths","targetName":"CasePathsMacros"}]"#.utf8)
            .write(to: scripts.appendingPathComponent("macros.json"))
        let result = try CLI.run(["ci-scripts", "--lint"], cwd: project)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        for expected in ["no shebang", "not executable", "Xcode ignores", "only here", "fingerprints no longer match", "fix: chmod +x", "fix: defaults write com.apple.dt.Xcode IDESkipPackagePluginFingerprintValidatation"] {
            XCTAssertTrue(result.stdout.contains(expected), "missing '\(expected)' in:\n\(result.stdout)")
        }

        let clean = try sampleCopy()
        XCTAssertEqual(try CLI.run(["ci-scripts", "--from-log", "build.log"], cwd: clean).status, 0)
        let lint = try CLI.run(["ci-scripts", "--lint"], cwd: clean)
        XCTAssertEqual(lint.status, 0, lint.stdout)
        XCTAssertTrue(lint.stdout.contains("no known pitfall"), lint.stdout)
    }

    func testFlagsInEachFormat() throws {
        XCTAssertEqual(try CLI.run(["flags"]).stdout, "-skipMacroValidation -skipPackagePluginValidation\n")
        XCTAssertEqual(try CLI.run(["flags", "--macros"]).stdout, "-skipMacroValidation\n")
        XCTAssertEqual(try CLI.run(["flags", "--plugins", "--format", "fastlane"]).stdout, "xcargs: \"-skipPackagePluginValidation\"\n")
        let json = try CLI.run(["flags", "--format", "json"])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["xcodebuildFlags"] as? [String], ["-skipMacroValidation", "-skipPackagePluginValidation"])
        XCTAssertEqual((object["defaults"] as? [[String: Any]])?.compactMap { $0["key"] as? String },
                       ["IDESkipMacroFingerprintValidation", "IDESkipPackagePluginFingerprintValidatation"])
        XCTAssertEqual(try CLI.run(["flags", "--format", "yaml"]).status, 2)
    }

    func testUsageAndInputErrorsAreOneLineAndExitTwo() throws {
        let project = try sampleCopy()
        let cases: [([String], String)] = [
            (["ci-scripts", "--macro", "CasePathsMacros"], "expected PACKAGE:TARGET"),
            (["ci-scripts", "--macro", "nope:X"], "package 'nope' (for macro 'X') is not pinned"),
            (["ci-scripts", "--from-log", "missing.log"], "missing.log: no such file"),
            (["ci-scripts"], "nothing to trust"),
            (["ci-scripts", "--skip-validation", "--macro", "swift-case-paths:CasePathsMacros"], "--skip-validation trusts every macro"),
            (["ci-scripts", "--project", "no/such/dir", "--skip-validation"], "no/such/dir: no such folder"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(arguments, cwd: project)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdout)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: project.appendingPathComponent("ci_scripts").path))
    }
}
