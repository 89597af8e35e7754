import Foundation

/// A regular expression with the names of its captures, ready to run on one line.
final class CompiledRegex: @unchecked Sendable { // NSRegularExpression is immutable once built
    let regex: NSRegularExpression
    let names: [String]

    init(_ pattern: String, ignoreCase: Bool = false) throws {
        regex = try NSRegularExpression(pattern: pattern, options: ignoreCase ? [.caseInsensitive] : [])
        names = CompiledRegex.captureNames(in: pattern)
    }

    /// Longest slice of a line a regex is run on: bounds the work of any one match.
    static let maxSubjectUTF16 = 16 * 1024

    /// Named captures of the first match, or nil. Unmatched optional groups are left out.
    func captures(in text: String) -> [String: String]? {
        let ns = text as NSString
        let range = NSRange(location: 0, length: min(ns.length, CompiledRegex.maxSubjectUTF16))
        guard let match = regex.firstMatch(in: text, options: [], range: range) else { return nil }
        var result: [String: String] = [:]
        for name in names {
            let r = match.range(withName: name)
            if r.location != NSNotFound { result[name] = ns.substring(with: r) }
        }
        return result
    }

    func matches(_ text: String) -> Bool {
        let ns = text as NSString
        return regex.firstMatch(in: text, options: [], range: NSRange(location: 0, length: min(ns.length, CompiledRegex.maxSubjectUTF16))) != nil
    }

    static func captureNames(in pattern: String) -> [String] {
        var names: [String] = []
        let chars = Array(pattern.utf8)
        var i = 0
        while i + 3 < chars.count {
            if chars[i] == UInt8(ascii: "\\") { i += 2; continue }
            if chars[i] == UInt8(ascii: "("), chars[i + 1] == UInt8(ascii: "?"), chars[i + 2] == UInt8(ascii: "<"),
               chars[i + 3] != UInt8(ascii: "="), chars[i + 3] != UInt8(ascii: "!") {
                var j = i + 3
                while j < chars.count, chars[j] != UInt8(ascii: ">") { j += 1 }
                names.append(String(decoding: chars[(i + 3)..<j], as: UTF8.self))
                i = j
            }
            i += 1
        }
        return names
    }
}

/// A rule with its regexes compiled.
final class CompiledRule: @unchecked Sendable {
    let rule: Rule
    let patterns: [CompiledRegex]
    let continuation: CompiledRegex?
    let collect: CompiledRegex?
    let captureNames: Set<String>

    init(_ rule: Rule) throws {
        self.rule = rule
        patterns = try rule.patterns.map { try CompiledRegex($0.regex, ignoreCase: $0.ignoreCase) }
        captureNames = Set(patterns.flatMap(\.names))
        continuation = try rule.continuation.map { try CompiledRegex($0.whileRegex) }
        collect = try rule.continuation?.collect.map { try CompiledRegex($0) }
    }

    func renderedFixes(_ captures: [String: String]) -> [Fix] {
        rule.fixes.map { fix in
            Fix(summary: Scanner.render(fix.summary, captures, names: captureNames),
                commands: fix.commands.map { Scanner.render($0, captures, names: captureNames) },
                snippet: fix.snippet.map { Scanner.render($0, captures, names: captureNames) },
                docs: fix.docs)
        }
    }

    /// Captures of the first pattern that matches `line`.
    ///
    /// The literal is looked for in the line as read, like the prefilter does: a literal may include the
    /// formatter glyph that stripping removes (`✖ ` of a failing test in xcbeautify output).
    func match(_ line: LogLine) -> [String: String]? {
        for (index, pattern) in patterns.enumerated() where line.raw.contains(rule.patterns[index].literal) {
            if let captures = pattern.captures(in: line.text) { return captures }
        }
        return nil
    }
}

/// Rules in priority order (user rules first, specific before generic) with one prefilter over all
/// their literals and the scanner's own markers.
public final class RuleSet: @unchecked Sendable {
    public let rules: [Rule]
    let compiled: [CompiledRule]
    let prefilter: Prefilter
    /// For each prefilter literal: the rules (indices into `compiled`) with a pattern on it.
    let rulesByLiteral: [[Int]]
    /// Literal indices of the scanner's own markers.
    let markerLiterals: Set<Int>

    public convenience init(rules: [Rule]) throws {
        try self.init(rules: rules, markers: ScanMarkers.literals)
    }

    init(rules: [Rule], markers: [String]) throws {
        self.rules = rules
        compiled = try rules.map(CompiledRule.init)
        var literalIndex: [String: Int] = [:]
        var literals: [[UInt8]] = []
        var byLiteral: [[Int]] = []
        func index(of literal: String) -> Int {
            if let i = literalIndex[literal] { return i }
            literalIndex[literal] = literals.count
            literals.append(Array(literal.utf8))
            byLiteral.append([])
            return literals.count - 1
        }
        for (r, rule) in rules.enumerated() {
            for pattern in rule.patterns {
                let i = index(of: pattern.literal)
                if !byLiteral[i].contains(r) { byLiteral[i].append(r) }
            }
        }
        var markerSet = Set<Int>()
        for marker in markers { markerSet.insert(index(of: marker)) }
        prefilter = Prefilter(literals: literals)
        rulesByLiteral = byLiteral
        markerLiterals = markerSet
    }

    /// The prefilter's literals, one per line (`xcmedic rules --literals`).
    public var literals: [String] { prefilter.literals.map { String(decoding: $0, as: UTF8.self) } }

    /// The built-in catalog alone, compiled once.
    public static func builtin() throws -> RuleSet { try RuleSet(rules: BuiltinCatalog.rules()) }
}

/// Lines the scanner looks at on its own, whatever the rules: errors no rule knows, and the marks of a
/// build or test run that succeeded.
enum ScanMarkers {
    static let errorLiterals = ["rror:", "FAILED **", "\u{274C}", "[!] ", "rror :"]
    static let successLiterals = ["SUCCEEDED **", "Build complete!", "Build succeeded", " passed after ", "with 0 failures"]
    static var literals: [String] { errorLiterals + successLiterals }

    /// An error no rule may claim silently.
    static let errorLike = try! CompiledRegex(
        #"(?:^|: )(?:fatal )?error ?: |^Fatal error: |^\*\* [A-Z][A-Z -]* FAILED \*\*|^\[!\] |^error$"#
    )
    static let success = try! CompiledRegex(
        #"^\*\* [A-Z][A-Z -]* SUCCEEDED \*\*|^Build complete!|^Build succeeded|^Test run with \d+ tests? (?:in \d+ suites? )?passed after|^Executed \d+ tests?, with 0 failures|^Test Suite '.*' passed"#
    )
}
