import Foundation
import XCTest
import XCMedicTestSupport
@testable import XCMedicKit

final class ScannerTests: XCTestCase {
    /// The compiler's context lines are told from their bytes (issue 17): the byte tests agree with the text
    /// ones, and an error's excerpt still holds its source and caret lines, not the next error.
    func testCompilerContextReadFromBytesKeepsTheExcerpt() throws {
        for text in ["    ^", "  ~~~^~~~", "\t^", "^ here", "", "   ", "let x: Int = 1", "a:1: error: x", "  ~~~"] {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { b in
                let base = b.baseAddress ?? UnsafePointer(bitPattern: 1)!
                XCTAssertEqual(Scanner.isCaretLine(base, from: 0, to: b.count), Scanner.isCaretLine(text), text)
                XCTAssertEqual(Scanner.hasColonDigit(base, from: 0, to: b.count), text.contains("a:1"), text)
            }
        }
        let log = """
        /src/A.swift:3:5: error: cannot find 'widget' in scope
                let value = widget.size
                            ^~~~~~
        /src/B.swift:9:1: error: cannot find 'gizmo' in scope
        gizmo()
        ^
        ** BUILD FAILED **
        """
        let scanner = Scanner(ruleSet: try RuleSet.builtin())
        try scanner.scan(text: log, name: "build.log")
        let errors = scanner.finish().findings.filter { $0.excerpt.first?.contains(": error: ") == true }
        XCTAssertEqual(errors.map(\.excerpt), [
            ["/src/A.swift:3:5: error: cannot find 'widget' in scope", "        let value = widget.size", "                    ^~~~~~"],
            ["/src/B.swift:9:1: error: cannot find 'gizmo' in scope", "gizmo()", "^"],
        ])
    }

    private func diagnose(_ text: String, rules: [Rule]? = nil) throws -> Diagnosis {
        try diagnose(bytes: Array(text.utf8), rules: rules)
    }

    private func diagnose(bytes: [UInt8], rules: [Rule]? = nil, chunkBytes: Int? = nil) throws -> Diagnosis {
        let scanner = Scanner(ruleSet: try RuleSet(rules: rules ?? BuiltinCatalog.rules()))
        if let chunkBytes { scanner.chunkBytes = chunkBytes }
        try scanner.scan(ByteSource(name: "test.log", bytes: bytes))
        return scanner.finish()
    }

    private let macroLine = #"Macro "CasePathsMacros" from package "swift-case-paths" must be enabled before it can be used"#

    func testMacroTrustNamesMacroAndPackageWithItsLineNumber() throws {
        let d = try diagnose("line one\nline two\n\t\(macroLine)\n** BUILD FAILED **\n")
        let first = try XCTUnwrap(d.findings.first)
        XCTAssertEqual(first.rule, "macro-not-trusted")
        XCTAssertEqual(first.captures, ["macro": "CasePathsMacros", "package": "swift-case-paths"])
        XCTAssertEqual(first.occurrences.map(\.line), [3])
        XCTAssertEqual(d.status, .failed)
    }

    func testRootCausesComeBeforeWrappersWhateverTheirOrderInTheLog() throws {
        let d = try diagnose("** BUILD FAILED **\nThe following build commands failed:\n\tSwiftCompile normal\n\(macroLine)\n")
        XCTAssertEqual(d.findings.map(\.role), [.cause, .symptom, .symptom])
        XCTAssertEqual(d.findings.first?.rule, "macro-not-trusted")
    }

    func testIdenticalFindingsCollapseWithCountAndAllLines() throws {
        let d = try diagnose("\(macroLine)\nother\n\(macroLine)\n")
        let macro = d.findings.filter { $0.rule == "macro-not-trusted" }
        XCTAssertEqual(macro.count, 1)
        XCTAssertEqual(macro.first?.count, 2)
        XCTAssertEqual(macro.first?.occurrences.map(\.line), [1, 3])
    }

    func testUnknownErrorIsReportedAsUnrecognizedWithItsLineNumber() throws {
        let d = try diagnose("ok\nok\nxcodebuild: error: The flux capacitor is not charged.\n")
        let finding = try XCTUnwrap(d.findings.first)
        XCTAssertEqual(finding.role, .unrecognized)
        XCTAssertEqual(finding.rule, "unrecognized")
        XCTAssertEqual(finding.occurrences.first?.line, 3)
        XCTAssertEqual(finding.excerpt, ["xcodebuild: error: The flux capacitor is not charged."])
    }

    func testCleanLogPassesWithNoFindings() throws {
        let d = try diagnose("Building for debugging...\nBuild complete! (0.5s)\n")
        XCTAssertEqual(d.findings.count, 0)
        XCTAssertEqual(d.status, .passed)
    }

    func testLogWithoutResultIsUnknown() throws {
        XCTAssertEqual(try diagnose("nothing to see\n").status, .unknown)
    }

    func testCRLFAndLoneCRLineEndsCountLikeLF() throws {
        let crlf = try diagnose("a\r\nb\r\n\(macroLine)\r\n")
        XCTAssertEqual(crlf.findings.first?.occurrences.first?.line, 3)
        XCTAssertEqual(crlf.findings.first?.captures["package"], "swift-case-paths")
        let cr = try diagnose("a\rb\r\(macroLine)\r")
        XCTAssertEqual(cr.findings.first?.occurrences.first?.line, 3)
        XCTAssertEqual(cr.inputs.first?.lines, 3)
    }

    func testCRLFSplitAcrossReadsIsOneLineEnd() throws {
        // A 7-byte chunk makes the reader see the CR and the LF in different reads.
        var text = ""
        for i in 0..<40 { text += "line \(i)\r\n" }
        text += macroLine + "\r\n"
        let d = try diagnose(bytes: Array(text.utf8), chunkBytes: 7)
        XCTAssertEqual(d.findings.first?.occurrences.first?.line, 41)
    }

    func testANSIColourIsIgnoredForMatchingAndExcerpts() throws {
        let colored = "\u{1B}[1;31m❌ \u{1B}[0mMacro \"A\" from package \u{1B}[1m\"b\"\u{1B}[0m must be enabled before it can be used\n"
        let d = try diagnose(colored)
        XCTAssertEqual(d.findings.first?.captures, ["macro": "A", "package": "b"])
        XCTAssertFalse(d.findings.first?.excerpt.first?.contains("\u{1B}") ?? true)
    }

    /// A colour code a read cuts is dropped whole: the first read brings only the encoding sniff's 3 bytes, so a log that
    /// opens with a colour code (Homebrew's red `Error:`) lost its first line's verdict to `1mError:`.
    func testAColourCodeCutByAReadIsDroppedWhole() throws {
        let d = try diagnose("\u{1B}[31mError:\u{1B}[0m protobuf-swift: failed\n")
        XCTAssertEqual(d.status, .failed)
        XCTAssertEqual(d.findings.first?.excerpt.first, "Error: protobuf-swift: failed")
        // Every read boundary: 7-byte reads over lines that each carry colour codes leave no part of one in the text.
        var text = ""
        for i in 0..<30 { text += "\u{1B}[1;34m==>\u{1B}[0m \u{1B}]8;;https://x\u{07}step \(i)\u{1B}]8;;\u{07}\r\n" }
        text += "\u{1B}[1;31m❌ \u{1B}[0m" + macroLine + "\n"
        let split = try diagnose(bytes: Array(text.utf8), chunkBytes: 7)
        XCTAssertEqual(split.findings.first?.rule, "macro-not-trusted")
        XCTAssertEqual(split.findings.first?.occurrences.first?.line, 31)
        XCTAssertEqual(split.findings.first?.excerpt.first, "❌ " + macroLine)
    }

    func testInvalidUTF8AndNULBytesDoNotStopTheScan() throws {
        var bytes: [UInt8] = [0xFF, 0xFE, 0x00, 0x0A, 0xC3, 0x28, 0x00, 0x41, 0x0A]
        bytes += Array("error: something broke\n".utf8)
        let d = try diagnose(bytes: bytes)
        XCTAssertEqual(d.findings.first?.occurrences.first?.line, 3)
        XCTAssertEqual(d.findings.first?.role, .unrecognized)
    }

    func testALineLongerThanTheReaderLimitIsScannedInFragments() throws {
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: LogReader.maxLineBytes * 3)
        bytes += Array("\n\(macroLine)\n".utf8)
        let d = try diagnose(bytes: bytes)
        XCTAssertEqual(d.findings.first?.rule, "macro-not-trusted")
        XCTAssertEqual(d.findings.first?.occurrences.first?.line, 2)
        XCTAssertEqual(d.inputs.first?.lines, 2)
    }

    func testNoFinalNewlineStillCountsTheLastLine() throws {
        let d = try diagnose("one\n\(macroLine)")
        XCTAssertEqual(d.findings.first?.occurrences.first?.line, 2)
        XCTAssertEqual(d.inputs.first?.lines, 2)
    }

    func testALastLineWithoutNewlineIsSeenByTheLinesBeforeIt() throws {
        // xcpretty's location line names the failure by the caret line of the frame under it; a paste that ends on
        // that caret line, with no newline after it, is the same failure.
        let frame = "❌  (node_modules/x/ios/Glass.swift:54:21)\n\n> 54 |     content.glassEffect(.clear)\n" +
            "   |             ^ value of type 'some View' has no member 'glassEffect'"
        for text in [frame, frame + "\n"] {
            let d = try diagnose(text)
            XCTAssertEqual(d.findings.first?.rule, "newer-sdk-api-missing", text)
            XCTAssertEqual(d.findings.first?.occurrences.first?.line, 1)
            XCTAssertEqual(d.inputs.first?.lines, 4)
        }
    }

    func testGzipInputIsDecompressed() throws {
        let dir = Scratch.url("xcmedic-gz")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("build.log")
        try Data("noise\n\(macroLine)\n".utf8).write(to: plain)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["gzip", plain.path]
        try gzip.run()
        gzip.waitUntilExit()
        let scanner = Scanner(ruleSet: try RuleSet.builtin())
        try scanner.scan(path: plain.path + ".gz")
        let d = scanner.finish()
        XCTAssertEqual(d.findings.first?.rule, "macro-not-trusted")
        XCTAssertEqual(d.findings.first?.occurrences.first?.line, 2)
    }

    func testMissingFileAndDirectoryAreInputErrors() throws {
        XCTAssertThrowsError(try ByteSource(path: "/no/such/log")) { error in
            XCTAssertEqual((error as? InputError)?.description, "/no/such/log: no such file")
        }
        XCTAssertThrowsError(try ByteSource(path: NSTemporaryDirectory())) { error in
            XCTAssertEqual((error as? InputError)?.problem, "is a directory, not a log file")
        }
    }

    func testSwiftStyleBoxLinesAreContextNotSecondFindings() throws {
        let log = """
        /src/Racy.swift:16:10: error: sending value of non-Sendable type '() async -> ()' risks causing data races [#SendingRisksDataRace]
        14 | func kickOff() async {
        16 |     Task.detached {
           |          |- error: sending value of non-Sendable type '() async -> ()' risks causing data races [#SendingRisksDataRace]
           |          `- note: Passing value of non-Sendable type '() async -> ()' as a 'sending' argument
        17 |     }

        """
        let d = try diagnose(log)
        XCTAssertEqual(d.findings.count, 1)
        let f = try XCTUnwrap(d.findings.first)
        XCTAssertEqual(f.count, 1)
        XCTAssertEqual(f.location, SourceLocation(file: "/src/Racy.swift", line: 16, column: 10))
        XCTAssertEqual(f.excerpt.count, 6)
    }

    func testLLVMStyleNotesAndCaretsJoinTheExcerpt() throws {
        let log = """
        /src/Racy.swift:16:10: error: sending value of non-Sendable type '() async -> ()' risks causing data races [#SendingRisksDataRace]
            Task.detached {
            ~~~~~^~~~~~~~~~
        /src/Racy.swift:19:5: note: access can happen concurrently
            m.value += 1
            ^~~~~~~
        [4/4] Compiling Racy Racy.swift

        """
        let f = try XCTUnwrap(try diagnose(log).findings.first)
        XCTAssertEqual(f.excerpt.count, 6)
        XCTAssertEqual(f.excerpt.last, "    ^~~~~~~")
    }

    func testWarningLineDowngradesAnErrorRuleAndFlagsTheSwift6Suffix() throws {
        let line = "UseA.swift:5:17: warning: capture of 'l' with non-Sendable type 'Legacy' in a '@Sendable' closure; this is an error in the Swift 6 language mode [#SendableClosureCaptures]\n"
        let f = try XCTUnwrap(try diagnose(line).findings.first)
        XCTAssertEqual(f.severity, .warning)
        XCTAssertTrue(f.errorInSwift6)
    }

    func testPrefixesOfCIAndFormattersAreStrippedButLineNumbersKept() throws {
        let log = """
        2024-05-01T10:00:00.1234567Z ##[group]Run xcodebuild
        2024-05-01T10:00:01.0000000Z \(macroLine)
        [12:00:00]: ▸ ** TEST FAILED **

        """
        let d = try diagnose(log)
        XCTAssertEqual(d.findings.map(\.rule), ["macro-not-trusted", "build-action-failed"])
        XCTAssertEqual(d.findings.map { $0.occurrences[0].line }, [2, 3])
        XCTAssertEqual(d.inputs.first?.dialect.hasPrefix("github-actions"), true)
    }

    func testUserRuleWithABuiltinIDReplacesIt() throws {
        let yaml = """
        - id: macro-not-trusted
          title: Our own macro rule
          category: macro-validation
          severity: warning
          role: cause
          patterns:
            - literal: 'must be enabled'
              regex: 'Macro "(?<macro>[^"]+)"'
          explanation: A replacement written by a team for its own wording.
          fixes: [Ask the platform team]
          examples:
            match: [{line: 'Macro "X" from package "y" must be enabled before it can be used', source: test}]
        """
        let dir = Scratch.url("xcmedic-rules")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("rules.yml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let rules = try Catalog.rules(userFiles: [file.path], autoConfig: false)
        XCTAssertEqual(rules.filter { $0.id == "macro-not-trusted" }.count, 1)
        let f = try XCTUnwrap(try diagnose(macroLine + "\n", rules: rules).findings.first)
        XCTAssertEqual(f.title, "Our own macro rule")
        XCTAssertEqual(f.severity, .warning)
    }

    func testFixTextRendersCapturesAndDottedNamesAsPaths() {
        let captures = ["suite": "AppTests.LoginTests", "test": "testLogin"]
        XCTAssertEqual(Scanner.render("-only-testing:{suite:slashes}/{test}", captures), "-only-testing:AppTests/LoginTests/testLogin")
        XCTAssertEqual(Scanner.render("swift test --filter {suite}.{test}", captures), "swift test --filter AppTests.LoginTests.testLogin")
        XCTAssertEqual(Scanner.render("{ [id = self.id] in {missing} }", captures, names: ["missing"]), "{ [id = self.id] in }")
        // An empty capture takes its quotes with it; a quote that is not around it stays.
        XCTAssertEqual(Scanner.render("Package '{missing}' needs {suite}", captures, names: ["missing"]), "Package needs AppTests.LoginTests")
        XCTAssertEqual(Scanner.render("Package \"{missing}\": {test}", captures, names: ["missing"]), "Package : testLogin")
        XCTAssertEqual(Scanner.render("it's {missing}' here", captures, names: ["missing"]), "it's ' here")
    }
}
