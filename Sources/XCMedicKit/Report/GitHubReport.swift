import Foundation

/// `--format github`: one GitHub Actions workflow command per finding, which the runner turns into an
/// annotation on the job and, for a file in the repository, on the pull request's diff.
///
/// `::error file=F,line=L,col=C,title=T::MESSAGE` for a finding whose line names a file, `::error title=T::MESSAGE`
/// for the rest; warnings become `::warning`, infos `::notice`. The message carries the explanation and the first
/// fixes: new lines are encoded (`%0A`) as GitHub's toolkit does, so the annotation shows all of it instead of its
/// first line.
public struct GitHubReport: Sendable {
    public var redactor: Redactor
    /// File paths under this directory are written relative to it, as annotations need.
    public var workspaceRoot: String?
    /// Fixes included in each annotation.
    public var fixesShown = 2
    /// Collected values (failed commands, symbols) included per list.
    public var collectedShown = 10

    public init(redactor: Redactor = .standard, workspaceRoot: String? = nil) {
        self.redactor = redactor
        self.workspaceRoot = workspaceRoot
    }

    public func render(_ input: Diagnosis) -> String {
        let context = ReportContext(input, redactor: redactor, workspaceRoot: workspaceRoot)
        let flaky = flakyNotices(context)
        let noResult = context.diagnosis.status == .unknown ? noResultWarning(context) : ""
        guard !context.diagnosis.findings.isEmpty else {
            if !noResult.isEmpty { return noResult + flaky }
            return "xcmedic: no failures found in \(context.inputNames) (\(context.diagnosis.status.rawValue))\n" + flaky
        }
        // One annotation per distinct finding and place, root causes first, so GitHub's per-step limit on
        // annotations never cuts a cause.
        return context.annotated.map { annotation($0, context) + "\n" }.joined() + noResult + flaky
    }

    /// A log with no build result is not green: a warning that says so, with where each log stops.
    func noResultWarning(_ context: ReportContext) -> String {
        var text = context.noResultText
        for ending in context.endings {
            text += "\n\(ending.name) ends with:\n" + ending.lines.joined(separator: "\n")
        }
        return "::warning title=\(GitHubReport.escapeProperty("xcmedic: no build result in \(context.inputNames)"))::"
            + GitHubReport.escapeData(text) + "\n"
    }

    /// With `scan --record`, a passing build's tests that failed earlier on its commit: one notice each.
    func flakyNotices(_ context: ReportContext) -> String {
        guard let history = context.diagnosis.history else { return "" }
        return history.passedAfterFailing.map { flaky in
            "::notice title=\(GitHubReport.escapeProperty("Flaky test: \(flaky.test)"))::" +
                GitHubReport.escapeData("\(flaky.test) \(flaky.passedNowText).\n\(history.text)") + "\n"
        }.joined()
    }

    func annotation(_ f: Finding, _ context: ReportContext) -> String {
        let command: String
        switch f.severity {
        case .error: command = "error"
        case .warning: command = "warning"
        case .info: command = "notice"
        }
        var properties: [(String, String)] = []
        if let loc = f.location {
            properties.append(("file", relativePath(loc.file, to: workspaceRoot)))
            if let line = loc.line, line > 0 {
                properties.append(("line", String(line)))
                if let column = loc.column, column > 0 { properties.append(("col", String(column))) }
            }
        }
        properties.append(("title", f.count > 1 ? "\(f.title) (\(f.count) times)" : f.title))
        let props = properties.map { "\($0.0)=\(GitHubReport.escapeProperty($0.1))" }.joined(separator: ",")
        return "::\(command) \(props)::\(GitHubReport.escapeData(message(f, context)))"
    }

    /// The annotation's text: the message, the explanation, the first fixes and where the log says it.
    func message(_ f: Finding, _ context: ReportContext) -> String {
        var lines = [f.message.isEmpty ? f.title : f.message]
        if f.errorInSwift6 { lines.append("A warning in the Swift 5 language mode; an error in Swift 6.") }
        if let history = f.history { lines.append("History: \(history.text)") }
        for (name, values) in f.collected.sorted(by: { $0.key < $1.key }) where !values.isEmpty {
            let shown = values.prefix(collectedShown).joined(separator: ", ")
            lines.append("\(name): \(shown)\(values.count > collectedShown ? ", … (\(values.count))" : "")")
        }
        lines.append("")
        lines.append(f.explanation)
        for (k, fix) in f.fixes.prefix(fixesShown).enumerated() {
            lines.append("")
            lines.append("Fix\(f.fixes.count > 1 ? " \(k + 1)" : ""): \(fix.summary)")
            for command in fix.commands { lines.append("  $ \(command)") }
            if let snippet = fix.snippet {
                for line in snippet.split(separator: "\n", omittingEmptySubsequences: false) { lines.append("  \(line)") }
            }
            if let docs = fix.docs { lines.append("  \(docs)") }
        }
        if f.fixes.count > fixesShown { lines.append("(\(f.fixes.count - fixesShown) more: xcmedic explain \(f.rule))") }
        lines.append("")
        lines.append("xcmedic rule \(f.rule) · \(context.logPlace(f))")
        return lines.joined(separator: "\n")
    }

    /// Data of a workflow command: the escapes of GitHub's actions/toolkit `escapeData`.
    static func escapeData(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A property value: the data escapes plus `:` and `,`, which end a property (toolkit `escapeProperty`).
    static func escapeProperty(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
