import Foundation

/// What "the same failure" means during a bisect: the root-cause findings of the bad revision's output.
///
/// Each entry is a rule and the captures that name what failed (`name`, `type`, `module`, …; the
/// location is not part of it, since line numbers move between commits). For an error no rule
/// knows, the entry is `unrecognized` with the compiler's message. A step is bad when its output
/// shows ANY entry: an error can hide another (a module that fails to compile stops the ones after
/// it), and the first commit that brought any of them is the one to look at.
public struct FailureSignature: Sendable, Codable, Equatable {
    public struct Entry: Sendable, Codable, Hashable, Comparable {
        public var rule: String
        /// Empty: any finding of `rule` matches (`--rule ID`).
        public var captures: [String: String]

        public init(rule: String, captures: [String: String] = [:]) {
            self.rule = rule
            self.captures = captures
        }

        public static func < (a: Entry, b: Entry) -> Bool {
            (a.rule, a.captures.sorted { $0.key < $1.key }.description) < (b.rule, b.captures.sorted { $0.key < $1.key }.description)
        }

        func matches(_ finding: Finding) -> Bool {
            guard finding.severity == .error else { return false }
            return matches(Entry(rule: finding.rule, captures: FailureSignature.key(of: finding)))
        }

        /// `other` (an error as a signature entry names it) is this failure.
        func matches(_ other: Entry) -> Bool {
            other.rule == rule && captures.allSatisfy { key, value in other.captures[key] == value }
        }

        public var description: String {
            captures.isEmpty ? rule : rule + " " + captures.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = Array(Set(entries)).sorted()
    }

    /// `--rule ID`: any error finding of these rules.
    public init(rules: [String]) {
        self.init(entries: rules.map { Entry(rule: $0) })
    }

    /// The signature of a failed run: its root-cause errors; when there are none, the unrecognised
    /// errors that point at a source line (compiler diagnostics); failing that, every unrecognised
    /// error. Generic wrappers (`** BUILD FAILED **`) never count: every failure has them.
    public init(diagnosis: Diagnosis) {
        let errors = diagnosis.findings.filter { $0.severity == .error }
        let causes = errors.filter { $0.role == .cause }
        let unknown = errors.filter { $0.role == .unrecognized }
        let located = unknown.filter { $0.location != nil }
        let chosen = !causes.isEmpty ? causes : (!located.isEmpty ? located : unknown)
        self.init(entries: chosen.map { Entry(rule: $0.rule, captures: FailureSignature.key(of: $0)) })
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// With `--retries`: what the failing runs at the bad revision agree on, the entries that at least
    /// two runs show. A run whose failure no other run shares (a network error, a crashed simulator)
    /// is flaky and adds nothing. Empty while no two runs agree.
    public static func agreement(_ runs: [[Entry]]) -> FailureSignature {
        var seen: [Entry: Int] = [:]
        for run in runs { for entry in Set(run) { seen[entry, default: 0] += 1 } }
        return FailureSignature(entries: seen.filter { $0.value >= 2 }.map(\.key))
    }

    /// The findings of `diagnosis` that show this failure.
    public func matches(in diagnosis: Diagnosis) -> [Finding] {
        diagnosis.findings.filter { f in entries.contains { $0.matches(f) } }
    }

    /// The captures that identify a finding: a rule's captures, or an unrecognised error's message.
    static func key(of finding: Finding) -> [String: String] {
        finding.role == .unrecognized ? ["message": finding.message] : finding.captures
    }
}

/// The verdict of one bisect step, as `git bisect run` hears it.
public enum StepVerdict: String, Sendable, Codable {
    case good, bad, skip

    /// 0 good, 1 bad, 125 skip: the only codes the step ever returns to git, so that a command's
    /// own 126/127 ("bad" to git) or 128+ (git aborts) never decides anything.
    public var exitCode: Int32 {
        switch self {
        case .good: return 0
        case .bad: return 1
        case .skip: return 125
        }
    }
}

/// One run of the user's command, judged.
public struct RunOutcome: Sendable, Codable, Equatable {
    public var verdict: StepVerdict
    /// Why, in words: "passed", "same failure: …", "other failure: …", "timed out after 60s", "could not start: …".
    public var reason: String
    public var exitStatus: Int32?
}

/// Decides good, bad or skip from how a command ended and what its output says.
public enum StepClassifier {
    /// An error of a run, as the classifier needs it: its signature entry and its message.
    public struct ErrorSeen: Sendable, Codable, Equatable {
        public var entry: FailureSignature.Entry
        public var message: String
    }

    public static func classify(_ exit: ChildExit, diagnosis: Diagnosis?, signature: FailureSignature, timeout: Double? = nil) -> RunOutcome {
        let errors = diagnosis.map { d in
            d.findings.filter { $0.severity == .error }.map { ErrorSeen(entry: .init(rule: $0.rule, captures: FailureSignature.key(of: $0)), message: $0.message) }
        }
        return classify(exit, errors: errors, chosen: diagnosis.map { FailureSignature(diagnosis: $0).entries }, signature: signature, timeout: timeout)
    }

    /// The failure a run shows, as signature entries: none when it passed or never really ran.
    static func failureEntries(_ exit: ChildExit, _ diagnosis: Diagnosis?) -> [FailureSignature.Entry] {
        guard case .exited(let status) = exit, status != 0, status != 126, status != 127, let diagnosis else { return [] }
        return FailureSignature(diagnosis: diagnosis).entries
    }

    /// - errors: every error of the output (nil: not scanned); chosen: its own signature (for "other failure").
    static func classify(_ exit: ChildExit, errors: [ErrorSeen]?, chosen: [FailureSignature.Entry]?, signature: FailureSignature,
                         timeout: Double? = nil) -> RunOutcome {
        switch exit {
        case .timedOut:
            return RunOutcome(verdict: .skip, reason: "timed out after \(timeout.map { formatSeconds($0) } ?? "the time limit")", exitStatus: nil)
        case .couldNotStart(let why):
            return RunOutcome(verdict: .skip, reason: "could not start: \(why)", exitStatus: nil)
        case .exited(0):
            return RunOutcome(verdict: .good, reason: "passed", exitStatus: 0)
        case .exited(let status) where status == 126 || status == 127:
            // The shell's "not executable" / "command not found": the command did not run at this commit.
            return RunOutcome(verdict: .skip, reason: "could not start (exit \(status) means \(status == 126 ? "not executable" : "command not found"))", exitStatus: status)
        case .exited(let status):
            if let same = errors?.first(where: { e in signature.entries.contains { $0.matches(e.entry) } }) {
                return RunOutcome(verdict: .bad, reason: "same failure: \(same.message)", exitStatus: status)
            }
            let what = chosen?.first.map { e in e.captures["message"] ?? e.description } ?? "exit \(status) without a recognisable error"
            let signal = status > 128 ? " (ended by signal \(status - 128))" : ""
            return RunOutcome(verdict: .skip, reason: "other failure\(signal): \(what)", exitStatus: status)
        }
    }

    /// Several runs of one step (`--retries`): good as soon as one passes (a build cannot pass by
    /// accident, so the failures were flaky); otherwise bad when one showed the failure looked for;
    /// otherwise skip (every run failed some other way: flaky or an unrelated break).
    public static func combine(_ runs: [RunOutcome]) -> RunOutcome {
        if let pass = runs.first(where: { $0.verdict == .good }) {
            return runs.count > 1 ? RunOutcome(verdict: .good, reason: "passed on attempt \(runs.firstIndex(of: pass)! + 1) of \(runs.count)", exitStatus: 0) : pass
        }
        if let bad = runs.first(where: { $0.verdict == .bad }) { return bad }
        return runs.last ?? RunOutcome(verdict: .skip, reason: "not run", exitStatus: nil)
    }

    static func formatSeconds(_ s: Double) -> String {
        s == s.rounded() ? "\(Int(s))s" : String(format: "%.1fs", s)
    }
}
