import Foundation
import XCTest
@testable import XCMedicKit

/// Compiles small Swift programs that each make one real concurrency mistake
/// (`Fixtures/concurrency/*.swift`) with the local `swiftc`, and checks that the scanner names the
/// right rule at the right file, line and column in the compiler's actual output: both diagnostic
/// styles in the Swift 6 language mode, and warnings in the Swift 5 mode with complete checking.
final class CompilerOutputTests: XCTestCase {
    struct Expected: CustomStringConvertible {
        var rule: String
        var line: Int
        var column: Int
        var description: String { "\(rule) at \(line):\(column)" }
    }

    /// Each program and the findings its Swift 6 errors must give.
    static let programs: [String: [Expected]] = [
        "GlobalVar.swift": [.init(rule: "global-mutable-state-not-concurrency-safe", line: 2, column: 5)],
        "StaticVar.swift": [.init(rule: "global-mutable-state-not-concurrency-safe", line: 3, column: 16)],
        "StaticLetNonSendable.swift": [.init(rule: "static-let-non-sendable-type", line: 7, column: 16)],
        "SendableCapture.swift": [.init(rule: "sendable-closure-captures", line: 10, column: 9)],
        "CapturedVar.swift": [
            .init(rule: "captured-var-in-concurrent-code", line: 7, column: 9),
            .init(rule: "captured-var-in-concurrent-code", line: 10, column: 15),
        ],
        "DetachedTask.swift": [.init(rule: "sending-task-closure-value", line: 8, column: 10)],
        "TaskCapturesParameter.swift": [.init(rule: "sending-closure-risks-data-race", line: 7, column: 5)],
        "SendingToActor.swift": [.init(rule: "sending-value-risks-data-race", line: 11, column: 17)],
        "MainActorFromNonisolated.swift": [.init(rule: "actor-isolated-call-synchronous-nonisolated", line: 6, column: 5)],
        "ActorStateFromNonisolated.swift": [.init(rule: "actor-isolated-referenced-from-nonisolated", line: 7, column: 9)],
        "ConformanceIsolation.swift": [.init(rule: "conformance-crosses-into-actor-isolated-code", line: 7, column: 21)],
        "SendableStructStorage.swift": [.init(rule: "sendable-conformance-invalid-storage", line: 7, column: 9)],
        "ResultFromActor.swift": [.init(rule: "non-sendable-result-crosses-actor-boundary", line: 12, column: 22)],
        "NonFinalSendableClass.swift": [.init(rule: "sendable-class-nonfinal-or-inherits", line: 2, column: 7)],
    ]

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/concurrency", isDirectory: true)

    func testEveryFixtureProgramHasExpectations() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter { $0.hasSuffix(".swift") }
        XCTAssertEqual(Set(files), Set(Self.programs.keys), "each program in Fixtures/concurrency needs expected findings here")
        XCTAssertGreaterThanOrEqual(files.count, 6)
    }

    func testSwift6ErrorsAreNamedWithFileLineAndColumnInBothDiagnosticStyles() throws {
        let swiftc = try Self.swiftcOrSkip()
        for style in ["llvm", "swift"] {
            for (program, expected) in Self.programs.sorted(by: { $0.key < $1.key }) {
                let run = try Self.compile(program, swiftc: swiftc, mode: ["-swift-version", "6"], style: style)
                let context = "\(program), -diagnostic-style \(style):\n\(run.stderr)"
                XCTAssertNotEqual(run.status, 0, "the program must fail to compile: \(context)")
                let diagnosis = try Self.scan(run.stderr)
                for e in expected {
                    let finding = Self.finding(e, program: program, in: diagnosis)
                    XCTAssertNotNil(finding, "expected \(e) in \(context)\nfound: \(diagnosis.findings.map { "\($0.rule) \($0.occurrences.map { String(describing: $0.location) })" })")
                    XCTAssertEqual(finding?.severity, .error, "\(e): \(context)")
                    XCTAssertEqual(finding?.errorInSwift6, false, "an error has no Swift 6 suffix: \(context)")
                }
                let unclaimed = diagnosis.findings.filter { $0.role == .unrecognized }.map(\.message)
                XCTAssertEqual(unclaimed, [], "every error line is claimed by a rule: \(context)")
                XCTAssertEqual(diagnosis.findings.count, expected.count,
                               "no finding beyond the expected ones: \(diagnosis.findings.map(\.rule)) in \(context)")
            }
        }
    }

    /// Swift 5 mode with complete checking reports the same problems as warnings that the Swift 6 mode
    /// makes errors; they must stay warnings, flagged `errorInSwift6`.
    func testSwift5CompleteCheckingWarningsStayWarningsFlaggedForSwift6() throws {
        let swiftc = try Self.swiftcOrSkip()
        for program in ["CapturedVar.swift", "DetachedTask.swift"] {
            let run = try Self.compile(program, swiftc: swiftc, mode: ["-swift-version", "5", "-strict-concurrency=complete"], style: "llvm")
            XCTAssertEqual(run.status, 0, "warnings only in Swift 5 mode: \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("; this is an error in the Swift 6 language mode"), run.stderr)
            let diagnosis = try Self.scan(run.stderr)
            for e in Self.programs[program] ?? [] {
                let finding = Self.finding(e, program: program, in: diagnosis)
                XCTAssertNotNil(finding, "expected \(e) in \(run.stderr)")
                XCTAssertEqual(finding?.severity, .warning, run.stderr)
                XCTAssertEqual(finding?.errorInSwift6, true, run.stderr)
            }
            XCTAssertFalse(diagnosis.findings.contains { $0.severity == .error }, run.stderr)
        }
    }

    // MARK: - Helpers

    struct Run {
        var status: Int32
        var stderr: String
    }

    static func finding(_ e: Expected, program: String, in diagnosis: Diagnosis) -> Finding? {
        let location = SourceLocation(file: program, line: e.line, column: e.column)
        return diagnosis.findings.first { $0.rule == e.rule && $0.occurrences.contains { $0.location == location } }
    }

    static func scan(_ text: String) throws -> Diagnosis {
        let scanner = Scanner(ruleSet: try RuleSet.builtin())
        try scanner.scan(text: text, name: "swiftc")
        return scanner.finish()
    }

    static func swiftcOrSkip() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for dir in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent("swiftc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw XCTSkip("no swiftc on PATH: the compiler-output tests need a Swift toolchain to compile Fixtures/concurrency")
    }

    /// One compiler run in the fixtures folder, so diagnostics name the bare file name.
    /// `-emit-sil` because region-based isolation (`sending` errors) is checked after type checking.
    static func compile(_ program: String, swiftc: URL, mode: [String], style: String) throws -> Run {
        let process = Process()
        process.executableURL = swiftc
        process.currentDirectoryURL = fixtures
        process.arguments = mode + ["-parse-as-library", "-emit-sil", "-o", "/dev/null", "-diagnostic-style", style, program]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stderr: String(decoding: data, as: UTF8.self))
    }
}
