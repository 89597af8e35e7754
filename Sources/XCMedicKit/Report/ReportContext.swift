import Foundation

/// What every report shares, in one place so the six formats cannot drift apart: the diagnosis with secrets
/// taken out (the only place a renderer's input is redacted), how inputs, log lines and source locations
/// are named, plurals, the findings worth one annotation each, and the tool's version.
///
/// Every renderer starts with `ReportContext(diagnosis, …)` and reads `diagnosis` from it, never the
/// diagnosis it was given. Text that leaves xcmedic is made safe here (`ReportText`): `Redactor` removes
/// secrets, then control characters are made visible or left to the format's own escaping.
struct ReportContext {
    /// The diagnosis as reports may show it (secrets redacted).
    let diagnosis: Diagnosis
    let redactor: Redactor
    let workspaceRoot: String?
    let toolVersion: String

    /// `controls`: `.visible` for what a terminal or a web page shows as it is (text, github, markdown);
    /// `.escapedByFormat` for JSON, SARIF and JUnit, which escape control characters as their formats say.
    init(_ diagnosis: Diagnosis, redactor: Redactor, workspaceRoot: String? = nil, toolVersion: String = ToolInfo.version,
         controls: ReportText.Controls = .visible) {
        self.diagnosis = ReportText(redactor: redactor, controls: controls).prepare(diagnosis)
        self.redactor = redactor
        self.workspaceRoot = workspaceRoot
        self.toolVersion = toolVersion
    }

    // MARK: Names

    /// How a report names input `index`: its path, `stdin` for `-`.
    func inputName(_ index: Int) -> String {
        diagnosis.inputs.indices.contains(index) ? diagnosis.inputs[index].displayName : Diagnosis.Input.displayName("-")
    }

    /// `build.log (30 lines, xcodebuild), stdin (2 lines, plain)`.
    var inputsSummary: String {
        diagnosis.inputs.map { "\($0.displayName) (\(ReportContext.plural($0.lines, "line")), \($0.dialect))" }.joined(separator: ", ")
    }

    var inputNames: String { diagnosis.inputs.map(\.displayName).joined(separator: ", ") }

    /// What a report says when the log shows no build result (status unknown): no line says the build passed, and
    /// nothing xcmedic knows failed. That is not a green build, and the report says so.
    var noResultText: String {
        let failures = diagnosis.findings.isEmpty ? "and none names a failure xcmedic knows" : "and none of what xcmedic found failed it"
        return "No line in the log says the build passed, \(failures): the log may be cut before its end, or end in a "
            + "failure no rule names. Read where it stops."
    }

    /// The inputs whose last lines are known, with those lines: where each log stops.
    var endings: [(name: String, lines: [String])] {
        diagnosis.inputs.filter { !$0.lastLines.isEmpty }.map { ($0.displayName, $0.lastLines) }
    }

    /// Where an occurrence stood: `line 12`, or `build.log line 12` when there are several inputs (or `always`).
    func logLine(_ o: Occurrence, always: Bool = false) -> String {
        always || diagnosis.inputs.count > 1 ? "\(inputName(o.input)) line \(o.line)" : "line \(o.line)"
    }

    /// `build.log line 12 and 3 more`: the first occurrence, always with its input's name.
    func logPlace(_ f: Finding) -> String {
        guard let first = f.occurrences.first else { return "" }
        return logLine(first, always: true) + (f.count > 1 ? " and \(f.count - 1) more" : "")
    }

    /// `Sources/App/File.swift:12:5`, relative to the workspace root when `relative` and it lies under it.
    func locationText(_ loc: SourceLocation, relative: Bool = false) -> String {
        ReportContext.locationText(loc, root: relative ? workspaceRoot : nil)
    }

    static func locationText(_ loc: SourceLocation, root: String? = nil) -> String {
        var s = relativePath(loc.file, to: root)
        if let l = loc.line { s += ":\(l)" }
        if let c = loc.column { s += ":\(c)" }
        return s
    }

    static func plural(_ n: Int, _ word: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? word : plural ?? word + "s")"
    }

    // MARK: What is worth one annotation

    /// The findings a CI annotation or a SARIF result is made for: each root cause, unrecognised error and
    /// warning, once per distinct place (the same file and line, or the same log line, named by two rules is
    /// one annotation). Symptoms (`Test Case … failed`, `Failing tests:`, `** TEST FAILED **`) repeat a cause
    /// and get none, unless nothing else explains the failure (a log cut before its error).
    var annotated: [Finding] {
        let findings = diagnosis.findings
        let leading = findings.filter { $0.role != .symptom }
        let hasError = leading.contains { $0.severity == .error }
        let chosen = hasError || !findings.contains(where: { $0.severity == .error }) ? leading : findings
        var seen = Set<String>()
        var out: [Finding] = []
        for f in chosen {
            let key: String
            if let loc = f.location, loc.line != nil {
                key = "\(loc.file):\(loc.line ?? 0):\(f.rule == Finding.unrecognizedID ? f.message : "")"
            } else if let first = f.occurrences.first {
                key = "\(first.input):\(first.line)"
            } else {
                key = f.rule + f.message
            }
            guard seen.insert(key).inserted else { continue }
            out.append(f)
        }
        return out
    }
}
