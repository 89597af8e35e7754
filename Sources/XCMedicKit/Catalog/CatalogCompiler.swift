import Foundation

/// The built-in catalog in a form that costs next to nothing to load.
///
/// `Catalog/*.yml` stays the source of truth, read by `RuleLoader` like any user's rules file (every check
/// it makes: fields, regex safety, ids). `Catalog/embed.sh` runs that loader on the files at build time and
/// writes what it read into `CompiledCatalog.swift` as a stream of tokens, one string literal a family;
/// at run time `decode` turns the stream back into the same `Rule` values with no YAML parser
/// (330 M of the 394 M instructions xcmedic took to start on a 2-line log was Yams reading the YAML).
/// `CatalogEmbedTests` fails when the generated file differs from what the YAML files give now, and
/// checks that the decoded rules equal the loader's, field by field.
///
/// The stream: tokens, each ended by a NUL byte (no YAML scalar the loader accepts holds one); a
/// count or a flag is decimal text, an optional value is `-` (absent) or `+` followed by the value.
public enum CatalogCompiler {
    /// Changes whenever the stream's layout does; the first token of every stream.
    static let version = "xcmedic-catalog-2"

    public struct Corrupt: Error, CustomStringConvertible {
        public var description: String
    }

    // MARK: - Writing

    /// Writes tokens; rejects a value that would break the stream.
    struct Writer {
        var tokens: [String] = []

        mutating func add(_ text: String) throws {
            if text.utf8.contains(0) { throw Corrupt(description: "a catalog text holds a NUL byte: \(text.debugDescription)") }
            tokens.append(text)
        }
        mutating func add(_ flag: Bool) throws { try add(flag ? "1" : "0") }
        mutating func add(_ number: Int) throws { try add(String(number)) }
        mutating func add(_ optional: String?) throws {
            if let optional { try add("+"); try add(optional) } else { try add("-") }
        }
        mutating func add(_ list: [String]) throws {
            try add(list.count)
            for item in list { try add(item) }
        }
    }

    /// The token stream of rules as `RuleLoader` read them (their origin is the family's, not written).
    public static func encode(rules: [Rule]) throws -> [String] {
        var w = Writer()
        try w.add(version)
        try w.add(rules.count)
        for rule in rules {
            try w.add(rule.id)
            try w.add(rule.title)
            try w.add(rule.category)
            try w.add(rule.severity.rawValue)
            try w.add(rule.role.rawValue)
            try w.add(rule.patterns.count)
            for pattern in rule.patterns {
                try w.add(pattern.literal)
                try w.add(pattern.regex)
                try w.add(pattern.ignoreCase)
            }
            try w.add(rule.continuation != nil)
            if let continuation = rule.continuation {
                try w.add(continuation.whileRegex)
                try w.add(continuation.collect)
                try w.add(continuation.maxLines)
            }
            try w.add(rule.message)
            try w.add(rule.explanation)
            try w.add(rule.fixes.count)
            for fix in rule.fixes {
                try w.add(fix.summary)
                try w.add(fix.commands)
                try w.add(fix.snippet)
                try w.add(fix.docs)
            }
            try w.add(rule.docs)
            for examples in [rule.matches, rule.nonMatches] {
                try w.add(examples.count)
                for example in examples {
                    try w.add(example.line)
                    try w.add(example.source)
                    try w.add(example.captures.count)
                    for key in example.captures.keys.sorted() {
                        try w.add(key)
                        try w.add(example.captures[key]!)
                    }
                }
            }
            try w.add(rule.consequenceOf)
            try w.add(rule.testRestart)
            try w.add(rule.failedStep)
            try w.add(rule.lastResort)
            try w.add(rule.catchAll)
            try w.add(rule.notice)
            try w.add(rule.categoryOutsideBuild)
        }
        return w.tokens
    }

    /// Keyword classifier entries: category and its words (regular expressions).
    public static func encode(keywords: [(category: String, words: [String])]) throws -> [String] {
        try encode(keywords) { w, entry in
            try w.add(entry.category)
            try w.add(entry.words)
        }
    }

    /// Known categories and their descriptions.
    public static func encode(categories: [(name: String, description: String)]) throws -> [String] {
        try encode(categories) { w, entry in
            try w.add(entry.name)
            try w.add(entry.description)
        }
    }

    /// The version, the number of entries, then each entry's fields.
    private static func encode<Entry>(_ entries: [Entry], _ add: (inout Writer, Entry) throws -> Void) throws -> [String] {
        var w = Writer()
        try w.add(version)
        try w.add(entries.count)
        for entry in entries { try add(&w, entry) }
        return w.tokens
    }

    /// One Swift multi-line string literal holding `tokens`, one token a line, each ended by `\0`
    /// and the line continued (`\` at its end, but the last) so that the value holds no newline of the source.
    static func swiftLiteral(_ tokens: [String]) -> String {
        var out = "\"\"\"\n"
        for (n, token) in tokens.enumerated() {
            for scalar in token.unicodeScalars {
                switch scalar {
                case "\\": out += "\\\\"
                case "\"": out += "\\\""
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default:
                    switch scalar.properties.generalCategory {
                    case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                        out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                    default:
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            // The last line may not be continued; the newline before the closing quotes is not part of the value.
            out += n == tokens.count - 1 ? "\\0\n" : "\\0\\\n"
        }
        return out + "\"\"\""
    }

    /// `CompiledCatalog.swift` for the YAML files of a catalog folder (`Catalog/` at the repository root):
    /// each `NN-<family>.yml` read by `RuleLoader` with every check, `categories.yml` and `keywords.yml`.
    public static func swiftSource(catalogFolder folder: URL) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let families = names.filter { $0.range(of: #"^[0-9][0-9]-[a-z0-9-]+\.yml$"#, options: .regularExpression) != nil }
        guard !families.isEmpty else { throw Corrupt(description: "\(folder.path): no NN-<family>.yml files") }
        func text(_ name: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        var out = """
        // Generated by Catalog/embed.sh from Catalog/*.yml (read and checked by RuleLoader); edit the YAML
        // files there and run it again. CatalogCompiler describes the token stream; CatalogEmbedTests fails
        // when this file and the YAML files disagree.
        // swiftlint:disable all
        enum CompiledCatalog {

        """
        var table: [String] = []
        for file in families {
            let family = familyName(file: file)
            let rules: [Rule]
            do {
                rules = try RuleLoader.load(yaml: try text(file), origin: "builtin:\(family)")
            } catch var error as RuleFileError {
                error.file = folder.appendingPathComponent(file).path // the file to fix, not the rules' origin
                throw error
            }
            let identifier = swiftIdentifier(family)
            out += "    /// Catalog/\(file): \(rules.count) rule\(rules.count == 1 ? "" : "s")\n"
            out += "    static let \(identifier) = \(swiftLiteral(try encode(rules: rules)))\n"
            table.append("        (\"\(family)\", \"\(file)\", \(identifier)),\n")
        }
        let categories = try FindingCategory.load(yaml: try text("categories.yml"), origin: "builtin:categories")
        out += "    /// Catalog/categories.yml\n"
        out += "    static let categories = \(swiftLiteral(try encode(categories: categories)))\n"
        let keywords = try KeywordClassifier.entries(yaml: try text("keywords.yml"), origin: "builtin:keywords")
        out += "    /// Catalog/keywords.yml\n"
        out += "    static let keywords = \(swiftLiteral(try encode(keywords: keywords)))\n"
        out += "    /// The rule families in priority order: family, file name in Catalog/, its rules' token stream.\n"
        out += "    static let families: [(family: String, file: String, tokens: String)] = [\n"
        out += table.joined()
        out += "    ]\n}\n"
        return out
    }

    /// 11-compile-errors.yml -> compile-errors
    static func familyName(file: String) -> String {
        var name = file
        if name.hasSuffix(".yml") { name.removeLast(4) }
        if let dash = name.firstIndex(of: "-") { name = String(name[name.index(after: dash)...]) }
        return name
    }

    /// compile-errors -> compileErrors
    static func swiftIdentifier(_ family: String) -> String {
        let parts = family.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == "." })
        return parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
    }

    // MARK: - Reading

    /// Reads a token stream: NUL-ended tokens of one string.
    struct Reader {
        var tokens: [String]
        var index = 0
        let origin: String

        init(_ data: String, origin: String) throws {
            var data = data
            tokens = data.withUTF8 { bytes in
                var out: [String] = []
                out.reserveCapacity(bytes.count / 16)
                var start = 0
                for i in 0..<bytes.count where bytes[i] == 0 {
                    out.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
                    start = i + 1
                }
                return out
            }
            self.origin = origin
            guard try text() == CatalogCompiler.version else { throw corrupt("written by another version of Catalog/embed.sh") }
        }

        func corrupt(_ problem: String) -> Corrupt {
            Corrupt(description: "\(origin): the compiled catalog cannot be read (\(problem)); run Catalog/embed.sh")
        }

        mutating func text() throws -> String {
            guard index < tokens.count else { throw corrupt("ends early") }
            defer { index += 1 }
            return tokens[index]
        }
        mutating func number() throws -> Int {
            let token = try text()
            guard let value = Int(token), value >= 0 else { throw corrupt("'\(token)' is not a count") }
            return value
        }
        mutating func flag() throws -> Bool {
            switch try text() {
            case "1": return true
            case "0": return false
            case let token: throw corrupt("'\(token)' is not a flag")
            }
        }
        mutating func optional() throws -> String? {
            switch try text() {
            case "+": return try text()
            case "-": return nil
            case let token: throw corrupt("'\(token)' is not an optional's mark")
            }
        }
        mutating func list() throws -> [String] {
            try (0..<number()).map { _ in try text() }
        }
        func finish() throws {
            guard index == tokens.count else { throw corrupt("\(tokens.count - index) tokens left over") }
        }
    }

    /// The rules of a family's token stream, with `origin` as a loaded rule's (`builtin:<family>`).
    public static func decodeRules(_ data: String, origin: String) throws -> [Rule] {
        var r = try Reader(data, origin: origin)
        let count = try r.number()
        var rules: [Rule] = []
        rules.reserveCapacity(count)
        for _ in 0..<count {
            let id = try r.text(), title = try r.text(), category = try r.text()
            guard let severity = Severity(rawValue: try r.text()) else { throw r.corrupt("bad severity in \(id)") }
            guard let role = Role(rawValue: try r.text()) else { throw r.corrupt("bad role in \(id)") }
            let patterns = try (0..<r.number()).map { _ in Pattern(literal: try r.text(), regex: try r.text(), ignoreCase: try r.flag()) }
            let continuation = try r.flag() ? Continuation(whileRegex: try r.text(), collect: try r.optional(), maxLines: try r.number()) : nil
            let message = try r.optional()
            let explanation = try r.text()
            let fixes = try (0..<r.number()).map { _ in Fix(summary: try r.text(), commands: try r.list(), snippet: try r.optional(), docs: try r.optional()) }
            let docs = try r.list()
            var examples: [[RuleExample]] = []
            for _ in 0..<2 {
                examples.append(try (0..<r.number()).map { _ in
                    let line = try r.text(), source = try r.optional()
                    var captures: [String: String] = [:]
                    for _ in 0..<(try r.number()) {
                        let key = try r.text()
                        captures[key] = try r.text()
                    }
                    return RuleExample(line: line, source: source, captures: captures)
                })
            }
            rules.append(Rule(
                id: id, title: title, category: category, severity: severity, role: role, patterns: patterns,
                continuation: continuation, message: message, explanation: explanation, fixes: fixes, docs: docs,
                matches: examples[0], nonMatches: examples[1], origin: origin, consequenceOf: try r.list(),
                testRestart: try r.flag(), failedStep: try r.flag(), lastResort: try r.flag(), catchAll: try r.flag(),
                notice: try r.flag(), categoryOutsideBuild: try r.optional()
            ))
        }
        try r.finish()
        return rules
    }

    public static func decodeKeywords(_ data: String, origin: String) throws -> [(category: String, words: [String])] {
        var r = try Reader(data, origin: origin)
        let entries = try (0..<r.number()).map { _ in (category: try r.text(), words: try r.list()) }
        try r.finish()
        return entries
    }

    public static func decodeCategories(_ data: String, origin: String) throws -> [(name: String, description: String)] {
        var r = try Reader(data, origin: origin)
        let entries = try (0..<r.number()).map { _ in (name: try r.text(), description: try r.text()) }
        try r.finish()
        return entries
    }
}
