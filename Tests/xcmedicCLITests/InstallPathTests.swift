import Foundation
import XCTest
import XCMedicTestSupport

/// The install paths the README gives, run here as far as this machine allows: the release archive
/// (made by scripts/release.sh, served from a folder instead of GitHub), the GitHub Action's shell parts
/// with GitHub's variables stood in, the Homebrew formula's test block, and the benchmark inputs.
/// What cannot run here (brew itself, Mint, Docker, macOS) is checked by scripts/ and docs/releasing.md says so.
final class ActionScriptTests: XCTestCase {
    var directory: URL!
    var root: URL { CLI.repositoryRoot }

    override func setUpWithError() throws {
        directory = Scratch.url("xcmedic-install")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `bash -c SCRIPT` with a clean environment plus `environment`.
    func bash(_ script: String, environment: [String: String] = [:], cwd: URL? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = cwd ?? directory
        var env = RawCLI.cleanEnvironment
        for name in env.keys where name.hasPrefix("GITHUB_") || name.hasPrefix("RUNNER_") || name.hasPrefix("INPUT_") { env.removeValue(forKey: name) }
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    var version: String { get throws { try CLI.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) } }

    /// A release folder as GitHub serves it (`v<version>/<archive>` and its `.sha256`), made by
    /// scripts/release.sh from the test's own binary (which, unlike a release, links the Swift runtime).
    func releaseFolder() throws -> URL {
        let version = try self.version
        let folder = directory.appendingPathComponent("releases/v\(version)")
        let made = try bash("scripts/release.sh --no-build '\(CLI.binary.path)' --allow-shared --out '\(folder.path)'", cwd: root)
        XCTAssertEqual(made.status, 0, made.stderr)
        return folder.deletingLastPathComponent()
    }

    var platform: String {
        #if arch(x86_64)
        "linux-x86_64"
        #else
        "linux-aarch64"
        #endif
    }

    /// GitHub's files for one step: GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY, RUNNER_TEMP.
    func githubEnvironment(_ name: String) throws -> [String: String] {
        let temp = directory.appendingPathComponent("runner-temp-\(name)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        var env: [String: String] = [:]
        for (key, file) in [("GITHUB_OUTPUT", "output"), ("GITHUB_PATH", "path"), ("GITHUB_STEP_SUMMARY", "summary")] {
            let url = directory.appendingPathComponent("\(name)-\(file)")
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            env[key] = url.path
        }
        env["RUNNER_TEMP"] = temp.path
        env["RUNNER_OS"] = "Linux"
        env["RUNNER_ARCH"] = "X64"
        env["GITHUB_ACTIONS"] = "true"
        env["GITHUB_WORKSPACE"] = directory.path
        env["ACTION_PATH"] = root.path
        return env
    }

    func outputs(_ env: [String: String]) throws -> [String: String] {
        let text = try String(contentsOfFile: env["GITHUB_OUTPUT"]!, encoding: .utf8)
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            result[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return result
    }

    var script: String { "bash '\(root.path)/scripts/action.sh'" }

    var failingLog: String { ScanCLIDocsTests.failingLog.replacingOccurrences(of: "/WORKSPACE", with: directory.path) }

    // MARK: - install

    func testInstallDownloadsTheReleaseChecksItsSha256AndPutsItOnThePath() throws {
        let releases = try releaseFolder()
        var env = try githubEnvironment("install")
        env["INPUT_INSTALL"] = "auto"
        env["ACTION_REF"] = "v\(try version)"   // `uses: OWNER/xcmedic@v0.1.0` with no version input
        env["ACTION_REPOSITORY"] = "owner/xcmedic"
        env["XCMEDIC_DOWNLOAD_URL"] = "file://\(releases.path)"
        let result = try bash("\(script) install", environment: env)
        XCTAssertEqual(result.status, 0, result.stderr)
        let path = try String(contentsOfFile: env["GITHUB_PATH"]!, encoding: .utf8).trimmingCharacters(in: .newlines)
        XCTAssertTrue(path.hasPrefix(env["RUNNER_TEMP"]!), path)
        XCTAssertEqual(try outputs(env)["xcmedic"], path + "/xcmedic")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "/LICENSE"), "the archive carries the licence")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: path + "/xcmedic-history"), "the archive carries the history store's executable")
        let ran = try bash("xcmedic --version", environment: ["PATH": path + ":/usr/bin:/bin"])
        XCTAssertEqual(ran.stdout.trimmingCharacters(in: .newlines), try version)
    }

    func testInstallRefusesAnArchiveWhoseChecksumDoesNotMatch() throws {
        let releases = try releaseFolder()
        let v = try version
        let archive = releases.appendingPathComponent("v\(v)/xcmedic-\(v)-\(platform).tar.gz")
        let handle = try FileHandle(forWritingTo: archive)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("tampered".utf8))
        try handle.close()
        var env = try githubEnvironment("tampered")
        env["INPUT_VERSION"] = "v\(v)"
        env["INPUT_INSTALL"] = "release"
        env["ACTION_REPOSITORY"] = "owner/xcmedic"
        env["XCMEDIC_DOWNLOAD_URL"] = "file://\(releases.path)"
        let result = try bash("\(script) install", environment: env)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("::error title=xcmedic action::checksum mismatch for xcmedic-\(v)-\(platform).tar.gz"), result.stderr)
        XCTAssertEqual(try String(contentsOfFile: env["GITHUB_PATH"]!, encoding: .utf8), "", "nothing unchecked reaches the PATH")
    }

    func testInstallReleaseWithoutAVersionSaysSo() throws {
        var env = try githubEnvironment("noversion")
        env["INPUT_INSTALL"] = "release"
        env["ACTION_REF"] = "main"
        let result = try bash("\(script) install", environment: env)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("install: release needs version (the action's ref main is not a release tag)"), result.stderr)
    }

    func testInstallPathUsesTheXcmedicAlreadyInstalled() throws {
        var env = try githubEnvironment("path")
        env["INPUT_INSTALL"] = "path"
        env["PATH"] = CLI.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
        let result = try bash("\(script) install", environment: env)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try outputs(env)["xcmedic"], CLI.binary.path)
    }

    /// `install: source` runs `swift build -c release` in the action's folder and takes the binary from
    /// `--show-bin-path`; `swift` stands in as a script that records its arguments (a real release build
    /// takes minutes; scripts/release.sh runs one).
    func testInstallSourceBuildsInTheActionsFolder() throws {
        let bin = directory.appendingPathComponent("fake-swift")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let calls = directory.appendingPathComponent("swift-calls")
        let fake = """
        #!/bin/sh
        echo "$*" >> '\(calls.path)'
        case "$*" in *--show-bin-path*) echo '\(CLI.binary.deletingLastPathComponent().path)' ;; esac
        """
        try fake.write(to: bin.appendingPathComponent("swift"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("swift").path)
        var env = try githubEnvironment("source")
        env["INPUT_INSTALL"] = "auto"
        env["ACTION_REF"] = "main"
        env["PATH"] = bin.path + ":/usr/bin:/bin"
        let result = try bash("\(script) install", environment: env)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try String(contentsOf: calls, encoding: .utf8),
                       "build -c release --product xcmedic --package-path \(root.path)\nbuild -c release --product xcmedic-history --package-path \(root.path)\n"
                       + "build -c release --product xcmedic --package-path \(root.path) --show-bin-path\n")
        XCTAssertEqual(try outputs(env)["xcmedic"], CLI.binary.path)
    }

    func testCacheKeyFollowsTheSourcesAndOnlyForABuildFromSource() throws {
        var env = try githubEnvironment("key")
        env["INPUT_INSTALL"] = "auto"
        env["ACTION_REF"] = "main"
        let result = try bash("\(script) cache-key", environment: env)
        XCTAssertEqual(result.status, 0, result.stderr)
        let key = try XCTUnwrap(try outputs(env)["key"])
        XCTAssertTrue(key.hasPrefix("xcmedic-build-Linux-X64-"), key)
        XCTAssertEqual(key.count, "xcmedic-build-Linux-X64-".count + 64, key)

        var release = try githubEnvironment("key-release")
        release["INPUT_INSTALL"] = "auto"
        release["ACTION_REF"] = "v1.2.3"
        XCTAssertEqual(try bash("\(script) cache-key", environment: release).status, 0)
        XCTAssertNil(try outputs(release)["key"], "a release binary needs no build cache")
    }

    // MARK: - scan and finish

    func testScanOfALogAnnotatesSummarisesWritesSARIFAndFinishFailsTheStep() throws {
        let log = directory.appendingPathComponent("logs/build.log")
        try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        try failingLog.write(to: log, atomically: true, encoding: .utf8)
        var env = try githubEnvironment("scanlog")
        env["XCMEDIC"] = CLI.binary.path
        env["INPUT_LOG"] = "logs/*.log"
        env["INPUT_SARIF"] = "reports/xcmedic.sarif"
        let result = try bash("\(script) scan", environment: env)
        XCTAssertEqual(result.status, 0, "the scan step records the status and lets the SARIF upload run: \(result.stderr)")
        let annotations = result.stdout + result.stderr
        XCTAssertTrue(annotations.contains("::error file=Sources/App/Model.swift,line=3,col=5,"), annotations)
        XCTAssertTrue(try String(contentsOfFile: env["GITHUB_STEP_SUMMARY"]!, encoding: .utf8).contains("### Root cause"))
        let out = try outputs(env)
        XCTAssertEqual(out["status"], "1")
        XCTAssertEqual(out["command-status"], "0")
        XCTAssertEqual(out["sarif"], "reports/xcmedic.sarif")
        let sarif = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("reports/xcmedic.sarif"))) as? [String: Any]
        XCTAssertEqual(sarif?["version"] as? String, "2.1.0")

        let finish = try bash("\(script) finish", environment: ["COMMAND_STATUS": out["command-status"]!, "SCAN_STATUS": out["status"]!])
        XCTAssertEqual(finish.status, 1)
        XCTAssertTrue(finish.stdout.contains("findings reached fail-on (error)"), finish.stdout)

        var never = try githubEnvironment("never")
        never["XCMEDIC"] = CLI.binary.path
        never["INPUT_LOG"] = log.path
        never["INPUT_FAIL_ON"] = "never"
        XCTAssertEqual(try bash("\(script) scan", environment: never).status, 0)
        let quiet = try outputs(never)
        XCTAssertEqual(quiet["status"], "0")
        XCTAssertNil(quiet["sarif"])
        XCTAssertEqual(try bash("\(script) finish", environment: ["COMMAND_STATUS": quiet["command-status"]!, "SCAN_STATUS": quiet["status"]!]).status, 0)
    }

    func testPipeModeShowsTheOutputKeepsTheLogAndFailsWithTheCommandsStatus() throws {
        let fixture = directory.appendingPathComponent("xcodebuild-output.txt")
        try failingLog.write(to: fixture, atomically: true, encoding: .utf8)
        var env = try githubEnvironment("pipe")
        env["XCMEDIC"] = CLI.binary.path
        env["INPUT_COMMAND"] = "cat '\(fixture.path)'; echo 'to stderr' >&2; exit 65"
        let result = try bash("\(script) scan", environment: env)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix(failingLog + "to stderr\n"), "the build's output shows as it runs, unchanged: \(result.stdout)")
        let out = try outputs(env)
        XCTAssertEqual(out["command-status"], "65")
        XCTAssertEqual(out["status"], "1")
        let kept = try String(contentsOfFile: try XCTUnwrap(out["log"]), encoding: .utf8)
        XCTAssertEqual(kept, failingLog + "to stderr\n")
        XCTAssertTrue(result.stderr.contains("::error file=Sources/App/Model.swift,line=3,col=5,"), result.stderr)
        let finish = try bash("\(script) finish", environment: ["COMMAND_STATUS": "65", "SCAN_STATUS": "1"])
        XCTAssertEqual(finish.status, 65, "a failed build fails the step with its own status")
    }

    func testScanNeedsExactlyOneOfLogAndCommand() throws {
        var env = try githubEnvironment("neither")
        env["XCMEDIC"] = CLI.binary.path
        let neither = try bash("\(script) scan", environment: env)
        XCTAssertEqual(neither.status, 2)
        XCTAssertTrue(neither.stderr.contains("give log (a file, folder or glob) or command"), neither.stderr)
        env["INPUT_LOG"] = "a.log"
        env["INPUT_COMMAND"] = "true"
        let both = try bash("\(script) scan", environment: env)
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.contains("give either log or command, not both"), both.stderr)
    }

    // MARK: - action.yml and the README's workflow, as the runner would run them

    /// A YAML file as JSON, through Ruby's YAML (Psych), which CI installs.
    func yaml(_ text: String) throws -> [String: Any] {
        let file = directory.appendingPathComponent("doc-\(UUID().uuidString).yml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        guard try bash("command -v ruby").status == 0 else { throw XCTSkip("ruby is not installed (.ci/run installs it)") }
        let ruby = try bash("ruby -ryaml -rjson -e 'puts JSON.generate(YAML.safe_load(File.read(ARGV[0])))' '\(file.path)'")
        XCTAssertEqual(ruby.status, 0, "not valid YAML: \(ruby.stderr)")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ruby.stdout.utf8)) as? [String: Any])
    }

    func testActionYAMLDeclaresEveryInputItUsesAndEachRunStepIsTheScript() throws {
        let text = try String(contentsOf: root.appendingPathComponent("action.yml"), encoding: .utf8)
        let action = try yaml(text)
        let inputs = try XCTUnwrap(action["inputs"] as? [String: Any])
        let used = Set(try NSRegularExpression(pattern: #"inputs\.([a-z-]+)"#).matches(in: text, range: NSRange(text.startIndex..., in: text))
            .map { String(text[Range($0.range(at: 1), in: text)!]) })
        XCTAssertEqual(used.subtracting(inputs.keys), [], "inputs used but not declared")
        let runs = try XCTUnwrap((action["runs"] as? [String: Any])?["steps"] as? [[String: Any]])
        let scriptText = try String(contentsOf: root.appendingPathComponent("scripts/action.sh"), encoding: .utf8)
        for step in runs {
            guard let run = step["run"] as? String else { continue }
            let sub = try XCTUnwrap(run.split(separator: " ").last.map(String.init))
            XCTAssertEqual(run, "bash \"$ACTION_PATH/scripts/action.sh\" \(sub)")
            XCTAssertTrue(scriptText.contains("\n  \(sub)) "), "action.sh has no \(sub)")
            XCTAssertEqual(step["shell"] as? String, "bash")
        }
    }

    /// Runs the README's workflow step through action.yml's own steps: each `run:` step in order with its
    /// `env:` evaluated from the workflow's `with:` and the earlier steps' outputs, `uses:` steps skipped
    /// (the cache and the SARIF upload are GitHub's), and the release served from a folder.
    func testREADMEWorkflowRunsThroughTheActionsSteps() throws {
        let example = try ScanCLIDocsTests.example("action")
        let workflow = try yaml(example)
        let job = try XCTUnwrap((workflow["jobs"] as? [String: Any])?.values.first as? [String: Any])
        let steps = try XCTUnwrap(job["steps"] as? [[String: Any]])
        let step = try XCTUnwrap(steps.first { ($0["uses"] as? String)?.hasPrefix("OWNER/xcmedic@") == true })
        let ref = try XCTUnwrap((step["uses"] as? String)?.split(separator: "@").last.map(String.init))
        XCTAssertEqual(ref, "v\(try version)", "the README pins the current release")
        let with = try XCTUnwrap(step["with"] as? [String: Any]).mapValues { "\($0)" == "1" ? "true" : "\($0)" }

        let action = try yaml(try String(contentsOf: root.appendingPathComponent("action.yml"), encoding: .utf8))
        let declared = try XCTUnwrap(action["inputs"] as? [String: [String: Any]])
        XCTAssertEqual(Set(with.keys).subtracting(declared.keys), [], "the README uses inputs the action does not have")
        var inputs = declared.mapValues { "\($0["default"] ?? "")" }
        for (k, v) in with { inputs[k] = v }

        // xcodebuild stands in as a script on the PATH: the command runs in its own bash.
        let bin = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let fixture = directory.appendingPathComponent("xcodebuild-output.txt")
        try failingLog.write(to: fixture, atomically: true, encoding: .utf8)
        try "#!/bin/sh\ncat '\(fixture.path)'\nexit 65\n".write(to: bin.appendingPathComponent("xcodebuild"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("xcodebuild").path)

        let releases = try releaseFolder()
        var env = try githubEnvironment("workflow")
        env["XCMEDIC_DOWNLOAD_URL"] = "file://\(releases.path)"
        var stepOutputs: [String: [String: String]] = [:]
        var path = bin.path + ":/usr/bin:/bin"
        func evaluate(_ value: String) -> String {
            var text = value
            while let open = text.range(of: "${{ "), let close = text.range(of: " }}", range: open.upperBound..<text.endIndex) {
                let expr = String(text[open.upperBound..<close.lowerBound])
                var result = ""
                if expr.hasPrefix("inputs.") { result = inputs[String(expr.dropFirst(7))] ?? "" }
                else if expr == "github.action_path" { result = root.path }
                else if expr == "github.action_repository" { result = "OWNER/xcmedic" }
                else if expr == "github.action_ref" { result = ref }
                else if expr.hasPrefix("steps.") {
                    let parts = expr.split(separator: ".").map(String.init)   // steps.ID.outputs.NAME
                    result = stepOutputs[parts[1]]?[parts[3]] ?? ""
                }
                text.replaceSubrange(open.lowerBound..<close.upperBound, with: result)
            }
            return text
        }
        var last: Run?
        var ran: [String] = []
        for actionStep in try XCTUnwrap((action["runs"] as? [String: Any])?["steps"] as? [[String: Any]]) {
            guard let run = actionStep["run"] as? String else { continue }
            let id = actionStep["id"] as? String ?? ""
            try "".write(toFile: env["GITHUB_OUTPUT"]!, atomically: true, encoding: .utf8)
            var stepEnv = env
            for (k, v) in actionStep["env"] as? [String: String] ?? [:] { stepEnv[k] = evaluate(v) }
            stepEnv["PATH"] = path
            let result = try bash(run, environment: stepEnv)
            ran.append(id.isEmpty ? "result" : id)
            if !id.isEmpty {
                stepOutputs[id] = try outputs(env)
                XCTAssertEqual(result.status, 0, "\(id): \(result.stderr)")
            }
            for added in try String(contentsOfFile: env["GITHUB_PATH"]!, encoding: .utf8).split(separator: "\n") where !path.hasPrefix(added) {
                path = added + ":" + path
            }
            last = result
        }
        XCTAssertEqual(ran, ["key", "install", "scan", "result"])
        XCTAssertNil(stepOutputs["key"]?["key"], "a release tag: nothing to cache")
        XCTAssertEqual(stepOutputs["scan"]?["command-status"], "65")
        XCTAssertEqual(stepOutputs["scan"]?["status"], "1")
        XCTAssertEqual(stepOutputs["scan"]?["sarif"], "xcmedic.sarif", "the upload step's condition holds")
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent("xcmedic.sarif").path))
        XCTAssertTrue(try String(contentsOfFile: env["GITHUB_STEP_SUMMARY"]!, encoding: .utf8).contains("### Root cause"))
        XCTAssertEqual(last?.status, 65, "the job fails as the build did")
    }

    // MARK: - The README's release-binary install, as written

    func testREADMEReleaseInstallAsWritten() throws {
        let block = try readmeBlock("<!-- install-example: release -->")
        let releases = try releaseFolder()
        let dest = directory.appendingPathComponent("usr-local-bin")
        try FileManager.default.createDirectory(at: dest, withIntermediateDirectories: true)
        XCTAssertTrue(block.contains("version=\(try version) "), "the README installs the current version: \(block)")
        // Only the host and the destination change: GitHub becomes a folder, /usr/local/bin a temporary one.
        let script = block.replacingOccurrences(of: "https://github.com/OWNER/xcmedic/releases/download", with: "file://\(releases.path)")
            .replacingOccurrences(of: "/usr/local/bin/", with: dest.path + "/")
        let work = directory.appendingPathComponent("download")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let result = try bash("set -e\n" + script, cwd: work)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let installed = try CLI.run(["scan", "--no-config", "Examples/macro-trust-failure.log"], executable: dest.appendingPathComponent("xcmedic"))
        XCTAssertEqual(installed.status, 1)
        XCTAssertTrue(installed.stdout.contains("swift-case-paths"))
    }

    func readmeBlock(_ marker: String) throws -> String {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let at = try XCTUnwrap(readme.range(of: marker), "README has no \(marker)")
        let rest = readme[at.upperBound...]
        let open = try XCTUnwrap(rest.range(of: "```"))
        let bodyStart = try XCTUnwrap(rest[open.upperBound...].firstIndex(of: "\n"))
        let close = try XCTUnwrap(rest[bodyStart...].range(of: "\n```"))
        return String(rest[rest.index(after: bodyStart)..<close.lowerBound]) + "\n"
    }

    // MARK: - Release script, formula, workflow

    func testReleaseScriptMakesTheSourceArchiveAndTheFormulaPointsAtIt() throws {
        let out = directory.appendingPathComponent("dist")
        let made = try bash("scripts/release.sh --no-binary --formula someone/xcmedic --out '\(out.path)'", environment: ["GITHUB_REF_NAME": "v\(try version)"], cwd: root)
        XCTAssertEqual(made.status, 0, made.stderr)
        let v = try version
        let archive = out.appendingPathComponent("xcmedic-\(v).tar.gz")
        let sha = try String(contentsOf: out.appendingPathComponent("xcmedic-\(v).tar.gz.sha256"), encoding: .utf8)
        let check = try bash("sha256sum -c xcmedic-\(v).tar.gz.sha256 && tar -tzf xcmedic-\(v).tar.gz", cwd: out)
        XCTAssertEqual(check.status, 0, check.stderr)
        for file in ["Package.swift", "LICENSE", "Examples/macro-trust-failure.log", "Sources/xcmedic/XCMedic.swift"] {
            XCTAssertTrue(check.stdout.contains("xcmedic-\(v)/\(file)\n"), "the source archive has \(file)")
        }
        let formula = try String(contentsOf: out.appendingPathComponent("xcmedic.rb"), encoding: .utf8)
        XCTAssertTrue(formula.contains("url \"https://github.com/someone/xcmedic/releases/download/v\(v)/\(archive.lastPathComponent)\""), formula)
        XCTAssertTrue(formula.contains("sha256 \"\(sha.prefix(64))\""), formula)
        XCTAssertEqual(try bash("ruby -c '\(out.path)/xcmedic.rb'").status, 0)

        let wrongTag = try bash("scripts/release.sh --no-binary --source --out '\(out.path)'", environment: ["GITHUB_REF_NAME": "v99.0.0"], cwd: root)
        XCTAssertEqual(wrongTag.status, 1)
        XCTAssertTrue(wrongTag.stderr.contains("tag v99.0.0 does not match version \(v)"), wrongTag.stderr)
    }

    func testReleaseScriptRefusesABinaryThatNeedsTheSwiftRuntime() throws {
        // The test's own binary is a debug build linked to libswiftCore.so: exactly what must not ship.
        let made = try bash("scripts/release.sh --no-build '\(CLI.binary.path)' --out '\(directory.path)/dist'", cwd: root)
        XCTAssertEqual(made.status, 1)
        XCTAssertTrue(made.stderr.contains("would not run without the Swift toolchain"), made.stderr)
        XCTAssertTrue(made.stdout.contains("libswiftCore.so"), made.stdout)
    }

    /// The formula's `test do` block, run by a minimal stand-in for Homebrew's DSL against this binary.
    func testFormulaTestBlockPassesAgainstTheBinary() throws {
        let formula = root.appendingPathComponent("Formula/xcmedic.rb")
        XCTAssertEqual(try bash("ruby -c '\(formula.path)'").status, 0)
        let share = directory.appendingPathComponent("share")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: root.appendingPathComponent("Examples/macro-trust-failure.log"), to: share.appendingPathComponent("macro-trust-failure.log"))
        let shim = """
        require "pathname"
        class Formula
          def self.method_missing(*) = nil
          def self.test(&block) = (@test = block)
          def self.test_block = @test
          def self.url(u) = (@url = u)
          def self.version_from_url = @url[/v(\\d+\\.\\d+\\.\\d+)/, 1]
          def bin = Pathname(ENV.fetch("BIN"))
          def pkgshare = Pathname(ENV.fetch("SHARE"))
          def testpath = Pathname(ENV.fetch("TESTPATH"))
          def version = self.class.version_from_url
          def shell_output(cmd, status = 0)
            out = `#{cmd}`
            raise "#{cmd} exited #{$?.exitstatus}, not #{status}" unless $?.exitstatus == status
            out
          end
          def assert_match(pattern, text)
            raise "#{pattern.inspect} not in output" unless text.include?(pattern.to_s)
          end
        end
        load ARGV[0]
        Xcmedic.new.instance_eval(&Xcmedic.test_block)
        puts "formula test passed"
        """
        let shimFile = directory.appendingPathComponent("shim.rb")
        try shim.write(to: shimFile, atomically: true, encoding: .utf8)
        let result = try bash("ruby '\(shimFile.path)' '\(formula.path)'",
                              environment: ["BIN": CLI.binary.deletingLastPathComponent().path, "SHARE": share.path, "TESTPATH": directory.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("formula test passed"))
    }

    func testShellPartsAreShellcheckClean() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/shellcheck") else { throw XCTSkip("shellcheck is not installed") }
        for script in ["scripts/action.sh", "scripts/release.sh", "scripts/check-linux-binary.sh", "Benchmarks/run.sh"] {
            let result = try bash("shellcheck '\(script)'", cwd: root)
            XCTAssertEqual(result.status, 0, "\(script): \(result.stdout)")
        }
    }
}

/// The benchmark's generated logs are what Benchmarks/ and docs/performance.md say they are.
final class BenchmarkInputTests: XCTestCase {
    func generate(_ shape: String, bytes: Int, to url: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", CLI.repositoryRoot.appendingPathComponent("Benchmarks/gen-logs.py").path, shape, String(bytes), url.path]
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw XCTSkip("python3 is not installed") }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "gen-logs.py \(shape)")
    }

    func findings(_ url: URL) throws -> (findings: [[String: Any]], lines: Int) {
        let result = try CLI.run(["scan", "--no-config", "--format", "json", "--fail-on", "never", url.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let inputs = try XCTUnwrap(object["inputs"] as? [[String: Any]])
        return (try XCTUnwrap(object["findings"] as? [[String: Any]]), inputs.first?["lines"] as? Int ?? 0)
    }

    func testEachShapeIsTheSizeAskedSameEachTimeAndScansAsItsNameSays() throws {
        let dir = Scratch.url("xcmedic-bench")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let size = 300_000
        var scans: [String: (findings: [[String: Any]], lines: Int)] = [:]
        for shape in ["quiet", "tests", "errors", "unknown", "hugeline"] {
            let url = dir.appendingPathComponent("\(shape).log"), again = dir.appendingPathComponent("\(shape)-again.log")
            try generate(shape, bytes: size, to: url)
            try generate(shape, bytes: size, to: again)
            let data = try Data(contentsOf: url)
            XCTAssertEqual(data, try Data(contentsOf: again), "\(shape): same bytes for the same size")
            XCTAssertTrue(data.count >= size - 4_000 && data.count <= size + 200, "\(shape): \(data.count) bytes for \(size)")
            scans[shape] = try findings(url)
        }
        func rules(_ shape: String, severity: String = "error") -> [String: Int] {
            var counts: [String: Int] = [:]
            for f in scans[shape]!.findings where f["severity"] as? String == severity { counts[f["rule"] as! String, default: 0] += f["count"] as! Int }
            return counts
        }
        XCTAssertEqual(rules("quiet"), [:], "a green build has no error")
        XCTAssertGreaterThan(scans["quiet"]!.lines, 500)
        XCTAssertEqual(Set(rules("tests").keys), ["xctest-assertion-failed", "xctest-case-failed"], "one test in 200 fails")
        let errors = rules("errors")
        XCTAssertGreaterThan(errors.values.reduce(0, +), 800, "a broken module: an error every few lines")
        XCTAssertGreaterThan(errors.keys.count, 6, "many kinds of compiler error: \(errors.keys.sorted())")
        XCTAssertNil(errors["unrecognized"])
        let unknown = rules("unknown")
        XCTAssertEqual(Set(unknown.keys), ["unrecognized"], "errors no rule knows")
        XCTAssertGreaterThan(unknown["unrecognized"] ?? 0, 1_000)
        XCTAssertEqual(scans["hugeline"]!.lines, 1)
    }
}
