import Foundation
import Yams

/// The last resort for a failed log in which no rule names a cause: the words of an error no rule
/// knows point at a category (`Catalog/keywords.yml`, first match wins).
public struct KeywordClassifier: @unchecked Sendable { // NSRegularExpression is immutable once built
    public struct Entry {
        public var category: String
        var words: [NSRegularExpression]
        /// Per word: text every match contains, lower-cased ASCII (`ByteRegex.required`), as indices into
        /// `literals`; empty when the word has none the byte engine can name. An ASCII text without one of
        /// them cannot match the word (matched case-insensitively, an ASCII letter of the pattern matches
        /// only its two cases in ASCII text), so its regex is not run: the classifier reads thousands of
        /// errors no rule knows.
        var required: [[Int]] = []
    }

    public let entries: [Entry]
    /// Every word's required texts, found in a text in one pass (instead of a search for each per word).
    private let literals: Prefilter

    /// The built-in list (`Catalog/keywords.yml`, compiled by `Catalog/embed.sh`), its words compiled once per process.
    public static func builtin() throws -> KeywordClassifier { try cache.get() }
    private static let cache = Result {
        try KeywordClassifier(entries: CatalogCompiler.decodeKeywords(CompiledCatalog.keywords, origin: "builtin:keywords"), origin: "builtin:keywords")
    }

    public init(yaml: String, origin: String) throws {
        try self.init(entries: Self.entries(yaml: yaml, origin: origin), origin: origin)
    }

    /// Categories and their words, each word compiled (case-insensitive, `^` and `$` at line ends).
    init(entries list: [(category: String, words: [String])], origin: String) throws {
        var literals: [[UInt8]] = []
        var index: [[UInt8]: Int] = [:]
        entries = try list.map { entry in
            let compiled = try entry.words.map { pattern in
                do { return try NSRegularExpression(pattern: pattern, options: [.caseInsensitive, .anchorsMatchLines]) } catch {
                    throw RuleFileError(file: origin, problem: "invalid regular expression: \(pattern)")
                }
            }
            let required = compiled.map { regex -> [Int] in
                (ByteRegex(regex.pattern)?.required ?? [])
                    .filter { $0.count >= Prefilter.minimumLength && $0.allSatisfy { $0 < 0x80 } }.map(KeywordClassifier.lowered)
                    .map { literal in
                        if let known = index[literal] { return known }
                        literals.append(literal)
                        index[literal] = literals.count - 1
                        return literals.count - 1
                    }
            }
            return Entry(category: entry.category, words: compiled, required: required)
        }
        self.literals = Prefilter(literals: literals)
    }

    /// Reads a keywords file: a list of `category` and `words`, every word a regular expression that
    /// compiles and passes `RegexSafety`.
    static func entries(yaml: String, origin: String) throws -> [(category: String, words: [String])] {
        let root: Node?
        do { root = try Yams.compose(yaml: yaml, .basic) } catch {
            throw RuleFileError(file: origin, problem: "invalid YAML: \(error)")
        }
        guard let list = root?.sequence else {
            throw RuleFileError(file: origin, line: root?.mark?.line, problem: "expected a list of `category` and `words`")
        }
        return try list.map { node in
            guard let map = node.mapping, let category = map["category"]?.scalar?.string,
                  let words = map["words"]?.sequence, !words.isEmpty else {
                throw RuleFileError(file: origin, line: node.mark?.line, problem: "each entry needs a `category` and a non-empty list of `words`")
            }
            let patterns = try words.map { word -> String in
                guard let pattern = word.scalar?.string else {
                    throw RuleFileError(file: origin, line: word.mark?.line, problem: "each word is a regular expression")
                }
                if let risk = RegexSafety.catastrophicRisk(in: pattern) {
                    throw RuleFileError(file: origin, line: word.mark?.line, problem: risk)
                }
                do { _ = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive, .anchorsMatchLines]) } catch {
                    throw RuleFileError(file: origin, line: word.mark?.line, problem: "invalid regular expression: \(pattern)")
                }
                return pattern
            }
            return (category, patterns)
        }
    }

    /// The category the text's words point at, if any (at most the first 4 KiB of it are read).
    public func category(of text: String) -> String? {
        let subject = text.utf16.count > 4096 ? String(text.prefix(4096)) : text
        let range = NSRange(location: 0, length: (subject as NSString).length)
        let bytes = Array(subject.utf8)
        var present: [Bool]?
        if bytes.allSatisfy({ $0 < 0x80 }) {
            var found: [Int] = []
            KeywordClassifier.lowered(bytes).withUnsafeBufferPointer { text in
                if let base = text.baseAddress { literals.literalsPresent(base, from: 0, to: text.count, into: &found) }
            }
            var flags = [Bool](repeating: false, count: literals.count)
            for literal in found { flags[literal] = true }
            present = flags
        }
        for entry in entries {
            for (w, word) in entry.words.enumerated() {
                if let present, w < entry.required.count, !entry.required[w].allSatisfy({ present[$0] }) { continue }
                if word.firstMatch(in: subject, range: range) != nil { return entry.category }
            }
        }
        return nil
    }

    static func lowered(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }
}
