import Foundation

/// Runs rules' own examples through the real scanner: lines that must match, with their captures,
/// and lines that must not.
public enum RuleExamples {
    /// One message per failing example, naming the rule and the field. With `catalog`, each example
    /// runs against the whole rule set, so a rule whose lines an earlier rule claims fails too.
    public static func check(_ rules: [Rule], catalog: RuleSet? = nil) -> [String] {
        var failures: [String] = []
        for rule in rules {
            let set: RuleSet
            if let catalog {
                set = catalog
            } else {
                do { set = try RuleSet(rules: [rule]) } catch {
                    failures.append("rule '\(rule.id)': patterns: \(error)")
                    continue
                }
            }
            for (i, example) in rule.matches.enumerated() {
                let diagnosis = scan(example.line, set)
                guard let finding = diagnosis.findings.first(where: { $0.rule == rule.id }) else {
                    let claimed = diagnosis.findings.first.map { " (claimed by '\($0.rule)')" } ?? ""
                    failures.append("rule '\(rule.id)': examples.match[\(i)]: does not match\(claimed): \(example.line)")
                    continue
                }
                for (name, expected) in example.captures.sorted(by: { $0.key < $1.key }) {
                    let actual = value(of: name, in: finding)
                    if actual != expected {
                        failures.append("rule '\(rule.id)': examples.match[\(i)].captures.\(name): expected '\(expected)', got \(actual.map { "'\($0)'" } ?? "nothing")")
                    }
                }
            }
            for (i, example) in rule.nonMatches.enumerated() where scan(example.line, set).findings.contains(where: { $0.rule == rule.id }) {
                failures.append("rule '\(rule.id)': examples.no_match[\(i)]: matches but must not: \(example.line)")
            }
        }
        return failures
    }

    /// The ways logs show one message: with its header and without (pasted alone, or cut from it by
    /// `| tail`), inside a Swift diagnostic box, behind a formatter's glyph, a CI timestamp, fastlane's
    /// prefix, a GitHub Actions annotation, Apple's logging prefix or a Markdown quote.
    public static func wrappedForms(of example: String) -> [(form: String, line: String)] {
        guard !example.contains("\n") else { return [] } // multi-line examples are whole blocks
        let line = LogLine(raw: example)
        var forms: [(String, String)] = [
            ("timestamp", "2024-05-01T10:00:00.1234567Z " + example),
            ("fastlane", "[12:00:00]: ▸ " + example),
            ("quoted", "> " + example),
            ("jenkins", "10:00:00  " + example),
        ]
        let level = line.header?.level ?? line.prefixLevel
        // A glyph or annotation in front of a line that has a formatter's own marker already says something else.
        if level == .error || level == nil, line.glyphLevel == nil, line.text == example.trimmingCharacters(in: .whitespaces) {
            forms.append(("glyph", "❌ " + line.text))
            forms.append(("annotation", "##[error]" + line.text))
        }
        if line.bare != line.text {
            forms.append(("bare", line.bare))
            if let level, level != .note {
                forms.append(("box", "   |- \(level.rawValue): " + line.bare))
                forms.append(("bare-level", "\(level.rawValue): " + line.bare))
            }
        }
        return forms
    }

    /// One message per form of a match example that its rule does not recognise (`wrappedForms`),
    /// run against the whole catalog.
    public static func checkWrappedForms(_ rules: [Rule], catalog: RuleSet) -> [String] {
        var failures: [String] = []
        for rule in rules {
            for (i, example) in rule.matches.enumerated() {
                for (form, line) in wrappedForms(of: example.line) {
                    let diagnosis = scan(line, catalog)
                    guard !diagnosis.findings.contains(where: { $0.rule == rule.id }) else { continue }
                    let claimed = diagnosis.findings.first.map { " (claimed by '\($0.rule)')" } ?? ""
                    failures.append("rule '\(rule.id)': examples.match[\(i)] as \(form): does not match\(claimed): \(line)")
                }
            }
        }
        return failures
    }

    private static func value(of name: String, in finding: Finding) -> String? {
        switch name {
        case "file": return finding.location?.file
        case "line": return finding.location?.line.map(String.init)
        case "column": return finding.location?.column.map(String.init)
        default: return finding.captures[name] ?? finding.collected[name]?.joined(separator: ", ")
        }
    }

    static func scan(_ text: String, _ set: RuleSet) -> Diagnosis {
        let scanner = Scanner(ruleSet: set)
        try? scanner.scan(text: text, name: "example")
        return scanner.finish()
    }
}

/// Rules as documents: the `rules` listing, its JSON, and `explain`.
public enum RuleDocument {
    struct RuleJSON: Encodable {
        struct PatternJSON: Encodable { var literal: String; var regex: String; var ignoreCase: Bool }
        struct ExampleJSON: Encodable { var line: String; var source: String?; var captures: [String: String]? }
        struct FixJSON: Encodable { var summary: String; var commands: [String]; var snippet: String?; var docs: String? }
        var id, title, category, severity, role, explanation, origin: String
        var message: String?
        var patterns: [PatternJSON]
        var fixes: [FixJSON]
        var docs: [String]
        var examples: [String: [ExampleJSON]]
        /// Only present when set, so a rule without them prints as before.
        var consequenceOf: [String]?
        var testRestart: Bool?
    }

    public static func json(_ rules: [Rule]) -> String {
        let list = rules.map { r in
            RuleJSON(
                id: r.id, title: r.title, category: r.category, severity: r.severity.rawValue, role: r.role.rawValue,
                explanation: r.explanation, origin: r.origin, message: r.message,
                patterns: r.patterns.map { .init(literal: $0.literal, regex: $0.regex, ignoreCase: $0.ignoreCase) },
                fixes: r.fixes.map { .init(summary: $0.summary, commands: $0.commands, snippet: $0.snippet, docs: $0.docs) },
                docs: r.docs,
                examples: [
                    "match": r.matches.map { .init(line: $0.line, source: $0.source, captures: $0.captures.isEmpty ? nil : $0.captures) },
                    "no_match": r.nonMatches.map { .init(line: $0.line, source: $0.source, captures: nil) },
                ],
                consequenceOf: r.consequenceOf.isEmpty ? nil : r.consequenceOf,
                testRestart: r.testRestart ? true : nil
            )
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        struct Doc: Encodable { var version: Int; var count: Int; var rules: [RuleJSON] }
        let data = (try? encoder.encode(Doc(version: 1, count: list.count, rules: list))) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// One row per rule: id, category, severity, role and title. Rows wider than `width` columns put the
    /// title, wrapped, on the lines below the id.
    public static func table(_ rules: [Rule], width: Int = 80) -> String {
        let idWidth = min(44, rules.map(\.id.count).max() ?? 10)
        let catWidth = min(28, rules.map(\.category.count).max() ?? 10)
        var out = ""
        for r in rules {
            var row = r.id.padding(toLength: max(idWidth, r.id.count), withPad: " ", startingAt: 0) + "  "
            row += r.category.padding(toLength: max(catWidth, r.category.count), withPad: " ", startingAt: 0) + "  "
            row += r.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0) + " "
            row += r.role.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            if row.count + 1 + r.title.count <= width {
                out += row + " " + r.title + "\n"
            } else {
                // Narrow: the id on its line (with the rest when it fits), the title wrapped below it.
                let meta = "\(r.category) \(r.severity.rawValue) \(r.role.rawValue)"
                let head = r.id + "  " + meta
                out += (head.count <= width ? head : r.id) + "\n"
                let title = head.count <= width ? r.title : "\(r.title) (\(meta))"
                out += "    " + TerminalText.wrap(title, width: width, indent: 4, first: 4) + "\n"
            }
        }
        out += "\(rules.count) rules\n"
        return out
    }

    /// `explain`: the rule in full, prose wrapped to `width` columns (commands, regexes and example lines whole).
    public static func explain(_ r: Rule, width: Int) -> String {
        let text = explain(r)
        let keepWhole = ["     $ ", "    regex ", "  ✓ ", "  ✗ ", "  literal "]
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.count > width, !keepWhole.contains(where: { line.hasPrefix($0) }) else { return String(line) }
            return TerminalText.wrapLines(String(line), width: width)
        }.joined(separator: "\n")
    }

    public static func explain(_ r: Rule) -> String {
        var out = "\(r.id): \(r.title)\n"
        out += "category \(r.category) · severity \(r.severity.rawValue) · role \(r.role.rawValue) · from \(r.origin)\n"
        if !r.consequenceOf.isEmpty {
            out += "a symptom instead when the log has a root cause of category \(r.consequenceOf.joined(separator: ", "))\n"
        }
        if r.testRestart { out += "a test restart: a root cause only when the log shows the crash or names the test elsewhere\n" }
        out += "\n"
        out += r.explanation + "\n\nFixes, safest first:\n"
        for (i, fix) in r.fixes.enumerated() {
            out += "  \(i + 1). \(fix.summary)\n"
            for c in fix.commands { out += "     $ \(Invocation().fill(c))\n" }
            if let s = fix.snippet.map({ Invocation().fill($0) }) { out += s.split(separator: "\n", omittingEmptySubsequences: false).map { "     \($0)\n" }.joined() }
            if let d = fix.docs { out += "     \(d)\n" }
        }
        if !r.docs.isEmpty { out += "\nDocs:\n" + r.docs.map { "  \($0)\n" }.joined() }
        out += "\nMatches lines containing:\n"
        for p in r.patterns { out += "  literal \(p.literal)\n    regex \(p.regex)\n" }
        out += "\nExamples:\n"
        for e in r.matches { out += "  ✓ \(e.line)\n" + (e.source.map { "    source: \($0)\n" } ?? "") }
        for e in r.nonMatches { out += "  ✗ \(e.line)\n" }
        return out
    }
}
