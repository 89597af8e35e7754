import Foundation

/// The default report: the diagnosis first (what broke, why, what to do), then every finding.
public struct TerminalReport {
    public var color: Bool
    public var redactor: Redactor
    /// Excerpt lines shown per finding.
    public var excerptLines = 8

    public init(color: Bool, redactor: Redactor = .standard) {
        self.color = color
        self.redactor = redactor
    }

    private func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    private func bold(_ t: String) -> String { paint(t, "1") }
    private func dim(_ t: String) -> String { paint(t, "2") }

    private func severityLabel(_ s: Severity) -> String {
        switch s {
        case .error: return paint("error", "1;31")
        case .warning: return paint("warning", "1;33")
        case .info: return paint("info", "1;34")
        }
    }

    public func render(_ input: Diagnosis) -> String {
        let diagnosis = ReportText(redactor: redactor, controls: .visible).prepare(input)
        var out = ""
        let causes = diagnosis.findings.filter { $0.role == .cause }
        // A root cause broke the build; a warning (or an error rule demoted by a `warning:` line)
        // did not, and info findings are context, never part of the diagnosis header.
        let rootCauses = causes.filter { $0.severity == .error }
        let warnings = causes.filter { $0.severity == .warning }
        let notes = causes.filter { $0.severity == .info }
        let unknown = diagnosis.findings.filter { $0.role == .unrecognized }
        let symptoms = diagnosis.findings.filter { $0.role == .symptom }
        let inputs = diagnosis.inputs.map { "\($0.displayName) (\($0.lines) line\($0.lines == 1 ? "" : "s"), \($0.dialect))" }.joined(separator: ", ")
        let warningCount = warnings.isEmpty ? "" : " with \(warnings.count) warning\(warnings.count == 1 ? "" : "s")"

        switch diagnosis.status {
        case .failed: out += bold("xcmedic: the build failed") + " — \(inputs)\n"
        case .passed: out += bold("xcmedic: the build passed") + warningCount + " — \(inputs)\n"
        case .unknown: out += bold("xcmedic: no build result in this log") + " — \(inputs)\n"
        }
        if diagnosis.findings.isEmpty {
            out += "No failures found.\n"
            return out
        }

        // The diagnosis: what to fix first.
        if !rootCauses.isEmpty {
            out += "\n" + bold("Root cause\(rootCauses.count == 1 ? "" : "s"):") + "\n" + headline(rootCauses)
        } else if !unknown.isEmpty {
            out += "\n" + bold("Errors no rule recognises:") + "\n" + headline(unknown)
        } else if symptoms.contains(where: { $0.severity == .error }) {
            out += "\nOnly generic failure lines were found; the log may be cut before the real error.\n"
        }
        if rootCauses.isEmpty, unknown.isEmpty, !warnings.isEmpty {
            out += "\n" + bold("Warning\(warnings.count == 1 ? "" : "s"):") + "\n" + headline(warnings)
        }
        var summary: [String] = []
        if !rootCauses.isEmpty { summary.append("\(rootCauses.count) root cause\(rootCauses.count == 1 ? "" : "s")") }
        if !warnings.isEmpty { summary.append("\(warnings.count) warning\(warnings.count == 1 ? "" : "s")") }
        if !unknown.isEmpty { summary.append("\(unknown.count) unrecognised error\(unknown.count == 1 ? "" : "s")") }
        if !symptoms.isEmpty { summary.append("\(symptoms.count) symptom\(symptoms.count == 1 ? "" : "s")") }
        if !notes.isEmpty { summary.append("\(notes.count) note\(notes.count == 1 ? "" : "s")") }
        out += "\n" + dim(summary.joined(separator: ", ")) + "\n"

        for (n, f) in diagnosis.findings.enumerated() {
            out += "\n" + bold("\(n + 1). \(f.title)") + "  " + dim("[\(f.rule), \(f.role.rawValue)]") + "\n"
            out += "   \(severityLabel(f.severity)): \(redactor.redact(f.message))\n"
            if f.errorInSwift6 {
                out += "   " + paint("A warning in the Swift 5 language mode; it becomes an error in Swift 6.", "33") + "\n"
            }
            out += "   " + dim(occurrenceText(f, diagnosis)) + "\n"
            if !f.collected.isEmpty {
                for (name, values) in f.collected.sorted(by: { $0.key < $1.key }) {
                    out += "   \(name): \(values.prefix(10).map(redactor.redact).joined(separator: ", "))\(values.count > 10 ? ", …" : "")\n"
                }
            }
            for line in f.excerpt.prefix(excerptLines) { out += "   " + dim("│ ") + redactor.redact(line) + "\n" }
            if f.excerpt.count > excerptLines { out += "   " + dim("│ …") + "\n" }
            if f.role != .symptom {
                out += "   " + wrap(f.explanation, indent: "   ") + "\n"
            }
            for (k, fix) in f.fixes.enumerated() {
                out += "   " + paint("fix \(k + 1):", "32") + " \(fix.summary)\n"
                for command in fix.commands { out += "     $ \(command)\n" }
                if let snippet = fix.snippet { for line in snippet.split(separator: "\n", omittingEmptySubsequences: false) { out += "     \(line)\n" } }
                if let docs = fix.docs { out += "     " + dim(docs) + "\n" }
            }
            for doc in f.docs { out += "   " + dim("docs: \(doc)") + "\n" }
        }
        if diagnosis.droppedFindings > 0 {
            out += "\n\(diagnosis.droppedFindings) further distinct findings were counted but not listed.\n"
        }
        return out
    }

    /// Up to ten findings, one line each with the first fix.
    private func headline(_ findings: [Finding]) -> String {
        var out = ""
        for f in findings.prefix(10) {
            out += "  \(severityLabel(f.severity)) \(redactor.redact(f.message))\(where_(f))\n"
            if let fix = f.fixes.first {
                out += "    " + paint("fix:", "32") + " \(fix.summary)\n"
                for command in fix.commands.prefix(2) { out += "      $ \(command)\n" }
            }
        }
        if findings.count > 10 { out += "  … and \(findings.count - 10) more below\n" }
        return out
    }

    private func where_(_ f: Finding) -> String {
        guard let loc = f.location else { return "" }
        return dim("  (\(locationText(loc)))")
    }

    private func locationText(_ loc: SourceLocation) -> String {
        var s = loc.file
        if let l = loc.line { s += ":\(l)" }
        if let c = loc.column { s += ":\(c)" }
        return s
    }

    private func occurrenceText(_ f: Finding, _ d: Diagnosis) -> String {
        let multi = d.inputs.count > 1
        let lines = f.occurrences.prefix(6).map { o -> String in
            let name = multi ? "\(d.inputs[o.input].path):" : ""
            return "\(name)\(o.line)"
        }
        var text = "log line\(f.occurrences.count == 1 ? "" : "s") " + lines.joined(separator: ", ")
        if f.count > lines.count { text += ", … (\(f.count) times)" } else if f.count > 1 { text += " (\(f.count) times)" }
        if let loc = f.location { text += " · " + locationText(loc) }
        return text
    }

    private func wrap(_ text: String, indent: String, width: Int = 96) -> String {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if current.count + word.count + 1 > width, !current.isEmpty {
                lines.append(current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines.joined(separator: "\n" + indent)
    }
}
