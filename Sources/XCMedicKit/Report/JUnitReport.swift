import Foundation

/// `--format junit`: the JUnit XML that Jenkins, GitLab, Buildkite, CircleCI and Bitrise show as test results.
///
/// Each failing test the log names (findings of category `test-failure` whose rule captures `test`, and
/// optionally `suite`, or collects a list of `test`/`tests`) becomes a failed `<testcase>` with its
/// message and location; a test named by several lines (XCTest's assertion line and its `Test Case ...
/// failed` line) is one testcase. Every other build-breaking finding becomes a failed testcase of its
/// category, so a build that never reached its tests still shows up red in the test report.
public struct JUnitReport: Sendable {
    static let maxMessageLength = 1_000

    public var redactor: Redactor
    /// Log lines quoted in a failure's body.
    public var excerptLines = 12

    public init(redactor: Redactor = .standard) {
        self.redactor = redactor
    }

    struct Case {
        var suite: String
        var name: String
        var file: String?
        var line: Int?
        var messages: [String] = []
        var details: [String] = []
        var type: String
    }

    public func render(_ input: Diagnosis) -> String {
        let diagnosis = ReportText(redactor: redactor, controls: .escapedByFormat).prepare(input)
        let testCases = failedTests(diagnosis)
        let buildCases = buildFailures(diagnosis)
        var suites: [(name: String, cases: [Case])] = []
        for c in testCases + buildCases {
            if let i = suites.firstIndex(where: { $0.name == c.suite }) { suites[i].cases.append(c) } else { suites.append((c.suite, [c])) }
        }
        let passed = suites.isEmpty
        let total = suites.reduce(0) { $0 + $1.cases.count }

        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"xcmedic\" tests=\"\(passed ? 1 : total)\" failures=\"\(total)\" errors=\"0\">\n"
        if passed {
            // Some consumers (Jenkins by default) fail a job whose report has no testcase at all.
            let inputs = diagnosis.inputs.map(\.displayName).joined(separator: ", ")
            out += "  <testsuite name=\"xcmedic\" tests=\"1\" failures=\"0\" errors=\"0\">\n"
            out += "    <testcase classname=\"xcmedic\" name=\"\(XML.escape("no failures in \(redactor.redact(inputs))"))\"/>\n"
            out += "  </testsuite>\n"
        }
        for suite in suites {
            out += "  <testsuite name=\"\(XML.escape(suite.name))\" tests=\"\(suite.cases.count)\" failures=\"\(suite.cases.count)\" errors=\"0\">\n"
            for c in suite.cases {
                var attributes = "classname=\"\(XML.escape(c.suite))\" name=\"\(XML.escape(c.name))\""
                if let file = c.file { attributes += " file=\"\(XML.escape(file))\"" }
                if let line = c.line { attributes += " line=\"\(line)\"" }
                out += "    <testcase \(attributes)>\n"
                // The attribute is what report pages show in a list; the whole text is in the body.
                let full = c.messages.first ?? c.name
                let message = full.count > JUnitReport.maxMessageLength ? String(full.prefix(JUnitReport.maxMessageLength)) + "…" : full
                out += "      <failure message=\"\(XML.escape(message))\" type=\"\(XML.escape(c.type))\">"
                out += XML.escape(c.details.joined(separator: "\n\n"))
                out += "</failure>\n"
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    // MARK: - Failed tests

    private struct Entry {
        var suite: String?
        var name: String
        var location: SourceLocation?
        var message: String
        var detail: String
    }

    func failedTests(_ diagnosis: Diagnosis) -> [Case] {
        var entries: [Entry] = []
        for f in diagnosis.findings where f.category == FindingCategory.testFailure {
            let detail = self.detail(f, diagnosis)
            let message = redactor.redact(f.message)
            if let test = f.captures["test"], !test.isEmpty {
                var (suite, name) = JUnitReport.splitTestID(redactor.redact(test))
                if let s = f.captures["suite"], !s.isEmpty { suite = redactor.redact(s) }
                entries.append(Entry(suite: suite, name: name, location: f.location, message: message, detail: detail))
            }
            for key in ["test", "tests"] {
                for value in f.collected[key] ?? [] where !value.isEmpty {
                    let (suite, name) = JUnitReport.splitTestID(redactor.redact(value))
                    entries.append(Entry(suite: suite, name: name, location: nil, message: message, detail: detail))
                }
            }
        }
        // Group by suite and name; a line that names the test without its suite (Swift Testing's
        // `Test x() failed`) joins the one testcase of that name if there is exactly one.
        var cases: [Case] = []
        var unsuited: [Entry] = []
        for e in entries {
            guard let suite = e.suite else { unsuited.append(e); continue }
            if let i = cases.firstIndex(where: { $0.suite == suite && $0.name == e.name }) {
                add(e, to: &cases[i])
            } else {
                var c = Case(suite: suite, name: e.name, type: FindingCategory.testFailure)
                add(e, to: &c)
                cases.append(c)
            }
        }
        var pending: [Case] = []
        for e in unsuited {
            let named = cases.indices.filter { cases[$0].name == e.name }
            if named.count == 1 {
                add(e, to: &cases[named[0]])
            } else if let i = pending.firstIndex(where: { $0.name == e.name }) {
                add(e, to: &pending[i])
            } else {
                var c = Case(suite: "", name: e.name, type: FindingCategory.testFailure)
                add(e, to: &c)
                pending.append(c)
            }
        }
        // A test without a suite is filed under its source file's name (Swift Testing suites are
        // usually one per file), else under `Tests`.
        for var c in pending {
            c.suite = c.file.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent } ?? "Tests"
            cases.append(c)
        }
        return cases
    }

    private func add(_ e: Entry, to c: inout Case) {
        if c.file == nil, let loc = e.location {
            c.file = redactor.redact(loc.file)
            c.line = loc.line
        }
        if !c.messages.contains(e.message) {
            // The assertion's own message says more than the `failed (0.003 seconds)` summary line.
            if e.location != nil { c.messages.insert(e.message, at: 0) } else { c.messages.append(e.message) }
        }
        if !c.details.contains(e.detail) { c.details.append(e.detail) }
    }

    /// `-[AppTests.LoginTests testLogin]`, `AppTests.LoginTests.testLogin()`, `LoginTests/testLogin`
    /// or a bare `testLogin` → suite (if the name says it) and test name.
    static func splitTestID(_ id: String) -> (suite: String?, name: String) {
        var text = id.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("-["), text.hasSuffix("]") {
            text = String(text.dropFirst(2).dropLast())
            if let space = text.lastIndex(of: " ") {
                return (String(text[..<space]), String(text[text.index(after: space)...]))
            }
            return (nil, text)
        }
        if let slash = text.lastIndex(of: "/") {
            return (String(text[..<slash]), String(text[text.index(after: slash)...]))
        }
        // `Suite.test()`: the last dot outside the parentheses of the argument list.
        let head = text.firstIndex(of: "(").map { text[..<$0] } ?? text[...]
        if let dot = head.lastIndex(of: "."), dot > head.startIndex {
            return (String(text[..<dot]), String(text[text.index(after: dot)...]))
        }
        return (nil, text)
    }

    // MARK: - Build failures

    func buildFailures(_ diagnosis: Diagnosis) -> [Case] {
        let breaking = diagnosis.findings.filter { f in
            f.severity == .error && !(f.category == FindingCategory.testFailure && names(test: f))
        }
        // Wrappers (`** BUILD FAILED **`) only when nothing else says what broke.
        let real = breaking.filter { $0.role != .symptom }
        let testsFailed = diagnosis.findings.contains { $0.category == FindingCategory.testFailure && names(test: $0) }
        let chosen = real.isEmpty && !testsFailed ? breaking : real
        var cases: [Case] = []
        for f in chosen {
            let message = redactor.redact(f.message)
            var name = FindingCollector.clip(message.isEmpty ? f.title : message)
            var n = 2
            while cases.contains(where: { $0.suite == f.category && $0.name == name }) {
                name = FindingCollector.clip(message) + " (\(n))"
                n += 1
            }
            var c = Case(suite: f.category, name: name, type: f.rule)
            c.file = f.location.map { redactor.redact($0.file) }
            c.line = f.location?.line
            c.messages = [message]
            c.details = [detail(f, diagnosis)]
            cases.append(c)
        }
        return cases
    }

    private func names(test f: Finding) -> Bool {
        !(f.captures["test"] ?? "").isEmpty || !(f.collected["test"] ?? []).isEmpty || !(f.collected["tests"] ?? []).isEmpty
    }

    /// The failure's body: message, where, what it means, the first fix and the log lines.
    private func detail(_ f: Finding, _ d: Diagnosis) -> String {
        var lines = ["\(f.title): \(f.message)"]
        if let loc = f.location {
            lines.append("at \(loc.file)\(loc.line.map { ":\($0)" } ?? "")\(loc.column.map { ":\($0)" } ?? "")")
        }
        if let first = f.occurrences.first {
            let name = d.inputs.indices.contains(first.input) ? d.inputs[first.input].path : "-"
            lines.append("log: \(Diagnosis.Input.displayName(name)) line \(first.line)\(f.count > 1 ? " (\(f.count) times)" : "")")
        }
        if f.role != .symptom { lines.append(f.explanation) }
        if let fix = f.fixes.first {
            lines.append("Fix: \(fix.summary)")
            lines.append(contentsOf: fix.commands.map { "  $ \($0)" })
        }
        if !f.excerpt.isEmpty {
            lines.append("")
            lines.append(contentsOf: f.excerpt.prefix(excerptLines))
        }
        return redactor.redact(lines.joined(separator: "\n"))
    }
}

/// Escaping for XML 1.0 text and attribute values.
enum XML {
    /// Escapes `& < > " '`. The C0 controls XML 1.0 cannot carry at all (all but tab, line feed and carriage
    /// return) are written visibly as `\u{XX}`, as the text reports write them; DEL and C1, which it allows,
    /// as character references (`&#x9B;`) so no raw one reaches a terminal; U+FFFE and U+FFFF are dropped.
    /// Line breaks and tabs are written as character references so attribute values keep them (parsers
    /// normalise literal ones to spaces).
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default:
                if scalar.value < 0x20 {
                    out += TerminalSafe.visible(String(scalar))
                } else if scalar.value >= 0x7F && scalar.value <= 0x9F {
                    out += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
                } else if isAllowed(scalar) {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// XML 1.0 `Char`: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: return true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
