import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The default report: the diagnosis first (what broke, why, what to do), then every finding.
public struct TerminalReport {
    public var color: Bool
    public var redactor: Redactor
    /// Excerpt lines shown per finding.
    public var excerptLines = 8
    /// Columns of the terminal: prose wraps to it, a summary line longer than it is cut with `…`
    /// (excerpts and fix commands stay whole, to be read and copied as printed).
    public var width: Int
    /// Root causes only, one line each (`scan --quiet`).
    public var quiet: Bool

    public init(color: Bool, redactor: Redactor = .standard, width: Int = 80, quiet: Bool = false) {
        self.color = color
        self.redactor = redactor
        self.width = max(40, width)
        self.quiet = quiet
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
        let context = ReportContext(input, redactor: redactor)
        if quiet { return quietLines(context) }
        let diagnosis = context.diagnosis
        var out = ""
        let causes = diagnosis.findings.filter { $0.role == .cause }
        // A root cause broke the build; a warning (or an error rule demoted by a `warning:` line)
        // did not, and info findings are context, never part of the diagnosis header.
        let rootCauses = causes.filter { $0.severity == .error }
        let warnings = causes.filter { $0.severity == .warning }
        let notes = causes.filter { $0.severity == .info }
        let unknown = diagnosis.findings.filter { $0.role == .unrecognized }
        let symptoms = diagnosis.findings.filter { $0.role == .symptom }
        let inputs = context.inputsSummary
        let warningCount = warnings.isEmpty ? "" : " with \(ReportContext.plural(warnings.count, "warning"))"

        switch diagnosis.status {
        case .failed: out += bold("xcmedic: the build failed") + " — \(inputs)\n"
        case .passed: out += bold("xcmedic: the build passed") + warningCount + " — \(inputs)\n"
        case .unknown: out += bold("xcmedic: no build result in this log") + " — \(inputs)\n"
        }
        if diagnosis.findings.isEmpty {
            out += diagnosis.status == .unknown ? noResultText(context) : "No failures found.\n"
            if let history = diagnosis.history { out += historyText(history) }
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
        if !rootCauses.isEmpty { summary.append(ReportContext.plural(rootCauses.count, "root cause")) }
        if !warnings.isEmpty { summary.append(ReportContext.plural(warnings.count, "warning")) }
        if !unknown.isEmpty { summary.append(ReportContext.plural(unknown.count, "unrecognised error")) }
        if !symptoms.isEmpty { summary.append(ReportContext.plural(symptoms.count, "symptom")) }
        if !notes.isEmpty { summary.append(ReportContext.plural(notes.count, "note")) }
        out += "\n" + dim(summary.joined(separator: ", ")) + "\n"

        for (n, f) in diagnosis.findings.enumerated() {
            out += "\n" + bold("\(n + 1). \(f.title)") + "  " + dim("[\(f.rule), \(f.role.rawValue)]") + "\n"
            // An unrecognised line printed with its own level (`Error: …`) does not get the level twice.
            let message = TerminalReport.message(f), level = f.severity.rawValue
            let text = message.prefix(level.count + 2).lowercased() == level + ": " ? String(message.dropFirst(level.count + 2)) : message
            out += "   \(severityLabel(f.severity)): " + wrap(text, indent: "   ", first: 5 + level.count) + "\n"
            if f.errorInSwift6 {
                out += "   " + paint("A warning in the Swift 5 language mode; it becomes an error in Swift 6.", "33") + "\n"
            }
            out += "   " + dim(occurrenceText(f, context)) + "\n"
            if let history = f.history { out += "   " + paint("history:", "36") + " " + wrap(history.text, indent: "   ", first: 12) + "\n" }
            if !f.collected.isEmpty {
                for (name, values) in f.collected.sorted(by: { $0.key < $1.key }) {
                    out += "   " + cut("\(name): \(values.prefix(10).joined(separator: ", "))\(values.count > 10 ? ", …" : "")", room: width - 3) + "\n"
                }
            }
            for line in f.excerpt.prefix(excerptLines) { out += "   " + dim("│ ") + line + "\n" }
            if f.excerpt.count > excerptLines { out += "   " + dim("│ …") + "\n" }
            if f.role != .symptom {
                out += "   " + wrap(f.explanation, indent: "   ") + "\n"
            }
            for (k, fix) in f.fixes.enumerated() {
                out += "   " + paint("fix \(k + 1):", "32") + " " + wrap(fix.summary, indent: "          ", first: 10) + "\n"
                for command in fix.commands { out += "     $ \(command)\n" }
                if let snippet = fix.snippet { for line in snippet.split(separator: "\n", omittingEmptySubsequences: false) { out += "     \(line)\n" } }
                if let docs = fix.docs { out += "     " + dim(docs) + "\n" }
            }
            for doc in f.docs { out += "   " + dim("docs: \(doc)") + "\n" }
        }
        if diagnosis.droppedFindings > 0 {
            out += "\n\(diagnosis.droppedFindings) further distinct findings were counted but not listed.\n"
        }
        if diagnosis.status == .unknown { out += "\n" + noResultText(context) }
        if let history = diagnosis.history { out += historyText(history) }
        return out
    }

    /// A log with no build result: it is not green; where it stops is shown.
    private func noResultText(_ context: ReportContext) -> String {
        var out = wrap(context.noResultText, indent: "") + "\n"
        let endings = context.endings
        for ending in endings {
            out += (endings.count > 1 || context.diagnosis.inputs.count > 1 ? "\(ending.name) ends with:" : "It ends with:") + "\n"
            for line in ending.lines { out += "   " + dim("│ ") + line + "\n" }
        }
        return out
    }

    /// The recorded build, and tests that failed earlier on this commit and passed now.
    private func historyText(_ history: BuildHistory) -> String {
        var out = "\n" + dim("History: " + history.text) + "\n"
        for flaky in history.passedAfterFailing { out += "  " + paint("flaky:", "33") + " \(flaky.test) \(flaky.passedNowText)\n" }
        return out
    }

    /// Up to ten findings, one line each (cut to the width) with the first fix.
    private func headline(_ findings: [Finding]) -> String {
        var out = ""
        for f in findings.prefix(10) {
            let label = f.severity.rawValue
            let text = cut(TerminalReport.message(f), room: width - 3 - label.count)
            let place = f.location.map { "  (\(locationText($0)))" } ?? ""
            if !place.isEmpty, text.count + place.count + label.count + 3 <= width {
                out += "  \(severityLabel(f.severity)) \(text)" + dim(place) + "\n"
            } else {
                out += "  \(severityLabel(f.severity)) \(text)\n"
                if let loc = f.location { out += "    " + dim(cut("at \(locationText(loc))", room: width - 4)) + "\n" }
            }
            if let history = f.history { out += "    " + paint("history:", "36") + " " + history.text + "\n" } // whole, like an excerpt
            if let fix = f.fixes.first {
                out += "    " + paint("fix:", "32") + " " + cut(fix.summary, room: width - 9) + "\n"
                for command in fix.commands.prefix(2) { out += "      $ \(command)\n" }
            }
        }
        if findings.count > 10 { out += "  … and \(findings.count - 10) more below\n" }
        return out
    }

    /// `--quiet`: one line per root cause (or, when none is named, per unrecognised error), cut to the width;
    /// nothing for a log without errors.
    private func quietLines(_ context: ReportContext) -> String {
        let findings = context.diagnosis.findings
        let causes = findings.filter { $0.role == .cause && $0.severity == .error }
        let shown = causes.isEmpty ? findings.filter { $0.role == .unrecognized && $0.severity == .error } : causes
        return shown.map { f in
            let place = f.location.map { "\(locationText($0)): " } ?? ""
            return cut("\(place)\(severityLabel(f.severity)): \(TerminalReport.message(f)) [\(f.rule)]", room: width) + "\n"
        }.joined()
    }

    /// A finding's message; its title when the log line gave it none (a root cause never shows an empty line).
    static func message(_ f: Finding) -> String {
        let text = f.message.trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? f.title : text
    }

    /// One line of at most `room` columns (escape sequences not counted), cut with `…`.
    private func cut(_ text: String, room: Int) -> String {
        let limit = max(10, room)
        let visible = text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        guard visible.count > limit, visible == text else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    private func locationText(_ loc: SourceLocation) -> String { ReportContext.locationText(loc) }

    private func occurrenceText(_ f: Finding, _ context: ReportContext) -> String {
        // Each occurrence names its own input when there are several (never `-` for standard input).
        let lines = f.occurrences.prefix(6).map { o in context.diagnosis.inputs.count > 1 ? "\(context.inputName(o.input)):\(o.line)" : "\(o.line)" }
        var text = "log line\(f.occurrences.count == 1 ? "" : "s") " + lines.joined(separator: ", ")
        if f.count > lines.count { text += ", … (\(f.count) times)" } else if f.count > 1 { text += " (\(f.count) times)" }
        if let loc = f.location { text += " · " + locationText(loc) }
        return text
    }

    /// Words wrapped to the width; `first` columns of the first line are taken already, the rest start with `indent`.
    private func wrap(_ text: String, indent: String, first: Int? = nil) -> String {
        TerminalText.wrap(text, width: width, indent: indent.count, first: first ?? indent.count)
    }
}

/// Text laid out for a terminal: `explain`, `rules` and the text report wrap to its width.
public enum TerminalText {
    /// The width to lay text out for: `COLUMNS` when set, else the terminal's, else 80 (not a terminal).
    public static func width(fd: Int32 = 1, environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        if isatty(fd) == 1, ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// Words wrapped to `width` columns; lines after the first start with `indent` spaces, the first has
    /// `first` columns taken already. A word longer than the line stays whole.
    public static func wrap(_ text: String, width: Int, indent: Int, first: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var current = ""
        var used = first
        for word in text.split(separator: " ") {
            if used + current.count + word.count + 1 > width, !current.isEmpty {
                lines.append(current)
                current = ""
                used = indent
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines.joined(separator: "\n" + pad)
    }

    /// Each paragraph of `text` (lines as given) wrapped, continuation lines indented like the line's own start.
    public static func wrapLines(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let indent = line.prefix { $0 == " " }.count
            guard line.count > width else { return String(line) }
            return String(repeating: " ", count: indent) + wrap(String(line.dropFirst(indent)), width: width, indent: indent + 2, first: indent)
        }.joined(separator: "\n")
    }
}
