import Foundation

/// `--format json`: the versioned schema documented in docs/json-schema.md and docs/xcmedic.schema.json.
public enum JSONReport {
    struct Document: Encodable {
        var version: Int
        var status: String
        var inputs: [InputJSON]
        var summary: Summary
        /// Only when the logs name tests or state test totals.
        var tests: TestsJSON?
        /// Written finding by finding (`render`), not through this field: nil when encoding the rest.
        var findings: [FindingJSON]?
        /// Only with `scan --record`.
        var history: BuildHistory?
    }

    struct TestsJSON: Encodable {
        /// Distinct tests the logs name with a result, by their last result.
        var total: Int
        var passed: Int
        var failed: Int
        var skipped: Int
        var crashed: Int
        /// What the logs state: XCTest's `Executed N tests, with M failures` and Swift Testing's `Test run with N tests`.
        var stated: [StatedJSON]
    }

    struct StatedJSON: Encodable {
        var framework: String
        var tests: Int
        var failures: Int?
        var input: Int
    }

    struct InvocationJSON: Encodable {
        var tool: String?
        var workspace: String?
        var project: String?
        var scheme: String?
        var destination: String?
        var configuration: String?
        var testPlan: String?
        var packagePath: String?
        var testTargets: [String]?
    }

    struct Summary: Encodable {
        var causes: Int
        var symptoms: Int
        var unrecognized: Int
        var droppedFindings: Int
    }

    struct InputJSON: Encodable {
        var path: String
        var bytes: Int
        var lines: Int
        var dialect: String
        /// How the build was started, when the log says (omitted otherwise).
        var invocation: InvocationJSON?
    }

    struct OccurrenceJSON: Encodable {
        var line: Int
        var input: Int
        var file: String?
        var fileLine: Int?
        var column: Int?
    }

    struct FixJSON: Encodable {
        var summary: String
        var commands: [String]
        var snippet: String?
        var docs: String?
    }

    struct FindingJSON: Encodable {
        var rule: String
        var category: String
        var severity: String
        var role: String
        var title: String
        var message: String
        var captures: [String: String]
        var collected: [String: [String]]
        var count: Int
        var occurrences: [OccurrenceJSON]
        var excerpt: [String]
        var explanation: String
        var fixes: [FixJSON]
        var docs: [String]
        var errorInSwift6: Bool
        /// Only with `scan --record`.
        var history: CauseHistory?

        /// The finding's JSON text as the encoder and `TerminalSafe.escapeJSONControls` give it; nil for a finding with a
        /// history, which the encoder writes.
        func prettyText() -> String? { prettyBytes(depth: 0).map { String(decoding: $0, as: UTF8.self) } }

        /// The same, `depth` levels into a document: as indenting each non-empty line of `prettyText` by two spaces a level.
        func prettyBytes(depth: Int) -> [UInt8]? {
            guard history == nil else { return nil }
            var w = PrettyJSON(capacity: 1024 + excerpt.reduce(0) { $0 + $1.utf8.count } + message.utf8.count + explanation.utf8.count,
                               depth: depth)
            w.beginObject()
            w.key("captures"); w.stringMap(captures)
            w.key("category"); w.string(category)
            w.key("collected")
            w.beginObject()
            for name in collected.keys.sorted() { w.key(name); w.strings(collected[name]!) }
            w.endObject()
            w.key("count"); w.number(count)
            w.key("docs"); w.strings(docs)
            w.key("errorInSwift6"); w.bool(errorInSwift6)
            w.key("excerpt"); w.strings(excerpt)
            w.key("explanation"); w.string(explanation)
            w.key("fixes")
            w.objects(fixes) { w, fix in
                w.key("commands"); w.strings(fix.commands)
                if let docs = fix.docs { w.key("docs"); w.string(docs) }
                if let snippet = fix.snippet { w.key("snippet"); w.string(snippet) }
                w.key("summary"); w.string(fix.summary)
            }
            w.key("message"); w.string(message)
            w.key("occurrences")
            w.objects(occurrences) { w, o in
                if let column = o.column { w.key("column"); w.number(column) }
                if let file = o.file { w.key("file"); w.string(file) }
                if let fileLine = o.fileLine { w.key("fileLine"); w.number(fileLine) }
                w.key("input"); w.number(o.input)
                w.key("line"); w.number(o.line)
            }
            w.key("role"); w.string(role)
            w.key("rule"); w.string(rule)
            w.key("severity"); w.string(severity)
            w.key("title"); w.string(title)
            w.endObject()
            return w.bytes
        }
    }

    public static func render(_ input: Diagnosis, redactor: Redactor = .standard) -> String {
        var out = ""
        write(input, redactor: redactor, to: &out)
        return out
    }

    /// The report into `out`, one finding at a time.
    public static func write<Out: TextOutputStream>(_ input: Diagnosis, redactor: Redactor = .standard, to out: inout Out) {
        let diagnosis = ReportContext(input, redactor: redactor, controls: .escapedByFormat).diagnosis
        let doc = Document(
            version: Diagnosis.schemaVersion,
            status: diagnosis.status.rawValue,
            inputs: diagnosis.inputs.indices.map { i in
                let input = diagnosis.inputs[i]
                let inv = diagnosis.invocations.indices.contains(i) ? diagnosis.invocations[i] : Invocation()
                return InputJSON(path: input.path, bytes: input.bytes, lines: input.lines, dialect: input.dialect,
                                 invocation: inv.isEmpty ? nil : InvocationJSON(
                                    tool: inv.tool?.rawValue, workspace: inv.workspace, project: inv.project, scheme: inv.scheme,
                                    destination: inv.destination, configuration: inv.configuration, testPlan: inv.testPlan,
                                    packagePath: inv.packagePath, testTargets: inv.testTargets.isEmpty ? nil : inv.testTargets))
            },
            summary: Summary(
                causes: diagnosis.findings.filter { $0.role == .cause }.count,
                symptoms: diagnosis.findings.filter { $0.role == .symptom }.count,
                unrecognized: diagnosis.findings.filter { $0.role == .unrecognized }.count,
                droppedFindings: diagnosis.droppedFindings
            ),
            tests: diagnosis.tests.isEmpty ? nil : {
                let results = diagnosis.tests.results
                func count(_ s: TestResult.Status) -> Int { results.filter { $0.status == s }.count }
                return TestsJSON(total: results.count, passed: count(.passed), failed: count(.failed), skipped: count(.skipped), crashed: count(.crashed),
                                 stated: diagnosis.tests.totals.map { StatedJSON(framework: $0.framework.rawValue, tests: $0.tests, failures: $0.failures, input: $0.input) })
            }(),
            findings: nil,
            history: diagnosis.history
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        func encoded<T: Encodable>(_ value: T) -> String {
            TerminalSafe.escapeJSONControls(String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self))
        }
        // The findings are encoded one at a time into the document's text, so a report of thousands holds
        // no tree of them all (issue 17). With sorted keys, "findings" is the document's first key; the
        // text is what encoding the whole document gives.
        let rest = encoded(doc)
        guard rest.hasPrefix("{\n") else { return out.write(rest + "\n") }
        out.write(diagnosis.findings.isEmpty ? "{\n  \"findings\" : [\n\n  ],\n" : "{\n  \"findings\" : [\n")
        for (k, f) in diagnosis.findings.enumerated() {
            // Each finding's text written two levels in (the findings array's elements), escaped as it is written.
            let json = findingJSON(f)
            var piece = json.prettyBytes(depth: 2) ?? indented(encoded(json), by: 2)
            piece.append(contentsOf: (k == diagnosis.findings.count - 1 ? "\n  ],\n" : ",\n").utf8)
            out.write(String(decoding: piece, as: UTF8.self))
        }
        out.write(String(rest.dropFirst(2)) + "\n")
    }

    /// Each non-empty line of `text` indented by two spaces a level, on its bytes.
    static func indented(_ text: String, by depth: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + text.utf8.count / 8 + 16)
        let indent = [UInt8](repeating: 0x20, count: 2 * depth)
        var atLineStart = true
        for byte in text.utf8 {
            if byte == 0x0A {
                atLineStart = true
            } else if atLineStart {
                out.append(contentsOf: indent)
                atLineStart = false
            }
            out.append(byte)
        }
        return out
    }

    static func findingJSON(_ f: Finding) -> FindingJSON {
        FindingJSON(
            rule: f.rule, category: f.category, severity: f.severity.rawValue, role: f.role.rawValue,
            title: f.title, message: f.message,
            captures: f.captures,
            collected: f.collected,
            count: f.count,
            occurrences: f.occurrences.map {
                OccurrenceJSON(line: $0.line, input: $0.input, file: $0.location?.file, fileLine: $0.location?.line, column: $0.location?.column)
            },
            excerpt: f.excerpt,
            explanation: f.explanation,
            fixes: f.fixes.map { FixJSON(summary: $0.summary, commands: $0.commands, snippet: $0.snippet, docs: $0.docs) },
            docs: f.docs,
            errorInSwift6: f.errorInSwift6,
            history: f.history
        )
    }
}
