import Foundation
import XCTest
import XCMedicTestSupport
@testable import XCMedicKit

/// Lint and the generator on every layout teams use, and lint's checks of a script's text.
final class CIScriptsLayoutTests: XCTestCase {
    func tree(_ entries: [String: String]) throws -> URL {
        let root = Scratch.url("xcmedic-layout")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (path, text) in entries {
            let url = root.appendingPathComponent(path)
            if path.hasSuffix("/") { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true); continue }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            if path.hasSuffix(".sh") { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
        }
        return root
    }

    let good = "#!/bin/zsh\nset -euo pipefail\necho hi\n"

    func report(_ root: URL) throws -> CIScriptsLint.Report { try CIScriptsLint.report(projectDirectory: root.path) }
    func relative(_ path: String, _ root: URL) -> String { ProjectLocator.relative(path, to: root.resolvingSymlinksInPath().path) }

    func testXcodeGenTuistAndSwiftPMOnlyRepositoriesAreProjects() throws {
        for (marker, layout) in [("project.yml", "XcodeGen"), ("Project.swift", "Tuist"), ("Workspace.swift", "Tuist"), ("Package.swift", "Swift package")] {
            let root = try tree([marker: marker == "project.yml" ? "name: Anglesite\n" : "let project = Project(name: \"Anglesite\")\n", "ci_scripts/ci_post_clone.sh": good,
                                 "Tuist/Package.swift": "// Tuist's dependencies, not the app\n"])
            let report = try report(root)
            XCTAssertEqual(report.problems, [], marker)
            XCTAssertEqual(relative(report.activeFolder, root), "ci_scripts", marker)
            XCTAssertTrue(report.project.layout.hasPrefix(layout), "\(marker): \(report.project.layout)")
        }
        // The generated project's Package.resolved is where the generator looks.
        let root = try tree(["project.yml": "name: Anglesite\n"])
        XCTAssertThrowsError(try CIScripts.plan(CIScriptsRequest(projectDirectory: root.path, targets: CIScriptsRunTests.targets, command: "x"))) {
            XCTAssertTrue("\($0)".contains("Anglesite.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved"), "\($0)")
        }
    }

    /// The case: a root workspace and a nested .xcodeproj; lint and the generator pick the same project,
    /// and a ci_scripts folder beside the nested project is dead.
    func testRootWorkspaceWithNestedProjectAgreeAndTheNestedFolderIsDead() throws {
        let root = try tree(["App.xcworkspace/contents.xcworkspacedata": "", "ios/App.xcodeproj/project.pbxproj": "",
                             "ci_scripts/ci_post_clone.sh": good, "ios/ci_scripts/ci_post_clone.sh": good])
        let report = try report(root)
        XCTAssertEqual(try ProjectLocator.locate(in: root.path).directory, report.project.directory)
        XCTAssertEqual(relative(report.activeFolder, root), "ci_scripts")
        XCTAssertEqual(report.problems.map(\.kind), [.wrongFolder])
        XCTAssertEqual(report.problems.first?.path.hasSuffix("ios/ci_scripts"), true)
        XCTAssertTrue(report.problems[0].problem.hasPrefix("dead:"), report.problems[0].problem)
        // The generator says that the other folder's steps are left behind.
        try Data(ResolvedFixture.text(format: 3, [CIScriptsRunTests.casePaths]).utf8)
            .write(to: root.appendingPathComponent("App.xcworkspace/xcshareddata/swiftpm/Package.resolved", isDirectory: false).creatingParent())
        let plan = try CIScripts.plan(CIScriptsRequest(projectDirectory: root.path, targets: [CIScriptsRunTests.targets[0]], command: "x"))
        XCTAssertTrue(plan.notes.contains { $0.contains("ios/ci_scripts with ci_post_clone.sh exists too, but Xcode Cloud runs only") }, "\(plan.notes)")
    }

    func testFlutterAndReactNativeUseTheirIOSFolder() throws {
        for marker in ["pubspec.yaml", "package.json"] {
            let root = try tree([marker: "{}\n", "ios/Runner.xcworkspace/contents.xcworkspacedata": "", "ios/Runner.xcodeproj/project.pbxproj": "",
                                 "macos/Runner.xcodeproj/project.pbxproj": "", "ios/ci_scripts/ci_post_clone.sh": good,
                                 "packages/plugin/example/ios/Runner.xcodeproj/project.pbxproj": ""])
            let report = try report(root)
            XCTAssertEqual(report.problems, [], marker)
            XCTAssertEqual(relative(report.activeFolder, root), "ios/ci_scripts", marker)
            XCTAssertEqual(try ProjectLocator.locate(in: root.path).directory, report.project.directory, marker)
            XCTAssertNotNil(report.project.choice, marker)
        }
        // Without the framework's marker two apps are a real ambiguity: the generator asks; lint takes the one with ci_scripts.
        let root = try tree(["ios/Runner.xcodeproj/project.pbxproj": "", "macos/Runner.xcodeproj/project.pbxproj": "", "macos/ci_scripts/ci_post_clone.sh": good])
        XCTAssertThrowsError(try ProjectLocator.locate(in: root.path)) { XCTAssertTrue("\($0)".contains("several projects below (ios, macos)"), "\($0)") }
        XCTAssertEqual(relative(try report(root).activeFolder, root), "macos/ci_scripts")
    }

    func testAppProjectWinsOverItsLocalPackagesAtAnyDepth() throws {
        let root = try tree(["apps/mobile/client/App.xcodeproj/project.pbxproj": "", "apps/mobile/client/ci_scripts/ci_post_clone.sh": good,
                             "Packages/Core/Package.swift": "// local package\n"])
        let report = try report(root)
        XCTAssertEqual(relative(report.activeFolder, root), "apps/mobile/client/ci_scripts")
        XCTAssertEqual(report.problems, [])
    }

    func testCIScriptsThatIsAFileIsReported() throws {
        let root = try tree(["App.xcodeproj/project.pbxproj": "", "ci_scripts": "not a folder\n"])
        XCTAssertEqual(try report(root).problems.map(\.kind), [.notAFolder])
    }

    // MARK: the script's text

    func kinds(_ text: String, name: String = "ci_post_clone.sh") -> [LintProblem.Kind] {
        CIScriptsLint.scriptProblems(Array(text.utf8), name: name, path: name).map(\.kind)
    }

    func testWrongDefaultsDomainAndBoolNo() {
        XCTAssertEqual(kinds("#!/bin/sh\ndefaults write com.apple.Xcode IDESkipMacroFingerprintValidation -bool YES\n"), [.wrongDefaultsDomain])
        XCTAssertEqual(kinds("#!/bin/sh\ndefaults write com.apple.dt.Xcode IDESkipMacroFingerprintValidation -bool NO\n"), [.skipKeyOff])
        XCTAssertEqual(kinds("#!/bin/sh\ndefaults write \"com.apple.dt.Xcode\" IDESkipPackagePluginFingerprintValidatation -bool false\n"), [.skipKeyOff])
        let fix = CIScriptsLint.scriptProblems(Array("#!/bin/sh\ndefaults write com.apple.Xcode IDESkipPackagePluginFingerprintValidatation -bool NO\n".utf8), name: "ci_post_clone.sh", path: "p")
        XCTAssertEqual(fix.map(\.kind), [.wrongDefaultsDomain, .skipKeyOff])
        XCTAssertEqual(fix[0].fix, "defaults write com.apple.dt.Xcode IDESkipPackagePluginFingerprintValidatation -bool YES")
        // Switching validation back on after the build is deliberate.
        XCTAssertEqual(kinds("#!/bin/sh\ndefaults write com.apple.dt.Xcode IDESkipMacroFingerprintValidation -bool NO\n", name: "ci_post_xcodebuild.sh"), [])
        XCTAssertEqual(kinds("#!/bin/sh\n# defaults write com.apple.Xcode IDESkipMacroFingerprintValidation -bool NO\necho done\n"), [])
    }

    func testShebangForAShellMacOSLacks() {
        XCTAssertEqual(kinds("#!/usr/bin/bash\nset -e\necho hi\n"), [.missingShell])
        XCTAssertEqual(kinds("#!/usr/bin/env fish\necho hi\n"), [.missingShell])
        XCTAssertEqual(kinds("#!/usr/bin/python\nprint('hi')\n"), [.missingShell])
        // macOS has shipped /bin/dash since Catalina, so it is no problem; nor are the stock shells and env.
        for shebang in ["#!/bin/dash", "#!/bin/sh", "#!/bin/bash", "#!/bin/zsh", "#!/usr/bin/env bash", "#!/usr/bin/env zsh", "#!/bin/sh -e", "#!/usr/bin/env python3"] {
            XCTAssertEqual(kinds("\(shebang)\necho hi\n"), [], shebang)
        }
    }

    func testSlashCommentLinesButNotInsideStringsOrHereDocuments() {
        XCTAssertEqual(kinds("#!/bin/zsh\nset -e\n// install the tools\nbrew install swiftgen\n"), [.slashComment])
        XCTAssertEqual(kinds("#!/bin/zsh\nset -e\n  // indented too\necho hi\n"), [.slashComment])
        XCTAssertEqual(kinds("#!/bin/zsh\nset -e\ncat > Secrets.swift <<EOF\n// generated\nlet key = \"$KEY\"\nEOF\necho done\n"), [])
        XCTAssertEqual(kinds("#!/bin/zsh\nset -e\ncat > Secrets.swift <<-'SWIFT'\n\t// generated\n\tSWIFT\necho done\n"), [])
        XCTAssertEqual(kinds("#!/bin/zsh\nset -e\necho \"first line\n// not a comment, still the string\"\n"), [])
        XCTAssertEqual(kinds("#!/bin/zsh\nset -e\n# \"//\" starts a comment in an xcconfig\nsed 's|//|/$()/|' a > b\n"), [])
    }

    func testNoSetEWhoseFailingStepIsIgnored() {
        XCTAssertEqual(kinds("#!/bin/sh\nbrew install cocoapods\npod install\n"), [.failureIgnored])
        XCTAssertEqual(kinds("#!/bin/sh\nbrew install cocoapods\npod install\nexit 0\n"), [.failureIgnored])
        // Not when errexit is on, however it is spelled, or when nothing before the last step can fail.
        for strict in ["set -e", "set -eu", "set -euo pipefail", " set -ex", "set -o errexit", "setopt ERR_EXIT"] {
            XCTAssertEqual(kinds("#!/bin/zsh\n\(strict)\nbrew install cocoapods\npod install\n"), [], strict)
        }
        XCTAssertEqual(kinds("#!/bin/sh -e\nbrew install cocoapods\npod install\n"), [])
        XCTAssertEqual(kinds("#!/bin/sh\necho start\nexport X=1\nDIR=$(pwd)\npod install\n"), [])
        XCTAssertEqual(kinds("#!/bin/sh\nbrew install cocoapods || exit 1\npod install\n"), [])
        XCTAssertEqual(kinds("#!/bin/sh\nif [ -n \"$X\" ]; then\n  brew install x\n  pod install\nfi\necho done\n"), [])
    }
}

extension URL {
    /// This URL, after creating its parent folder.
    func creatingParent() throws -> URL {
        try FileManager.default.createDirectory(at: deletingLastPathComponent(), withIntermediateDirectories: true)
        return self
    }
}
