import Foundation
import XCTest
import XCMedicTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ci_post_clone.sh is never left half-written, concurrent runs lose nobody's lines, and every file-system
/// surprise is one line on stderr, exit 2, nothing changed. Real processes of the built binary.
final class CIScriptsFileSafetyTests: XCTestCase {
    static let resolved = """
        {
          "pins" : [
            {
              "identity" : "swift-case-paths",
              "kind" : "remoteSourceControl",
              "location" : "https://github.com/pointfreeco/swift-case-paths",
              "state" : { "revision" : "6989976265be3f8d2b5802c722f9ba168e227c71", "version" : "1.7.2" }
            }
          ],
          "version" : 2
        }

        """
    static let userScript = "#!/bin/sh\n# my own steps\nset -e\nbrew install xcodegen && xcodegen\n"

    /// A project folder with a Package.resolved and, unless `script` is nil, a hand-written ci_post_clone.sh.
    func project(script: String? = userScript) throws -> URL {
        let dir = Scratch.url("xcmedic-safe")
        let resolved = dir.appendingPathComponent("App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved")
        try FileManager.default.createDirectory(at: resolved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(Self.resolved.utf8).write(to: resolved)
        if let script {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("ci_scripts"), withIntermediateDirectories: true)
            try Data(script.utf8).write(to: dir.appendingPathComponent("ci_scripts/ci_post_clone.sh"))
            chmod(dir.appendingPathComponent("ci_scripts/ci_post_clone.sh").path, 0o755)
        }
        return dir
    }

    static func start(_ arguments: [String], cwd: URL, environment: [String: String] = [:]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = cwd
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, err)
    }

    /// One try: 8 runs started at once, each adding its own macro, and the user's append among them.
    /// Returns what went wrong (empty when nothing) and how many runs refused because the file changed.
    static func concurrentTry(_ attempt: Int, dir: URL) throws -> (failures: [String], refused: Int) {
        let script = dir.appendingPathComponent("ci_scripts/ci_post_clone.sh")
        try Data(Self.userScript.utf8).write(to: script)
        let edit = "# user edit \(attempt)"
        var runs: [(Process, Pipe, String)] = []
        var failures: [String] = []
        var refused = 0
        for n in 0..<8 {
            let target = "Macro\(n)"
            let (p, e) = try start(["ci-scripts", "--macro", "swift-case-paths:\(target)"], cwd: dir)
            runs.append((p, e, target))
            if n == attempt % 8 {
                // The user's edit lands somewhere among the runs: an append, as `echo >>` does, taking no lock.
                let user = Process()
                user.executableURL = URL(fileURLWithPath: "/bin/sh")
                user.arguments = ["-c", "printf '%s\\n' '\(edit)' >> ci_scripts/ci_post_clone.sh"]
                user.currentDirectoryURL = dir
                try user.run()
                user.waitUntilExit()
            }
        }
        var succeeded: [String] = []
        for (p, e, target) in runs {
            let message = String(decoding: e.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            if p.terminationStatus == 0 { succeeded.append(target); continue }
            // The one allowed failure: the file changed between read and write; said in one line, nothing written.
            if p.terminationStatus == 2 && message.contains("changed while xcmedic was updating it") { refused += 1 } else {
                failures.append("try \(attempt): \(target) exited \(p.terminationStatus): \(message)")
            }
        }
        let text = try String(contentsOf: script, encoding: .utf8)
        if !text.hasPrefix("#!/bin/sh\n") { failures.append("try \(attempt): the shebang was lost:\n\(text)") }
        for line in ["# my own steps", "set -e", "brew install xcodegen && xcodegen", edit] where !text.contains(line + "\n") {
            failures.append("try \(attempt): lost '\(line)':\n\(text)")
        }
        for target in succeeded where !text.contains("'swift-case-paths' '\(target)'") {
            failures.append("try \(attempt): lost \(target):\n\(text)")
        }
        if text.components(separatedBy: "# >>> xcmedic >>>").count != 2 { failures.append("try \(attempt): not one block:\n\(text)") }
        let mode = (try FileManager.default.attributesOfItem(atPath: script.path)[.posixPermissions] as? NSNumber)?.intValue
        if mode != 0o755 { failures.append("try \(attempt): mode \(String(mode ?? 0, radix: 8))") }
        return (failures, refused)
    }

    /// Done-when: 8 concurrent generations plus a user edit lose nothing in 200 tries. The tries run in four
    /// project folders at once (50 each) so the machine's cores are used while each folder's runs queue on its lock.
    func testEightConcurrentRunsAndAUserEditLoseNothing() throws {
        let folders = 4, perFolder = 50
        let started = Date()
        let dirs = try (0..<folders).map { _ in try project() }
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var failures: [String] = []
            var refused = 0
            var tries = 0
        }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: folders) { f in
            for t in 0..<perFolder {
                do {
                    let (failures, refused) = try Self.concurrentTry(f * perFolder + t, dir: dirs[f])
                    results.lock.lock()
                    results.failures += failures
                    results.refused += refused
                    results.tries += 1
                    let stop = !results.failures.isEmpty
                    results.lock.unlock()
                    if stop { return }
                } catch {
                    results.lock.lock(); results.failures.append("folder \(f): \(error)"); results.lock.unlock()
                    return
                }
            }
        }
        XCTAssertEqual(results.failures, [])
        XCTAssertEqual(results.tries, folders * perFolder)
        for dir in dirs {
            // No temporary file and no lock file left for `git add ci_scripts` to pick up.
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("ci_scripts").path), ["ci_post_clone.sh"])
        }
        print("concurrency: \(results.tries) tries x (8 runs + 1 user edit) in \(Int(Date().timeIntervalSince(started))) s; \(results.refused) runs refused because the file changed under them; nothing lost")
    }

    /// A kill between writing the temporary file and the rename leaves the old script, byte for byte.
    func testKillMidWriteLeavesTheOldFileAndTheNextRunCleansUp() throws {
        let dir = try project()
        let script = dir.appendingPathComponent("ci_scripts/ci_post_clone.sh")
        let before = try Data(contentsOf: script)
        let (p, _) = try Self.start(["ci-scripts", "--macro", "swift-case-paths:CasePathsMacros"], cwd: dir, environment: ["XCMEDIC_TEST_PAUSE_BEFORE_RENAME": "30"])
        let folder = dir.appendingPathComponent("ci_scripts").path
        let deadline = Date().addingTimeInterval(20)
        var temp: String?
        while temp == nil, Date() < deadline {
            temp = try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".tmp") }
            if temp == nil { usleep(10_000) }
        }
        XCTAssertNotNil(temp, "the run never wrote its temporary file")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        XCTAssertEqual(try Data(contentsOf: script), before, "a kill mid-write must leave the old file")
        // The next run replaces it and removes what the killed one left.
        let result = try CLI.run(["ci-scripts", "--macro", "swift-case-paths:CasePathsMacros"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".tmp") }, [])
        let after = try String(contentsOf: script, encoding: .utf8)
        XCTAssertTrue(after.hasSuffix("set -e\nbrew install xcodegen && xcodegen\n") && after.contains("'swift-case-paths' 'CasePathsMacros'"), after)
    }

    /// The replaced script keeps its owner and group (where the user may set them: root here) and its mode.
    func testOwnerAndModeAreKept() throws {
        guard geteuid() == 0 else { throw XCTSkip("only root can give a file to another owner; run as root to test that the owner is kept") }
        let dir = try project()
        let script = dir.appendingPathComponent("ci_scripts/ci_post_clone.sh").path
        XCTAssertEqual(chown(script, 65534, 65534), 0)
        XCTAssertEqual(chmod(script, 0o750), 0)
        let result = try CLI.run(["ci-scripts", "--macro", "swift-case-paths:CasePathsMacros"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        var st = stat()
        XCTAssertEqual(stat(script, &st), 0)
        XCTAssertEqual([st.st_uid, st.st_gid], [65534, 65534])
        XCTAssertEqual(st.st_mode & 0o7777, 0o750)
        XCTAssertTrue(try String(contentsOfFile: script, encoding: .utf8).contains("'swift-case-paths' 'CasePathsMacros'"))
    }

    /// Kills at random moments: the script is always the old one or a complete new one, never empty or partial.
    func testKillsAtRandomMomentsNeverLeaveAnEmptyOrPartialScript() throws {
        let dir = try project()
        let script = dir.appendingPathComponent("ci_scripts/ci_post_clone.sh")
        var generator = SystemRandomNumberGenerator()
        var killed = 0
        // How long a run takes here, so the kills spread over its whole life, the write included.
        let clock = Date()
        XCTAssertEqual(try CLI.run(["ci-scripts", "--macro", "swift-case-paths:Timing"], cwd: dir).status, 0)
        let runTime = UInt32(max(0.02, Date().timeIntervalSince(clock)) * 1_000_000)
        for n in 0..<30 {
            let before = try Data(contentsOf: script)
            let (p, _) = try Self.start(["ci-scripts", "--macro", "swift-case-paths:Kill\(n)"], cwd: dir)
            usleep(UInt32.random(in: 0...(runTime * 3 / 2), using: &generator))
            if p.isRunning { kill(p.processIdentifier, SIGKILL); killed += 1 }
            p.waitUntilExit()
            let now = try Data(contentsOf: script)
            let text = String(decoding: now, as: UTF8.self)
            if now != before {
                XCTAssertTrue(text.hasPrefix("#!/bin/sh\n# >>> xcmedic >>>\n") && text.hasSuffix("# <<< xcmedic <<<\n# my own steps\nset -e\nbrew install xcodegen && xcodegen\n")
                              && text.contains("'swift-case-paths' 'Kill\(n)'"), "run \(n): a partial script:\n\(text)")
            }
        }
        print("random kills: \(killed) of 30 runs killed while running (a run takes \(runTime / 1000) ms); the script was always the old or the new one")
    }

    /// Every file-system surprise: one line on stderr, exit 2, and the folder exactly as it was.
    func testFileSystemSurprisesAreOneLineErrorsAndChangeNothing() throws {
        func snapshot(_ dir: URL) throws -> [String: String] {
            var result: [String: String] = [:]
            let enumerator = FileManager.default.enumerator(atPath: dir.path)
            while let name = enumerator?.nextObject() as? String {
                let path = dir.appendingPathComponent(name).path
                var st = stat()
                lstat(path, &st)
                let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? ""
                let data = link.isEmpty ? (FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? "") : ""
                result[name] = "\(String(st.st_mode, radix: 8)) \(link) \(data)"
            }
            return result
        }
        let cases: [(String, (URL) throws -> Void, String)] = [
            ("ci_scripts is a file", { dir in
                try FileManager.default.removeItem(at: dir.appendingPathComponent("ci_scripts"))
                try Data("not a folder\n".utf8).write(to: dir.appendingPathComponent("ci_scripts"))
            }, "ci_scripts is a file, not a folder"),
            ("the script is a folder", { dir in
                let script = dir.appendingPathComponent("ci_scripts/ci_post_clone.sh")
                try FileManager.default.removeItem(at: script)
                try FileManager.default.createDirectory(at: script, withIntermediateDirectories: false)
            }, "ci_post_clone.sh is a folder, not a script"),
            ("read-only folder", { dir in
                chmod(dir.appendingPathComponent("ci_scripts").path, 0o555)
            }, "ci_scripts is read-only (mode 555)"),
            ("read-only folder, no ci_scripts yet", { dir in
                try FileManager.default.removeItem(at: dir.appendingPathComponent("ci_scripts"))
                chmod(dir.path, 0o555)
            }, "is read-only (mode 555), so ci_scripts/ cannot be created"),
            ("read-only script", { dir in
                chmod(dir.appendingPathComponent("ci_scripts/ci_post_clone.sh").path, 0o444)
            }, "ci_post_clone.sh is read-only (mode 444)"),
            ("the script is a symlink", { dir in
                let script = dir.appendingPathComponent("ci_scripts/ci_post_clone.sh")
                try FileManager.default.moveItem(at: script, to: dir.appendingPathComponent("real.sh"))
                try FileManager.default.createSymbolicLink(atPath: script.path, withDestinationPath: "../real.sh")
            }, "ci_post_clone.sh is a symbolic link (to ../real.sh)"),
            ("ci_scripts is a symlink", { dir in
                try FileManager.default.moveItem(at: dir.appendingPathComponent("ci_scripts"), to: dir.appendingPathComponent("shared"))
                try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("ci_scripts").path, withDestinationPath: "shared")
            }, "ci_scripts is a symbolic link (to shared)"),
        ]
        for (name, setUp, message) in cases {
            let dir = try project()
            try setUp(dir)
            let before = try snapshot(dir)
            for dryRun in [false, true] {
                let result = try CLI.run(["ci-scripts", "--macro", "swift-case-paths:CasePathsMacros"] + (dryRun ? ["--dry-run"] : []), cwd: dir)
                if dryRun && name.hasPrefix("read-only") { continue } // a dry run writes nothing, so read-only is no obstacle
                XCTAssertEqual(result.status, 2, "\(name): \(result.stdout)\(result.stderr)")
                XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(name): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains(message), "\(name): \(result.stderr)")
                XCTAssertFalse(result.stderr.contains("NSCocoaErrorDomain"), "\(name): \(result.stderr)")
            }
            XCTAssertEqual(try snapshot(dir), before, "\(name): something changed")
            chmod(dir.path, 0o755)
            chmod(dir.appendingPathComponent("ci_scripts").path, 0o755)
        }
    }
}
