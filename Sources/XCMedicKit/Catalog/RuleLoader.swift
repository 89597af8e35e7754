import Foundation
import Yams

/// A rules file that cannot be used, naming the file, the rule and the field.
public struct RuleFileError: Error, CustomStringConvertible, Equatable, Sendable {
    public var file: String
    public var ruleID: String?
    public var field: String?
    public var line: Int?
    public var problem: String

    public var description: String {
        var parts = [line.map { "\(file):\($0)" } ?? file]
        if let ruleID { parts.append("rule '\(ruleID)'") }
        if let field { parts.append("field '\(field)'") }
        return parts.joined(separator: ": ") + ": " + problem
    }
}

/// Reads rules written in YAML: the built-in catalog and users' `--rules` / `.xcmedic.yml` files alike.
///
/// A file is either a list of rules or a mapping with a `rules:` list. See `docs/rules.md`.
public enum RuleLoader {
    static let idShape = try! NSRegularExpression(pattern: "^[a-z0-9]+(-[a-z0-9]+)*$")

    /// A rule id's or a category's shape: kebab-case.
    static func isKebabCase(_ name: String) -> Bool {
        idShape.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
    }
    static let minimumLiteralBytes = 3

    /// `compileRegexes: false` skips compiling each regex here (the built-in catalog: `RuleSet`
    /// compiles them anyway, and the catalog test proves they compile).
    public static func load(yaml: String, origin: String, compileRegexes: Bool = true) throws -> [Rule] {
        let root: Node?
        do {
            // Every scalar is text to a rule: the basic resolver skips the regex-based tag guessing (most of the load time).
            root = try Yams.compose(yaml: yaml, .basic)
        } catch let error as YamlError {
            throw RuleFileError(file: origin, problem: "invalid YAML: \(describe(error))")
        } catch {
            throw RuleFileError(file: origin, problem: "invalid YAML: \(error)")
        }
        guard let root else { return [] }
        let list: [Node]
        if let seq = root.sequence {
            list = Array(seq)
        } else if let map = root.mapping, let rules = map["rules"] {
            guard let seq = rules.sequence else {
                throw RuleFileError(file: origin, field: "rules", line: rules.mark?.line, problem: "must be a list of rules")
            }
            list = Array(seq)
        } else {
            throw RuleFileError(file: origin, line: root.mark?.line, problem: "expected a list of rules or a mapping with 'rules:'")
        }
        var seen: [String: Int] = [:]
        var rules: [Rule] = []
        for node in list {
            let rule = try parseRule(node, origin: origin, compileRegexes: compileRegexes)
            if let previous = seen[rule.id] {
                throw RuleFileError(file: origin, ruleID: rule.id, field: "id", line: node.mark?.line,
                                    problem: "duplicate id (first defined at line \(previous))")
            }
            seen[rule.id] = node.mark?.line ?? 0
            rules.append(rule)
        }
        return rules
    }

    public static func load(file path: String) throws -> [Rule] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw RuleFileError(file: path, problem: "no such file")
        }
        guard !isDirectory.boolValue else { throw RuleFileError(file: path, problem: "is a directory, not a rules file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RuleFileError(file: path, problem: "cannot be read")
        }
        return try load(yaml: String(decoding: data, as: UTF8.self), origin: path)
    }

    private static func describe(_ error: YamlError) -> String {
        String(describing: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
    }

    // MARK: - Fields

    private struct Context {
        var origin: String
        var ruleID: String?

        func error(_ field: String?, _ node: Node?, _ problem: String) -> RuleFileError {
            RuleFileError(file: origin, ruleID: ruleID, field: field, line: node?.mark?.line, problem: problem)
        }
    }

    private static let knownKeys: Set<String> = [
        "id", "title", "category", "severity", "role", "patterns", "continuation", "message",
        "explanation", "fixes", "docs", "examples", "consequence_of", "test_restart", "failed_step", "last_resort", "catch_all", "notice",
        "category_outside_build",
    ]

    private static func parseRule(_ node: Node, origin: String, compileRegexes: Bool) throws -> Rule {
        var ctx = Context(origin: origin)
        guard let map = node.mapping else { throw ctx.error(nil, node, "each rule must be a mapping") }
        let id = try requiredString(map, "id", ctx, node)
        ctx.ruleID = id
        guard isKebabCase(id) else {
            throw ctx.error("id", map["id"], "must be kebab-case (lowercase letters, digits and '-')")
        }
        for (key, value) in map {
            let name = key.string ?? ""
            if !knownKeys.contains(name) { throw ctx.error(name, value, "unknown field") }
        }
        let severityText = try requiredString(map, "severity", ctx, node)
        guard let severity = Severity(rawValue: severityText) else {
            throw ctx.error("severity", map["severity"], "must be one of error, warning, info (got '\(severityText)')")
        }
        let roleText = try requiredString(map, "role", ctx, node)
        guard let role = Role(rawValue: roleText), role != .unrecognized else {
            throw ctx.error("role", map["role"], "must be 'cause' or 'symptom' (got '\(roleText)')")
        }
        let patterns = try parsePatterns(map["patterns"], ctx, node, compileRegexes: compileRegexes)
        let continuation = try map["continuation"].map { try parseContinuation($0, ctx) }
        let fixes = try parseFixes(map["fixes"], ctx)
        let docs = try stringList(map["docs"], "docs", ctx)
        let (matches, nonMatches) = try parseExamples(map["examples"], ctx, node)
        let message = try optionalString(map, "message", ctx)
        let consequenceOf = try parseConsequenceOf(map["consequence_of"], role: role, ctx)
        let testRestart = try parseTestRestart(map["test_restart"], role: role, patterns: patterns, ctx)
        let failedStep = try parseBool(map["failed_step"], "failed_step", ctx)
        let lastResort = try parseBool(map["last_resort"], "last_resort", ctx)
        let catchAll = try parseBool(map["catch_all"], "catch_all", ctx)
        let notice = try parseBool(map["notice"], "notice", ctx)
        if notice, severity == .error { throw ctx.error("notice", map["notice"], "a notice is never an error: give it severity warning or info") }
        let categoryOutsideBuild = try optionalString(map, "category_outside_build", ctx)
        if let other = categoryOutsideBuild, !isKebabCase(other) {
            throw ctx.error("category_outside_build", map["category_outside_build"], "'\(other)' is not a category name (kebab-case)")
        }
        return Rule(
            id: id,
            title: try requiredString(map, "title", ctx, node),
            category: try requiredString(map, "category", ctx, node),
            severity: severity,
            role: role,
            patterns: patterns,
            continuation: continuation,
            message: message,
            explanation: trimmed(try requiredString(map, "explanation", ctx, node)),
            fixes: fixes,
            docs: docs,
            matches: matches,
            nonMatches: nonMatches,
            origin: origin,
            consequenceOf: consequenceOf,
            testRestart: testRestart,
            failedStep: failedStep,
            lastResort: lastResort,
            catchAll: catchAll,
            notice: notice,
            categoryOutsideBuild: categoryOutsideBuild
        )
    }

    private static func parseConsequenceOf(_ node: Node?, role: Role, _ ctx: Context) throws -> [String] {
        guard let node else { return [] }
        let categories = try stringList(node, "consequence_of", ctx)
        guard !categories.isEmpty else { throw ctx.error("consequence_of", node, "must list at least one category") }
        for category in categories where !isKebabCase(category) {
            throw ctx.error("consequence_of", node, "'\(category)' is not a category name (kebab-case)")
        }
        guard role == .cause else { throw ctx.error("consequence_of", node, "only a rule with role: cause can be demoted to a symptom") }
        return categories
    }

    private static func parseBool(_ node: Node?, _ field: String, _ ctx: Context) throws -> Bool {
        guard let node else { return false }
        guard let text = node.scalar?.string, let value = ["true": true, "false": false][text] else {
            throw ctx.error(field, node, "must be true or false")
        }
        return value
    }

    private static func parseTestRestart(_ node: Node?, role: Role, patterns: [Pattern], _ ctx: Context) throws -> Bool {
        guard let node else { return false }
        guard let text = node.scalar?.string, let value = ["true": true, "false": false][text] else {
            throw ctx.error("test_restart", node, "must be true or false")
        }
        guard value else { return false }
        guard role == .cause else { throw ctx.error("test_restart", node, "only a rule with role: cause can be demoted to a symptom") }
        if let index = patterns.firstIndex(where: { !$0.regex.contains("(?<test>") }) {
            throw ctx.error("test_restart", node, "patterns[\(index)].regex must capture the restarted test as (?<test>...)")
        }
        return true
    }

    private static func requiredString(_ map: Node.Mapping, _ key: String, _ ctx: Context, _ owner: Node) throws -> String {
        guard let value = map[key] else { throw ctx.error(key, owner, "missing") }
        guard let text = value.scalar?.string, text.contains(where: { !$0.isWhitespace }) else {
            throw ctx.error(key, value, "must be a non-empty string")
        }
        return text
    }

    /// Without leading and trailing ASCII white space (folded YAML ends with a newline).
    private static func trimmed(_ text: String) -> String {
        let u = text.utf8
        let blank: (UInt8) -> Bool = { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }
        guard let first = u.firstIndex(where: { !blank($0) }), let last = u.lastIndex(where: { !blank($0) }) else { return "" }
        return String(text[first...last])
    }

    private static func optionalString(_ map: Node.Mapping, _ key: String, _ ctx: Context) throws -> String? {
        guard let value = map[key] else { return nil }
        guard let text = value.scalar?.string else { throw ctx.error(key, value, "must be a string") }
        return text
    }

    private static func stringList(_ node: Node?, _ field: String, _ ctx: Context) throws -> [String] {
        guard let node else { return [] }
        if let scalar = node.scalar { return [scalar.string] }
        guard let seq = node.sequence else { throw ctx.error(field, node, "must be a string or a list of strings") }
        return try seq.map { item in
            guard let text = item.scalar?.string else { throw ctx.error(field, item, "must be a string") }
            return text
        }
    }

    private static func parsePatterns(_ node: Node?, _ ctx: Context, _ owner: Node, compileRegexes: Bool) throws -> [Pattern] {
        guard let node else { throw ctx.error("patterns", owner, "missing") }
        guard let seq = node.sequence, !seq.isEmpty else { throw ctx.error("patterns", node, "must be a non-empty list") }
        return try seq.enumerated().map { index, item in
            let field = "patterns[\(index)]"
            guard let map = item.mapping else { throw ctx.error(field, item, "must be a mapping with 'literal' and 'regex'") }
            guard let literal = map["literal"]?.scalar?.string, !literal.isEmpty else {
                throw ctx.error("\(field).literal", item, "missing: the text every matching line contains, for the prefilter")
            }
            guard literal.utf8.count >= minimumLiteralBytes else {
                throw ctx.error("\(field).literal", map["literal"], "must be at least \(minimumLiteralBytes) bytes so the prefilter stays selective")
            }
            guard let regex = map["regex"]?.scalar?.string, !regex.isEmpty else {
                throw ctx.error("\(field).regex", item, "missing")
            }
            let ignoreCase = ["true", "yes", "on"].contains(map["ignore_case"]?.scalar?.string.lowercased() ?? "false")
            do {
                if compileRegexes { _ = try NSRegularExpression(pattern: regex, options: ignoreCase ? [.caseInsensitive] : []) }
            } catch {
                throw ctx.error("\(field).regex", map["regex"], "invalid regular expression: \(regex)")
            }
            if let risk = RegexSafety.catastrophicRisk(in: regex) {
                throw ctx.error("\(field).regex", map["regex"], risk)
            }
            return Pattern(literal: literal, regex: regex, ignoreCase: ignoreCase)
        }
    }

    private static func parseContinuation(_ node: Node, _ ctx: Context) throws -> Continuation {
        guard let map = node.mapping else { throw ctx.error("continuation", node, "must be a mapping") }
        guard let whileRegex = map["while"]?.scalar?.string else {
            throw ctx.error("continuation.while", node, "missing: the regex a following line must match to belong to the block")
        }
        for (field, pattern) in [("continuation.while", whileRegex), ("continuation.collect", map["collect"]?.scalar?.string)] {
            guard let pattern else { continue }
            do { _ = try NSRegularExpression(pattern: pattern) } catch {
                throw ctx.error(field, node, "invalid regular expression: \(pattern)")
            }
        }
        let maxLines = map["max_lines"].flatMap { $0.scalar.flatMap { Int($0.string) } } ?? 20
        guard (1...500).contains(maxLines) else { throw ctx.error("continuation.max_lines", node, "must be between 1 and 500") }
        return Continuation(whileRegex: whileRegex, collect: map["collect"]?.scalar?.string, maxLines: maxLines)
    }

    private static func parseFixes(_ node: Node?, _ ctx: Context) throws -> [Fix] {
        guard let node else { return [] }
        guard let seq = node.sequence else { throw ctx.error("fixes", node, "must be a list") }
        return try seq.enumerated().map { index, item in
            if let text = item.scalar?.string { return Fix(summary: text) }
            guard let map = item.mapping, let summary = map["summary"]?.scalar?.string else {
                throw ctx.error("fixes[\(index)].summary", item, "missing")
            }
            return Fix(
                summary: summary,
                commands: try stringList(map["commands"], "fixes[\(index)].commands", ctx),
                snippet: map["snippet"]?.scalar?.string,
                docs: map["docs"]?.scalar?.string
            )
        }
    }

    private static func parseExamples(_ node: Node?, _ ctx: Context, _ owner: Node) throws -> ([RuleExample], [RuleExample]) {
        guard let node else { throw ctx.error("examples", owner, "missing: a rule needs real lines that match and lines that must not") }
        guard let map = node.mapping else { throw ctx.error("examples", node, "must be a mapping with 'match' and 'no_match'") }
        func list(_ key: String) throws -> [RuleExample] {
            guard let listNode = map[key] else { return [] }
            guard let seq = listNode.sequence else { throw ctx.error("examples.\(key)", listNode, "must be a list") }
            return try seq.enumerated().map { index, item in
                if let line = item.scalar?.string { return RuleExample(line: line) }
                guard let entry = item.mapping, let line = entry["line"]?.scalar?.string else {
                    throw ctx.error("examples.\(key)[\(index)].line", item, "missing")
                }
                var captures: [String: String] = [:]
                if let capNode = entry["captures"] {
                    guard let capMap = capNode.mapping else {
                        throw ctx.error("examples.\(key)[\(index)].captures", capNode, "must be a mapping")
                    }
                    for (k, v) in capMap {
                        captures[k.string ?? ""] = v.string ?? ""
                    }
                }
                return RuleExample(line: line, source: entry["source"]?.scalar?.string, captures: captures)
            }
        }
        let matches = try list("match")
        guard !matches.isEmpty else { throw ctx.error("examples.match", node, "needs at least one line that must match") }
        return (matches, try list("no_match"))
    }
}
