import ArgumentParser
import Foundation
import XCMedicKit

enum BisectFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json
}

struct Bisect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find the commit that broke the build, judging each step by the failure itself.",
        discussion: """
        Runs COMMAND at the bad revision and takes its root-cause errors as the failure to look for (or the \
        rules named with --rule), checks that the good revision passes, then drives 'git bisect run' with \
        xcmedic as the step: the command passes → good; it fails with the same failure → bad; it fails \
        otherwise, cannot start or times out → skip. With -j N, N commits are tested at once, each in a \
        git worktree of xcmedic's own (your tree is never touched). The repository is put back as it was \
        at the end, also on Ctrl-C, SIGTERM or a closed terminal; after a SIGKILL, the next 'xcmedic bisect' \
        says what 'xcmedic bisect --recover' will do to put it back. Exit status: 0 first bad commit found \
        (or recovered), 1 only candidates left, 2 refused (not a git work tree, uncommitted changes, a \
        bisect in progress or to recover, an endpoint that does not behave), 129/130/143 interrupted.
        """
    )

    @Option(help: "A revision where the command passes ('last-good' reads refs/xcmedic/last-good).")
    var good: String?

    @Option(help: "A revision where the command fails.")
    var bad: String = "HEAD"

    @Option(name: .customLong("rule"), help: "The failure to look for, by rule id (repeatable); default: the root causes at --bad.")
    var rules: [String] = []

    @Option(help: "Seconds after which a step's command is ended and the commit skipped.")
    var timeout: Double?

    @Option(help: "Run a failing step up to N more times; a step that passes once is good. The failure to look for is what the runs at --bad agree on.")
    var retries: Int = 0

    @Option(name: .customShort("j"), help: "Test N commits at once, each in a git worktree xcmedic makes and removes (default 1: git bisect run in your tree).")
    var jobs: Int = 1

    @Flag(name: .customLong("no-cache"), help: "Run every commit, even those an earlier bisect with the same command judged (.git/xcmedic/cache).")
    var noCache = false

    @Flag(help: "Put the repository back after an xcmedic bisect that was killed (SIGKILL) before it could.")
    var recover = false

    @Flag(name: .customLong("first-parent"), help: "Follow only the first parent of merges (blame the merge, not a commit inside it).")
    var firstParent = false

    @Flag(name: .customLong("no-verify"), help: "Do not check that the command passes at --good.")
    var noVerify = false

    @Flag(help: "Stash uncommitted changes to tracked files and restore them at the end.")
    var autostash = false

    @Option(help: "Report format: text or json.")
    var format: BisectFormat = .text

    @Option(name: .customLong("rules"), help: "A YAML rules file to add (repeatable).")
    var ruleFiles: [String] = []

    @Flag(name: .customLong("no-config"), help: "Do not read .xcmedic.yml from the repository root.")
    var noConfig = false

    @Flag(name: .customLong("no-redact"), help: "Show secrets (tokens, passwords, keys) in the failure excerpt and progress lines instead of [REDACTED].")
    var noRedact = false

    @Argument(parsing: .postTerminator, help: "The command to run at each step, after '--' (e.g. -- swift build).")
    var command: [String] = []

    func validate() throws {
        if recover {
            if !command.isEmpty || good != nil { throw ValidationError("--recover takes no --good and no command") }
            return
        }
        if good == nil { throw ValidationError("missing --good REV: a revision where the command passes") }
        if jobs < 1 { throw ValidationError("-j must be 1 or more") }
        if command.isEmpty { throw ValidationError("give the command to run at each step after '--', e.g. xcmedic bisect --good v1.2 -- swift build") }
        if retries < 0 { throw ValidationError("--retries must be 0 or more") }
        if let timeout, timeout <= 0 { throw ValidationError("--timeout must be more than 0 seconds") }
    }

    func run() throws {
        if recover { return try runRecover() }
        var options = BisectOptions(
            directory: FileManager.default.currentDirectoryPath, good: good ?? "", bad: bad, command: command, rules: rules,
            timeout: timeout, retries: retries, firstParent: firstParent, verifyGood: !noVerify, autostash: autostash,
            ruleFiles: ruleFiles, autoConfig: !noConfig, stepExecutable: Self.executablePath
        )
        options.jobs = jobs
        options.useCache = !noCache
        if !rules.isEmpty {
            let known = try Catalog.rules(userFiles: ruleFiles, autoConfig: !noConfig)
            for id in rules where id != Finding.unrecognizedID && !known.contains(where: { $0.id == id }) {
                let hint = Catalog.nearestID(to: id, in: known).map { "; did you mean '\($0)'?" } ?? ""
                throw CLIError("--rule \(id): no such rule\(hint)")
            }
        }
        // Progress lines and errors quote the command's output (a step's reason, the failure looked for).
        let redactor: Redactor = noRedact ? .off : .standard
        let bisector = Bisector(options: options)
        // On a terminal, the running step's elapsed time is one line rewritten in place ("\r", erase line).
        let terminal = isatty(2) == 1
        bisector.progress = { Self.writeError((terminal ? "\r\u{1b}[K" : "") + TerminalSafe.visible(redactor.redact($0)) + "\n") }
        if terminal { bisector.status = { Self.writeError("\r\u{1b}[K" + TerminalSafe.visible($0)) } }
        let result: BisectResult
        do {
            result = try bisector.run()
        } catch let error as BisectError {
            if case .restoreFailed = error { XCMedic.fail(redactor.redact(error.description)) }
            throw CLIError(redactor.redact(error.description))
        } catch let error as Interrupted {
            Self.writeError("xcmedic: \(error); the repository is back as it was\n")
            throw ExitCode(128 + error.signal)
        } catch let error as GitError {
            throw CLIError(redactor.redact(error.description))
        }
        let text = format == .json ? BisectReport.renderJSON(result, redactor: redactor) : BisectReport.renderText(result, redactor: redactor)
        FileHandle.standardOutput.write(Data(text.utf8))
        try? Data(text.utf8).write(to: URL(fileURLWithPath: (result.stateFolder as NSString).appendingPathComponent(format == .json ? "report.json" : "report.txt")))
        if result.culprit == nil { throw ExitCode(1) }
    }

    func runRecover() throws {
        do {
            let done = try Bisector.recover(directory: FileManager.default.currentDirectoryPath)
            if done.isEmpty {
                print("xcmedic: nothing to recover: no bisect left this repository half-done")
            } else {
                print("xcmedic: the repository is back as it was before the bisect:")
                for step in done { print("  - \(step)") }
            }
        } catch let error as BisectError {
            if case .restoreFailed = error { XCMedic.fail(error.description) }
            throw CLIError(error.description)
        } catch let error as GitError {
            throw CLIError(error.description)
        }
    }

    /// stderr with write(2): after SIGHUP the terminal is gone and a write fails (EIO); that must not
    /// stop xcmedic from putting the repository back.
    static func writeError(_ text: String) {
        var bytes = Array(text.utf8)
        _ = write(2, &bytes, bytes.count)
    }

    /// This binary, for `git bisect run` to start as the step.
    static var executablePath: String {
        if let path = Bundle.main.executablePath { return path }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }
}

/// The step `git bisect run` starts: runs the command at the checked-out commit and exits 0 (good),
/// 1 (bad) or 125 (skip), never anything else.
struct BisectStep: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bisect-step",
        abstract: "One step of 'xcmedic bisect' (started by git bisect run).",
        shouldDisplay: false
    )

    @Option(help: "The bisect state folder.")
    var state: String

    func run() throws {
        Interrupts.install()
        // git bisect run is the parent: if it dies (xcmedic was killed and its watcher ended git), this
        // step ends its command's process group and stops too.
        ChildProcess.dieWithParent(signal: SIGTERM)
        let folder = BisectStateFolder(path: state)
        do {
            let config = try folder.readConfig()
            let record = try StepRunner.run(config: config, folder: folder, phase: .bisect)
            FileHandle.standardError.write(Data("xcmedic: step \(record.number) at \(record.commit.prefix(10)): \(record.verdict.rawValue) (\(record.reason))\n".utf8))
            throw ExitCode(record.verdict.exitCode)
        } catch let exit as ExitCode {
            throw exit
        } catch let error as BisectError {
            // The state folder cannot be written: no commit can be judged. An exit status of 128 or more
            // makes git bisect run stop; the driver reads this line from git's run log.
            FileHandle.standardError.write(Data((BisectError.abortPrefix + error.description + "\n").utf8))
            throw ExitCode(255)
        } catch {
            // Anything that went wrong here says nothing about the commit: skip it rather than abort.
            FileHandle.standardError.write(Data("xcmedic: step failed: \(error); skipping this commit\n".utf8))
            throw ExitCode(StepVerdict.skip.exitCode)
        }
    }
}
