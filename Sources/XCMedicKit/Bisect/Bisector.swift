import Foundation

/// Why a bisect did not start or could not finish; the CLI prints it on one line.
public enum BisectError: Error, Sendable, CustomStringConvertible {
    /// Usage or repository state: nothing was changed (exit 2).
    case refused(String)
    /// An endpoint does not behave as claimed (exit 2); the state folder has its output.
    case endpoint(String)
    /// The repository could not be put back; what the user must do is in the message.
    case restoreFailed(String)
    /// The bisect had to stop: the state folder cannot be written (a full disk), so no step can be judged.
    case aborted(String)

    /// How `xcmedic bisect-step` tells the driver, through git's run log, why it made `git bisect run` stop.
    public static let abortPrefix = "xcmedic: abort: "

    public var description: String {
        switch self {
        case .refused(let m), .endpoint(let m), .restoreFailed(let m), .aborted(let m): return m
        }
    }
}

public struct BisectOptions: Sendable {
    public var directory: String
    public var good: String
    public var bad: String
    public var command: [String]
    /// `--rule ID`: the signature named explicitly.
    public var rules: [String]
    public var timeout: Double?
    public var retries: Int
    public var firstParent: Bool
    public var verifyGood: Bool
    public var autostash: Bool
    public var ruleFiles: [String]
    public var autoConfig: Bool
    /// The xcmedic binary `git bisect run` starts as the step.
    public var stepExecutable: String

    public init(directory: String, good: String, bad: String = "HEAD", command: [String], rules: [String] = [], timeout: Double? = nil,
                retries: Int = 0, firstParent: Bool = false, verifyGood: Bool = true, autostash: Bool = false,
                ruleFiles: [String] = [], autoConfig: Bool = true, stepExecutable: String) {
        self.directory = directory
        self.good = good
        self.bad = bad
        self.command = command
        self.rules = rules
        self.timeout = timeout
        self.retries = retries
        self.firstParent = firstParent
        self.verifyGood = verifyGood
        self.autostash = autostash
        self.ruleFiles = ruleFiles
        self.autoConfig = autoConfig
        self.stepExecutable = stepExecutable
    }
}

/// The outcome of a finished bisect.
public struct BisectResult: Sendable {
    public var good: CommitInfo
    public var bad: CommitInfo
    public var signature: FailureSignature
    /// The first bad commit, when git could name one.
    public var culprit: CommitInfo?
    /// When skipped commits leave several: every commit that could be the first bad one.
    public var candidates: [CommitInfo]
    /// The output at the culprit (or at the bad end when there is no single culprit).
    public var failure: Diagnosis?
    public var failureFindings: [Finding]
    public var changes: ChangeSummary?
    public var steps: [StepRecord]
    public var stateFolder: String
    public var reproduce: String
    public var firstParent: Bool

    public var bisectSteps: [StepRecord] { steps.filter { $0.phase == .bisect } }
    public var skips: Int { bisectSteps.filter { $0.verdict == .skip }.count }
}

/// Drives one bisect: refuses what it must, verifies the endpoints, runs `git bisect run` with
/// `xcmedic bisect-step` as the step, gathers the report, and always puts the repository back.
public final class Bisector {
    public let options: BisectOptions
    let git: Git
    /// Progress lines for the user (stderr in the CLI).
    public var progress: @Sendable (String) -> Void = { _ in }

    public init(options: BisectOptions) {
        self.options = options
        self.git = Git(directory: options.directory)
    }

    /// Where HEAD, the work tree and the stash were before the bisect.
    struct Original {
        var branch: String?
        var head: String
        var stash: [String]
    }

    public func run() throws -> BisectResult {
        guard !options.command.isEmpty else { throw BisectError.refused("no command to run at each step; put it after '--'") }
        guard git.isWorkTree else { throw BisectError.refused("\(options.directory) is not inside a git work tree") }
        let top = try git.topLevel()
        let git = Git(directory: top)
        guard !git.bisectInProgress else {
            throw BisectError.refused("a git bisect is already in progress here; finish it or end it with 'git bisect reset'")
        }
        if options.firstParent {
            let v = try git.version()
            guard (v.major, v.minor) >= (2, 29) else { throw BisectError.refused("--first-parent needs git 2.29 or later (this is \(v.major).\(v.minor))") }
        }
        let bad = try LastGood.resolve(options.bad, git: git)
        let good = try LastGood.resolve(options.good, git: git)
        guard good != bad else { throw BisectError.refused("--good and --bad name the same commit \(good.prefix(10))") }
        guard (try git.result(["merge-base", "--is-ancestor", good, bad])).ok else {
            throw BisectError.refused("the good revision \(good.prefix(10)) is not an ancestor of the bad revision \(bad.prefix(10))")
        }
        let changes = try git.trackedChanges()
        if !changes.isEmpty, !options.autostash {
            let files = changes.prefix(3).map { String($0.dropFirst(3)) }.joined(separator: ", ")
            throw BisectError.refused("uncommitted changes to tracked files (\(files)\(changes.count > 3 ? ", …" : "")); commit or stash them, or pass --autostash")
        }
        for file in options.ruleFiles where !FileManager.default.fileExists(atPath: file) {
            throw BisectError.refused("\(file): no such rules file")
        }

        let original = Original(branch: git.currentBranch(), head: try git.line("rev-parse", "HEAD"), stash: try git.stashList())
        let folder = try makeStateFolder(git)
        progress("xcmedic: bisect state, step outputs and logs in \(folder.path)")
        let config = BisectConfig(repository: top, command: options.command, signature: FailureSignature(rules: options.rules),
                                  timeout: options.timeout, retries: options.retries, ruleFiles: try copyRuleFiles(top: top, folder: folder))
        try folder.writeConfig(config)

        Interrupts.install()
        var stash: String?
        do {
            if !changes.isEmpty {
                try git.run("stash", "push", "--quiet", "-m", "xcmedic bisect autostash")
                stash = try git.stashList().first
                progress("xcmedic: stashed your changes (\(stash?.prefix(10) ?? "?")); they come back at the end")
            }
            let result = try bisect(git: git, good: good, bad: bad, config: config, folder: folder)
            try restore(git, original, stash: stash)
            return result
        } catch {
            do { try restore(git, original, stash: stash) } catch let restoreError {
                throw BisectError.restoreFailed("\(error); and the repository could not be put back: \(restoreError)")
            }
            throw error
        }
    }

    // MARK: - Phases

    private func bisect(git: Git, good: String, bad: String, config initial: BisectConfig, folder: BisectStateFolder) throws -> BisectResult {
        var config = initial
        // 1. The endpoints.
        try enter("verify", folder)
        try git.run("checkout", "--quiet", "--detach", bad)
        progress("xcmedic: running the command at the bad revision \(bad.prefix(10))")
        let badStep = try StepRunner.run(config: config, folder: folder, phase: .verifyBad)
        if badStep.verdict == .good {
            throw BisectError.endpoint("the bad revision \(bad.prefix(10)) passes: the command succeeded there (\(badStep.reason)); nothing to bisect (output in \(folder.path))")
        }
        if options.rules.isEmpty {
            guard let diagnosis = StepRunner.diagnosis(of: badStep, folder: folder, config: config) else {
                throw BisectError.endpoint("the bad revision \(bad.prefix(10)) failed but its output could not be read (\(folder.path))")
            }
            config.signature = FailureSignature(diagnosis: diagnosis)
            if config.signature.isEmpty {
                throw BisectError.endpoint("the bad revision \(bad.prefix(10)) fails (\(badStep.reason)) but prints no error xcmedic can recognise again; name the failure with --rule ID (output in \(folder.path))")
            }
            try folder.writeConfig(config)
        } else if badStep.verdict != .bad {
            throw BisectError.endpoint("the bad revision \(bad.prefix(10)) fails, but not with --rule \(options.rules.joined(separator: ", ")): \(badStep.reason) (output in \(folder.path))")
        }
        progress("xcmedic: the failure to look for: \(config.signature.entries.map(\.description).joined(separator: "; "))")
        if options.verifyGood {
            try Interrupts.check()
            try git.run("checkout", "--quiet", "--detach", good)
            progress("xcmedic: running the command at the good revision \(good.prefix(10))")
            let goodStep = try StepRunner.run(config: config, folder: folder, phase: .verifyGood)
            switch goodStep.verdict {
            case .good: break
            case .bad:
                throw BisectError.endpoint("the good revision \(good.prefix(10)) already fails the same way (\(goodStep.reason)); choose an older --good (output in \(folder.path))")
            case .skip:
                throw BisectError.endpoint("the good revision \(good.prefix(10)) does not pass: \(goodStep.reason); choose a --good where the command passes, or pass --no-verify (output in \(folder.path))")
            }
        }

        // 2. git bisect run, with xcmedic judging each step.
        try enter("bisect", folder)
        var start = ["bisect", "start"]
        if options.firstParent { start.append("--first-parent") }
        start += [bad, good, "--"]
        let started = try git.result(start, interruptible: true)
        guard started.ok else { throw GitError(arguments: start, status: started.status, message: started.stderr) }
        let count = try git.commits(from: good, to: bad, firstParent: options.firstParent).count
        progress("xcmedic: bisecting \(count) commits (about \(Int(log2(Double(max(count, 2))).rounded(.up))) steps without skips); git's output goes to \(folder.file("bisect-run.log"))")
        let runLog = folder.file("bisect-run.log")
        try Data(started.stdout.utf8).write(to: URL(fileURLWithPath: runLog))
        var exit = ChildExit.exited(0)
        if Bisector.parseResult(try git.run("bisect", "log")).culprit == nil {
            // (When good is the bad revision's parent, `bisect start` has already named it.)
            let step = [options.stepExecutable, "bisect-step", "--state", folder.path]
            var run = ChildProcess.Options(environment: ["LC_ALL": "C"], outputPath: runLog, interruptible: true)
            let reporter = StepReporter(folder: folder, progress: progress)
            run.tick = { reporter.report() }
            exit = try ChildProcess.run(["git", "-C", config.repository, "bisect", "run"] + step, run)
            reporter.report()
        }
        let bisectLog = try git.run("bisect", "log")
        try Data(bisectLog.utf8).write(to: URL(fileURLWithPath: folder.file("bisect-log.txt")))
        let (culpritHash, candidateHashes) = Bisector.parseResult(bisectLog)
        if culpritHash == nil, candidateHashes.isEmpty {
            let runText = (try? String(contentsOfFile: runLog, encoding: .utf8)) ?? ""
            if let abort = runText.split(separator: "\n").last(where: { $0.hasPrefix(BisectError.abortPrefix) }) {
                throw BisectError.aborted(String(abort.dropFirst(BisectError.abortPrefix.count)))
            }
            // git stops `bisect run` when a step exits with 128 or more: the step itself was killed.
            if let match = runText.range(of: #"exit code [0-9]+ from .* is < 0 or >= 128"#, options: .regularExpression),
               let code = Int(runText[match].dropFirst("exit code ".count).prefix { $0.isNumber }) {
                let at = (try? git.line("rev-parse", "HEAD")).map { String($0.prefix(10)) } ?? "?"
                let how = code > 128 ? "killed by signal \(code - 128)" : "exit \(code)"
                throw BisectError.aborted("the step at \(at) ended without a verdict (\(how)), so git bisect run stopped; its output: \(runLog)")
            }
            let said = (try? String(contentsOfFile: runLog, encoding: .utf8))?.split(separator: "\n").last.map(String.init) ?? "\(exit)"
            throw GitError(arguments: ["bisect", "run"], status: { if case .exited(let s) = exit { return s }; return 1 }(), message: said)
        }

        // 3. The report.
        try enter("report", folder)
        let steps = folder.steps()
        let culprit = try culpritHash.map { try git.commitInfo($0) }
        let candidates = try candidateHashes.map { try git.commitInfo($0) }
        let atHash = culpritHash ?? bad
        let record = steps.last { $0.commit == atHash && $0.verdict == .bad } ?? badStep
        let failure = StepRunner.diagnosis(of: record, folder: folder, config: config)
        let findings = failure.map { config.signature.matches(in: $0) } ?? []
        var changes: ChangeSummary?
        if let culprit, let parent = git.commit("\(culprit.hash)^1") {
            changes = try ChangeSummary.between(parent, and: culprit.hash, git: git)
        }
        try Interrupts.check()
        return BisectResult(
            good: try git.commitInfo(good), bad: try git.commitInfo(bad), signature: config.signature, culprit: culprit,
            candidates: candidates, failure: failure, failureFindings: findings, changes: changes, steps: steps,
            stateFolder: folder.path, reproduce: reproduceCommand(culprit: culprit?.hash ?? bad), firstParent: options.firstParent
        )
    }

    /// Marks the phase in the state folder. `XCMEDIC_BISECT_PAUSE=<phase>` holds it there for up to
    /// 30 s so that tests (and the curious) can interrupt a bisect at a known point.
    private func enter(_ phase: String, _ folder: BisectStateFolder) throws {
        try Interrupts.check()
        folder.setPhase(phase)
        if ProcessInfo.processInfo.environment["XCMEDIC_BISECT_PAUSE"] == phase {
            folder.setPhase(phase + " (paused)")
            for _ in 0..<600 {
                try Interrupts.check()
                usleep(50_000)
            }
        }
    }

    /// `# first bad commit: [hash] subject` or `# possible first bad commit: [hash] …` lines of `git bisect log`.
    static func parseResult(_ log: String) -> (culprit: String?, candidates: [String]) {
        var culprit: String?
        var candidates: [String] = []
        for line in log.split(separator: "\n") {
            guard let open = line.firstIndex(of: "["), let close = line[open...].firstIndex(of: "]") else { continue }
            let hash = String(line[line.index(after: open)..<close])
            if line.hasPrefix("# first bad commit:") { culprit = hash }
            if line.hasPrefix("# possible first bad commit:") { candidates.append(hash) }
        }
        return (culprit, culprit == nil ? candidates : [])
    }

    private func reproduceCommand(culprit: String) -> String {
        "git checkout \(culprit.prefix(12)) && " + options.command.map(Bisector.shellQuote).joined(separator: " ")
    }

    static func shellQuote(_ word: String) -> String {
        let safe = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%")
        if !word.isEmpty, word.unicodeScalars.allSatisfy(safe.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    // MARK: - State folder

    private func makeStateFolder(_ git: Git) throws -> BisectStateFolder {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let base = (try git.gitDirectory() as NSString).appendingPathComponent("xcmedic")
        var path = (base as NSString).appendingPathComponent("bisect-\(formatter.string(from: Date()))")
        var n = 2
        while FileManager.default.fileExists(atPath: path) {
            path = (base as NSString).appendingPathComponent("bisect-\(formatter.string(from: Date()))-\(n)")
            n += 1
        }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return BisectStateFolder(path: path)
    }

    /// Copies the rules files (and `.xcmedic.yml` as it is now) into the folder, so that every
    /// commit is judged by today's rules, not by whatever `.xcmedic.yml` that commit has.
    private func copyRuleFiles(top: String, folder: BisectStateFolder) throws -> [String] {
        var sources = options.ruleFiles.map { URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).path }
        let config = (top as NSString).appendingPathComponent(Catalog.configFileName)
        if options.autoConfig, FileManager.default.fileExists(atPath: config) { sources.append(config) }
        var copies: [String] = []
        for (i, source) in sources.enumerated() {
            let copy = folder.file("rules-\(i + 1).yml")
            try FileManager.default.copyItem(atPath: source, toPath: copy)
            copies.append(copy)
        }
        return copies
    }

    // MARK: - Putting the repository back

    /// How long (in 50 ms waits) the restore waits for another git's `index.lock` to go: 10 s.
    static let indexLockWaits = 200

    private func restore(_ git: Git, _ original: Original, stash: String?) throws {
        let target = original.branch ?? original.head
        if let lock = try? (git.gitDirectory() as NSString).appendingPathComponent("index.lock"),
           FileManager.default.fileExists(atPath: lock) {
            // Another git (an editor's, a second terminal's) holds the index; every step back needs it.
            for _ in 0..<Bisector.indexLockWaits where FileManager.default.fileExists(atPath: lock) { usleep(50_000) }
            if FileManager.default.fileExists(atPath: lock) {
                let pop = stash.map { " && git stash pop --index (your changes are in stash \($0.prefix(10)))" } ?? ""
                throw BisectError.restoreFailed("\(lock) exists: another git process is running, or one crashed; when no git runs, delete it, then run: git bisect reset && git checkout \(original.branch ?? "--detach " + original.head)\(pop)")
            }
        }
        var problems: [String] = []
        if git.bisectInProgress {
            if !(try git.result(["bisect", "reset"])).ok {
                // A step's command changed tracked files at a bisect commit (the user's own changes
                // are stashed or there were none): drop those so the reset can check out again.
                _ = try? git.result(["reset", "--quiet", "--hard"])
                let again = try git.result(["bisect", "reset"])
                if !again.ok { problems.append("git bisect reset failed: \(again.stderr.trimmingCharacters(in: .whitespacesAndNewlines))") }
            }
        }
        var checkout = ["checkout", "--quiet"]
        checkout += original.branch == nil ? ["--detach", original.head] : [target]
        var back = try git.result(checkout)
        if !back.ok {
            _ = try? git.result(["reset", "--quiet", "--hard"])
            back = try git.result(checkout)
        }
        if !back.ok { problems.append("could not check out \(target): \(back.stderr.trimmingCharacters(in: .whitespacesAndNewlines))") }
        if let stash {
            let now = try git.stashList()
            if now.first == stash, now.count == original.stash.count + 1 {
                let pop = try git.result(["stash", "pop", "--index", "--quiet"])
                if !pop.ok { problems.append("your changes are in the stash (\(stash.prefix(10))) and could not be re-applied: run 'git stash pop'") }
            } else {
                problems.append("your changes are in the stash (\(stash.prefix(10))); run 'git stash apply \(stash.prefix(10))'")
            }
        }
        if !problems.isEmpty { throw BisectError.restoreFailed(problems.joined(separator: "; ")) }
    }
}

/// Prints each step's verdict as `git bisect run` records it in the state folder.
final class StepReporter: @unchecked Sendable {
    private let folder: BisectStateFolder
    private let progress: @Sendable (String) -> Void
    // Only touched from the thread that waits for git (ticks run there).
    private var shown = 0

    init(folder: BisectStateFolder, progress: @escaping @Sendable (String) -> Void) {
        self.folder = folder
        self.progress = progress
    }

    func report() {
        let steps = folder.steps().filter { $0.phase == .bisect }
        for s in steps.dropFirst(shown) {
            progress("xcmedic: step \(s.number - (steps.first?.number ?? 1) + 1) at \(s.commit.prefix(10)): \(s.verdict.rawValue) (\(s.reason))")
        }
        shown = max(shown, steps.count)
    }
}
