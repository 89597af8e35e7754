import Foundation
import XCTest
@testable import XCMedicKit

/// Templates/ is the source of truth; the binary embeds a copy, and the repository's ci_scripts/ is
/// the output for the sample project it ships. Both must not drift.
final class CIScriptsTemplateTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testEmbeddedTemplatesMatchTheTemplatesFolder() throws {
        let folder = Self.root.appendingPathComponent("Templates")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sh") && $0 != "embed.sh" }
        XCTAssertEqual(Set(files), Set(EmbeddedTemplates.all.keys), "every template must be embedded (run Templates/embed.sh)")
        for (name, embedded) in EmbeddedTemplates.all {
            let onDisk = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            XCTAssertEqual(embedded + "\n", onDisk, "Templates/\(name) differs from the copy the binary embeds: run Templates/embed.sh")
        }
    }

    func testShippedCIScriptsIsTheOutputForTheSampleProject() throws {
        let sample = Self.root.appendingPathComponent("Examples/SampleApp")
        let request = CIScriptsRequest(projectDirectory: sample.path, logs: [sample.appendingPathComponent("build.log").path],
                                       scriptsDirectory: Self.root.appendingPathComponent("ci_scripts").path,
                                       command: "xcmedic ci-scripts --project Examples/SampleApp --ci-scripts-dir ci_scripts")
        let plan = try CIScripts.plan(request)
        XCTAssertNotNil(plan.oldContents, "ci_scripts/ci_post_clone.sh is missing")
        XCTAssertFalse(plan.changes, """
            ci_scripts/ci_post_clone.sh is not what xcmedic writes for Examples/SampleApp; regenerate it with:
            swift run xcmedic ci-scripts --project Examples/SampleApp --from-log Examples/SampleApp/build.log --ci-scripts-dir ci_scripts
            """)
        XCTAssertEqual(Self.root.appendingPathComponent("ci_scripts/ci_post_clone.sh").posixMode & 0o111, 0o111)
        XCTAssertEqual(plan.trusts.map { "\($0.kind.rawValue) \($0.identity):\($0.target)" },
                       ["macro swift-case-paths:CasePathsMacros", "macro swift-perception:PerceptionMacros", "plugin swiftlintplugins:SwiftLintBuildToolPlugin"])
    }

    func testRenderedValuesAreSingleQuotedWords() {
        XCTAssertEqual(ShellQuote.quote("it's $(x) `y`"), #"'it'\''s $(x) `y`'"#)
        XCTAssertEqual(ShellQuote.commentSafe("a\nb\r\tc"), "a?b??c")
        let pin = PackagePin(identity: "a'b", location: "", revision: "r")
        let block = ScriptRenderer.block(.allowList([ResolvedTrust(kind: .plugin, identity: "a'b", target: "T\nrm -rf /", pin: pin)], resolvedFromScripts: "../it's/Package.resolved"),
                                         command: "xcmedic\nrm -rf /")
        XCTAssertTrue(block.contains(#"xcmedic_resolved="$xcmedic_dir/"'../it'\''s/Package.resolved'"#), block)
        XCTAssertTrue(block.contains("'a'\\''b' 'T\nrm -rf /'"), block)
        XCTAssertTrue(block.contains("# Regenerate with: xcmedic?rm -rf /\n"), block)
        XCTAssertFalse(block.contains("{{"), block)
    }
}
