import Foundation

/// `--format markdown`: for a pull-request comment or GitHub's job summary (`GITHUB_STEP_SUMMARY`).
///
/// The diagnosis first (what broke and the first fix), a table of all findings, then one section per
/// finding with its fixes as code blocks and its log excerpt collapsed in `<details>`. Text from the log
/// is escaped so it cannot turn into markup, links or HTML, and goes into fences longer than any run of
/// backticks it holds.
public struct MarkdownReport: Sendable {
    public var redactor: Redactor
    public var workspaceRoot: String?
    /// Findings given a section of their own (the table lists up to `tableRows`); GitHub caps a job
    /// summary at 1 MiB, so a log with thousands of distinct errors must not produce one per error.
    public var detailedFindings = 30
    public var tableRows = 100
    public var excerptLines = 24

    public init(redactor: Redactor = .standard, workspaceRoot: String? = nil) {
        self.redactor = redactor
        self.workspaceRoot = workspaceRoot
    }

    public func render(_ input: Diagnosis) -> String {
        let context = ReportContext(input, redactor: redactor, workspaceRoot: workspaceRoot)
        let diagnosis = context.diagnosis
        var out = ""
        let inputs = diagnosis.inputs.map { "`\(Markdown.codeSpanContent($0.displayName))` (\(ReportContext.plural($0.lines, "line")), \($0.dialect))" }
            .joined(separator: ", ")
        switch diagnosis.status {
        case .failed: out += "## ❌ xcmedic: the build failed\n\n"
        case .passed: out += "## ✅ xcmedic: the build passed\n\n"
        case .unknown: out += "## xcmedic: no build result in this log\n\n"
        }
        out += "Log: \(inputs)\n\n"
        if let history = diagnosis.history {
            out += "History: \(Markdown.escape(history.text))\n\n"
            for flaky in history.passedAfterFailing {
                out += "- Flaky: `\(Markdown.codeSpanContent(flaky.test))` \(flaky.passedNowText)\n"
            }
            if !history.passedAfterFailing.isEmpty { out += "\n" }
        }
        guard !diagnosis.findings.isEmpty else {
            return out + (diagnosis.status == .unknown ? noResultText(context) : "No failures found.\n")
        }

        // As in the terminal report: errors lead; warnings only when nothing failed; info never.
        let causes = diagnosis.findings.filter { $0.role == .cause && $0.severity == .error }
        let unknown = diagnosis.findings.filter { $0.role == .unrecognized }
        let warnings = diagnosis.findings.filter { $0.role == .cause && $0.severity == .warning }
        let leads = !causes.isEmpty ? causes : !unknown.isEmpty ? unknown : warnings
        if leads.isEmpty {
            if diagnosis.status == .failed {
                out += "Only generic failure lines were found; the log may be cut before the real error.\n\n"
            }
        } else {
            let heading = !causes.isEmpty ? "Root cause\(leads.count == 1 ? "" : "s")" : !unknown.isEmpty ? "Errors no rule recognises" : "Warnings"
            out += "### \(heading)\n\n"
            for f in leads.prefix(10) {
                out += "- **\(Markdown.ruleText(f.title))**: \(Markdown.escape(text(f.message)))\(whereText(f))\n"
                if let fix = f.fixes.first { out += "  - Fix: \(Markdown.escape(text(fix.summary)))\n" }
                if let history = f.history { out += "  - History: \(Markdown.escape(history.text))\n" }
            }
            if leads.count > 10 { out += "- … and \(leads.count - 10) more in the table below\n" }
            out += "\n"
        }

        out += "### Findings\n\n"
        out += "| # | Severity | Finding | Message | Where | Count |\n|---:|---|---|---|---|---:|\n"
        for (n, f) in diagnosis.findings.prefix(tableRows).enumerated() {
            let role = f.role == .cause ? "" : " (\(f.role.rawValue))"
            out += "| \(n + 1) | \(f.severity.rawValue) | \(Markdown.ruleText(f.title))\(role) | \(Markdown.escape(text(f.message))) | "
            out += "\(whereCell(f, diagnosis)) | \(f.count) |\n"
        }
        if diagnosis.findings.count > tableRows {
            out += "\n\(diagnosis.findings.count - tableRows) more findings are not listed; `xcmedic scan` shows them all.\n"
        }
        if diagnosis.droppedFindings > 0 {
            out += "\n\(diagnosis.droppedFindings) further distinct findings were counted but not kept.\n"
        }

        for (n, f) in diagnosis.findings.prefix(detailedFindings).enumerated() {
            out += "\n### \(n + 1). \(Markdown.ruleText(f.title))\n\n"
            out += "**\(f.severity.rawValue)**: \(Markdown.escape(text(f.message)))\(whereText(f))  \n"
            out += "Rule `\(Markdown.codeSpanContent(f.rule))` · \(f.role.rawValue)\n\n"
            if let history = f.history { out += "History: \(Markdown.escape(history.text))\n\n" }
            if f.errorInSwift6 { out += "A warning in the Swift 5 language mode; it becomes an error in Swift 6.\n\n" }
            for (name, values) in f.collected.sorted(by: { $0.key < $1.key }) where !values.isEmpty {
                out += "\(Markdown.escape(name)):\n\n" + Markdown.fence(values.map(text).joined(separator: "\n"), info: "text") + "\n"
            }
            // Rule texts are Markdown their authors wrote (`code` in backticks); only log text is escaped.
            if f.role != .symptom { out += f.explanation + "\n\n" }
            for (k, fix) in f.fixes.enumerated() {
                out += "**Fix\(f.fixes.count > 1 ? " \(k + 1)" : "")**: \(Markdown.escape(text(fix.summary)))\n\n"
                if !fix.commands.isEmpty { out += Markdown.fence(fix.commands.map(text).joined(separator: "\n"), info: "sh") + "\n" }
                if let snippet = fix.snippet { out += Markdown.fence(text(snippet), info: "") + "\n" }
                if let docs = fix.docs { out += "See <\(Markdown.escapeURL(docs))>\n\n" }
            }
            if !f.docs.isEmpty { out += "Docs: " + f.docs.map { "<\(Markdown.escapeURL($0))>" }.joined(separator: ", ") + "\n\n" }
            if !f.excerpt.isEmpty {
                let lines = f.excerpt.prefix(excerptLines).map(text)
                out += "<details><summary>Log excerpt (\(Markdown.escape(logPlace(f, diagnosis))))</summary>\n\n"
                out += Markdown.fence(lines.joined(separator: "\n") + (f.excerpt.count > excerptLines ? "\n…" : ""), info: "text")
                out += "\n</details>\n"
            }
        }
        if diagnosis.findings.count > detailedFindings {
            out += "\nDetails of \(diagnosis.findings.count - detailedFindings) more findings: run `xcmedic scan` on the log.\n"
        }
        if diagnosis.status == .unknown { out += "\n" + noResultText(context) }
        return out
    }

    /// A log with no build result: it is not green; where it stops is shown.
    private func noResultText(_ context: ReportContext) -> String {
        var out = Markdown.escape(context.noResultText) + "\n"
        for ending in context.endings {
            out += "\n`\(Markdown.codeSpanContent(ending.name))` ends with:\n\n" + Markdown.fence(ending.lines.joined(separator: "\n"), info: "text")
        }
        return out
    }

    /// Text from the log (the context redacted it already).
    private func text(_ s: String) -> String { s }


    private func locationText(_ loc: SourceLocation) -> String { ReportContext.locationText(loc, root: workspaceRoot) }

    private func whereText(_ f: Finding) -> String {
        guard let loc = f.location else { return "" }
        return " (`\(Markdown.codeSpanContent(locationText(loc)))`)"
    }

    private func whereCell(_ f: Finding, _ d: Diagnosis) -> String {
        var parts: [String] = []
        if let loc = f.location { parts.append("`\(Markdown.codeSpanContent(locationText(loc)))`") }
        parts.append(Markdown.escape(logPlace(f, d)))
        return parts.joined(separator: "<br>")
    }

    private func logPlace(_ f: Finding, _ d: Diagnosis) -> String {
        guard let first = f.occurrences.first else { return "" }
        let name = d.inputs.count > 1 ? "\(Diagnosis.Input.displayName(d.inputs.indices.contains(first.input) ? d.inputs[first.input].path : "-")) " : ""
        return "\(name)log line \(first.line)"
    }
}

/// Escaping for GitHub-flavoured Markdown.
public enum Markdown {
    /// Inline text: the ASCII punctuation that starts markup inside a line is backslash-escaped (CommonMark
    /// allows escaping any of it), so `<script>`, `[x](y)`, `&lt;`, `$math$`, `|` in a table cell or `*`
    /// stay text; line breaks become spaces so a table row stays one row.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "&", "$":
                out.unicodeScalars.append("\\")
                out.unicodeScalars.append(scalar)
            case "\n", "\r", "\t": out += " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { out += "\u{FFFD}" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// A rule's own one-line text (a title) in a heading or table cell: kept as Markdown, one line, no `|`.
    static func ruleText(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "|", with: "\\|")
    }

    /// Content for a one-line code span: backticks cannot be escaped inside one, so they become `ʼ`
    /// (the span stays readable), a `|` is escaped for tables, and line breaks become spaces.
    static func codeSpanContent(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "ʼ").replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }

    /// A fenced code block whose fence is longer than any backtick run in `content`.
    static func fence(_ content: String, info: String) -> String {
        var longest = 0, run = 0
        for scalar in content.unicodeScalars {
            if scalar == "`" { run += 1; longest = max(longest, run) } else { run = 0 }
        }
        let marks = String(repeating: "`", count: max(3, longest + 1))
        let body = content.replacingOccurrences(of: "\r", with: "")
        return "\(marks)\(info)\n\(body)\n\(marks)\n"
    }

    /// A URL inside `<...>`: spaces and angle brackets would end the autolink.
    static func escapeURL(_ url: String) -> String {
        url.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: "<", with: "%3C").replacingOccurrences(of: ">", with: "%3E")
    }
}
