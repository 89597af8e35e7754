import Foundation

/// The bisect report: terminal text and `--format json`.
public enum BisectReport {
    public static func renderText(_ r: BisectResult, redactor: Redactor = .standard) -> String {
        var out = ""
        func line(_ s: String = "") { out += s + "\n" }
        let tested = r.bisectSteps.count
        if let c = r.culprit {
            line("xcmedic: first bad commit \(c.hash)")
            line("  author:  \(c.author)")
            line("  date:    \(c.date)")
            line("  subject: \(c.subject)")
        } else {
            line("xcmedic: no single first bad commit: skipped commits leave \(r.candidates.count) candidates")
            for c in r.candidates { line("  \(c.short) \(c.date.prefix(10)) \(c.subject) (\(c.author))") }
        }
        line()
        line("Searched \(r.good.short)..\(r.bad.short)\(r.firstParent ? " (first parents only)" : ""): \(tested) step\(tested == 1 ? "" : "s"), \(r.skips) skipped, plus \(r.steps.count - tested) to verify the endpoints.")
        line("The failure looked for: \(redactor.redact(r.signature.entries.map(\.description).joined(separator: "; ")))")

        line()
        line(r.culprit == nil ? "The failure at the bad revision:" : "The failure at \(r.culprit!.short):")
        if r.failureFindings.isEmpty {
            line("  (no output kept)")
        }
        for f in r.failureFindings.prefix(5).map(redactor.redact) {
            line("  \(f.severity.rawValue): \(f.message)  [\(f.rule)]")
            if let loc = f.location { line("    at \(loc.file)\(loc.line.map { ":\($0)" } ?? "")\(loc.column.map { ":\($0)" } ?? "")") }
            for e in f.excerpt.prefix(8) { line("    │ " + e) }
            if let fix = f.fixes.first { line("    fix: \(fix.summary)") }
        }

        if let changes = r.changes {
            line()
            line("What \(r.culprit!.short) changed:")
            out += changes.renderText(indent: "  ")
        }

        let skipped = r.bisectSteps.filter { $0.verdict == .skip }
        if !skipped.isEmpty {
            line()
            line("Skipped (a different failure, or the command could not run):")
            for s in skipped { line("  \(s.commit.prefix(10)): \(redactor.redact(s.reason))") }
        }
        line()
        line("Reproduce: \(r.reproduce)")
        line("Steps, outputs and git's bisect log: \(r.stateFolder)")
        // Commit subjects, authors and the command's output may carry control characters.
        return TerminalSafe.visible(out)
    }

    struct Document: Encodable {
        var version = 1
        var result: String
        var culprit: CommitInfo?
        var candidates: [CommitInfo]
        var good: CommitInfo
        var bad: CommitInfo
        var firstParent: Bool
        var signature: [FailureSignature.Entry]
        var failure: [FailureJSON]
        var changes: ChangeSummary?
        var steps: [StepJSON]
        var stepCount: Int
        var skips: Int
        var reproduce: String
        var stateFolder: String
    }

    struct FailureJSON: Encodable {
        var rule: String
        var message: String
        var file: String?
        var line: Int?
        var excerpt: [String]
    }

    struct StepJSON: Encodable {
        var number: Int
        var phase: String
        var commit: String
        var verdict: String
        var reason: String
        var attempts: Int
        var log: String
        var seconds: Double
    }

    public static func renderJSON(_ r: BisectResult, redactor: Redactor = .standard) -> String {
        let doc = Document(
            result: r.culprit == nil ? "candidates" : "found", culprit: r.culprit, candidates: r.candidates, good: r.good, bad: r.bad,
            firstParent: r.firstParent, signature: r.signature.entries.map { redactor.redact($0) },
            failure: r.failureFindings.map(redactor.redact).map {
                FailureJSON(rule: $0.rule, message: $0.message, file: $0.location?.file, line: $0.location?.line, excerpt: $0.excerpt)
            },
            changes: r.changes,
            steps: r.steps.map {
                StepJSON(number: $0.number, phase: $0.phase.rawValue, commit: $0.commit, verdict: $0.verdict.rawValue, reason: redactor.redact($0.reason),
                         attempts: $0.attempts.count, log: ($0.attempts.first?.log).map { (r.stateFolder as NSString).appendingPathComponent($0) } ?? "",
                         seconds: ($0.seconds * 100).rounded() / 100)
            },
            stepCount: r.bisectSteps.count, skips: r.skips, reproduce: r.reproduce, stateFolder: r.stateFolder
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(doc)) ?? Data("{}".utf8)
        return TerminalSafe.escapeJSONControls(String(decoding: data, as: UTF8.self)) + "\n"
    }
}

extension Redactor {
    /// A signature entry as a report shows it: its captures came from the log.
    func redact(_ entry: FailureSignature.Entry) -> FailureSignature.Entry {
        FailureSignature.Entry(rule: entry.rule, captures: entry.captures.mapValues(redact))
    }
}
