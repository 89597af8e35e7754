import Foundation

/// `--format json`: the versioned schema documented in docs/json-schema.md and docs/xcmedic.schema.json.
public enum JSONReport {
    struct Document: Encodable {
        var version: Int
        var status: String
        var inputs: [InputJSON]
        var summary: Summary
        var findings: [FindingJSON]
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
    }

    public static func render(_ input: Diagnosis, redactor: Redactor = .standard) -> String {
        let diagnosis = ReportText(redactor: redactor, controls: .escapedByFormat).prepare(input)
        let doc = Document(
            version: Diagnosis.schemaVersion,
            status: diagnosis.status.rawValue,
            inputs: diagnosis.inputs.map { InputJSON(path: $0.path, bytes: $0.bytes, lines: $0.lines, dialect: $0.dialect) },
            summary: Summary(
                causes: diagnosis.findings.filter { $0.role == .cause }.count,
                symptoms: diagnosis.findings.filter { $0.role == .symptom }.count,
                unrecognized: diagnosis.findings.filter { $0.role == .unrecognized }.count,
                droppedFindings: diagnosis.droppedFindings
            ),
            findings: diagnosis.findings.map { f in
                FindingJSON(
                    rule: f.rule, category: f.category, severity: f.severity.rawValue, role: f.role.rawValue,
                    title: f.title, message: redactor.redact(f.message),
                    captures: f.captures.mapValues(redactor.redact),
                    collected: f.collected.mapValues { $0.map(redactor.redact) },
                    count: f.count,
                    occurrences: f.occurrences.map {
                        OccurrenceJSON(line: $0.line, input: $0.input, file: $0.location?.file, fileLine: $0.location?.line, column: $0.location?.column)
                    },
                    excerpt: f.excerpt.map(redactor.redact),
                    explanation: f.explanation,
                    fixes: f.fixes.map { FixJSON(summary: $0.summary, commands: $0.commands, snippet: $0.snippet, docs: $0.docs) },
                    docs: f.docs,
                    errorInSwift6: f.errorInSwift6
                )
            }
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(doc)) ?? Data("{}".utf8)
        return TerminalSafe.escapeJSONControls(String(decoding: data, as: UTF8.self)) + "\n"
    }
}
