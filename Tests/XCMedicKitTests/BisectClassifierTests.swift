import Foundation
import XCTest
import XCMedicTestSupport
@testable import XCMedicKit

/// The step classifier and the failure signature, on diagnoses from the real scanner.
final class BisectClassifierTests: XCTestCase {
    static let race = "/src/Sources/App/Counter.swift:3:5: error: var 'sharedCounter' is not concurrency-safe because it is nonisolated global shared mutable state; this is an error in the Swift 6 language mode"
    static let module = "/src/Sources/App/Net.swift:1:8: error: no such module 'NetworkKit'"
    static let wrapper = "error: emit-module command failed with exit code 1 (use -v to see invocation)"
    static let macro = #"/src/Sources/App/Model.swift:4:2: error: Macro "CasePathsMacros" from package "swift-case-paths" must be enabled before it can be used"#

    func diagnose(_ lines: String...) throws -> Diagnosis {
        let scanner = Scanner(ruleSet: try RuleSet(rules: try Catalog.rules(userFiles: [], autoConfig: false)))
        try scanner.scan(text: lines.joined(separator: "\n") + "\n")
        return scanner.finish()
    }

    func testSignatureIsTheRootCauseNotTheWrapperNorTheLocation() throws {
        let sig = FailureSignature(diagnosis: try diagnose("Building for debugging...", Self.race, Self.wrapper))
        XCTAssertEqual(sig.entries.count, 1, "\(sig)")
        XCTAssertEqual(sig.entries.first?.rule, "global-mutable-state-not-concurrency-safe")
        XCTAssertEqual(sig.entries.first?.captures["name"], "sharedCounter")
        // The same error on another line of another checkout is the same failure.
        let moved = try diagnose(Self.race.replacingOccurrences(of: ":3:5:", with: ":9:5:").replacingOccurrences(of: "/src/", with: "/ci/work/"), Self.wrapper)
        XCTAssertEqual(StepClassifier.classify(.exited(1), diagnosis: moved, signature: sig).verdict, .bad)
    }

    func testRuleFindingsWinOverUnrecognisedOnes() throws {
        let sig = FailureSignature(diagnosis: try diagnose(Self.macro, "error: the flux capacitor is not charged", Self.wrapper))
        XCTAssertEqual(sig.entries, [FailureSignature.Entry(rule: "macro-not-trusted", captures: sig.entries.first!.captures)], "\(sig)")
        XCTAssertEqual(sig.entries.first?.captures["macro"], "CasePathsMacros", "\(sig)")
    }

    func testVerdicts() throws {
        let sig = FailureSignature(diagnosis: try diagnose(Self.race, Self.wrapper))
        let same = try diagnose(Self.module, Self.race, Self.wrapper)
        let other = try diagnose(Self.module, Self.wrapper)
        XCTAssertEqual(StepClassifier.classify(.exited(0), diagnosis: nil, signature: sig).verdict, .good)
        XCTAssertEqual(StepClassifier.classify(.exited(1), diagnosis: same, signature: sig).verdict, .bad)
        let skip = StepClassifier.classify(.exited(1), diagnosis: other, signature: sig)
        XCTAssertEqual(skip.verdict, .skip)
        XCTAssertEqual(skip.reason, "other failure: no-such-module module=NetworkKit")
        XCTAssertEqual(StepClassifier.classify(.timedOut, diagnosis: nil, signature: sig, timeout: 90).reason, "timed out after 90s")
        XCTAssertEqual(StepClassifier.classify(.couldNotStart("x: command not found"), diagnosis: nil, signature: sig).verdict, .skip)
        // The shell's 126/127 are "bad" to git; to xcmedic the command did not run.
        for status: Int32 in [126, 127] {
            XCTAssertEqual(StepClassifier.classify(.exited(status), diagnosis: same, signature: sig).verdict, .skip)
        }
        // Ended by a signal, without the failure: skip (git would abort on 128+).
        XCTAssertEqual(StepClassifier.classify(.exited(137), diagnosis: other, signature: sig).verdict, .skip)
        XCTAssertEqual([StepVerdict.good, .bad, .skip].map(\.exitCode), [0, 1, 125])
    }

    func testNamedRulesMatchAnyCaptures() throws {
        let sig = FailureSignature(rules: ["macro-not-trusted"])
        XCTAssertEqual(StepClassifier.classify(.exited(65), diagnosis: try diagnose(Self.macro), signature: sig).verdict, .bad)
        XCTAssertEqual(StepClassifier.classify(.exited(65), diagnosis: try diagnose(Self.race), signature: sig).verdict, .skip)
    }

    func testRetriesGoodWhenOnePassesBadOnlyWhenTheFailureRepeats() {
        let bad = RunOutcome(verdict: .bad, reason: "same failure: x", exitStatus: 1)
        let good = RunOutcome(verdict: .good, reason: "passed", exitStatus: 0)
        let skip = RunOutcome(verdict: .skip, reason: "other failure: y", exitStatus: 1)
        XCTAssertEqual(StepClassifier.combine([bad, good]).verdict, .good)
        XCTAssertEqual(StepClassifier.combine([bad, good]).reason, "passed on attempt 2 of 2")
        XCTAssertEqual(StepClassifier.combine([skip, bad, skip]).verdict, .bad)
        XCTAssertEqual(StepClassifier.combine([skip, skip]).verdict, .skip)
    }

    func testBisectLogResult() {
        let found = """
        git bisect start 'abc' 'def'
        # first bad commit: [0123456789abcdef0123456789abcdef01234567] Count launches in a global
        """
        XCTAssertEqual(Bisector.parseResult(found).culprit, "0123456789abcdef0123456789abcdef01234567")
        let skipped = """
        # only skipped commits left to test
        # possible first bad commit: [1111111111111111111111111111111111111111] A
        # possible first bad commit: [2222222222222222222222222222222222222222] B
        """
        let r = Bisector.parseResult(skipped)
        XCTAssertNil(r.culprit)
        XCTAssertEqual(r.candidates.count, 2)
    }
}

/// Child processes: timeouts end the whole process group; a missing program does not start.
final class BisectChildProcessTests: XCTestCase {
    func testTimeoutEndsTheCommandAndWhatItStarted() throws {
        let dir = Scratch.url("xcmedic-child")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let marker = dir.appendingPathComponent("late").path
        let started = Date()
        // The grandchild would write the marker after 2 s if the group were not ended.
        let exit = try ChildProcess.run(["/bin/sh", "-c", "(sleep 2; touch \(marker)) & sleep 30"], .init(timeout: 0.5))
        XCTAssertEqual(exit, .timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        usleep(2_500_000)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker))
    }

    func testStatusOutputAndDirectory() throws {
        let dir = Scratch.url("xcmedic-child")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.log").path
        XCTAssertEqual(try ChildProcess.run(["/bin/sh", "-c", "pwd; echo err >&2; exit 3"], .init(directory: dir.path, outputPath: out)), .exited(3))
        let text = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertEqual(text, "\(dir.path)\nerr\n")
        if case .couldNotStart(let why) = try ChildProcess.run(["no-such-program-xcmedic"], .init()) {
            XCTAssertEqual(why, "no-such-program-xcmedic: command not found")
        } else { XCTFail("a missing program must not start") }
        XCTAssertEqual(try ChildProcess.run(["/bin/sh", "-c", "kill -9 $$"], .init()), .exited(137))
    }
}

extension BisectClassifierTests {
    /// With --retries, the failure to look for is what at least two runs at the bad end show; a run
    /// alone in its failure (a network error) adds nothing; runs that never agree give nothing.
    func testSignatureIsWhatTheRunsAgreeOn() {
        let net = FailureSignature.Entry(rule: "unrecognized", captures: ["message": "Could not resolve host: github.com"])
        let race = FailureSignature.Entry(rule: "global-mutable-state-not-concurrency-safe", captures: ["name": "sharedCounter"])
        let module = FailureSignature.Entry(rule: "no-such-module", captures: ["module": "NetworkKit"])
        XCTAssertEqual(FailureSignature.agreement([[net], [race, module], [race]]).entries, [race])
        XCTAssertEqual(FailureSignature.agreement([[race, module], [module, race]]).entries, [race, module].sorted())
        XCTAssertTrue(FailureSignature.agreement([[net], [race]]).isEmpty)
        XCTAssertTrue(FailureSignature.agreement([[race, race]]).isEmpty, "one run repeating itself is not agreement")
    }
}
