import Foundation
import XCTest
@testable import XCMedicKit

/// `ByteRegex` must give exactly what `NSRegularExpression` gives (the first match and its captures),
/// or leave the pattern or the line to it.
final class ByteRegexTests: XCTestCase {
    /// Both engines on one text: the outcome of `CompiledRegex.match` (byte engine first) and of ICU alone.
    private func assertSame(_ regex: CompiledRegex, _ text: String, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        let fast = regex.match(text)
        let icu = regex.matchICU(text)
        switch (fast, icu) {
        case (.matched(let a), .matched(let b)):
            XCTAssertEqual(a, b, "captures differ: \(context) on: \(text)", file: file, line: line)
        case (.noMatch, .noMatch), (.timedOut, .timedOut): break
        default: XCTFail("outcomes differ (\(fast) vs ICU \(icu)): \(context) on: \(text)", file: file, line: line)
        }
        XCTAssertEqual(regex.matches(text), icu.isMatch, "matches() differs: \(context) on: \(text)", file: file, line: line)
    }

    /// Every pattern of the catalog and of the scanner's markers, on every line of the corpus and the
    /// hold-out set and on every rule example: the byte engine agrees with ICU.
    func testCatalogPatternsAgreeWithICUOnEveryCorpusLine() throws {
        let rules = try BuiltinCatalog.rules()
        // (name, regex, literal the line must hold to reach it in a scan; "" for any line)
        var regexes: [(String, CompiledRegex, String)] = []
        for rule in rules {
            for pattern in rule.patterns {
                regexes.append(("\(rule.id) /\(pattern.regex)/", try CompiledRegex(pattern.regex, ignoreCase: pattern.ignoreCase), pattern.literal))
            }
            if let c = rule.continuation {
                regexes.append(("\(rule.id) while", try CompiledRegex(c.whileRegex), ""))
                if let collect = c.collect { regexes.append(("\(rule.id) collect", try CompiledRegex(collect), "")) }
            }
        }
        regexes += [("errorLike", ScanMarkers.errorLike, ""), ("success", ScanMarkers.success, ""), ("finalSuccess", ScanMarkers.finalSuccess, "")]
        let compiled = regexes.filter { $0.1.bytes != nil }.count
        XCTAssertGreaterThan(compiled, regexes.count * 9 / 10, "most patterns should compile to the byte engine")

        var lines = Set<String>()
        for folder in ["Corpus", "Holdout"] {
            let cases = CorpusTests.folder(folder).appendingPathComponent("cases")
            for name in try FileManager.default.contentsOfDirectory(atPath: cases.path) {
                let data = try Data(contentsOf: cases.appendingPathComponent(name))
                for raw in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
                    let line = LogLine(raw: String(raw))
                    lines.insert(line.text)
                    lines.insert(line.bare)
                }
            }
        }
        for rule in rules {
            for example in rule.matches + rule.nonMatches {
                let line = LogLine(raw: example.line)
                lines.insert(line.text)
                lines.insert(line.bare)
            }
        }
        XCTAssertGreaterThan(lines.count, 5_000)
        var compared = 0
        for text in lines {
            for (name, regex, literal) in regexes where regex.bytes != nil && (literal.isEmpty || text.contains(literal)) {
                assertSame(regex, text, name)
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 50_000)
    }

    /// `.`, `\s`, `\w`, `\d`, `\b`, `$` and negated classes, on every ASCII character, as ICU reads them.
    func testASCIIClassesAreICUs() throws {
        for pattern in [#"a.b"#, #"a\sb"#, #"a\wb"#, #"a\db"#, #"a\Sb"#, #"a\Wb"#, #"a\Db"#, #"a[^x]b"#, #"a[\s,]b"#, #"a[^\w-]b"#,
                        #"a\b."#, #"a\B."#, #"a$"#, #"a.$"#, #"^a"#, #"[\w.-]+b"#] {
            let regex = try CompiledRegex(pattern)
            XCTAssertNotNil(regex.bytes, pattern)
            for c in 0..<128 {
                let ch = String(UnicodeScalar(UInt8(c)))
                for text in ["a" + ch + "b", "a" + ch, ch + "a", "a\r\n", "xa" + ch + ch] {
                    assertSame(regex, text, pattern)
                }
            }
        }
    }

    func testCapturesAlternationLazinessAndLookahead() throws {
        let cases: [(String, [String])] = [
            (#"^(?<file>[^:]+?):(?<line>\d+)(?::(?<column>\d+))?: error: (?!-\[)(?<message>.+)$"#,
             ["/a/b.swift:12:3: error: cannot find 'x' in scope", "/a/b.swift:12: error: x", "/a/b.swift:12: error: -[A b] c", "b:1: error: "]),
            (#"(?<a>x|xy)(?<b>y?)z"#, ["xyz", "xz", "axyyz", "xy"]),
            (#"(?:(?<a>a)|b)+c"#, ["abc", "bbc", "bac", "c"]),
            (#"(?<n>\w+?)(?<rest>\d*)$"#, ["abc123", "123", "a"]),
            (#"x{2,3}?(?<t>x*)"#, ["xxxxx", "x"]),
            (#"“(?<q>[^”]+)”"#, ["say “hé” now", "“”", "“open"]),
            (#"\u2026|\x{1F6AB} (?<w>.+)"#, ["… and", "🚫 no entry"]),
            (#"(?=.*fail)(?<head>\w+)"#, ["build will fail", "all good"]),
            // A branch that opens with `^` holds only at the line's start; past it the search skips to
            // the other branches' first bytes.
            (#"(?:^|[\s(])(?<w>error): |^fatal: "#, ["error: x", " error: x", "(error: x", "xerror: x", "a fatal: b", "fatal: b", "e"]),
            (#"^foo|(?<b>bar)|^(?:a|b)?z"#, ["foo", "xfoo", "xbar", "foobar", "z", "bz", "xbz", ""]),
            // Starts found by a byte search for the literal at a fixed offset (`ending ` one byte in): a first
            // occurrence that fails, overlapping occurrences, the literal at the line's start or end.
            (#"[Ss]ending (?<v>'[^']+') risks"#, ["sending 'a' here, Sending 'b' risks", "ending 'a' risks", "xSending 'q' risks",
                                                 "sending sending 'x' risks", "Sending ", "é sending 'é' risks"]),
            (#"[Cc]a(?<n>ll) to (?<w>\w+)"#, ["call to x", "Ca call to y", "all to z", "call to"]),
            // A lazy loop over one character walks to the bytes what follows it can start with: the first
            // one that fails, a line terminator or a character the loop's class refuses on the way, a
            // non-ASCII character, a class ICU decides (`\w` on `é`), no such byte at all.
            (#"^(?<file>.+?):(?<line>\d+): error: (?<m>.+)$"#, ["a:b:12: error: x", "é/ü.swift:3: error: y", "a\u{2028}b:1: error: z",
                                                              "a:1:2: error: ", "no colon", "a:1: error: x:2: error: y", ":1: error: x"]),
            (#"(?<f>[^\s:][^:]*?):(?<n>\d+)"#, ["x y:1", " :2 ab:3", "a:b", "ß:4", "a\tb:5", "::6"]),
            (#"(?<w>\w*?)(?:fail|FAIL)(?<r>.*)"#, ["testfail now", "caféfail", "FAIL", "xfaiFAIL", "none"]),
            (#"-\[(?<s>[\w.]+) (?<t>\w+)\] : (?<m>.*?(?:failed|[Ee]rror|Crash).*)$"#,
             ["-[A b] : XCTAssertTrue failed", "-[A b] : no", "-[A b] : an Error here", "-[A b] : Cra Crash", "-[A b] : é failed"]),
            (#"a.*?(?:$|;)"#, ["abc", "ab;c", "a"]),
        ]
        for (pattern, texts) in cases {
            let regex = try CompiledRegex(pattern)
            XCTAssertNotNil(regex.bytes, pattern)
            for text in texts { assertSame(regex, text, pattern) }
        }
    }

    /// Syntax outside the subset is left to ICU, which still gives the result.
    func testUnsupportedSyntaxIsLeftToICU() throws {
        for pattern in [#"(?<=a)b"#, #"a++b"#, #"(?>a)"#, #"\p{L}+"#, #"(a)\1"#, #"(?i)abc"#, #"[[a-z]&&[^c]]"#, #"(a*)*b"#, #"\Qa.b\E"#] {
            XCTAssertNil(ByteRegex(pattern), pattern)
        }
        XCTAssertNil(try CompiledRegex("abc", ignoreCase: true).bytes)
    }

    /// A Unicode-wide class on a non-ASCII character is ICU's call: the byte engine says so and
    /// `CompiledRegex` asks ICU.
    func testNonASCIIWordCharacterIsLeftToICU() throws {
        let regex = try CompiledRegex(#"\bcaf\w\b"#)
        let bytes = try XCTUnwrap(regex.bytes)
        XCTAssertEqual(bytes.firstMatch("un café noir", budgetNanoseconds: 1_000_000_000), .unsupported)
        assertSame(regex, "un café noir", "non-ASCII \\w")
        assertSame(try CompiledRegex(#"\d+"#), "٣ and 4", "Arabic-Indic digit")
        assertSame(try CompiledRegex(#"a\sb"#), "a\u{00A0}b", "no-break space")
    }

    /// `CompiledRule.match` does not try a line's bare message again when the message ends the line and the
    /// pattern cannot look before its start: on every corpus line, such a pattern that matches the message
    /// (with ICU) matches the whole line too. And the check itself flags every construct that looks back.
    func testAPatternThatCannotLookBackMatchesTheLineWhereverItMatchesItsEnd() throws {
        for pattern in [#"^a"#, #"x|^a"#, #"\bword"#, #"\Bx"#, #"\Aa"#, #"\Ga"#, #"(?<=a)b"#, #"(?<!a)b"#, #"[^a](?:^b)"#] {
            XCTAssertTrue(CompiledRegex.looksBeforeStart(pattern), pattern)
        }
        for pattern in [#"[^a]b"#, #"a\^b"#, #"[\^]b"#, #"[]^]b"#, #"\\b"#, #"(?<name>a)"#, #"a$"#, #"a(?=b)"#] {
            XCTAssertFalse(CompiledRegex.looksBeforeStart(pattern), pattern)
        }
        var regexes: [CompiledRegex] = []
        for rule in try BuiltinCatalog.rules() {
            for pattern in rule.patterns { regexes.append(try CompiledRegex(pattern.regex, ignoreCase: pattern.ignoreCase)) }
        }
        regexes = regexes.filter { !$0.looksBeforeStart }
        XCTAssertGreaterThan(regexes.count, 100)
        var checked = 0
        for folder in ["Corpus", "Holdout"] {
            let cases = CorpusTests.folder(folder).appendingPathComponent("cases")
            for name in try FileManager.default.contentsOfDirectory(atPath: cases.path) {
                let data = try Data(contentsOf: cases.appendingPathComponent(name))
                for raw in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                    let line = LogLine(raw: String(raw))
                    guard line.bareEndsText else { continue }
                    for regex in regexes where regex.matchICU(line.bare).isMatch {
                        XCTAssertTrue(regex.matchICU(line.text).isMatch, "/\(regex.pattern)/ matches the end of, not the line: \(line.text)")
                        checked += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 300)
    }

    /// A pattern that backtracks without end is stopped within the budget, like ICU's.
    func testCatastrophicBacktrackingIsStopped() throws {
        let regex = try XCTUnwrap(ByteRegex(#"^(?:a+)+$"#))
        let started = DispatchTime.now().uptimeNanoseconds
        XCTAssertEqual(regex.firstMatch(String(repeating: "a", count: 40) + "b", budgetNanoseconds: 20_000_000), .timedOut)
        XCTAssertLessThan(DispatchTime.now().uptimeNanoseconds - started, 2_000_000_000)
    }
}

private extension CompiledRegex.CaptureOutcome {
    var isMatch: Bool { if case .matched = self { return true } else { return false } }
}
