import Foundation
import XCTest
@testable import XCMedicKit

/// Generated ci_post_clone.sh scripts run by real zsh and bash, with original-awk as awk and HOME in a
/// temporary folder; the allow-lists they write are compared byte for byte.
final class CIScriptsRunTests: XCTestCase {
    static let casePaths = ResolvedFixture.Pin(identity: "swift-case-paths", url: "https://github.com/pointfreeco/swift-case-paths",
                                               revision: "6989976265be3f8d2b5802c722f9ba168e227c71", version: "1.7.2")
    static let perception = ResolvedFixture.Pin(identity: "swift-perception", url: "https://github.com/pointfreeco/swift-perception.git",
                                                revision: "4f47ebafed5f0b0172cf5c661454fa8e28fb2ac4", version: "2.0.9")
    static let lint = ResolvedFixture.Pin(identity: "swiftlintplugins", url: "https://github.com/SimplyDanny/SwiftLintPlugins",
                                          revision: "6c3d6c32a37224179dc290f21e03d1238f3d963b", version: "0.56.2")
    static let targets = [TrustTarget(kind: .macro, package: "swift-case-paths", target: "CasePathsMacros"),
                          TrustTarget(kind: .macro, package: "swift-perception", target: "PerceptionMacros"),
                          TrustTarget(kind: .plugin, package: "swiftlintplugins", target: "SwiftLintBuildToolPlugin")]

    static func expected(_ pins: [ResolvedFixture.Pin]) -> (macros: String, plugins: String) {
        let rev = { (id: String) in pins.first { $0.identity.lowercased() == id }!.revision! }
        return (ResolvedFixture.allowList([(rev("swift-case-paths"), "swift-case-paths", "CasePathsMacros"),
                                           (rev("swift-perception"), "swift-perception", "PerceptionMacros")]),
                ResolvedFixture.allowList([(rev("swiftlintplugins"), "swiftlintplugins", "SwiftLintBuildToolPlugin")]))
    }

    func assertWritesAllowLists(format: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        var pins = [Self.casePaths, Self.perception, Self.lint]
        if format == 1 { pins[2].identity = "SwiftLintPlugins" } // format 1 names packages by display name; identity comes from the URL
        let project = try SampleProject(resolved: ResolvedFixture.text(format: format, pins))
        try project.generate(Self.targets)
        XCTAssertEqual(project.script.posixMode & 0o111, 0o111, "script not executable", file: file, line: line)
        XCTAssertEqual(try Shellcheck.findings(project.script.path), "", file: file, line: line)
        for shell in ["zsh", "bash"] {
            let sandbox = try ShellSandbox()
            let result = try sandbox.run(shell, project.script.path)
            XCTAssertEqual(result.status, 0, "\(shell): \(result.stderr)", file: file, line: line)
            XCTAssertEqual(sandbox.allowList("macros.json"), Self.expected(pins).macros, "\(shell), format \(format)", file: file, line: line)
            XCTAssertEqual(sandbox.allowList("plugins.json"), Self.expected(pins).plugins, "\(shell), format \(format)", file: file, line: line)
            XCTAssertEqual(sandbox.recordedCalls, [], "the allow-list script must need no defaults, jq, plutil or network tool", file: file, line: line)
        }
    }

    func testFormat1() throws { try assertWritesAllowLists(format: 1) }
    func testFormat2() throws { try assertWritesAllowLists(format: 2) }
    func testFormat3() throws { try assertWritesAllowLists(format: 3) }

    func testMinifiedPackageResolvedReadsTheSame() throws {
        let pretty = ResolvedFixture.text(format: 2, [Self.casePaths, Self.perception, Self.lint])
        let minified = String(decoding: try JSONSerialization.data(withJSONObject: try JSONSerialization.jsonObject(with: Data(pretty.utf8))), as: UTF8.self)
        let project = try SampleProject(resolved: minified)
        try project.generate(Self.targets)
        let sandbox = try ShellSandbox()
        let result = try sandbox.run("zsh", project.script.path)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sandbox.allowList("macros.json"), Self.expected([Self.casePaths, Self.perception, Self.lint]).macros)
    }

    /// A dependency update rewrites Package.resolved; the same script, unchanged, trusts the new revisions.
    func testVersionBumpNeedsNoRerun() throws {
        let project = try SampleProject(resolved: ResolvedFixture.text(format: 3, [Self.casePaths, Self.perception, Self.lint]))
        try project.generate(Self.targets)
        let before = try Data(contentsOf: project.script)
        var bumped = Self.casePaths
        bumped.version = "1.7.3"
        bumped.revision = "0123456789abcdef0123456789abcdef01234567"
        try project.setResolved(ResolvedFixture.text(format: 3, [bumped, Self.perception, Self.lint]))
        for shell in ["zsh", "bash"] {
            let sandbox = try ShellSandbox()
            XCTAssertEqual(try sandbox.run(shell, project.script.path).status, 0)
            XCTAssertEqual(sandbox.allowList("macros.json"), Self.expected([bumped, Self.perception, Self.lint]).macros, shell)
            XCTAssertTrue(sandbox.allowList("macros.json")!.contains("0123456789abcdef0123456789abcdef01234567"))
        }
        XCTAssertEqual(try Data(contentsOf: project.script), before)
    }

    func testPinThatLostItsRevisionFailsTheScriptNamingThePackage() throws {
        let project = try SampleProject(resolved: ResolvedFixture.text(format: 3, [Self.casePaths, Self.perception, Self.lint]))
        try project.generate(Self.targets)
        var registry = Self.perception
        registry.revision = nil
        try project.setResolved(ResolvedFixture.text(format: 3, [Self.casePaths, registry, Self.lint]))
        let sandbox = try ShellSandbox()
        let result = try sandbox.run("zsh", project.script.path)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains(#"package "swift-perception" is pinned without a revision"#), result.stderr)
        XCTAssertNil(sandbox.allowList("macros.json"), "a half-written allow-list must not be left behind")
    }

    func testPackageNoLongerPinnedIsReportedAndLeftOut() throws {
        let project = try SampleProject(resolved: ResolvedFixture.text(format: 2, [Self.casePaths, Self.perception, Self.lint]))
        try project.generate(Self.targets)
        try project.setResolved(ResolvedFixture.text(format: 2, [Self.casePaths, Self.lint]))
        let sandbox = try ShellSandbox()
        let result = try sandbox.run("bash", project.script.path)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains(#"package "swift-perception" is not in"#), result.stderr)
        XCTAssertEqual(sandbox.allowList("macros.json"), ResolvedFixture.allowList([(Self.casePaths.revision!, "swift-case-paths", "CasePathsMacros")]))
    }

    func testUnsupportedPackageResolvedFormatFailsTheScript() throws {
        let project = try SampleProject(resolved: ResolvedFixture.text(format: 2, [Self.casePaths]))
        try project.generate([Self.targets[0]])
        try project.setResolved(ResolvedFixture.text(format: 2, [Self.casePaths]).replacingOccurrences(of: "\"version\" : 2", with: "\"version\" : 4"))
        let sandbox = try ShellSandbox()
        let result = try sandbox.run("zsh", project.script.path)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("format 4 is not 1, 2 or 3"), result.stderr)
    }

    /// Identities and target names with quotes, $(...), backticks, newlines and spaces are data, never code.
    func testHostileNamesCannotInjectCommands() throws {
        let hostile = [
            "it's $(touch PWNED1)", "`touch PWNED2`", "\"; touch PWNED3; echo \"", "a\ntouch PWNED4", "with space ${HOME} \\ %s",
        ]
        var pins: [ResolvedFixture.Pin] = []
        var targets: [TrustTarget] = []
        for (i, name) in hostile.enumerated() {
            pins.append(.init(identity: name.lowercased(), url: "https://example.com/p\(i)", revision: String(repeating: "\(i)", count: 40), version: "1.0.\(i)"))
            targets.append(TrustTarget(kind: .macro, package: name.lowercased(), target: name + " $(touch PWNED5)"))
        }
        let project = try SampleProject(resolved: ResolvedFixture.text(format: 3, pins))
        try project.generate(targets, command: "xcmedic ci-scripts --macro 'x\ntouch PWNED6'")
        XCTAssertEqual(try Shellcheck.findings(project.script.path), "")
        for shell in ["zsh", "bash"] {
            let sandbox = try ShellSandbox()
            let result = try sandbox.run(shell, project.script.path)
            XCTAssertEqual(result.status, 0, "\(shell): \(result.stderr)")
            for dir in [project.directory, project.script.deletingLastPathComponent(), sandbox.root, sandbox.home] {
                let names = (try FileManager.default.contentsOfDirectory(atPath: dir.path)).filter { $0.lowercased().hasPrefix("pwned") }
                XCTAssertEqual(names, [], "\(shell) ran an injected command in \(dir.path)")
            }
            let json = try XCTUnwrap(sandbox.allowList("macros.json"))
            let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: String]], json)
            let got = Set(entries.map { "\($0["packageIdentity"]!)|\($0["targetName"]!)|\($0["fingerprint"]!)" })
            let want = Set(pins.indices.map { "\(pins[$0].identity)|\(targets[$0].target)|\(pins[$0].revision!)" })
            XCTAssertEqual(got, want, shell)
        }
    }

    func testSkipValidationWritesBothPluginSpellingsThroughDefaults() throws {
        let project = try SampleProject(resolved: ResolvedFixture.text(format: 2, [Self.casePaths]))
        try project.generate(skip: true)
        let text = try String(contentsOf: project.script, encoding: .utf8)
        XCTAssertTrue(text.contains("What this trades away"))
        XCTAssertTrue(text.contains("Xcode reads Apple's misspelled key"))
        XCTAssertEqual(try Shellcheck.findings(project.script.path), "")
        for shell in ["zsh", "bash"] {
            let sandbox = try ShellSandbox()
            let result = try sandbox.run(shell, project.script.path)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.contains("skipping Xcode's macro and plugin validation for every package"), result.stdout)
            XCTAssertEqual(sandbox.recordedCalls, [
                "defaults write com.apple.dt.Xcode IDESkipMacroFingerprintValidation -bool YES",
                "defaults write com.apple.dt.Xcode IDESkipPackagePluginFingerprintValidatation -bool YES",
                "defaults write com.apple.dt.Xcode IDESkipPackagePluginFingerprintValidation -bool YES",
            ], shell)
            XCTAssertNil(sandbox.allowList("macros.json"))
        }
    }

    /// Under `zsh $filename` (what Xcode Cloud does when the file is not executable) and with no strict mode
    /// in the user's part, the block still stops on failure.
    func testBlockFailsTheScriptEvenWithoutStrictMode() throws {
        let project = try SampleProject(resolved: ResolvedFixture.text(format: 2, [Self.casePaths]))
        try FileManager.default.createDirectory(at: project.script.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("#!/bin/sh\necho user step ran\n".utf8).write(to: project.script)
        try project.generate([Self.targets[0]])
        try FileManager.default.removeItem(at: project.resolved)
        let sandbox = try ShellSandbox()
        let result = try sandbox.run("zsh", project.script.path)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("cannot read"), result.stderr)
        XCTAssertFalse(result.stdout.contains("user step ran"))
    }

    /// The block keeps to POSIX sh, so it also works inside a user's `#!/bin/sh` script run by dash.
    func testBlockWorksInAPosixShScript() throws {
        let project = try SampleProject(resolved: ResolvedFixture.text(format: 3, [Self.casePaths, Self.perception, Self.lint]))
        try FileManager.default.createDirectory(at: project.script.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("#!/bin/sh\nset -eu\necho user step ran\n".utf8).write(to: project.script)
        try project.generate(Self.targets)
        try ShellSandbox.require("dash")
        let sandbox = try ShellSandbox()
        let result = try sandbox.run("dash", project.script.path)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("user step ran"))
        XCTAssertEqual(sandbox.allowList("macros.json"), Self.expected([Self.casePaths, Self.perception, Self.lint]).macros)
        XCTAssertEqual(sandbox.allowList("plugins.json"), Self.expected([Self.casePaths, Self.perception, Self.lint]).plugins)
    }
}
