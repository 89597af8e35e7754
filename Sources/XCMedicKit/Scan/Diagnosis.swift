import Foundation

/// One place in a log where a finding's line stood.
public struct Occurrence: Sendable, Equatable {
    /// 1-based line number in the input as read (prefixes and all).
    public var line: Int
    /// Index into `Diagnosis.inputs`.
    public var input: Int
    /// File, line and column the log line names, if it names them.
    public var location: SourceLocation?
}

/// A named failure (or an error no rule knows) with everything a user needs to act on it.
public struct Finding: Sendable {
    public static let unrecognizedID = "unrecognized"

    public var rule: String
    public var category: String
    public var severity: Severity
    public var role: Role
    public var title: String
    public var message: String
    public var captures: [String: String]
    /// Values collected from continuation lines (`symbols` of an undefined-symbols block).
    public var collected: [String: [String]]
    public var count: Int
    /// The first occurrences (at most `Diagnosis.maxOccurrences`); `count` counts them all.
    public var occurrences: [Occurrence]
    /// The first occurrence's line and the lines that belong to it, as printed in the log.
    public var excerpt: [String]
    public var explanation: String
    public var fixes: [Fix]
    public var docs: [String]
    /// A warning today that the Swift 6 language mode makes an error.
    public var errorInSwift6: Bool

    public var firstLine: Int { occurrences.first?.line ?? 0 }
    public var location: SourceLocation? { occurrences.first(where: { $0.location != nil })?.location }
}

/// What a scanned log says, in the order a user should read it.
public struct Diagnosis: Sendable {
    public enum Status: String, Sendable { case failed, passed, unknown }

    public struct Input: Sendable, Equatable {
        public var path: String
        public var bytes: Int
        public var lines: Int
        public var dialect: String
    }

    public static let schemaVersion = 1
    static let maxOccurrences = 200
    static let maxExcerptLines = 24
    static let maxExcerptLineLength = 400
    static let maxFindings = 5_000

    public var status: Status
    public var inputs: [Input]
    public var findings: [Finding]
    /// Distinct findings beyond `maxFindings` that were counted but not kept.
    public var droppedFindings: Int

    public var causes: [Finding] { findings.filter { $0.role == .cause } }
    public var highestSeverity: Severity? { findings.map(\.severity).max() }
}

/// Collects occurrences into findings while the scan runs, in memory bounded by the number of
/// distinct findings, not by the log's size.
struct FindingCollector {
    private struct Key: Hashable {
        var rule: String
        var captures: [String: String]
    }

    private var index: [Key: Int] = [:]
    private(set) var findings: [Finding] = []
    private(set) var dropped = 0
    var sawSuccess = false

    /// Adds an occurrence; returns the finding's index and whether this was its first occurrence.
    /// `message` and `fixes` are only rendered for a new finding: a log may repeat one line thousands of times.
    mutating func add(rule: Rule?, fixes: @autoclosure () -> [Fix] = [], captures: [String: String], message: @autoclosure () -> String,
                      severity: Severity, occurrence: Occurrence, excerptLine: String, errorInSwift6: Bool) -> (Int, Bool)? {
        let id = rule?.id ?? Finding.unrecognizedID
        let key = Key(rule: id, captures: rule == nil ? ["message": message()] : captures)
        if let i = index[key] {
            findings[i].count += 1
            if findings[i].occurrences.count < Diagnosis.maxOccurrences { findings[i].occurrences.append(occurrence) }
            if severity > findings[i].severity { findings[i].severity = severity }
            findings[i].errorInSwift6 = findings[i].errorInSwift6 || errorInSwift6
            return (i, false)
        }
        guard findings.count < Diagnosis.maxFindings else {
            dropped += 1
            return nil
        }
        let finding = Finding(
            rule: id,
            category: rule?.category ?? Finding.unrecognizedID,
            severity: severity,
            role: rule?.role ?? .unrecognized,
            title: rule?.title ?? "Error no rule recognises",
            message: message(),
            captures: captures,
            collected: [:],
            count: 1,
            occurrences: [occurrence],
            excerpt: [FindingCollector.clip(excerptLine)],
            explanation: rule?.explanation
                ?? "xcmedic has no rule for this error, so it is shown as printed. The lines around it in the log usually say more.",
            fixes: fixes(),
            docs: rule?.docs ?? [],
            errorInSwift6: errorInSwift6
        )
        index[key] = findings.count
        findings.append(finding)
        return (findings.count - 1, true)
    }

    mutating func appendExcerpt(_ i: Int, _ line: String) {
        guard findings[i].excerpt.count < Diagnosis.maxExcerptLines else { return }
        findings[i].excerpt.append(FindingCollector.clip(line))
    }

    mutating func collect(_ i: Int, name: String, value: String) {
        var list = findings[i].collected[name] ?? []
        guard list.count < 100, !list.contains(value) else { return }
        list.append(value)
        findings[i].collected[name] = list
    }

    static func clip(_ line: String) -> String {
        line.count > Diagnosis.maxExcerptLineLength ? String(line.prefix(Diagnosis.maxExcerptLineLength)) + "…" : line
    }

    /// Root causes first (errors before warnings, then by first line), then unrecognised errors, then symptoms.
    func diagnosis(inputs: [Diagnosis.Input]) -> Diagnosis {
        func roleRank(_ r: Role) -> Int { r == .cause ? 0 : r == .unrecognized ? 1 : 2 }
        let ordered = findings.sorted { a, b in
            if roleRank(a.role) != roleRank(b.role) { return roleRank(a.role) < roleRank(b.role) }
            if a.severity != b.severity { return a.severity > b.severity }
            let ai = a.occurrences.first?.input ?? 0, bi = b.occurrences.first?.input ?? 0
            if ai != bi { return ai < bi }
            return a.firstLine < b.firstLine
        }
        let failed = ordered.contains { $0.severity == .error }
        let status: Diagnosis.Status = failed ? .failed : (sawSuccess ? .passed : .unknown)
        return Diagnosis(status: status, inputs: inputs, findings: ordered, droppedFindings: dropped)
    }
}
