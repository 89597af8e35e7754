import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything a step needs, written by `xcmedic bisect` into the state folder and read by each
/// `xcmedic bisect-step --state DIR` that `git bisect run` starts.
public struct BisectConfig: Sendable, Codable, Equatable {
    public var repository: String
    public var command: [String]
    public var signature: FailureSignature
    public var timeout: Double?
    public var retries: Int
    /// Rules files, copied into the state folder at the start so every commit is judged by the same rules.
    public var ruleFiles: [String]
    /// `.git/xcmedic/cache`: verdicts per commit and command, reused across runs; nil: `--no-cache`.
    public var cacheFolder: String?

    public init(repository: String, command: [String], signature: FailureSignature, timeout: Double?, retries: Int, ruleFiles: [String],
                cacheFolder: String? = nil) {
        self.repository = repository
        self.command = command
        self.signature = signature
        self.timeout = timeout
        self.retries = retries
        self.ruleFiles = ruleFiles
        self.cacheFolder = cacheFolder
    }
}

/// One judged step, one line of `steps.jsonl`.
public struct StepRecord: Sendable, Codable, Equatable {
    public enum Phase: String, Sendable, Codable { case verifyBad = "verify-bad", verifyGood = "verify-good", bisect }

    public var number: Int
    public var phase: Phase
    public var commit: String
    public var verdict: StepVerdict
    public var reason: String
    /// One per run of the command (1 + retries used), each with its output file.
    public var attempts: [Attempt]
    public var seconds: Double
    /// The verdict came from the cache of an earlier run (nothing was run).
    public var cached: Bool?
    /// `verify-bad` without `--rule`: what the runs agreed on (see `FailureSignature.agreement`).
    public var signature: FailureSignature?

    public struct Attempt: Sendable, Codable, Equatable {
        public var outcome: RunOutcome
        /// The output file, relative to the state folder (absolute for a cached step: an earlier run's).
        public var log: String
    }
}

/// The state folder of one bisect: config, step records and outputs, git's logs, the report.
public struct BisectStateFolder: Sendable {
    public var path: String

    public init(path: String) { self.path = path }

    public static let configName = "config.json"
    public static let stepsName = "steps.jsonl"

    func file(_ name: String) -> String { name.hasPrefix("/") ? name : (path as NSString).appendingPathComponent(name) }

    /// `.git/xcmedic`, where every run's folder is.
    var base: String { (path as NSString).deletingLastPathComponent }

    /// The most all state folders together may hold (`XCMEDIC_BISECT_KEEP_MB`, default 200 MB); older folders go first.
    public static var sizeCap: Int64 {
        let mb = ProcessInfo.processInfo.environment["XCMEDIC_BISECT_KEEP_MB"].flatMap { Int64($0) } ?? 200
        return mb * 1_048_576
    }

    /// The most state folders kept (`XCMEDIC_BISECT_KEEP`, default 20).
    public static var countCap: Int {
        ProcessInfo.processInfo.environment["XCMEDIC_BISECT_KEEP"].flatMap { Int($0) } ?? 20
    }

    /// Deletes the current folder when its run did nothing (refused, or stopped before any step ran),
    /// then the oldest `bisect-*` folders until the rest fit in `sizeCap` and `countCap` (the current one always stays).
    static func prune(base: String, keeping current: String, currentDidSomething: Bool) {
        let fm = FileManager.default
        if !currentDidSomething { try? fm.removeItem(atPath: current) }
        let names = ((try? fm.contentsOfDirectory(atPath: base)) ?? []).filter { $0.hasPrefix("bisect-") }.sorted()
        var sizes: [(String, Int64)] = names.map { name in
            let path = (base as NSString).appendingPathComponent(name)
            var total: Int64 = 0
            if let walk = fm.enumerator(atPath: path) {
                while let file = walk.nextObject() as? String {
                    total += ((try? fm.attributesOfItem(atPath: (path as NSString).appendingPathComponent(file)))?[.size] as? NSNumber)?.int64Value ?? 0
                }
            }
            return (path, total)
        }
        var total = sizes.reduce(0) { $0 + $1.1 }
        while total > sizeCap || sizes.count > countCap, let oldest = sizes.first(where: { $0.0 != current }) {
            try? fm.removeItem(atPath: oldest.0)
            total -= oldest.1
            sizes.removeAll { $0.0 == oldest.0 }
        }
    }

    public func writeConfig(_ config: BisectConfig) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(config).write(to: URL(fileURLWithPath: file(Self.configName)))
    }

    public func readConfig() throws -> BisectConfig {
        let name = file(Self.configName)
        guard let data = FileManager.default.contents(atPath: name) else {
            throw InputError(path: name, problem: "no such file (not an xcmedic bisect state folder)")
        }
        do { return try JSONDecoder().decode(BisectConfig.self, from: data) } catch {
            throw InputError(path: name, problem: "is not a bisect config (\(error))")
        }
    }

    public func steps() -> [StepRecord] {
        guard let text = try? String(contentsOfFile: file(Self.stepsName), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(StepRecord.self, from: Data($0.utf8)) }
    }

    func append(_ record: StepRecord) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(record)
        data.append(0x0A)
        try Self.appendLine(data, to: file(Self.stepsName))
    }

    /// One `write` with O_APPEND: lines from steps running at the same time never interleave.
    static func appendLine(_ data: Data, to name: String) throws {
        let fd = open(name, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard fd >= 0 else { throw BisectError.aborted("cannot open \(name): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == data.count else { throw BisectError.aborted("cannot write \(name): \(String(cString: strerror(errno)))") }
    }

    /// The step running now (written by the step before its command starts), for progress lines.
    public struct Current: Codable, Sendable {
        public var number: Int
        public var commit: String
        public var started: Double
    }

    func setCurrent(_ current: Current) {
        guard let data = try? JSONEncoder().encode(current) else { return }
        try? data.write(to: URL(fileURLWithPath: file("current.json")), options: .atomic)
    }

    func current() -> Current? {
        FileManager.default.contents(atPath: file("current.json")).flatMap { try? JSONDecoder().decode(Current.self, from: $0) }
    }

    public func setPhase(_ phase: String) {
        try? Data((phase + "\n").utf8).write(to: URL(fileURLWithPath: file("phase")))
    }
}

/// Runs the user's command at the checked-out commit, retries, judges, and records the step.
public enum StepRunner {
    /// - directory: where the commit is checked out (a worktree of a parallel bisect); default the repository.
    /// - number: the step's number (a parallel bisect numbers its steps itself).
    /// - agree: `verify-bad` without `--rule`: find the signature the runs agree on (`FailureSignature.agreement`).
    public static func run(config: BisectConfig, folder: BisectStateFolder, phase: StepRecord.Phase, directory: String? = nil,
                           number: Int? = nil, agree: Bool = false, environment: [String: String] = [:], fresh: Bool = false,
                           tick: (@Sendable () -> Void)? = nil) throws -> StepRecord {
        let directory = directory ?? config.repository
        let git = Git(directory: directory)
        let commit = try git.line("rev-parse", "HEAD")
        let number = number ?? folder.steps().count + 1
        let cache = config.cacheFolder.map { VerdictCache(folder: $0, config: config) }
        if !agree, !fresh, let hit = try cached(config: config, folder: folder, phase: phase, commit: commit, number: number) { return hit }
        if directory == config.repository { folder.setCurrent(.init(number: number, commit: commit, started: Date().timeIntervalSince1970)) }
        let rules = try Catalog.rules(userFiles: config.ruleFiles, autoConfig: false)
        let ruleSet = try RuleSet(rules: rules)
        let started = Date()
        var runs: [(name: String, exit: ChildExit, diagnosis: Diagnosis?)] = []
        // With retries, the bad end runs until two failing runs agree, at most retries + 2 times.
        let most = agree && config.retries > 0 ? config.retries + 2 : max(0, config.retries) + 1
        var signature = config.signature
        for attempt in 0..<most {
            let name = String(format: "step-%02d-%@%@.log", number, String(commit.prefix(10)), attempt == 0 ? "" : "-retry\(attempt)")
            let logPath = folder.file(name)
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
            var env = ["XCMEDIC_BISECT_COMMIT": commit, "XCMEDIC_BISECT_STEP": String(number)]
            for (k, v) in environment { env[k] = v }
            var options = ChildProcess.Options(directory: directory, environment: env, outputPath: logPath, timeout: config.timeout)
            options.watched = true
            options.tick = tick
            let exit = try ChildProcess.run(config.command, options)
            try StepRunner.checkOutputComplete(logPath)
            var diagnosis: Diagnosis?
            if case .exited(let status) = exit, status != 0 {
                let scanner = Scanner(ruleSet: ruleSet)
                try scanner.scan(path: logPath)
                diagnosis = scanner.finish()
            }
            runs.append((name, exit, diagnosis))
            if exit == .exited(0) { break }
            if agree {
                let failed = runs.map { run in StepClassifier.failureEntries(run.exit, run.diagnosis) }
                if config.retries == 0 {
                    signature = FailureSignature(entries: failed[0])
                    break
                }
                let agreed = FailureSignature.agreement(failed)
                if !agreed.isEmpty {
                    signature = agreed
                    break
                }
            } else if StepClassifier.classify(exit, diagnosis: diagnosis, signature: signature, timeout: config.timeout).verdict == .good {
                break
            }
        }
        let attempts = runs.map { run in
            StepRecord.Attempt(outcome: StepClassifier.classify(run.exit, diagnosis: run.diagnosis, signature: signature, timeout: config.timeout), log: run.name)
        }
        var combined = StepClassifier.combine(attempts.map(\.outcome))
        // Builds rewrite tracked files (Package.resolved, generated sources); left there, they stop git
        // from checking out the next commit. This tree is a bisect checkout: the user's own changes
        // were refused or stashed before the bisect began (or it is xcmedic's own worktree), so only
        // the command's edits are dropped.
        let touched = try git.trackedChanges()
        if !touched.isEmpty {
            try git.run("reset", "--quiet", "--hard")
            combined.reason += "; the command changed \(touched.count) tracked file\(touched.count == 1 ? "" : "s") (\(touched.prefix(3).map { String($0.dropFirst(3)) }.joined(separator: ", "))), reset after the step"
        }
        let record = StepRecord(number: number, phase: phase, commit: commit, verdict: combined.verdict, reason: combined.reason,
                                attempts: attempts, seconds: Date().timeIntervalSince(started), cached: nil, signature: agree ? signature : nil)
        try append(record, folder)
        if !agree, let cache {
            cache.store(commit, runs: zip(runs, attempts).map { VerdictCache.Run(exit: $0.0.exit, diagnosis: $0.0.diagnosis, log: folder.file($0.1.log)) },
                        verdict: combined.verdict)
        }
        return record
    }

    /// The step as an earlier bisect judged it (recorded as this bisect's step), when the cache has it.
    static func cached(config: BisectConfig, folder: BisectStateFolder, phase: StepRecord.Phase, commit: String, number: Int) throws -> StepRecord? {
        guard let cache = config.cacheFolder.map({ VerdictCache(folder: $0, config: config) }),
              let hit = cache.lookup(commit, signature: config.signature, retries: config.retries) else { return nil }
        let record = StepRecord(number: number, phase: phase, commit: commit, verdict: hit.verdict, reason: hit.reason + " (cached)",
                                attempts: hit.attempts, seconds: 0, cached: true)
        try append(record, folder)
        return record
    }

    static func append(_ record: StepRecord, _ folder: BisectStateFolder) throws {
        do { try folder.append(record) } catch {
            throw BisectError.aborted("cannot record the step in \(folder.file(BisectStateFolder.stepsName)): \(StepRunner.reason(error)); the bisect stopped")
        }
    }

    /// A full disk cuts the command's output without a word (its writes fail; it may still exit 0), and a
    /// cut log cannot be judged. One more byte after the command has ended tells: when it cannot be
    /// written either, the bisect stops instead of judging commits by half their output.
    static func checkOutputComplete(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        var problem: String?
        if fd < 0 {
            problem = String(cString: strerror(errno))
        } else {
            var newline: UInt8 = 0x0A
            if write(fd, &newline, 1) != 1 { problem = String(cString: strerror(errno)) }
            close(fd)
        }
        if let problem {
            throw BisectError.aborted("cannot write the step's output \(path): \(problem); free some space, then run the bisect again")
        }
    }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let posix = ns.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return ns.localizedDescription
    }

    /// The diagnosis of a recorded step's first failing attempt, scanned again for the report.
    public static func diagnosis(of record: StepRecord, folder: BisectStateFolder, config: BisectConfig) -> Diagnosis? {
        guard let attempt = record.attempts.first(where: { $0.outcome.verdict == record.verdict }) ?? record.attempts.first,
              let rules = try? Catalog.rules(userFiles: config.ruleFiles, autoConfig: false),
              let ruleSet = try? RuleSet(rules: rules) else { return nil }
        let scanner = Scanner(ruleSet: ruleSet)
        guard (try? scanner.scan(path: folder.file(attempt.log))) != nil else { return nil }
        return scanner.finish()
    }
}
