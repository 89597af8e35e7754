import Foundation
import XCTest
import XCMedicTestSupport
import XCMedicKit
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Runs the README's CI steps as written, with stand-ins only for what is not on this machine
/// (`xcodebuild`, `xcbeautify`, fastlane's `run_tests`) and the CI's variables set as the services set them.
final class ScanCLIDocsTests: XCTestCase {
    /// A failing xcodebuild log: a compile error in the workspace, an untrusted macro, the wrappers.
    static let failingLog = """
    Command line invocation:
        /Applications/Xcode.app/Contents/Developer/usr/bin/xcodebuild test -scheme App
    /WORKSPACE/Sources/App/Model.swift:3:5: error: cannot find 'thing' in scope
    Macro "CasePathsMacros" from package "swift-case-paths" must be enabled before it can be used
    Testing failed:
    \tMacro "CasePathsMacros" from package "swift-case-paths" must be enabled before it can be used
    ** TEST FAILED **

    """

    var directory: URL!

    override func setUpWithError() throws {
        directory = Scratch.url("xcmedic-docs")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - Reading the README

    /// The fenced block after `<!-- ci-example: NAME -->`.
    static func example(_ name: String) throws -> String {
        let readme = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = try XCTUnwrap(readme.range(of: "<!-- ci-example: \(name) -->"), "README has no example \(name)")
        let rest = readme[marker.upperBound...]
        let open = try XCTUnwrap(rest.range(of: "```"))
        let bodyStart = try XCTUnwrap(rest[open.upperBound...].firstIndex(of: "\n"))
        let close = try XCTUnwrap(rest[bodyStart...].range(of: "\n```"))
        return String(rest[rest.index(after: bodyStart)..<close.lowerBound]) + "\n"
    }

    /// The block scalar under `key: |` (or `|-`) in a YAML example, de-indented.
    static func yamlBlock(_ yaml: String, key: String, occurrence: Int = 0) throws -> String {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        let starts = lines.indices.filter { lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("\(key): |")
            || lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("- \(key): |") }
        let start = try XCTUnwrap(starts.dropFirst(occurrence).first, "no \(key): | block")
        let keyIndent = lines[start].prefix { $0 == " " }.count
        var body: [Substring] = []
        for line in lines[(start + 1)...] {
            let indent = line.prefix { $0 == " " }.count
            if !line.trimmingCharacters(in: .whitespaces).isEmpty && indent <= keyIndent + (lines[start].contains("- \(key)") ? 2 : 0) { break }
            body.append(line)
        }
        let common = body.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return body.map { $0.count >= common ? String($0.dropFirst(common)) : "" }.joined(separator: "\n") + "\n"
    }

    /// The one-line `run:` of a YAML step.
    static func yamlRunLine(_ yaml: String, occurrence: Int) throws -> String {
        let runs = yaml.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("run: ") && $0 != "run: |" }
        let line = try XCTUnwrap(runs.dropFirst(occurrence).first)
        return String(line.dropFirst("run: ".count)) + "\n"
    }

    // MARK: - Running

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    func run(_ shell: String, script: String, environment: [String: String] = [:], cwd: URL? = nil) throws -> Run {
        let file = directory.appendingPathComponent("script-\(UUID().uuidString)")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = [file.path]
        process.currentDirectoryURL = cwd ?? directory
        var env = RawCLI.cleanEnvironment
        env["PATH"] = CLI.binary.deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    func shellcheck(_ script: String, shell: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/shellcheck") else { return }
        let result = try run("/bin/sh", script: "shellcheck -s \(shell) - <<'EOF'\n\(script)EOF\n")
        XCTAssertEqual(result.status, 0, "shellcheck: \(result.stdout)\(result.stderr)")
    }

    var log: String { Self.failingLog.replacingOccurrences(of: "/WORKSPACE", with: directory.path) }

    // MARK: - The examples

    func testGitHubActionsStep() throws {
        let yaml = try Self.example("github")
        let build = try Self.yamlBlock(yaml, key: "run")
        let sarifStep = try Self.yamlRunLine(yaml, occurrence: 0)
        try shellcheck(build, shell: "bash")
        try shellcheck(sarifStep, shell: "bash")
        let fixture = directory.appendingPathComponent("xcodebuild-output.txt")
        try log.write(to: fixture, atomically: true, encoding: .utf8)
        // GitHub runs `run:` with `bash -e {0}`; xcodebuild fails with 65 as it does on a failed test action.
        let standIns = "xcodebuild() { cat '\(fixture.path)'; return 65; }\nxcbeautify() { cat; }\n"
        let summary = directory.appendingPathComponent("summary.md")
        let env = ["GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": directory.path, "GITHUB_STEP_SUMMARY": summary.path]

        let result = try run("/bin/bash", script: "set -e\n" + standIns + build, environment: env)
        XCTAssertEqual(result.status, 1, "the step fails with the scan's status: \(result.stderr)")
        XCTAssertEqual(result.stdout, log, "the log reaches xcbeautify unchanged")
        XCTAssertTrue(result.stderr.contains("::error file=Sources/App/Model.swift,line=3,col=5,"), result.stderr)
        XCTAssertTrue(result.stderr.contains("::error title=Package macro not trusted on this machine (2 times)::"), result.stderr)
        XCTAssertTrue(try String(contentsOf: summary, encoding: .utf8).contains("### Root cause"))
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("build.log"), encoding: .utf8), log)

        let sarif = try run("/bin/bash", script: "set -e\n" + sarifStep, environment: env)
        XCTAssertEqual(sarif.status, 0, sarif.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("xcmedic.sarif"))) as? [String: Any]
        XCTAssertEqual(object?["version"] as? String, "2.1.0")
    }

    func testFastlaneErrorBlock() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ruby") else {
            throw XCTSkip("ruby is not installed; the fastlane example was not run")
        }
        let fastfile = try Self.example("fastlane")
        let fastlaneDir = directory.appendingPathComponent("fastlane")
        try FileManager.default.createDirectory(at: fastlaneDir, withIntermediateDirectories: true)
        try fastfile.write(to: fastlaneDir.appendingPathComponent("Fastfile"), atomically: true, encoding: .utf8)
        let fixture = directory.appendingPathComponent("xcodebuild-output.txt")
        try log.write(to: fixture, atomically: true, encoding: .utf8)
        // fastlane's directory rules: actions run in the project root, lane code, the error block and `sh`
        // in fastlane/; `sh` raises on a non-zero status unless given an error_callback.
        let harness = #"""
        $lanes = {}; $error = nil
        def lane(name, &block)
          $lanes[name] = block
        end
        def error(&block)
          $error = block
        end
        def run_tests(scheme:, buildlog_path:)
          Dir.chdir("..") do
            require "fileutils"
            FileUtils.mkdir_p(buildlog_path)
            FileUtils.cp(ENV.fetch("FIXTURE"), File.join(buildlog_path, "App-#{scheme}.log"))
          end
          raise "Tests have failed"
        end
        def sh(*command, log: true, error_callback: nil)
          out = IO.popen(command, err: [:child, :out], &:read)
          print out
          if $?.exitstatus != 0
            raise "Exit status of command '#{command.join(" ")}' was #{$?.exitstatus} instead of 0." unless error_callback
            error_callback.call(out)
          end
          out
        end
        Dir.chdir("fastlane") do
          eval(File.read("Fastfile"), binding, "Fastfile")
          begin
            $lanes[:tests].call
          rescue => e
            $error.call(:tests, e)
            puts "lane failed: #{e.message}"
          end
        end
        """#
        try harness.write(to: directory.appendingPathComponent("harness.rb"), atomically: true, encoding: .utf8)
        let result = try run("/bin/sh", script: "exec ruby harness.rb\n", environment: ["FIXTURE": fixture.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("xcmedic: the build failed"), result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains(#"Macro "CasePathsMacros" from package "swift-case-paths" is not trusted"#), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("lane failed: Tests have failed\n"), result.stdout)
    }

    func testBitriseScriptStep() throws {
        let script = try Self.yamlBlock(try Self.example("bitrise"), key: "content")
        try shellcheck(script, shell: "bash")
        let rawLog = directory.appendingPathComponent("raw-xcodebuild-output.log")
        try log.write(to: rawLog, atomically: true, encoding: .utf8)
        let deploy = directory.appendingPathComponent("test_results")
        try FileManager.default.createDirectory(at: deploy, withIntermediateDirectories: true)
        let env = ["BITRISE_IO": "true", "BITRISE_BUILD_STATUS": "1", "BITRISE_XCODE_RAW_RESULT_TEXT_PATH": rawLog.path,
                   "BITRISE_TEST_DEPLOY_DIR": deploy.path]

        let result = try run("/bin/bash", script: script, environment: env)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("xcmedic: the build failed"), result.stdout)
        let info = try JSONSerialization.jsonObject(with: Data(contentsOf: deploy.appendingPathComponent("xcmedic/test-info.json"))) as? [String: String]
        XCTAssertEqual(info, ["test-name": "xcmedic"])
        let junit = try XMLDocument(contentsOf: deploy.appendingPathComponent("xcmedic/xcmedic.xml"), options: [])
        let classes = try junit.nodes(forXPath: "//testcase/@classname").compactMap(\.stringValue)
        XCTAssertTrue(classes.contains("macro-validation"), "\(classes)")

        var passed = env
        passed["BITRISE_BUILD_STATUS"] = "0"
        let quiet = try run("/bin/bash", script: script, environment: passed)
        XCTAssertEqual(quiet.status, 0)
        XCTAssertEqual(quiet.stdout, "", "nothing to explain when the build passed")
    }

    func testXcodeCloudPostXcodebuildScript() throws {
        let script = try Self.example("xcode-cloud")
        // The README shows exactly what `xcmedic ci-scripts --post-xcodebuild` writes.
        XCTAssertEqual(script, PostXcodebuildScript.newScript(block: PostXcodebuildScript.block(command: "xcmedic ci-scripts --post-xcodebuild")),
                       "README's Xcode Cloud example is not what ci-scripts --post-xcodebuild writes")
        try shellcheck(script, shell: "sh")
        // Stand-in derived data: an activity log is gzip; this one holds the plain console text.
        let derived = directory.appendingPathComponent("DerivedData")
        let logs = derived.appendingPathComponent("Logs/Build")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let plain = directory.appendingPathComponent("console.txt")
        try log.write(to: plain, atomically: true, encoding: .utf8)
        let gzip = try run("/bin/sh", script: "gzip -c '\(plain.path)' > '\(logs.appendingPathComponent("A1B2.xcactivitylog").path)'\n")
        XCTAssertEqual(gzip.status, 0, gzip.stderr)

        let env = ["CI": "TRUE", "CI_XCODE_CLOUD": "TRUE", "CI_XCODEBUILD_EXIT_CODE": "65", "CI_DERIVED_DATA_PATH": derived.path,
                   "CI_PRIMARY_REPOSITORY_PATH": directory.path]
        // Executable with its shebang (/bin/sh), and under zsh, which Xcode Cloud uses for a script that is not executable.
        for shell in ["/bin/sh", "/usr/bin/zsh"] where FileManager.default.isExecutableFile(atPath: shell) {
            let result = try run(shell, script: script, environment: env)
            XCTAssertEqual(result.status, 0, "\(shell): never changes the build's result: \(result.stderr)")
            XCTAssertTrue(result.stdout.contains(#"Macro "CasePathsMacros" from package "swift-case-paths" is not trusted"#), "\(shell): \(result.stdout)")
            XCTAssertFalse(result.stdout.contains("\u{1B}["), "no colour codes in Xcode Cloud's log")
        }

        var passed = env
        passed["CI_XCODEBUILD_EXIT_CODE"] = "0"
        let quiet = try run("/bin/sh", script: script, environment: passed)
        XCTAssertEqual(quiet.status, 0)
        XCTAssertEqual(quiet.stdout, "")

        var noLogs = env
        noLogs["CI_DERIVED_DATA_PATH"] = directory.appendingPathComponent("empty").path
        let none = try run("/bin/sh", script: script, environment: noLogs)
        XCTAssertEqual(none.status, 0)
        XCTAssertEqual(none.stdout, "xcmedic: no activity logs under $CI_DERIVED_DATA_PATH/Logs and no result bundle at $CI_RESULT_BUNDLE_PATH to explain the failure with\n")
    }
}
