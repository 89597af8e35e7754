import Foundation
import XCTest
@testable import XCMedicKit

/// xcmedic owns only its marked block: every other byte of a hand-written script, and its mode, stay.
final class CIScriptsBlockTests: XCTestCase {
    let caseTarget = [TrustTarget(kind: .macro, package: "swift-case-paths", target: "CasePathsMacros")]

    func project() throws -> SampleProject {
        try SampleProject(resolved: ResolvedFixture.text(format: 3, [CIScriptsRunTests.casePaths, CIScriptsRunTests.perception]))
    }

    func testHandWrittenScriptSurvivesByteForByteOutsideTheBlock() throws {
        let project = try project()
        try FileManager.default.createDirectory(at: project.script.deletingLastPathComponent(), withIntermediateDirectories: true)
        let head = Array("#!/bin/bash\n".utf8)
        // Not UTF-8 (0xff), CRLF, no final newline: all the user's, all kept.
        let tail = Array("set -e\r\necho \"secrets: $MY_SECRET\" | base64 --decode > Secret.swift\n# \u{00e9}\n".utf8) + [0xff, 0x0a] + Array("brew install swiftgen".utf8)
        try Data(head + tail).write(to: project.script)
        try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: project.script.path)

        let plan = try project.generate(caseTarget)
        XCTAssertTrue(plan.changes)
        let after = [UInt8](try Data(contentsOf: project.script))
        XCTAssertEqual(Array(after.prefix(head.count)), head)
        XCTAssertEqual(Array(after.suffix(tail.count)), tail)
        let block = Array(after[head.count..<(after.count - tail.count)])
        let blockText = String(decoding: block, as: UTF8.self)
        XCTAssertTrue(blockText.hasPrefix(ScriptRenderer.beginMarker + "\n"), blockText)
        XCTAssertTrue(blockText.hasSuffix(ScriptRenderer.endMarker + "\n"), blockText)
        XCTAssertEqual(project.script.posixMode, 0o750, "the file mode must be kept")

        // Idempotent: the same request changes nothing.
        XCTAssertFalse(try CIScripts.plan(CIScriptsRequest(projectDirectory: project.directory.path, targets: caseTarget, command: "xcmedic ci-scripts")).changes)

        // A different request replaces the block only.
        try project.generate(caseTarget + [TrustTarget(kind: .macro, package: "swift-perception", target: "PerceptionMacros")])
        let again = [UInt8](try Data(contentsOf: project.script))
        XCTAssertEqual(Array(again.prefix(head.count)), head)
        XCTAssertEqual(Array(again.suffix(tail.count)), tail)
        XCTAssertTrue(String(decoding: again, as: UTF8.self).contains("'swift-perception' 'PerceptionMacros'"))
        XCTAssertEqual(String(decoding: again, as: UTF8.self).components(separatedBy: ScriptRenderer.beginMarker).count, 2)
        XCTAssertEqual(project.script.posixMode, 0o750)
    }

    func testBlockGoesAfterTheShebangOrOnTopWithoutOne() throws {
        let block = "# >>> xcmedic >>>\nx\n# <<< xcmedic <<<\n"
        XCTAssertEqual(String(decoding: try MarkedBlock.apply(block, to: Array("#!/bin/zsh\necho hi\n".utf8), path: "s"), as: UTF8.self),
                       "#!/bin/zsh\n" + block + "echo hi\n")
        XCTAssertEqual(String(decoding: try MarkedBlock.apply(block, to: Array("echo hi".utf8), path: "s"), as: UTF8.self), block + "echo hi")
        XCTAssertEqual(String(decoding: try MarkedBlock.apply(block, to: Array("#!/bin/zsh".utf8), path: "s"), as: UTF8.self), "#!/bin/zsh\n" + block)
    }

    func testExistingBlockIsReplacedWhereItIs() throws {
        let old = "#!/bin/zsh\nset -e\necho before\n  # >>> xcmedic >>>\nold stuff\n# <<< xcmedic <<<\necho after\n"
        let new = try MarkedBlock.apply("# >>> xcmedic >>>\nnew\n# <<< xcmedic <<<\n", to: Array(old.utf8), path: "s")
        XCTAssertEqual(String(decoding: new, as: UTF8.self), "#!/bin/zsh\nset -e\necho before\n# >>> xcmedic >>>\nnew\n# <<< xcmedic <<<\necho after\n")
    }

    func testBrokenMarkersAreAnErrorNotAGuess() {
        for text in ["# >>> xcmedic >>>\nno end\n", "# <<< xcmedic <<<\n# >>> xcmedic >>>\n", "# >>> xcmedic >>>\n# <<< xcmedic <<<\n# >>> xcmedic >>>\n# <<< xcmedic <<<\n"] {
            XCTAssertThrowsError(try MarkedBlock.apply("# >>> xcmedic >>>\n# <<< xcmedic <<<\n", to: Array(text.utf8), path: "ci_post_clone.sh")) { error in
                XCTAssertTrue("\(error)".contains("must each appear once"), "\(error)")
            }
        }
    }

    func testNewScriptHasZshShebangStrictModeAndIsExecutable() throws {
        let project = try project()
        try project.generate(caseTarget)
        let text = try String(contentsOf: project.script, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("#!/bin/zsh\n"))
        XCTAssertTrue(text.contains("\nset -euo pipefail\n"))
        XCTAssertTrue(text.hasSuffix(ScriptRenderer.endMarker + "\n"))
        XCTAssertEqual(project.script.posixMode, 0o755)
    }

    func testDryRunDiffShowsOnlyTheBlockChange() {
        let old = "#!/bin/zsh\na\nb\nc\nd\ne\nf\ng\n"
        let new = "#!/bin/zsh\na\nb\nc\nX\ne\nf\ng\n"
        XCTAssertEqual(LineDiff.unified(old: old, new: new, oldName: "a/s", newName: "b/s"),
                       "--- a/s\n+++ b/s\n@@ -2,7 +2,7 @@\n a\n b\n c\n-d\n+X\n e\n f\n g\n")
        XCTAssertEqual(LineDiff.unified(old: "", new: "x\ny\n", oldName: "/dev/null", newName: "s"), "--- /dev/null\n+++ s\n@@ -0,0 +1,2 @@\n+x\n+y\n")
        XCTAssertEqual(LineDiff.unified(old: old, new: old, oldName: "a", newName: "b"), "")
    }
}
