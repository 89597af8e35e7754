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
            for c in r.candidates {
                let step = r.bisectSteps.last { $0.commit == c.hash } ?? (c.hash == r.bad.hash ? r.steps.first { $0.phase == .verifyBad } : nil)
                let how = step.map { s in s.verdict == .skip ? "skipped: \(redactor.redact(s.reason))" : "tested \(s.verdict.rawValue)" } ?? "not tested"
                line("  \(c.short) \(c.date.prefix(10)) \(c.subject) (\(c.author)) [\(how)]")
            }
        }
        line()
        let rounds = r.jobs > 1 ? " in \(r.rounds) round\(r.rounds == 1 ? "" : "s") of up to \(r.jobs) at once" : ""
        line("Searched \(r.good.short)..\(r.bad.short)\(r.firstParent ? " (first parents only)" : ""): \(tested) step\(tested == 1 ? "" : "s")\(rounds), \(r.skips) skipped, plus \(r.steps.count - tested) to verify the endpoints.")
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

        line()
        line("Commits tried:")
        out += table(r, redactor: redactor)
        line()
        line("Reproduce: \(r.reproduce)")
        line(r.jobs > 1 ? "Steps and outputs: \(r.stateFolder)" : "Steps, outputs and git's bisect log: \(r.stateFolder)")
        // Commit subjects, authors and the command's output may carry control characters.
        return TerminalSafe.visible(out)
    }

    /// Every step: number, commit, verdict, time, reason (verify steps say so; cached ones say "cached").
    static func table(_ r: BisectResult, redactor: Redactor) -> String {
        var out = ""
        for s in r.steps.sorted(by: { $0.number < $1.number }) {
            let phase = s.phase == .verifyBad ? " (bad end)" : s.phase == .verifyGood ? " (good end)" : ""
            let time = s.cached == true ? "cached" : Bisector.duration(s.seconds)
            let runs = s.attempts.count > 1 ? ", \(s.attempts.count) runs" : ""
            out += "  " + String(format: "%3d", s.number) + "  \(s.commit.prefix(10))  " + s.verdict.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)
                + "  " + time.padding(toLength: 7, withPad: " ", startingAt: 0) + "  \(redactor.redact(s.reason))\(runs)\(phase)\n"
        }
        return out
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
        var rounds: Int
        var jobs: Int
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
        var cached: Bool
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
                         attempts: $0.attempts.count, log: ($0.attempts.first?.log).map { BisectStateFolder(path: r.stateFolder).file($0) } ?? "",
                         seconds: ($0.seconds * 100).rounded() / 100, cached: $0.cached ?? false)
            },
            stepCount: r.bisectSteps.count, skips: r.skips, rounds: r.rounds, jobs: r.jobs, reproduce: r.reproduce, stateFolder: r.stateFolder
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
