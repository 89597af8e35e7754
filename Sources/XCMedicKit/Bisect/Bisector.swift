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
    /// `-j N`: commits tested at once, each in a `git worktree` of its own (1: `git bisect run` in the user's tree).
    public var jobs: Int = 1
    /// `--no-cache`: run every commit, even one an earlier bisect with the same command judged.
    public var useCache: Bool = true

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
    /// Rounds of the search (one step each when serial; up to `jobs` steps each with -j).
    public var rounds: Int = 0
    public var jobs: Int = 1

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
    /// On a terminal: the line that shows the running step's elapsed time, rewritten in place each second.
    /// Nil elsewhere: a line per minute goes to `progress` instead.
    public var status: (@Sendable (String) -> Void)?

    public init(options: BisectOptions) {
        self.options = options
        self.git = Git(directory: options.directory)
    }

    public func run() throws -> BisectResult {
        guard !options.command.isEmpty else { throw BisectError.refused("no command to run at each step; put it after '--'") }
        guard git.isWorkTree else { throw BisectError.refused("\(options.directory) is not inside a git work tree") }
        let top = try git.topLevel()
        let git = Git(directory: top)
        try Bisector.refuseIfUnrecovered(git)
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
        let parallel = options.jobs > 1
        // A parallel bisect checks commits out in worktrees of its own: the user's tree is never touched.
        let changes = parallel ? [] : try git.trackedChanges()
        if !changes.isEmpty, !options.autostash {
            let files = changes.prefix(3).map { String($0.dropFirst(3)) }.joined(separator: ", ")
            throw BisectError.refused("uncommitted changes to tracked files (\(files)\(changes.count > 3 ? ", …" : "")); commit or stash them, or pass --autostash (or -j 2 or more, which never touches your tree)")
        }
        for file in options.ruleFiles where !FileManager.default.fileExists(atPath: file) {
            throw BisectError.refused("\(file): no such rules file")
        }

        let folder = try makeStateFolder(git)
        progress("xcmedic: bisect state, step outputs and logs in \(folder.path)")
        let config = BisectConfig(repository: top, command: options.command, signature: FailureSignature(rules: options.rules),
                                  timeout: options.timeout, retries: options.retries, ruleFiles: try copyRuleFiles(top: top, folder: folder),
                                  cacheFolder: options.useCache ? (folder.base as NSString).appendingPathComponent("cache") : nil)
        try folder.writeConfig(config)

        Interrupts.install()
        // Where everything was, on disk before anything changes (the autostash as a commit not yet stored).
        var record = RecoveryRecord(pid: getpid(), started: ISO8601DateFormatter().string(from: Date()), branch: git.currentBranch(),
                                    head: try git.line("rev-parse", "HEAD"), stashBefore: try git.stashList(), autostash: nil,
                                    worktrees: [], stateFolder: folder.path)
        if !changes.isEmpty {
            record.autostash = try git.line("stash", "create", "xcmedic bisect autostash")
        }
        try BisectRecovery.write(record, git)
        var succeeded = false
        // Kept: a run that found something, or ran the command at least once (its output explains the
        // refusal or the stop). Dropped: a run stopped before that, or whose command never started.
        defer {
            let ran = folder.steps().contains { $0.attempts.contains { !$0.outcome.reason.hasPrefix("could not start") } }
            BisectStateFolder.prune(base: folder.base, keeping: folder.path, currentDidSomething: succeeded || ran)
        }
        do {
            try enter("stash", folder)
            if let stash = record.autostash {
                try git.run("stash", "store", "--quiet", "-m", "xcmedic bisect autostash", stash)
                try git.run("reset", "--quiet", "--hard")
                progress("xcmedic: stashed your changes (\(stash.prefix(10))); they come back at the end")
            }
            let result = parallel
                ? try ParallelBisect(options: options, git: git, folder: folder, progress: progress, status: status, record: record).run(good: good, bad: bad, config: config)
                : try bisect(git: git, good: good, bad: bad, config: config, folder: folder)
            try restore(git, record)
            succeeded = true
            return result
        } catch {
            do { try restore(git, record) } catch let restoreError {
                throw BisectError.restoreFailed("\(error); and the repository could not be put back: \(restoreError)")
            }
            throw error
        }
    }

    /// A record left by a bisect that died: refuse, saying exactly what `--recover` will do.
    static func refuseIfUnrecovered(_ git: Git) throws {
        guard let record = BisectRecovery.load(git) else { return }
        if BisectRecovery.ownerIsAlive(record) {
            throw BisectError.refused("another xcmedic bisect (pid \(record.pid), started \(record.started)) is running in this repository; wait for it, or end it (kill \(record.pid)) and it puts the repository back")
        }
        throw BisectError.refused(try BisectRecovery.describe(record, git))
    }

    /// `xcmedic bisect --recover`: gives the repository back after a bisect that died. Returns what was done.
    public static func recover(directory: String) throws -> [String] {
        let start = Git(directory: directory)
        guard start.isWorkTree else { throw BisectError.refused("\(directory) is not inside a git work tree") }
        let git = Git(directory: try start.topLevel())
        guard let record = BisectRecovery.load(git) else { return [] }
        if BisectRecovery.ownerIsAlive(record) {
            throw BisectError.refused("the xcmedic bisect that wrote \(BisectRecovery.fileName) (pid \(record.pid)) is still running; end it (kill \(record.pid)) and it puts the repository back itself")
        }
        let actions = try BisectRecovery.plan(record, git).map(\.description)
        let problems = try BisectRecovery.recover(record, git)
        if !problems.isEmpty { throw BisectError.restoreFailed(problems.joined(separator: "; ")) }
        return actions
    }

    // MARK: - Phases

    private func bisect(git: Git, good: String, bad: String, config initial: BisectConfig, folder: BisectStateFolder) throws -> BisectResult {
        var config = initial
        // 1. The endpoints.
        try enter("verify", folder)
        try git.run("checkout", "--quiet", "--detach", bad)
        announce(commit: bad, git: git, what: "the bad revision")
        let badTicker = ElapsedTicker(label: "the bad end", progress: progress, status: status)
        let badStep = try StepRunner.run(config: config, folder: folder, phase: .verifyBad, agree: options.rules.isEmpty, tick: { badTicker.tick() })
        report(badStep)
        config.signature = try Bisector.signature(at: badStep, bad: bad, options: options, folder: folder, config: config)
        try folder.writeConfig(config)
        progress("xcmedic: the failure to look for: \(config.signature.entries.map(\.description).joined(separator: "; "))")
        if options.verifyGood {
            try Interrupts.check()
            try git.run("checkout", "--quiet", "--detach", good)
            announce(commit: good, git: git, what: "the good revision")
            let goodTicker = ElapsedTicker(label: "the good end", progress: progress, status: status)
            let goodStep = try StepRunner.run(config: config, folder: folder, phase: .verifyGood, tick: { goodTicker.tick() })
            report(goodStep)
            try Bisector.checkGood(goodStep, good: good, options: options, folder: folder) {
                try StepRunner.run(config: config, folder: folder, phase: .verifyGood, fresh: true)
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
        progress("xcmedic: bisecting \(count) commits (about \(estimate(count)) steps without skips); git's output goes to \(folder.file("bisect-run.log"))")
        let runLog = folder.file("bisect-run.log")
        try Data(started.stdout.utf8).write(to: URL(fileURLWithPath: runLog))
        var exit = ChildExit.exited(0)
        if Bisector.parseResult(try git.run("bisect", "log")).culprit == nil {
            // (When good is the bad revision's parent, `bisect start` has already named it.)
            let step = [options.stepExecutable, "bisect-step", "--state", folder.path]
            var run = ChildProcess.Options(environment: ["LC_ALL": "C"], outputPath: runLog, interruptible: true)
            let reporter = StepReporter(folder: folder, git: git, runLog: runLog, progress: progress, status: status, initialEstimate: estimate(count))
            run.tick = { reporter.report() }
            run.watched = true
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
        let failure = StepRunner.diagnosis(of: record, folder: folder, config: config) ?? StepRunner.diagnosis(of: badStep, folder: folder, config: config)
        let findings = failure.map { config.signature.matches(in: $0) } ?? []
        var changes: ChangeSummary?
        if let culprit, let parent = git.commit("\(culprit.hash)^1") {
            changes = try ChangeSummary.between(parent, and: culprit.hash, git: git)
        }
        try Interrupts.check()
        return BisectResult(
            good: try git.commitInfo(good), bad: try git.commitInfo(bad), signature: config.signature, culprit: culprit,
            candidates: candidates, failure: failure, failureFindings: findings, changes: changes, steps: steps,
            stateFolder: folder.path, reproduce: reproduceCommand(culprit: culprit?.hash ?? bad), firstParent: options.firstParent,
            rounds: steps.filter { $0.phase == .bisect }.count, jobs: 1
        )
    }

    func estimate(_ count: Int) -> Int { Int(log2(Double(max(count, 2))).rounded(.up)) }

    /// "checking the bad revision: <hash> <subject>" as an endpoint's step starts.
    func announce(commit: String, git: Git, what: String) {
        let subject = (try? git.line("log", "-1", "--format=%s", commit)) ?? ""
        progress("xcmedic: checking \(what): \(commit.prefix(10)) \(subject)")
    }

    /// "… bad (same failure: …) in 12.3s" as a step ends.
    func report(_ step: StepRecord) { Bisector.reportStep(step, progress) }

    /// - offset: steps before the first bisect step (the endpoint checks), so bisect steps count from 1.
    static func reportStep(_ step: StepRecord, _ progress: @Sendable (String) -> Void, offset: Int = 0) {
        let time = step.cached == true ? "" : " in " + Bisector.duration(step.seconds)
        let what = step.phase == .verifyBad ? "the bad end" : step.phase == .verifyGood ? "the good end" : "step \(step.number - offset)"
        progress("xcmedic: \(what) \(step.commit.prefix(10)): \(step.verdict.rawValue) (\(step.reason))\(time)")
    }

    static func duration(_ s: Double) -> String {
        if s < 60 { return s == s.rounded() ? "\(Int(s))s" : String(format: "%.1fs", s) }
        let m = Int(s) / 60
        return m < 60 ? "\(m)m\(String(format: "%02d", Int(s) % 60))s" : "\(m / 60)h\(String(format: "%02d", m % 60))m"
    }

    // MARK: - Endpoints and their refusals

    /// The failure to look for, from the runs at the bad revision; or a refusal with the advice that fits.
    static func signature(at badStep: StepRecord, bad: String, options: BisectOptions, folder: BisectStateFolder, config: BisectConfig) throws -> FailureSignature {
        let at = "the bad revision \(bad.prefix(10))"
        let output = "(output in \(folder.path))"
        if badStep.verdict == .good {
            throw BisectError.endpoint("\(at) passes: the command succeeded there (\(badStep.reason)); nothing to bisect: give a --bad where it fails (the default is HEAD) \(output)")
        }
        let outcomes = badStep.attempts.map(\.outcome)
        if let first = outcomes.first, outcomes.allSatisfy({ $0.reason.hasPrefix("could not start") }) {
            throw BisectError.endpoint("the command could not start at \(at): \(first.reason.replacingOccurrences(of: "could not start: ", with: "")); check the command after '--' (it runs in the repository's top folder)")
        }
        if outcomes.allSatisfy({ $0.reason.hasPrefix("timed out") }) {
            throw BisectError.endpoint("the command timed out at \(at) (\(badStep.reason)); give it more time with --timeout \(output)")
        }
        if !options.rules.isEmpty {
            guard badStep.verdict == .bad else {
                throw BisectError.endpoint("\(at) fails, but not with --rule \(options.rules.joined(separator: ", ")): \(badStep.reason) \(output)")
            }
            return config.signature
        }
        let signature = badStep.signature ?? FailureSignature(entries: [])
        if signature.isEmpty {
            if options.retries > 0, badStep.attempts.count > 1 {
                let seen = outcomes.map(\.reason).joined(separator: " | ")
                throw BisectError.endpoint("\(at) failed \(badStep.attempts.count) times, never the same way twice (\(seen)): the build is flaky there; raise --retries, or name the failure with --rule ID \(output)")
            }
            throw BisectError.endpoint("\(at) fails (\(badStep.reason)) but prints no error xcmedic can recognise again; name the failure with --rule ID (xcmedic rules list shows them) \(output)")
        }
        return signature
    }

    /// The good revision must pass. A failure like the bad one is run once more without --retries:
    /// passing then means the build is flaky (advice: --retries), failing again an older --good.
    static func checkGood(_ goodStep: StepRecord, good: String, options: BisectOptions, folder: BisectStateFolder,
                          again: () throws -> StepRecord) throws {
        let at = "the good revision \(good.prefix(10))"
        let output = "(output in \(folder.path))"
        switch goodStep.verdict {
        case .good: return
        case .bad:
            if options.retries == 0 {
                let second = try again()
                if second.verdict == .good {
                    throw BisectError.endpoint("\(at) failed the same way (\(goodStep.reason)), then passed when run again: the build is flaky; run the bisect with --retries 1 (or more) \(output)")
                }
            }
            throw BisectError.endpoint("\(at) already fails the same way (\(goodStep.reason)); choose an older --good \(output)")
        case .skip:
            if goodStep.attempts.allSatisfy({ $0.outcome.reason.hasPrefix("could not start") }) {
                throw BisectError.endpoint("the command could not start at \(at) (\(goodStep.reason)); choose a --good where it runs, or pass --no-verify \(output)")
            }
            throw BisectError.endpoint("\(at) does not pass: \(goodStep.reason); choose a --good where the command passes, or pass --no-verify \(output)")
        }
    }

    /// Marks the phase in the state folder. `XCMEDIC_BISECT_PAUSE=<phase>` holds it there for up to
    /// 30 s so that tests (and the curious) can interrupt a bisect at a known point.
    private func enter(_ phase: String, _ folder: BisectStateFolder) throws { try Bisector.enter(phase, folder) }

    static func enter(_ phase: String, _ folder: BisectStateFolder) throws {
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

    func reproduceCommand(culprit: String) -> String { Bisector.reproduce(culprit: culprit, command: options.command) }

    static func reproduce(culprit: String, command: [String]) -> String {
        "git checkout \(culprit.prefix(12)) && " + command.map(Bisector.shellQuote).joined(separator: " ")
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

    /// Puts branch, HEAD, index, work tree and stash back as the record has them (and removes the
    /// worktrees of a parallel bisect); the record goes only when everything is back.
    private func restore(_ git: Git, _ record: RecoveryRecord) throws {
        var record = record
        record.worktrees = BisectRecovery.load(git)?.worktrees ?? record.worktrees
        let problems = try BisectRecovery.recover(record, git)
        if !problems.isEmpty { throw BisectError.restoreFailed(problems.joined(separator: "; ")) }
    }
}

/// The elapsed time of a step xcmedic runs itself: in place each second on a terminal, a line a minute otherwise.
final class ElapsedTicker: @unchecked Sendable {
    private let label: String
    private let progress: @Sendable (String) -> Void
    private let status: (@Sendable (String) -> Void)?
    private let started = Date()
    // Ticks come from the one thread that waits for the step.
    private var lastMinute = 0

    init(label: String, progress: @escaping @Sendable (String) -> Void, status: (@Sendable (String) -> Void)?) {
        self.label = label
        self.progress = progress
        self.status = status
    }

    private var lastSecond = -1

    func tick() {
        let elapsed = Date().timeIntervalSince(started)
        if let status, Int(elapsed) != lastSecond {
            lastSecond = Int(elapsed)
            status("  \(label) running: \(Bisector.duration(Double(lastSecond)))")
        } else if status == nil, Int(elapsed) / 60 > lastMinute {
            lastMinute = Int(elapsed) / 60
            progress("xcmedic: \(label) still running (\(lastMinute)m)")
        }
    }
}

/// Prints, for `git bisect run`'s steps: each step as it starts (commit, subject, which of about how
/// many, from git's own "roughly N steps"), the elapsed time while it runs (in place on a terminal,
/// a line a minute otherwise), and its verdict and time as it ends.
final class StepReporter: @unchecked Sendable {
    private let folder: BisectStateFolder
    private let git: Git
    private let runLog: String
    private let progress: @Sendable (String) -> Void
    private let status: (@Sendable (String) -> Void)?
    // Only touched from the thread that waits for git (ticks run there).
    private var shown = 0
    private var started: Int?
    private var lastMinute = 0
    private let first: Int
    private var estimate: Int

    init(folder: BisectStateFolder, git: Git, runLog: String, progress: @escaping @Sendable (String) -> Void,
         status: (@Sendable (String) -> Void)?, initialEstimate: Int) {
        self.folder = folder
        self.git = git
        self.runLog = runLog
        self.progress = progress
        self.status = status
        self.first = folder.steps().count + 1
        self.estimate = initialEstimate
    }

    /// "roughly N steps" in git's last "Bisecting: …" line.
    func stepsLeft() -> Int? {
        guard let text = try? String(contentsOfFile: runLog, encoding: .utf8),
              let line = text.split(separator: "\n").last(where: { $0.hasPrefix("Bisecting: ") }),
              let r = line.range(of: "roughly ") else { return nil }
        return Int(line[r.upperBound...].prefix { $0.isNumber })
    }

    func report() {
        let steps = folder.steps().filter { $0.phase == .bisect }
        for s in steps.dropFirst(shown) {
            Bisector.reportStep(s, progress, offset: first - 1)
        }
        shown = max(shown, steps.count)
        guard let current = folder.current(), current.number >= first else { return }
        let k = current.number - first + 1
        if started != current.number, !steps.contains(where: { $0.number == current.number }) {
            started = current.number
            lastMinute = 0
            if let left = stepsLeft() { estimate = k + left }
            estimate = max(estimate, k)
            let subject = (try? git.line("log", "-1", "--format=%s", current.commit)) ?? ""
            progress("xcmedic: step \(k) of about \(estimate): \(current.commit.prefix(10)) \(subject)")
        }
        guard started == current.number, !steps.contains(where: { $0.number == current.number }) else { return }
        let elapsed = Date().timeIntervalSince1970 - current.started
        if let status {
            status("  step \(k) of about \(estimate) running: \(Bisector.duration(elapsed.rounded()))")
        } else if Int(elapsed) / 60 > lastMinute {
            lastMinute = Int(elapsed) / 60
            progress("xcmedic: step \(k) still running (\(lastMinute)m)")
        }
    }
}
