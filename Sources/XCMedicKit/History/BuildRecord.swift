import Foundation

/// What `scan --record` stores of one build: its status and its causes, one per fingerprint, made in the
/// scan's own process from the redacted diagnosis, so no secret leaves it.
public struct BuildRecord: Sendable, Equatable, Codable {
    /// One recorded failure, with the index of the finding it came from (its facts go back there).
    public struct Cause: Sendable, Equatable, Codable {
        public var finding: Int
        public var fingerprint: Fingerprint
        public var category: String
        public var title: String
        /// The message as printed, redacted, at most 500 characters.
        public var message: String
        public var occurrences: Int
    }

    public var status: Diagnosis.Status
    public var causes: [Cause]

    public init(status: Diagnosis.Status, causes: [Cause]) {
        self.status = status
        self.causes = causes
    }

    /// The causes a bisect would call "the failure" (`FailureSignature`), from the findings as the
    /// standard `Redactor` leaves them, whatever the report shows.
    public init(_ diagnosis: Diagnosis) {
        let redacted = Redactor.standard.redact(diagnosis)
        var causes: [Cause] = []
        var seen: [String: Int] = [:]
        for i in FailureSignature.failureIndices(of: redacted) {
            let finding = redacted.findings[i]
            let fingerprint = Fingerprint(of: finding)
            if let at = seen[fingerprint.value] {
                causes[at].occurrences += finding.count
                continue
            }
            seen[fingerprint.value] = causes.count
            let message = finding.message.count > 500 ? String(finding.message.prefix(500)) + "…" : finding.message
            causes.append(Cause(finding: i, fingerprint: fingerprint, category: finding.category, title: finding.title,
                                message: message, occurrences: finding.count))
        }
        self.init(status: diagnosis.status, causes: causes)
    }
}

extension Diagnosis.Status: Codable {}

/// What the store answered for a recorded build: the build as recorded and each cause's history.
public struct HistoryFacts: Sendable, Equatable, Codable {
    public struct Cause: Sendable, Equatable, Codable {
        /// Index of the finding in the diagnosis the record was made from.
        public var finding: Int
        public var history: CauseHistory

        public init(finding: Int, history: CauseHistory) {
            self.finding = finding
            self.history = history
        }
    }

    public var build: BuildHistory
    public var causes: [Cause]

    public init(build: BuildHistory, causes: [Cause] = []) {
        self.build = build
        self.causes = causes
    }

    /// `diagnosis` with the facts in place, as every report format shows them.
    public func applied(to diagnosis: Diagnosis) -> Diagnosis {
        var out = diagnosis
        out.history = build
        for cause in causes where out.findings.indices.contains(cause.finding) {
            out.findings[cause.finding].history = cause.history
        }
        return out
    }
}
