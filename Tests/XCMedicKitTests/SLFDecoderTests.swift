import Foundation
import XCTest
import XCMedicTestSupport
@testable import XCMedicKit

/// A build as Xcode records it: a failing CocoaPods script phase, a Swift 6 error in a file whose
/// path has a space, and an untrusted macro, each where Xcode puts it.
enum SampleBuild {
    static let podsText = """
    diff: /Volumes/workspace/repository/Podfile.lock: No such file or directory
    error: The sandbox is not in sync with the Podfile.lock. Run 'pod install' or update your CocoaPods installation.

    """
    static let swiftError = "main actor-isolated static property 'shared' can not be referenced from a nonisolated context"
    static let macro = #"Macro "CasePathsMacros" from package "swift-case-paths" must be enabled before it can be used"#
    static let modelURL = "file:///Volumes/workspace/repository/App/Model%20Layer/Model.swift"
    static let modelPath = "/Volumes/workspace/repository/App/Model Layer/Model.swift"

    static var root: SLFWriter.Section {
        SLFWriter.Section(
            className: "IDECommandLineBuildLog",
            title: "Build App",
            subsections: [
                .init(className: "IDEActivityLogMajorGroupSection", title: "Build target App", subsections: [
                    .init(title: "Run custom shell script '[CP] Check Pods Manifest.lock'", text: podsText, messages: [
                        .init(title: "Command PhaseScriptExecution failed with a nonzero exit code", type: "Error"),
                    ]),
                    .init(title: "Compile Model.swift (arm64)", text: "", messages: [
                        .init(title: swiftError, url: modelURL, line: 11, column: 4, notes: [
                            .init(title: "static property declared here", severity: 0, type: "Notice", url: modelURL, line: 2, column: 15),
                        ]),
                    ]),
                ]),
            ],
            messages: [.init(title: macro, type: "Error")]
        )
    }

    /// The same build as xcodebuild prints it on the console.
    static let console = """
    Run custom shell script '[CP] Check Pods Manifest.lock'
    \(podsText)
    error: Command PhaseScriptExecution failed with a nonzero exit code
    Compile Model.swift (arm64)
    \(modelPath):12:5: error: \(swiftError)
    \(modelPath):3:16: note: static property declared here
    error: \(macro)

    ** BUILD FAILED **

    """
}

final class SLFDecoderTests: XCTestCase {
    func testDecodesStepTitlesTheirOutputAndTheirMessagesInOrder() throws {
        let lines = try SLFDecoder.lines(SLFWriter.log(SampleBuild.root))
        let pods = "Run custom shell script '[CP] Check Pods Manifest.lock'"
        XCTAssertEqual(lines, [
            StructuredLine(kind: .stepTitle, text: "Build App", step: "Build App"),
            StructuredLine(kind: .stepTitle, text: "Build target App", step: "Build target App"),
            StructuredLine(kind: .stepTitle, text: pods, step: pods),
            StructuredLine(kind: .output, text: "diff: /Volumes/workspace/repository/Podfile.lock: No such file or directory", step: pods),
            StructuredLine(kind: .output, text: "error: The sandbox is not in sync with the Podfile.lock. Run 'pod install' or update your CocoaPods installation.", step: pods),
            StructuredLine(kind: .message, text: "Command PhaseScriptExecution failed with a nonzero exit code", level: .error, step: pods),
            StructuredLine(kind: .stepTitle, text: "Compile Model.swift (arm64)", step: "Compile Model.swift (arm64)"),
            StructuredLine(kind: .message, text: SampleBuild.swiftError, location: SourceLocation(file: SampleBuild.modelPath, line: 12, column: 5),
                           level: .error, step: "Compile Model.swift (arm64)"),
            StructuredLine(kind: .message, text: "static property declared here", location: SourceLocation(file: SampleBuild.modelPath, line: 3, column: 16),
                           level: .note, step: "Compile Model.swift (arm64)"),
            StructuredLine(kind: .message, text: SampleBuild.macro, level: .error, step: "Build App"),
        ])
    }

    func testEveryFormatVersionGivesTheSameLines() throws {
        let expected = try SLFDecoder.lines(SLFWriter.log(SampleBuild.root))
        for (version, commandLine, integerBeforeText) in [(11, false, false), (12, false, false), (10, true, false), (11, true, false),
                                                          (12, true, false), (12, false, true), (11, true, true)] {
            let bytes = SLFWriter.log(SampleBuild.root, version: version, commandLine: commandLine, integerBeforeText: integerBeforeText)
            XCTAssertEqual(try SLFDecoder.lines(bytes), expected, "version \(version), command line \(commandLine), Xcode 27 integer \(integerBeforeText)")
        }
    }

    func testTokenizerReadsEveryTokenKind() throws {
        let double = String(format: "%016llx", (580158292.767495).bitPattern.byteSwapped)
        let text = "SLF0" + "10#" + "\(double)^" + "-" + "6\"Hello-" + "2*{}" + "21%IDEActivityLogSection" + "1@" + "3(" + "0#" + "18446744073709551615#"
        let tokenizer = SLFTokenizer(source: ByteSource(name: "t", bytes: Array(text.utf8)))
        try tokenizer.readHeader()
        XCTAssertEqual(try tokenizer.next(), .int(10))
        XCTAssertEqual(try tokenizer.next(), .double(580158292.767495))
        XCTAssertEqual(try tokenizer.next(), .null)
        XCTAssertEqual(try tokenizer.next(), .string(6))
        XCTAssertEqual(try tokenizer.readString(6, limit: 100), "Hello-")
        XCTAssertEqual(try tokenizer.next(), .json(2))
        try tokenizer.skip(2)
        XCTAssertEqual(try tokenizer.next(), .instance("IDEActivityLogSection"))
        XCTAssertEqual(try tokenizer.next(), .array(3))
        XCTAssertEqual(try tokenizer.next(), .int(0))
        XCTAssertEqual(try tokenizer.next(), .int(UInt64.max))
        XCTAssertNil(try tokenizer.next())
    }

    /// The opening of a real log (XCLogParser's docs, "Xcactivitylog Format", Apache-2.0), cut short.
    func testTheOpeningOfARealLogGivesItsTitlesThenSaysWhereItEnds() throws {
        let excerpt = #"SLF010#21%IDEActivityLogSection1@0#39"Xcode.IDEActivityLogDomainType.BuildLog20"Build XCLogParserApp20"Build XCLogParserApp0074f8eaae48c141^8f19bcf4ae48c141^12(1@1#50"Xcode.IDEActivityLogDomainType.XCBuild.Preparation13"Prepare build13"Prepare build"#
        let decoder = SLFDecoder(source: ByteSource(name: "t", bytes: Array(excerpt.utf8)))
        XCTAssertEqual(try decoder.next()?.text, "Build XCLogParserApp")
        XCTAssertThrowsError(try decoder.next()) { error in
            XCTAssertEqual(error as? SLFError, SLFError(offset: excerpt.utf8.count, problem: "the log ends where a double (timeStartedRecording) should be"))
        }
    }

    func testAStepsHugeOutputComesLineByLineAndALongLineInFragments() throws {
        let line = String(repeating: "x", count: 99)
        let many = Array(repeating: line, count: 50_000).joined(separator: "\n") + "\n"
        let long = String(repeating: "y", count: SLFDecoder.maxLineBytes * 2 + 10)
        let root = SLFWriter.Section(title: "Build", subsections: [.init(title: "Run script", text: many + long)])
        var count = 0
        var fragments: [Int] = []
        try SLFDecoder(source: ByteSource(name: "t", bytes: SLFWriter.log(root))).forEach { decoded in
            guard decoded.kind == .output else { return }
            if decoded.text == line { count += 1 } else { fragments.append(decoded.text.utf8.count) }
            XCTAssertEqual(decoded.step, "Run script")
        }
        XCTAssertEqual(count, 50_000)
        XCTAssertEqual(fragments, [SLFDecoder.maxLineBytes, SLFDecoder.maxLineBytes, 10])
    }

    func testDocumentURLsBecomePaths() {
        XCTAssertEqual(SLFDecoder.path(fromDocumentURL: "file:///Users/me/My%20App/View.swift"), "/Users/me/My App/View.swift")
        XCTAssertEqual(SLFDecoder.path(fromDocumentURL: "file://localhost/tmp/a.m"), "/tmp/a.m")
        XCTAssertEqual(SLFDecoder.path(fromDocumentURL: "/already/a/path.swift"), "/already/a/path.swift")
        XCTAssertNil(SLFDecoder.oneBased(UInt64.max))
        XCTAssertEqual(SLFDecoder.oneBased(0), 1)
    }

    func testTruncatedOrCorruptActivityLogIsAnInputErrorNamingTheByte() throws {
        let bytes = SLFWriter.log(SampleBuild.root)
        let scanner = Scanner(ruleSet: try RuleSet(rules: BuiltinCatalog.rules()))
        let truncated = try GzipForTests.write(Array(bytes.prefix(bytes.count - 40)), name: "truncated.xcactivitylog")
        XCTAssertThrowsError(try scanner.scan(path: truncated)) { error in
            let message = (error as? InputError)?.description ?? "\(error)"
            XCTAssertTrue(message.hasPrefix("\(truncated): not a readable activity log: the log ends"), message)
            XCTAssertTrue(message.hasSuffix("at byte \(bytes.count - 40) of its decompressed content"), message)
            XCTAssertFalse(message.contains("\n"))
        }
        var corrupt = bytes
        let at = bytes.count / 2
        corrupt[at] = UInt8(ascii: "!")
        corrupt[at + 1] = UInt8(ascii: "!")
        let corruptPath = try GzipForTests.write(try GzipForTests.compress(corrupt), name: "corrupt.xcactivitylog")
        XCTAssertThrowsError(try scanner.scan(path: corruptPath)) { error in
            let message = (error as? InputError)?.description ?? "\(error)"
            XCTAssertTrue(message.hasPrefix("\(corruptPath): not a readable activity log: "), message)
            XCTAssertTrue(message.contains(" at byte "), message)
        }
    }

    func testAnActivityLogGivesTheSameRootCausesAndLocationsAsTheConsoleLog() throws {
        func causes(_ diagnosis: Diagnosis) -> [String] {
            diagnosis.findings.filter { $0.role == .cause }.map { f in
                let place = f.location.map { "\($0.file):\($0.line ?? 0):\($0.column ?? 0)" } ?? "-"
                return "\(f.rule) \(place)"
            }
        }
        let rules = try RuleSet(rules: BuiltinCatalog.rules())
        let console = Scanner(ruleSet: rules)
        try console.scan(text: SampleBuild.console)
        let fromConsole = console.finish()

        let path = try GzipForTests.write(try GzipForTests.compress(SLFWriter.log(SampleBuild.root, version: 11, commandLine: true)), name: "build.xcactivitylog")
        let activity = Scanner(ruleSet: rules)
        try activity.scan(path: path)
        let fromActivityLog = activity.finish()

        XCTAssertEqual(causes(fromActivityLog), causes(fromConsole))
        XCTAssertTrue(causes(fromActivityLog).contains { $0.hasPrefix("macro-not-trusted ") }, "\(causes(fromActivityLog))")
        XCTAssertTrue(causes(fromActivityLog).contains { $0.hasSuffix(" \(SampleBuild.modelPath):12:5") }, "\(causes(fromActivityLog))")
        XCTAssertEqual(fromActivityLog.status, .failed)
    }

    func testAFolderMeansItsActivityLogsNewestFirst() throws {
        let root = Scratch.url("dd")
        let build = root.appendingPathComponent("App-abc/Logs/Build")
        let test = root.appendingPathComponent("App-abc/Logs/Test")
        try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: test, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let names = [(build, "old.xcactivitylog", 1_700_000_000.0), (test, "newest.xcactivitylog", 1_700_000_200), (build, "new.xcactivitylog", 1_700_000_100)]
        for (dir, name, time) in names {
            let url = dir.appendingPathComponent(name)
            try Data("SLF0".utf8).write(to: url)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: time)], ofItemAtPath: url.path)
        }
        try Data("not a log".utf8).write(to: build.appendingPathComponent("LogStoreManifest.plist"))
        let expanded = try LogInput.expand([root.path])
        XCTAssertEqual(expanded.map { URL(fileURLWithPath: $0).lastPathComponent }, ["newest.xcactivitylog", "new.xcactivitylog", "old.xcactivitylog"])
        XCTAssertTrue(expanded.allSatisfy { $0.hasPrefix(root.path + "/") })
        let empty = root.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        XCTAssertThrowsError(try LogInput.expand([empty.path])) { error in
            XCTAssertTrue("\(error)".contains("no .xcactivitylog files"), "\(error)")
        }
    }

    /// Hostile bytes end in lines or in an SLFError, never in a crash or a hang.
    func testEveryOneByteCorruptionEndsInLinesOrAnError() throws {
        let bytes = SLFWriter.log(SampleBuild.root, version: 11, commandLine: true)
        var errors = 0
        for position in stride(from: 4, to: bytes.count, by: 3) {
            for replacement in [UInt8(ascii: "9"), UInt8(ascii: "@"), UInt8(ascii: "("), UInt8(ascii: "-"), 0xFF] {
                var mutated = bytes
                mutated[position] = replacement
                do {
                    _ = try SLFDecoder.lines(mutated)
                } catch is SLFError {
                    errors += 1
                }
            }
        }
        XCTAssertGreaterThan(errors, 0)
    }

    /// A string's length counts bytes (XCLogParser reads the file one byte to a character), so UTF-8 text
    /// comes through whole; unit test sections carry six more strings.
    func testUTF8TextAndUnitTestSections() throws {
        let failure = "XCTAssertEqual failed: (\"café ✓\") is not equal to (\"cafe\")"
        let root = SLFWriter.Section(title: "Test App", subsections: [
            .init(className: "IDEActivityLogUnitTestSection", title: "Test Case '-[AppTests.MenuTests testName]' failed",
                  text: "Résumé — 2 tests\n", messages: [
                    .init(title: failure, type: "Uncategorized", url: "file:///Users/ci/AppTests/Menü%20Tests.swift", line: 41, column: 0),
                  ]),
        ])
        let lines = try SLFDecoder.lines(SLFWriter.log(root, version: 11))
        XCTAssertEqual(lines.map(\.text), ["Test App", "Test Case '-[AppTests.MenuTests testName]' failed", "Résumé — 2 tests", failure])
        XCTAssertEqual(lines.last?.location, SourceLocation(file: "/Users/ci/AppTests/Menü Tests.swift", line: 42, column: 1))
        XCTAssertEqual(lines.last?.level, .error, "severity 2 when the type names no level")
    }
}
