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
            guard finding.rule == rule, finding.severity == .error else { return false }
            return captures.allSatisfy { key, value in FailureSignature.key(of: finding)[key] == value }
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
        self.init(entries: FailureSignature.failureFindings(of: diagnosis).map { Entry(rule: $0.rule, captures: FailureSignature.key(of: $0)) })
    }

    /// The findings that say what failed (also what `scan --record` stores): see `init(diagnosis:)`.
    public static func failureFindings(of diagnosis: Diagnosis) -> [Finding] {
        failureIndices(of: diagnosis).map { diagnosis.findings[$0] }
    }

    /// The indices in `diagnosis.findings` of `failureFindings(of:)`.
    public static func failureIndices(of diagnosis: Diagnosis) -> [Int] {
        let findings = diagnosis.findings
        let errors = findings.indices.filter { findings[$0].severity == .error }
        let causes = errors.filter { findings[$0].role == .cause }
        let unknown = errors.filter { findings[$0].role == .unrecognized }
        let located = unknown.filter { findings[$0].location != nil }
        return !causes.isEmpty ? causes : (!located.isEmpty ? located : unknown)
    }

    public var isEmpty: Bool { entries.isEmpty }

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
    public static func classify(_ exit: ChildExit, diagnosis: Diagnosis?, signature: FailureSignature, timeout: Double? = nil) -> RunOutcome {
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
            let diagnosis = diagnosis
            let same = diagnosis.map { signature.matches(in: $0) } ?? []
            if let first = same.first {
                return RunOutcome(verdict: .bad, reason: "same failure: \(first.message)", exitStatus: status)
            }
            let other = diagnosis.map { FailureSignature(diagnosis: $0).entries } ?? []
            let what = other.first.map { e in e.captures["message"] ?? e.description } ?? "exit \(status) without a recognisable error"
            let signal = status > 128 ? " (ended by signal \(status - 128))" : ""
            return RunOutcome(verdict: .skip, reason: "other failure\(signal): \(what)", exitStatus: status)
        }
    }

    /// Several runs of one step (`--retries`): good as soon as one passes (the failure was flaky);
    /// otherwise bad when one showed the failure; otherwise skip.
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
