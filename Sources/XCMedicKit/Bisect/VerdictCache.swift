import Foundation

/// Verdicts per commit and command, kept in `.git/xcmedic/cache/<key>.jsonl` and reused by later
/// bisects (serial or parallel) with the same command and rules. What is kept is how each run ended
/// and the errors its output showed, so a later bisect looking for another failure judges them again
/// by its own signature. Only good and bad verdicts are reused: a skip (a timeout, a flaky failure,
/// a command that could not start) is run again.
public struct VerdictCache: Sendable {
    public var folder: String
    /// FNV-1a 64 of the command and the content of the rules files.
    public var key: String

    init(folder: String, config: BisectConfig) {
        self.folder = folder
        var text = config.command.joined(separator: "\u{0}")
        for file in config.ruleFiles { text += "\u{1}" + ((try? String(contentsOfFile: file, encoding: .utf8)) ?? file) }
        self.key = VerdictCache.fnv1a(text)
    }

    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(format: "%016llx", hash)
    }

    struct Run: Codable, Sendable {
        /// nil: it timed out or could not start.
        var status: Int32?
        var timedOut: Bool
        var notStarted: String?
        var errors: [StepClassifier.ErrorSeen]
        var chosen: [FailureSignature.Entry]
        /// The output, in the state folder of the run that made it (gone once that folder is pruned).
        var log: String

        init(exit: ChildExit, diagnosis: Diagnosis?, log: String) {
            switch exit {
            case .exited(let s): status = s; timedOut = false; notStarted = nil
            case .timedOut: status = nil; timedOut = true; notStarted = nil
            case .couldNotStart(let why): status = nil; timedOut = false; notStarted = why
            }
            errors = diagnosis.map { d in
                d.findings.filter { $0.severity == .error }.map { .init(entry: .init(rule: $0.rule, captures: FailureSignature.key(of: $0)), message: $0.message) }
            } ?? []
            chosen = diagnosis.map { FailureSignature(diagnosis: $0).entries } ?? []
            self.log = log
        }

        var exit: ChildExit {
            if timedOut { return .timedOut }
            if let notStarted { return .couldNotStart(notStarted) }
            return .exited(status ?? 1)
        }
    }

    struct Entry: Codable, Sendable {
        var commit: String
        var runs: [Run]
        var seconds: Double?
    }

    var path: String { (folder as NSString).appendingPathComponent("\(key).jsonl") }

    /// The commit's runs judged by `signature`, when that gives good or bad. A bad verdict from fewer
    /// runs than this bisect would make (`retries` + 1) is not reused: more runs might have passed.
    func lookup(_ commit: String, signature: FailureSignature, retries: Int) -> (verdict: StepVerdict, reason: String, attempts: [StepRecord.Attempt])? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n").reversed() {
            guard line.contains(commit), let entry = try? JSONDecoder().decode(Entry.self, from: Data(line.utf8)), entry.commit == commit else { continue }
            let attempts = entry.runs.map { run in
                StepRecord.Attempt(outcome: StepClassifier.classify(run.exit, errors: run.errors, chosen: run.chosen, signature: signature), log: run.log)
            }
            let combined = StepClassifier.combine(attempts.map(\.outcome))
            guard combined.verdict == .good || (combined.verdict == .bad && attempts.count >= retries + 1) else { return nil }
            return (combined.verdict, combined.reason, attempts)
        }
        return nil
    }

    /// Appends the commit's runs (good or bad only); a cache that cannot be written is no reason to stop.
    func store(_ commit: String, runs: [Run], verdict: StepVerdict) {
        guard verdict != .skip else { return }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var data = try? encoder.encode(Entry(commit: commit, runs: runs, seconds: nil)) else { return }
        data.append(0x0A)
        try? BisectStateFolder.appendLine(data, to: path)
    }
}
