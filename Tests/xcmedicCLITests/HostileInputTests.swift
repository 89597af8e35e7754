import Foundation
import XCTest
import XCMedicTestSupport

/// Odd bytes and odd files give a result or one line on stderr with exit 2, never a crash.
final class HostileInputTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = Scratch.url("xcmedic-hostile")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// A repository's `.xcmedic.yml` (read without asking) with a rule that backtracks: the scan ends,
    /// the rule is switched off after a few timeouts and a warning names it and its file. How little time
    /// it costs on a large log is measured by Benchmarks/hostile-rules.sh, not here.
    func testAHostileConfigRuleIsSwitchedOffAndNamed() throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try """
        - id: slow-rule
          title: Slow rule
          category: phase-script-failed
          severity: error
          role: cause
          patterns:
            - literal: 'boom '
              regex: 'boom a*a*a*a*a*a*b'
          explanation: A rule that backtracks.
          fixes:
            - summary: Do not write rules like this
          examples:
            match:
              - line: 'boom aab'
                source: written for these tests
            no_match:
              - line: 'boom'

        """.write(to: dir.appendingPathComponent(".xcmedic.yml"), atomically: true, encoding: .utf8)
        var lines: [String] = []
        for i in 0..<20_000 { lines.append(i % 100 == 0 ? "boom " + String(repeating: "a", count: 3_000) : "CompileSwift normal arm64 /src/File\(i).swift") }
        try Data((lines.joined(separator: "\n") + "\n** BUILD SUCCEEDED **\n").utf8).write(to: dir.appendingPathComponent("build.log"))
        let r = try CLI.run(["scan", "--format", "json", "build.log"], cwd: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let findings = try XCTUnwrap(json["findings"] as? [[String: Any]])
        let off = try XCTUnwrap(findings.first { $0["rule"] as? String == "rule-switched-off" }, r.stdout)
        XCTAssertEqual(off["severity"] as? String, "warning")
        let captures = try XCTUnwrap(off["captures"] as? [String: String])
        XCTAssertEqual(captures["rule"], "slow-rule")
        XCTAssertTrue(captures["origin"]?.hasSuffix("/.xcmedic.yml") ?? false, "\(captures)")
        XCTAssertEqual(findings.first { $0["rule"] as? String == "rule-timed-out" }?["count"] as? Int, 3, "tried again after it was switched off")
        let text = try CLI.run(["scan", "build.log"], environment: ["COLUMNS": "400"], cwd: dir)
        XCTAssertTrue(text.stdout.contains("Rule 'slow-rule' from ") && text.stdout.contains(".xcmedic.yml was switched off"), text.stdout)
    }

    func testEmptyFileIsAnUnknownResultNotAGreenOne() throws {
        let r = try CLI.run(["scan", "--no-config", "--format", "json", try file("empty.log", [])])
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stdout.contains(#""status" : "unknown""#), r.stdout)
    }

    func testRandomBinaryBytesAreScannedWithoutCrashing() throws {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<2_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes += Array("\nerror: after the noise\n".utf8)
        let r = try CLI.run(["scan", "--no-config", "--format", "json", try file("noise.bin", bytes)])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stdout.contains("error: after the noise"), r.stdout.suffix(500).description)
    }

    func testMisdecodedLatin1QuotesStillMatch() throws {
        // "couldn’t" saved as UTF-8 bytes of its Latin-1 reading: couldnâ€™t
        let line = "Macro \"M\" from package \"p\" must be enabled before it can be used; we couldnâ€™t build\n"
        let r = try CLI.run(["scan", "--no-config", try file("latin1.log", Array(line.utf8))])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains(#"Macro "M" from package "p""#), r.stdout)
    }

    func testCROnlyLineEndsGiveRightLineNumbers() throws {
        let log = "one\rtwo\rerror: on line three\r"
        let r = try CLI.run(["scan", "--no-config", "--format", "json", try file("cr.log", Array(log.utf8))])
        XCTAssertTrue(r.stdout.contains(#""line" : 3"#), r.stdout)
        XCTAssertTrue(r.stdout.contains(#""lines" : 3"#), r.stdout)
    }

    func testDirectoryIsOneLineExitTwo() throws {
        let r = try CLI.run(["scan", dir.path])
        XCTAssertEqual(r.status, 2)
        // A folder means its activity logs; one without any is an input error.
        XCTAssertEqual(r.stderr, "xcmedic: \(dir.path): is a directory with no .xcactivitylog files (name a log file, or a Logs/Build or DerivedData folder)\n")
    }

    func testUnreadableFileIsOneLineExitTwo() throws {
        let path = try file("secret.log", Array("x\n".utf8))
        chmod(path, 0)
        var arguments = ["scan", path]
        if getuid() == 0 {
            // Root reads any file: run xcmedic as nobody, for whom the file is unreadable.
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                throw XCTSkip("running as root without setpriv: cannot make a file unreadable")
            }
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", CLI.binary.path] + arguments
        }
        let r = try CLI.run(arguments, executable: getuid() == 0 ? URL(fileURLWithPath: "/usr/bin/setpriv") : nil)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(r.stderr, "xcmedic: \(path): permission denied\n")
    }

    func testClosedStdinIsAnEmptyLog() throws {
        let r = try CLI.run(["scan", "--no-config", "--format", "json"])  // stdin is /dev/null
        XCTAssertEqual(r.status, 3, "no build result: " + r.stderr)
        XCTAssertTrue(r.stdout.contains(#""path" : "-""#))
    }

    func testLogCutInsideAMultiLineBlockKeepsWhatItHas() throws {
        let log = "/src/A.swift:3:5: error: sending 'ns' risks causing data races\n 3 |     take(ns)\n   |     |- error: sending 'ns'"
        let r = try CLI.run(["scan", "--no-config", "--format", "json", try file("cut.log", Array(log.utf8))])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains(#""fileLine" : 3"#), r.stdout)
        XCTAssertTrue(r.stdout.contains(#""   |     |- error: sending 'ns'""#), r.stdout)
    }

    func testRulesFileErrorsAreOneLineExitTwo() throws {
        let rules = try file("bad.yml", Array("- id: Bad Id\n".utf8))
        let r = try CLI.run(["scan", "--rules", rules, "-"], stdin: Data())
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("bad.yml:1: rule 'Bad Id': field 'id'"), r.stderr)
    }
}
