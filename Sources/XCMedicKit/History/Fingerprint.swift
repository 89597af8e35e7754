import Foundation

/// The identity of a cause across builds: its rule and the captures that name what failed, with what
/// moves between builds taken out (line and column numbers, checkout and DerivedData paths, temporary
/// folders, addresses, UUIDs, durations). Two builds that fail the same way on different commits or
/// runners give the same fingerprint; two different failures of one rule do not.
public struct Fingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// 16 lowercase hex digits: FNV-1a (64 bit) of the rule and the normalised captures.
    public var value: String
    public var rule: String
    /// The normalised captures, `key=value` sorted by key: what the fingerprint was made of.
    public var subject: String
    /// `Suite/test` for a test failure, which flakiness is judged on.
    public var test: String?

    public var description: String { value }

    /// Capture names whose values move between builds of the same failure.
    static let volatileKeys: Set<String> = ["line", "column", "count", "minutes", "seconds", "duration", "elapsed", "time", "pid"]
    /// Bump when normalisation changes: old and new fingerprints must not be compared.
    public static let version = 1

    public init(of finding: Finding) {
        rule = finding.rule
        var parts: [String: String]
        if finding.category == FindingCategory.testFailure, let raw = finding.captures["test"], !raw.isEmpty {
            // A test is one cause whatever its assertion said this time.
            let name = FindingCollector.bareTestName(raw)
            let suite = finding.captures["suite"].map(FindingCollector.lastComponent) ?? Fingerprint.suite(inTestName: raw)
            test = suite.map { "\($0)/\(name)" } ?? name
            parts = ["test": test!]
        } else {
            test = nil
            let captures = finding.role == .unrecognized ? ["message": finding.message] : finding.captures
            parts = [:]
            for (key, value) in captures where !Fingerprint.volatileKeys.contains(key) {
                parts[key] = Fingerprint.normalise(value)
            }
        }
        subject = parts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        value = Fingerprint.hash("v\(Fingerprint.version)\u{1F}\(rule)\u{1F}\(subject)")
    }

    /// `-[App.LoginTests testLogin]` → `LoginTests`; `LoginTests.testLogin()` → `LoginTests`.
    static func suite(inTestName raw: String) -> String? {
        var text = Substring(raw.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("-["), let space = text.firstIndex(of: " ") {
            return FindingCollector.lastComponent(String(text[text.index(text.startIndex, offsetBy: 2)..<space]))
        }
        if text.hasSuffix("()") { text = text.dropLast(2) }
        guard let cut = text.lastIndex(where: { $0 == "." || $0 == "/" }) else { return nil }
        return FindingCollector.lastComponent(String(text[..<cut]).replacingOccurrences(of: "/", with: "."))
    }

    /// A capture's value with the parts that move between builds replaced, word by word.
    public static func normalise(_ value: String) -> String {
        let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        var out: [String] = []
        out.reserveCapacity(words.count)
        for (i, word) in words.enumerated() {
            let next = i + 1 < words.count ? words[i + 1] : nil
            out.append(normaliseWord(word, next: next))
        }
        return out.joined(separator: " ")
    }

    private static let timeUnits: Set<String> = ["s", "ms", "sec", "secs", "second", "seconds", "minutes", "min"]
    private static let edge: Set<Character> = ["'", "\"", "`", "(", ")", "[", "]", "{", "}", ",", ";", "‘", "’", "“", "”", "<", ">"]

    private static func normaliseWord(_ word: Substring, next: Substring?) -> String {
        // Keep quotes and brackets around the word as they were.
        var start = word.startIndex, end = word.endIndex
        while start < end, edge.contains(word[start]) { start = word.index(after: start) }
        while end > start, edge.contains(word[word.index(before: end)]) { end = word.index(before: end) }
        guard start < end else { return String(word) }
        let core = word[start..<end]
        let replaced = normaliseCore(core, next: next)
        return String(word[word.startIndex..<start]) + replaced + String(word[end..<word.endIndex])
    }

    private static func normaliseCore(_ core: Substring, next: Substring?) -> String {
        if isPath(core) { return pathName(core) }
        if core.isUUID { return "<uuid>" }
        if core.hasPrefix("0x"), core.count > 2, core.dropFirst(2).allSatisfy(\.isHexDigit) { return "0x<address>" }
        if core.count >= 16, core.allSatisfy(\.isHexDigit), core.contains(where: \.isNumber) { return "<hash>" }
        if let next, isNumber(core), timeUnits.contains(next.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ").,;"))) {
            return "<n>"
        }
        for unit in ["ms", "s"] where core.hasSuffix(unit) && isNumber(core.dropLast(unit.count)) && core.count > unit.count {
            return "<n>\(unit)"
        }
        return String(core)
    }

    private static func isPath(_ s: Substring) -> Bool {
        (s.hasPrefix("/") || s.hasPrefix("~/") || s.hasPrefix("./") || s.hasPrefix("../") || s.hasPrefix("file://")) && s.dropFirst().contains("/")
            || (s.hasPrefix("/") && s.count > 1 && s.dropFirst().contains("."))
    }

    /// The file or folder name, without `:line:column`: checkouts, DerivedData hashes and temporary
    /// folders differ between runners, the name does not.
    private static func pathName(_ s: Substring) -> String {
        var text = s
        while text.hasSuffix("/") { text = text.dropLast() }
        var name = text.split(separator: "/").last ?? text
        // `File.swift:12:5` (and `:12:5:` as compilers print it).
        while let colon = name.lastIndex(of: ":"), name[name.index(after: colon)...].allSatisfy(\.isNumber) {
            name = name[..<colon]
        }
        return String(name)
    }

    private static func isNumber(_ s: Substring) -> Bool {
        !s.isEmpty && s.first != "." && s.allSatisfy { $0.isNumber || $0 == "." } && s.filter { $0 == "." }.count <= 1
    }

    /// FNV-1a, 64 bit: stable across runs, platforms and versions of Swift (unlike `Hasher`).
    static func hash(_ text: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
