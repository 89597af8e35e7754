import Foundation
import XCTest
import XCMedicTestSupport

/// Issue 13: the CLI as swift-argument-parser users expect it.
final class CLIPolishTests: XCTestCase {
    let failingLog = """
    xcodebuild -workspace Shop.xcworkspace -scheme Shop -destination 'platform=iOS Simulator,name=iPhone 15 Pro,OS=17.5' test
    Test Suite 'All tests' started at 2024-05-01 10:00:00.000.
    Test Case '-[ShopTests.CartTests testAdd]' started.
    /Users/ci/Shop/ShopTests/CartTests.swift:12: error: -[ShopTests.CartTests testAdd] : XCTAssertEqual failed: ("\(String(repeating: "a", count: 200))") is not equal to ("2")
    Test Case '-[ShopTests.CartTests testAdd]' failed (0.003 seconds).
    Test Suite 'All tests' failed at 2024-05-01 10:00:00.010.
    \t Executed 1 test, with 1 failure (0 unexpected) in 0.003 (0.004) seconds
    ** TEST FAILED **

    """

    func testAnInvalidValueListsEveryChoiceOnOneLine() throws {
        let r = try CLI.run(["scan", "--format", "xml", "Examples/macro-trust-failure.log"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("Expected one of: auto, text, json, github, markdown, junit, sarif."), r.stderr)
        let near = try CLI.run(["scan", "--format", "jsn", "Examples/macro-trust-failure.log"])
        XCTAssertTrue(near.stderr.contains("Did you mean 'json'?"), near.stderr)
    }

    func testAMistypedCommandOrRuleIdSuggestsTheNearestOne() throws {
        let r = try CLI.run(["scna", "build.log"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderr, "xcmedic: unknown command 'scna'; did you mean 'scan'? (commands: scan, rules, explain, ci-scripts, flags, bisect, diff, mark-good, history)\n")
        let rule = try CLI.run(["explain", "xctest-assertion-faild"])
        XCTAssertEqual(rule.status, 2)
        XCTAssertTrue(rule.stderr.contains("did you mean 'xctest-assertion-failed'?"), rule.stderr)
    }

    /// `scan` with no file and a terminal on standard input prints its usage and exits 2 instead of waiting.
    func testScanWithoutInputOnATerminalPrintsUsage() throws {
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else { throw XCTSkip("python3 is needed to give xcmedic a pty") }
        let script = """
        import os, pty, sys, subprocess
        master, slave = pty.openpty()
        p = subprocess.run([sys.argv[1], "scan"], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=20)
        sys.stdout.write("status=%d\\n" % p.returncode)
        sys.stdout.write(p.stderr.decode())
        """
        let r = try CLI.run(["-c", script, CLI.binary.path], executable: URL(fileURLWithPath: python))
        XCTAssertTrue(r.stdout.hasPrefix("status=2\n"), r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("USAGE: xcmedic scan"), r.stdout)
        XCTAssertTrue(r.stdout.contains("give a log file, or pipe one in"), r.stdout)
    }

    func testTextReportFitsTheWidthAndKeepsCommandsWhole() throws {
        for (columns, width) in [(nil, 80), ("60", 60), ("120", 120)] as [(String?, Int)] {
            var environment = ProcessInfo.processInfo.environment
            environment["COLUMNS"] = columns
            let r = try CLI.run(["scan", "--no-config", "-"], stdin: Data(failingLog.utf8), environment: environment)
            XCTAssertEqual(r.status, 1)
            let lines = r.stdout.split(separator: "\n")
            let summary = lines.prefix { !$0.hasPrefix("1. ") }
            // The summary is cut to the width with an ellipsis; excerpts (`│`) and commands (`$`) stay whole.
            for line in summary where !line.contains("$ ") {
                XCTAssertLessThanOrEqual(line.count, width, "COLUMNS=\(columns ?? "unset"): \(line)")
            }
            XCTAssertTrue(summary.contains { $0.hasSuffix("…") }, r.stdout)
            XCTAssertTrue(lines.contains { $0.contains("│") && $0.contains(String(repeating: "a", count: 200)) }, "the excerpt is whole")
            XCTAssertTrue(r.stdout.contains("$ xcodebuild test -workspace Shop.xcworkspace -scheme Shop -destination 'platform=iOS Simulator,name=iPhone 15 Pro,OS=17.5' -only-testing:ShopTests/CartTests/testAdd"), r.stdout)
        }
    }

    func testExplainAndRulesWrapToTheWidth() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "70"
        let explain = try CLI.run(["explain", "xctest-assertion-failed"], environment: environment)
        XCTAssertEqual(explain.status, 0)
        // Commands, regexes and example lines stay whole (to copy), and so does one word longer than the line (a URL).
        for line in explain.stdout.split(separator: "\n") where !["     $ ", "    regex ", "  ✓ ", "  ✗ ", "    source: "].contains(where: { line.hasPrefix($0) })
            && line.trimmingCharacters(in: .whitespaces).contains(" ") {
            XCTAssertLessThanOrEqual(line.count, 70, String(line))
        }
        let rules = try CLI.run(["rules", "--no-config"], environment: environment)
        XCTAssertTrue(rules.stdout.split(separator: "\n").allSatisfy { $0.count <= 70 }, rules.stdout.split(separator: "\n").filter { $0.count > 70 }.joined(separator: "\n"))
        environment["COLUMNS"] = nil
        let wide = try CLI.run(["rules", "--no-config"], environment: environment)
        XCTAssertTrue(wide.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 }, "80 columns when not a terminal")
    }

    func testQuietPrintsOneLinePerRootCause() throws {
        let r = try CLI.run(["scan", "--no-config", "--quiet", "-"], stdin: Data(failingLog.utf8))
        XCTAssertEqual(r.status, 1)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, r.stdout)
        XCTAssertTrue(lines[0].hasPrefix("/Users/ci/Shop/ShopTests/CartTests.swift:12: error: "), r.stdout)
        XCTAssertTrue(lines[0].hasSuffix("…"), "cut to 80 columns")
        XCTAssertLessThanOrEqual(lines[0].count, 80)
        let clean = try CLI.run(["scan", "--no-config", "-q", "-"], stdin: Data("Build complete!\n".utf8))
        XCTAssertEqual(clean.stdout, "")
        XCTAssertEqual(clean.status, 0)
    }

    /// With several inputs each occurrence names its own input: stdin as `stdin`, never `-`.
    func testSeveralInputsEachFindingNamesItsOwnInput() throws {
        let r = try CLI.run(["scan", "--no-config", "Examples/macro-trust-failure.log", "-"], stdin: Data(failingLog.utf8))
        XCTAssertFalse(r.stdout.contains("-:"), r.stdout)
        XCTAssertTrue(r.stdout.contains("log line stdin:4"), r.stdout)
        XCTAssertTrue(r.stdout.contains("log line Examples/macro-trust-failure.log:") || r.stdout.contains("log lines Examples/macro-trust-failure.log:"), r.stdout)
    }

    func testARootCauseNeverShowsAnEmptyMessage() throws {
        // A rule whose message template renders empty (its capture matched nothing) shows the title instead.
        let rules = Scratch.url("empty", suffix: ".yml")
        try """
        - id: empty-message
          title: Something named by an empty capture
          category: ci-environment
          severity: error
          role: cause
          patterns:
            - literal: 'BROKE:'
              regex: 'BROKE:(?<what>.*)$'
          message: '{what}'
          explanation: Test rule.
          fixes: [{summary: Look}]
          examples:
            match: [{line: 'BROKE:', captures: {what: ''}}]
            no_match: [{line: 'fine'}]
        """.write(to: rules, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: rules) }
        let r = try CLI.run(["scan", "--no-config", "--rules", rules.path, "-"], stdin: Data("BROKE:\n".utf8))
        XCTAssertTrue(r.stdout.contains("error Something named by an empty capture"), r.stdout)
        XCTAssertFalse(r.stdout.contains("error \n"), r.stdout)
    }

    /// The man page is generated from the commands; the committed one is current.
    func testManPageIsCurrent() throws {
        let r = try CLI.run(["manual"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let committed = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent("docs/xcmedic.1"), encoding: .utf8)
        XCTAssertEqual(r.stdout, committed, "docs/xcmedic.1 is out of date: run .build/debug/xcmedic manual > docs/xcmedic.1")
        for command in ["scan", "rules", "explain", "ci-scripts", "bisect"] { XCTAssertTrue(committed.contains(".Ss xcmedic \(command)\n"), command) }
        XCTAssertTrue(committed.contains("Fl -quiet"))
        let groff = "/usr/bin/groff"
        guard FileManager.default.isExecutableFile(atPath: groff) else { return }
        let rendered = try CLI.run(["-mandoc", "-Tutf8", "-ww", "docs/xcmedic.1"], executable: URL(fileURLWithPath: groff))
        XCTAssertEqual(rendered.status, 0)
        XCTAssertEqual(rendered.stderr, "", "groff warns about the page")
        XCTAssertTrue(rendered.stdout.contains("Gets red iOS and Xcode CI builds green again."))
    }

    /// Completions complete rule ids for `explain`: the bash script, run in bash, offers them.
    func testBashCompletionOffersRuleIDsForExplain() throws {
        let script = try CLI.run(["--generate-completion-script", "bash"])
        XCTAssertTrue(script.stdout.contains("---completion explain -- positional@0"), "explain's id completes through xcmedic")
        let file = Scratch.url("xcmedic-completion", suffix: ".bash")
        try script.stdout.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let binary = CLI.binary.path
        let bash = """
        source "$1"
        COMP_WORDS=("$2" explain xctest-ass); COMP_CWORD=2
        COMP_LINE="$2 explain xctest-ass"; COMP_POINT=${#COMP_LINE}
        _xcmedic
        printf '%s\\n' "${COMPREPLY[@]}"
        """
        let r = try CLI.run(["-c", bash, "bash", file.path, binary], executable: URL(fileURLWithPath: "/bin/bash"))
        XCTAssertEqual(r.stdout.split(separator: "\n").sorted(), ["xctest-assertion-failed", "xctest-assertion-message"], r.stderr)
    }

    func testZshCompletionScriptCompletesRuleIDsForExplain() throws {
        let zsh = "/usr/bin/zsh"
        guard FileManager.default.isExecutableFile(atPath: zsh) else { throw XCTSkip("zsh is not installed (.ci/run installs it)") }
        let script = try CLI.run(["--generate-completion-script", "zsh"])
        XCTAssertTrue(script.stdout.contains("':id:{__xcmedic_custom_complete ---completion explain -- positional@0"), script.stdout)
        let file = Scratch.url("_xcmedic")
        try script.stdout.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let syntax = try CLI.run(["-n", file.path], executable: URL(fileURLWithPath: zsh))
        XCTAssertEqual(syntax.status, 0, syntax.stderr)
        // What the zsh function runs to get the candidates.
        let ids = try CLI.run(["---completion", "explain", "--", "positional@0", "2", "9", "xcmedic", "explain", "xctest-ass"])
        XCTAssertEqual(ids.stdout.split(separator: "\n").sorted(), ["xctest-assertion-failed", "xctest-assertion-message"], ids.stderr)
    }
}
