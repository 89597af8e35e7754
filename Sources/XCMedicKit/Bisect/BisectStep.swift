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

    public init(repository: String, command: [String], signature: FailureSignature, timeout: Double?, retries: Int, ruleFiles: [String]) {
        self.repository = repository
        self.command = command
        self.signature = signature
        self.timeout = timeout
        self.retries = retries
        self.ruleFiles = ruleFiles
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

    public struct Attempt: Sendable, Codable, Equatable {
        public var outcome: RunOutcome
        /// The output file, relative to the state folder.
        public var log: String
    }
}

/// The state folder of one bisect: config, step records and outputs, git's logs, the report.
public struct BisectStateFolder: Sendable {
    public var path: String

    public init(path: String) { self.path = path }

    public static let configName = "config.json"
    public static let stepsName = "steps.jsonl"

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

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
        let name = file(Self.stepsName)
        if !FileManager.default.fileExists(atPath: name) { _ = FileManager.default.createFile(atPath: name, contents: nil) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: name))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
    }

    public func setPhase(_ phase: String) {
        try? Data((phase + "\n").utf8).write(to: URL(fileURLWithPath: file("phase")))
    }
}

/// Runs the user's command at the checked-out commit, retries, judges, and records the step.
public enum StepRunner {
    public static func run(config: BisectConfig, folder: BisectStateFolder, phase: StepRecord.Phase) throws -> StepRecord {
        let git = Git(directory: config.repository)
        let commit = try git.line("rev-parse", "HEAD")
        let number = folder.steps().count + 1
        let rules = try Catalog.rules(userFiles: config.ruleFiles, autoConfig: false)
        let ruleSet = try RuleSet(rules: rules)
        let started = Date()
        var attempts: [StepRecord.Attempt] = []
        for attempt in 0...max(0, config.retries) {
            let name = String(format: "step-%02d-%@%@.log", number, String(commit.prefix(10)), attempt == 0 ? "" : "-retry\(attempt)")
            let logPath = folder.file(name)
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
            let exit = try ChildProcess.run(config.command, .init(
                directory: config.repository,
                environment: ["XCMEDIC_BISECT_COMMIT": commit, "XCMEDIC_BISECT_STEP": String(number)],
                outputPath: logPath, timeout: config.timeout))
            try StepRunner.checkOutputComplete(logPath)
            var diagnosis: Diagnosis?
            if case .exited(let status) = exit, status != 0 {
                let scanner = Scanner(ruleSet: ruleSet)
                try scanner.scan(path: logPath)
                diagnosis = scanner.finish()
            }
            var signature = config.signature
            if signature.isEmpty, phase == .verifyBad, let diagnosis {
                // No --rule: the bad end's own failure is what the bisect will look for.
                signature = FailureSignature(diagnosis: diagnosis)
            }
            let outcome = StepClassifier.classify(exit, diagnosis: diagnosis, signature: signature, timeout: config.timeout)
            attempts.append(.init(outcome: outcome, log: name))
            if outcome.verdict == .good { break }
        }
        var combined = StepClassifier.combine(attempts.map(\.outcome))
        // Builds rewrite tracked files (Package.resolved, generated sources); left there, they stop git
        // from checking out the next commit. This tree is a bisect checkout: the user's own changes
        // were refused or stashed before the bisect began, so only the command's edits are dropped.
        let touched = try git.trackedChanges()
        if !touched.isEmpty {
            try git.run("reset", "--quiet", "--hard")
            combined.reason += "; the command changed \(touched.count) tracked file\(touched.count == 1 ? "" : "s") (\(touched.prefix(3).map { String($0.dropFirst(3)) }.joined(separator: ", "))), reset after the step"
        }
        let record = StepRecord(number: number, phase: phase, commit: commit, verdict: combined.verdict, reason: combined.reason,
                                attempts: attempts, seconds: Date().timeIntervalSince(started))
        do { try folder.append(record) } catch {
            throw BisectError.aborted("cannot record the step in \(folder.file(BisectStateFolder.stepsName)): \(StepRunner.reason(error)); the bisect stopped")
        }
        return record
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
