import Foundation
import XCTest
import XCMedicTestSupport

/// Every `xcmedic` command line of README.md and docs/*.md, run as written in bash, in document order, in a
/// copy of Examples/SampleApp made a git repository, with stand-ins only for what is not on this machine
/// (`xcodebuild`, `xcbeautify`, `swift build`, `buildkite-agent`). Each command's output is checked; a
/// documented command this test has no check for fails it. The CI examples written as whole scripts (GitHub
/// Actions, fastlane, Bitrise, Xcode Cloud) are run by `ScanCLIDocsTests`.
final class DocsCommandsTests: XCTestCase {
    struct Documented {
        var file: String
        var command: String
    }

    /// The command lines of the fenced `sh`/`bash`/`yaml`/plain blocks that run xcmedic: comments off, `\`
    /// continuations joined, a YAML list dash or `run:`/`command:` key taken off. Lines of a whole script
    /// (`"$@"`, the Xcode Cloud and Bitrise scripts) are left to `ScanCLIDocsTests`.
    static func documentedCommands() throws -> [Documented] {
        var found: [Documented] = []
        let docs = try FileManager.default.contentsOfDirectory(atPath: CLI.repositoryRoot.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") && $0 != "architecture.md" }.sorted().map { "docs/" + $0 }
        for file in ["README.md"] + docs {
            let text = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent(file), encoding: .utf8)
            var inBlock = false, runnable = false, blockStart = false, pending = ""
            for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let line = String(raw)
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                    let info = line.trimmingCharacters(in: .whitespaces).dropFirst(3)
                    if inBlock { inBlock = false } else { inBlock = true; runnable = ["sh", "bash", "yaml", ""].contains(String(info)); blockStart = true }
                    continue
                }
                // A whole script (`#!/bin/sh`) is run whole by ScanCLIDocsTests.
                if inBlock, blockStart { blockStart = false; if line.hasPrefix("#!") { runnable = false } }
                guard inBlock, runnable else { continue }
                var command = pending + line.trimmingCharacters(in: .whitespaces)
                pending = ""
                if command.hasSuffix("\\") { pending = String(command.dropLast()); continue }
                if let comment = command.range(of: "  #") ?? command.range(of: " # ") { command = String(command[..<comment.lowerBound]) }
                for prefix in ["- ", "run: ", "command: "] where command.hasPrefix(prefix) { command = String(command.dropFirst(prefix.count)) }
                command = command.trimmingCharacters(in: .whitespaces)
                let runsXcmedic = command.hasPrefix("xcmedic ") || command.hasPrefix("swift run xcmedic ")
                    || ["| xcmedic ", "$(xcmedic ", "&& xcmedic "].contains { command.contains($0) }
                guard runsXcmedic, !command.hasPrefix("#"), !command.contains("\"$@\""), !command.contains("$report_dir"),
                      !command.hasPrefix("xcmedic scan \"$log\"") else { continue }
                found.append(Documented(file: file, command: command.replacingOccurrences(of: "  ", with: " ")))
            }
        }
        return found
    }

    struct Check {
        var statuses: Set<Int32>
        var verify: (_ stdout: String, _ stderr: String, _ sandbox: URL) throws -> Void
    }

    /// What each documented command must do; matched by the command's start (longest first).
    func check(for command: String) -> Check? {
        let checks: [(String, Check)] = [
            ("swift run xcmedic scan Examples/macro-trust-failure.log", Check(statuses: [1]) { out, _, _ in
                XCTAssertTrue(out.contains("xcmedic ci-scripts --macro swift-case-paths:CasePathsMacros"), out) }),
            ("xcmedic scan build.log", Check(statuses: [1]) { out, _, _ in XCTAssertTrue(out.contains("Root cause"), out) }),
            ("xcmedic scan ~/Library/Developer/Xcode/DerivedData/App-*/Logs/Build", Check(statuses: [1]) { out, _, _ in
                XCTAssertTrue(out.contains("A1B2.xcactivitylog") && out.contains("CasePathsMacros"), out) }),
            ("xcodebuild ... 2>&1 | xcmedic scan --tee | xcbeautify", Check(statuses: [0]) { out, err, sandbox in
                XCTAssertEqual(out, try String(contentsOf: sandbox.appendingPathComponent("build.log"), encoding: .utf8), "the log flows on unchanged")
                XCTAssertTrue(err.contains("Root cause"), err) }),
            ("xcodebuild ... 2>&1 | xcmedic scan", Check(statuses: [1]) { out, _, _ in XCTAssertTrue(out.contains("Root cause"), out) }),
            ("xcodebuild test -scheme App", Check(statuses: [0]) { out, err, _ in
                XCTAssertTrue(out.contains("must be enabled before it can be used"), out)
                XCTAssertTrue(err.contains("Root cause"), err) }),
            ("xcmedic scan --format json build.log", Check(statuses: [1]) { out, _, _ in
                let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
                XCTAssertEqual(object?["status"] as? String, "failed") }),
            ("xcmedic scan --format sarif --report xcmedic.sarif build.log", Check(statuses: [0, 1]) { _, _, sandbox in
                let object = try JSONSerialization.jsonObject(with: Data(contentsOf: sandbox.appendingPathComponent("xcmedic.sarif"))) as? [String: Any]
                XCTAssertEqual(object?["version"] as? String, "2.1.0") }),
            ("xcmedic scan --format junit --report xcmedic.xml build.log", Check(statuses: [0]) { _, _, sandbox in
                XCTAssertTrue(try String(contentsOf: sandbox.appendingPathComponent("xcmedic.xml"), encoding: .utf8).contains("<testsuites")) }),
            ("mkdir -p reports && xcmedic scan --format junit --report reports/xcmedic.xml build.log", Check(statuses: [0]) { _, _, sandbox in
                XCTAssertTrue(try String(contentsOf: sandbox.appendingPathComponent("reports/xcmedic.xml"), encoding: .utf8).contains("<failure")) }),
            ("xcmedic scan --format markdown build.log | buildkite-agent annotate", Check(statuses: [0]) { _, _, sandbox in
                XCTAssertTrue(try String(contentsOf: sandbox.appendingPathComponent("annotation.md"), encoding: .utf8).contains("## ❌ xcmedic: the build failed")) }),
            ("xcmedic scan --quiet build.log", Check(statuses: [1]) { out, _, _ in
                XCTAssertFalse(out.isEmpty)
                XCTAssertTrue(out.split(separator: "\n").allSatisfy { $0.count <= 80 && $0.hasSuffix("]") || $0.hasSuffix("…") }, out) }),
            ("xcmedic rules --check my-rules.yml", Check(statuses: [0]) { out, _, _ in XCTAssertTrue(out.contains("all pass"), out) }),
            ("xcmedic rules", Check(statuses: [0]) { out, _, _ in XCTAssertTrue(out.contains("macro-not-trusted") && out.hasSuffix(" rules\n"), out) }),
            ("xcmedic explain macro-not-trusted", Check(statuses: [0]) { out, _, _ in XCTAssertTrue(out.hasPrefix("macro-not-trusted: "), out) }),
            ("xcmedic ci-scripts --from-log build.log", Check(statuses: [0]) { out, _, _ in XCTAssertTrue(out.contains("ci_scripts/ci_post_clone.sh"), out) }),
            ("xcmedic ci-scripts --replace --from-log build.log", Check(statuses: [0]) { out, _, _ in XCTAssertTrue(out.contains("ci_post_clone.sh"), out) }),
            ("xcmedic ci-scripts --dry-run --from-log build.log", Check(statuses: [0]) { out, _, _ in
                XCTAssertTrue(out.contains("dry run") || out.contains("already up to date"), out) }),
            ("xcmedic ci-scripts --macro swift-case-paths:CasePathsMacros", Check(statuses: [0]) { out, _, _ in
                XCTAssertTrue(out.contains("swiftlintplugins:SwiftLintBuildToolPlugin"), out) }),
            ("xcmedic ci-scripts --remove swift-perception:PerceptionMacros", Check(statuses: [0, 2]) { out, err, _ in
                // Removing what the block does not trust is an error that says so.
                XCTAssertTrue(out.contains("removed") || err.contains("swift-perception"), out + err) }),
            ("xcmedic ci-scripts --skip-validation", Check(statuses: [0]) { out, _, _ in XCTAssertTrue(out.contains("Skipping macro and plugin validation"), out) }),
            ("xcmedic ci-scripts --lint", Check(statuses: [0, 1]) { out, _, _ in XCTAssertTrue(out.hasPrefix("Xcode Cloud runs ci_scripts/"), out) }),
            ("xcodebuild $(xcmedic flags) -scheme App build", Check(statuses: [0]) { out, _, _ in
                XCTAssertTrue(out.contains("-skipMacroValidation -skipPackagePluginValidation -scheme App build"), out) }),
            ("xcmedic flags --macros", Check(statuses: [0]) { out, _, _ in XCTAssertEqual(out, "-skipMacroValidation\n") }),
            ("xcmedic flags --format fastlane", Check(statuses: [0]) { out, _, _ in XCTAssertTrue(out.contains("-skipMacroValidation -skipPackagePluginValidation"), out) }),
            ("xcmedic flags --format json", Check(statuses: [0]) { out, _, _ in XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(out.utf8))) }),
            ("xcmedic diff --from last-good", Check(statuses: [0]) { out, _, _ in XCTAssertTrue(out.contains("Break the build"), out) }),
            ("xcmedic bisect --good last-good -- swift build", Check(statuses: [0]) { out, _, _ in
                XCTAssertTrue(out.contains("Break the build"), out) }),
            ("xcmedic bisect --good v2.3.0 --bad main --timeout 900 --retries 1 -- xcodebuild -scheme App build", Check(statuses: [0]) { out, _, _ in
                XCTAssertTrue(out.contains("Break the build"), out) }),
            ("xcmedic bisect -j 4 --good v2.3.0 -- xcodebuild -scheme App build", Check(statuses: [0]) { out, _, _ in
                XCTAssertTrue(out.contains("Break the build"), out) }),
            ("xcmedic bisect --recover", Check(statuses: [0]) { out, err, _ in
                XCTAssertTrue((out + err).contains("nothing to recover"), out + err) }),
            // History: the store (.xcmedic/, kept between commands) fills in the documents' order.
            ("xcmedic scan --record build.log", Check(statuses: [1]) { out, _, sandbox in
                XCTAssertTrue(out.contains("Root cause"), out)
                XCTAssertTrue(FileManager.default.fileExists(atPath: sandbox.appendingPathComponent(".xcmedic/history.sqlite").path)) }),
            ("xcmedic scan --record \"postgres://", Check(statuses: [1]) { out, err, _ in
                XCTAssertTrue(out.contains("Root cause"), out)
                XCTAssertTrue(err.contains("history not recorded"), err) }),
            ("xcmedic scan --record \"$XCMEDIC_HISTORY\" build.log", Check(statuses: [1]) { out, _, _ in XCTAssertTrue(out.contains("Root cause"), out) }),
            ("xcmedic history", Check(statuses: [0]) { out, _, _ in XCTAssertTrue(out.contains("Top causes of failed builds"), out) }),
            // The sandbox recorded builds at its HEAD only: no build at v2.3.0 to count from, said in one line.
            ("xcmedic history new --since v2.3.0", Check(statuses: [2]) { _, err, _ in XCTAssertTrue(err.contains("no build recorded at v2.3.0"), err) }),
            ("xcmedic history flaky", Check(statuses: [0]) { out, _, _ in XCTAssertTrue(out.contains("Flaky tests by flip rate"), out) }),
            ("xcmedic history show 3f9a12c0", Check(statuses: [2]) { _, err, _ in
                XCTAssertTrue(err.contains("no recorded cause has the fingerprint 3f9a12c0"), err) }),
            ("xcmedic history --export ndjson", Check(statuses: [0]) { _, _, sandbox in try Self.assertExport(sandbox) }),
            ("xcmedic history --since 2026-01-01 --export ndjson", Check(statuses: [0]) { _, _, sandbox in try Self.assertExport(sandbox) }),
            ("xcmedic history prune --older-than 180d", Check(statuses: [0]) { out, _, _ in XCTAssertTrue(out.contains("pruned 0 builds"), out) }),
            ("xcmedic mark-good \"$GITHUB_SHA\"", Check(statuses: [0]) { _, _, sandbox in try Self.assertLastGood(sandbox) }),
            ("xcmedic mark-good \"$CI_COMMIT\"", Check(statuses: [0]) { _, _, sandbox in try Self.assertLastGood(sandbox) }),
        ]
        return checks.filter { command.hasPrefix($0.0) }.max { $0.0.count < $1.0.count }?.1
    }

    static func assertExport(_ sandbox: URL) throws {
        let export = try String(contentsOf: sandbox.appendingPathComponent("history.ndjson"), encoding: .utf8)
        XCTAssertTrue(export.contains(#""schema":"xcmedic.history.export/1""#), export)
    }

    static func assertLastGood(_ sandbox: URL) throws {
        let r = try CLI.run(["rev-parse", "refs/xcmedic/last-good", "HEAD"], cwd: sandbox, executable: URL(fileURLWithPath: "/usr/bin/git"))
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines.first, lines.last, "last-good points at the commit named")
    }

    func testEveryDocumentedCommandRunsAsWritten() throws {
        let commands = try Self.documentedCommands()
        XCTAssertGreaterThanOrEqual(commands.count, 30, commands.map(\.command).joined(separator: "\n"))
        let sandbox = try makeSandbox()
        defer { try? FileManager.default.removeItem(at: sandbox.deletingLastPathComponent()) }
        for documented in commands {
            guard let check = check(for: documented.command) else {
                XCTFail("\(documented.file): no check for the documented command: \(documented.command)")
                continue
            }
            // Each command starts from the repository as committed (the bisect and mark-good ones need a clean tree).
            _ = try git(["checkout", "-q", "--", "."], sandbox)
            _ = try git(["clean", "-qfdx", "-e", "ci_scripts", "-e", "xcmedic.sarif", "-e", ".xcmedic"], sandbox)
            _ = try git(["update-ref", "refs/xcmedic/last-good", "v2.3.0"], sandbox)
            let r = try bash(documented.command, in: sandbox)
            XCTAssertTrue(check.statuses.contains(r.status), "\(documented.file): \(documented.command): status \(r.status)\n\(r.stderr)")
            let failures = testRun?.failureCount ?? 0
            try check.verify(r.stdout, r.stderr, sandbox)
            if (testRun?.failureCount ?? 0) > failures { print("\(documented.command)\nstdout: \(r.stdout)\nstderr: \(r.stderr)") }
        }
    }

    // MARK: - The sandbox

    var home: URL!
    var bin: URL!

    /// Examples/SampleApp (its build.log is a failing xcodebuild log) as a git repository of three commits:
    /// v2.3.0 and last-good build, the third breaks `swift build` and `xcodebuild -scheme App build`.
    func makeSandbox() throws -> URL {
        let root = Scratch.url("xcmedic-docs-commands")
        let sandbox = root.appendingPathComponent("App")
        home = root.appendingPathComponent("home")
        bin = root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.repositoryRoot.appendingPathComponent("Examples/SampleApp"), to: sandbox)
        try FileManager.default.createDirectory(at: sandbox.appendingPathComponent("Examples"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.repositoryRoot.appendingPathComponent("Examples/macro-trust-failure.log"),
                                         to: sandbox.appendingPathComponent("Examples/macro-trust-failure.log"))
        // docs/rules.md's example rules file, as written.
        let rulesDoc = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        let yamlStart = try XCTUnwrap(rulesDoc.range(of: "```yaml\n"))
        let yamlEnd = try XCTUnwrap(rulesDoc.range(of: "\n```", range: yamlStart.upperBound..<rulesDoc.endIndex))
        try String(rulesDoc[yamlStart.upperBound..<yamlEnd.lowerBound] + "\n").write(to: sandbox.appendingPathComponent("my-rules.yml"), atomically: true, encoding: .utf8)
        // Xcode's activity logs: gzip around the console text stands in for SLF here (ActivityLogCLITests reads real SLF).
        let logs = home.appendingPathComponent("Library/Developer/Xcode/DerivedData/App-abcdef/Logs/Build")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        _ = try bash("gzip -c build.log > '\(logs.appendingPathComponent("A1B2.xcactivitylog").path)'", in: sandbox)

        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sandbox.appendingPathComponent("build.log"), to: root.appendingPathComponent("xcodebuild-output.txt"))
        let standIns = [
            // xcodebuild: the failing log (a copy of build.log, which `| tee build.log` rewrites) for a test run; a build with the skip flags prints its arguments and passes;
            // `-scheme App build` fails once the tree has BROKEN, as a compile error would.
            "xcodebuild": """
            #!/bin/bash
            case " $* " in
              *" -skipMacroValidation "*) echo "xcodebuild $*"; echo "** BUILD SUCCEEDED **"; exit 0 ;;
              *" ... "*|*" test "*) cat "$XCODEBUILD_OUTPUT"; exit 65 ;;
            esac
            if [ -f BROKEN ]; then echo "$PWD/Sources/App.swift:3:5: error: cannot find 'broken' in scope"; echo "** BUILD FAILED **"; exit 65; fi
            echo "** BUILD SUCCEEDED **"
            """,
            "swift": """
            #!/bin/bash
            if [ "$1 $2" = "run xcmedic" ]; then shift 2; exec xcmedic "$@"; fi
            if [ "$1" = build ]; then
              if [ -f BROKEN ]; then echo "$PWD/Sources/App.swift:3:5: error: cannot find 'broken' in scope"; exit 1; fi
              echo "Build complete! (0.10s)"; exit 0
            fi
            exit 64
            """,
            "xcbeautify": "#!/bin/sh\ncat\n",
            "buildkite-agent": "#!/bin/sh\ncat > annotation.md\n",
        ]
        for (name, script) in standIns {
            let file = bin.appendingPathComponent(name)
            try (script + "\n").write(to: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        }

        for args in [["init", "-q", "-b", "main"], ["config", "user.email", "ci@example.com"], ["config", "user.name", "CI"],
                     ["add", "-A", "-f"], ["commit", "-qm", "App as released"], ["tag", "v2.3.0"], ["update-ref", "refs/xcmedic/last-good", "HEAD"]] {
            XCTAssertEqual(try git(args, sandbox).status, 0)
        }
        try "README change\n".write(to: sandbox.appendingPathComponent("NOTES.md"), atomically: true, encoding: .utf8)
        _ = try git(["add", "-A"], sandbox)
        _ = try git(["commit", "-qm", "Notes"], sandbox)
        try "broken\n".write(to: sandbox.appendingPathComponent("BROKEN"), atomically: true, encoding: .utf8)
        _ = try git(["add", "-A"], sandbox)
        _ = try git(["commit", "-qm", "Break the build"], sandbox)
        return sandbox
    }

    func git(_ args: [String], _ cwd: URL) throws -> CLI.Result {
        try CLI.run(args, cwd: cwd, executable: URL(fileURLWithPath: "/usr/bin/git"))
    }

    func bash(_ command: String, in cwd: URL) throws -> CLI.Result {
        var env = ProcessInfo.processInfo.environment
        for name in env.keys where name.hasPrefix("GITHUB_") || name.hasPrefix("CI") || name == "COLUMNS" || name == "NO_COLOR" { env[name] = nil }
        env["HOME"] = home.path
        env["PATH"] = bin.path + ":" + CLI.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
        env["GITHUB_SHA"] = try git(["rev-parse", "HEAD"], cwd).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        env["CI_COMMIT"] = env["GITHUB_SHA"]
        env["XCMEDIC_HISTORY"] = cwd.appendingPathComponent(".xcmedic/history.sqlite").path
        env["XCODEBUILD_OUTPUT"] = home.deletingLastPathComponent().appendingPathComponent("xcodebuild-output.txt").path
        return try CLI.run(["-c", command], environment: env, cwd: cwd, executable: URL(fileURLWithPath: "/bin/bash"))
    }
}
