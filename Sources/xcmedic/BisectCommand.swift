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
        otherwise, cannot start or times out → skip. The repository is put back as it was at the end, also \
        on Ctrl-C. Exit status: 0 first bad commit found, 1 only candidates left, 2 refused (not a git \
        work tree, uncommitted changes, a bisect in progress, an endpoint that does not behave), 130/143 \
        interrupted.
        """
    )

    @Option(help: "A revision where the command passes ('last-good' reads refs/xcmedic/last-good).")
    var good: String

    @Option(help: "A revision where the command fails.")
    var bad: String = "HEAD"

    @Option(name: .customLong("rule"), help: "The failure to look for, by rule id (repeatable); default: the root causes at --bad.")
    var rules: [String] = []

    @Option(help: "Seconds after which a step's command is ended and the commit skipped.")
    var timeout: Double?

    @Option(help: "Run a failing step up to N more times; a step that passes once is good.")
    var retries: Int = 0

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
        if command.isEmpty { throw ValidationError("give the command to run at each step after '--', e.g. xcmedic bisect --good v1.2 -- swift build") }
        if retries < 0 { throw ValidationError("--retries must be 0 or more") }
        if let timeout, timeout <= 0 { throw ValidationError("--timeout must be more than 0 seconds") }
    }

    func run() throws {
        let options = BisectOptions(
            directory: FileManager.default.currentDirectoryPath, good: good, bad: bad, command: command, rules: rules,
            timeout: timeout, retries: retries, firstParent: firstParent, verifyGood: !noVerify, autostash: autostash,
            ruleFiles: ruleFiles, autoConfig: !noConfig, stepExecutable: Self.executablePath
        )
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
        bisector.progress = { FileHandle.standardError.write(Data((TerminalSafe.visible(redactor.redact($0)) + "\n").utf8)) }
        let result: BisectResult
        do {
            result = try bisector.run()
        } catch let error as BisectError {
            if case .restoreFailed = error { XCMedic.fail(redactor.redact(error.description)) }
            throw CLIError(redactor.redact(error.description))
        } catch let error as Interrupted {
            FileHandle.standardError.write(Data("xcmedic: \(error); the repository is back as it was\n".utf8))
            throw ExitCode(128 + error.signal)
        } catch let error as GitError {
            throw CLIError(redactor.redact(error.description))
        }
        let text = format == .json ? BisectReport.renderJSON(result, redactor: redactor) : BisectReport.renderText(result, redactor: redactor)
        FileHandle.standardOutput.write(Data(text.utf8))
        try? Data(text.utf8).write(to: URL(fileURLWithPath: (result.stateFolder as NSString).appendingPathComponent(format == .json ? "report.json" : "report.txt")))
        if result.culprit == nil { throw ExitCode(1) }
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
