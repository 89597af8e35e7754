import Foundation

/// The level a compiler-style header or a formatter's glyph gives a line.
public enum LineLevel: String, Sendable {
    case error, warning, note
}

/// Where a log line says a diagnostic is.
public struct SourceLocation: Sendable, Equatable, Hashable {
    public var file: String
    public var line: Int?
    public var column: Int?

    public init(file: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:col`, as compilers print it (the parts that are known).
    public var rendered: String {
        var out = file
        if let line {
            out += ":\(line)"
            if let column { out += ":\(column)" }
        }
        return out
    }
}

/// One log line with the wrappers of CI systems and formatters taken off, ready for rule matching.
///
/// Wrappers removed, in any combination: GitHub Actions timestamps (`2024-05-01T10:00:00.1234567Z `)
/// and workflow commands (`##[error]`, `::error file=…::`), fastlane's `[12:00:00]: ` and its `▸ `,
/// other CI timestamps (`[2024-05-01 10:00:00]`, `10:00:00.123 `), a `tool[pid:tid] ` prefix with the
/// date Apple's logging puts before it, a Markdown quote (`> `) of a pasted log, xcpretty/xcbeautify
/// glyphs (`❌ `, `⚠️ `, `✖ `, `▸ `, SF Symbols, and `[x] ` for `❌ ` without colours), the box
/// drawing of a Swift diagnostic whose header line is not there (`  |- error: `), and leading white
/// space. The raw text is kept for excerpts.
public struct LogLine: Sendable {
    public var raw: String
    /// The line as rules see it.
    public var text: String
    /// Level implied by a formatter glyph (`❌` error, `⚠️` warning) or a CI annotation (`##[error]`), if any.
    public var glyphLevel: LineLevel?
    /// The compiler-style header (`file:line:col: error: `), if the line has one.
    public var header: DiagnosticHeader?
    /// The line was a diagnostic inside a Swift diagnostic box (`  |- error: …`, `  `- note: …`),
    /// with the box drawing taken off `text`.
    public var boxed: Bool
    /// The message alone: without the compiler header and without a leading `error: ` / `warning: `.
    /// Rules that do not match `text` are tried on it, so a message pasted on its own, or cut from
    /// its header, is still recognised.
    public var bare: String
    /// Level a bare `error: ` / `warning: ` / `note: ` at the start of `text` gives.
    public var prefixLevel: LineLevel?

    public init(raw: String) {
        self.raw = raw
        var glyph: LineLevel?
        var boxed = false
        text = LogLine.withoutTrailingBlanks(
            LogLine.unescapeHTML(LogLine.strip(LogLine.withoutLogLinks(LogLine.withoutPastedColours(raw)), glyph: &glyph, boxed: &boxed)))
        glyphLevel = glyph
        self.boxed = boxed
        header = DiagnosticHeader.parse(text, glyphLevel: glyph)
        if let header {
            bare = header.message
            prefixLevel = nil
        } else if let (rest, level) = DiagnosticHeader.dropLevelPrefix(text) {
            bare = rest
            prefixLevel = level
        } else if let level = DiagnosticHeader.dropToolLevelPrefix(text)?.1 {
            // `ld: warning: `, `xcodebuild: error: `, `clang: note: `: a tool's name, then the level. Rules
            // name these tools in their patterns, so the text stays whole.
            bare = text
            prefixLevel = level
        } else if let (rest, level) = LogLine.dropXcodeIssueType(text) {
            bare = rest
            prefixLevel = level
        } else {
            bare = text
            prefixLevel = nil
        }
    }

    /// `Swift Compiler Error (Xcode): message`, `Error (Xcode): `, `Uncategorized (Xcode): `: Flutter prints an issue of
    /// the result bundle after its type. The message alone, and the level when the type names one.
    static func dropXcodeIssueType(_ text: String) -> (String, LineLevel?)? {
        let u = text.utf8
        guard let first = u.first, (65...90).contains(first), let close = u.prefix(48).firstIndex(of: 41) else { return nil } // ')'
        let type = text[..<close]
        guard type.hasSuffix(" (Xcode"), text[close...].hasPrefix("): "),
              type.dropLast(7).allSatisfy({ $0.isLetter || $0 == " " }) else { return nil }
        let words = type.dropLast(7).split(separator: " ")
        let level: LineLevel? = words.contains("Error") || words.contains("Errors") ? .error : words.contains("Warning") ? .warning : nil
        return (String(text[text.utf8.index(close, offsetBy: 3)...]), level)
    }

    /// Without the spaces and tabs a paste left at the end of the line: a rule's pattern ends where the message does.
    static func withoutTrailingBlanks(_ text: String) -> String {
        guard let last = text.utf8.last, last == 32 || last == 9 else { return text }
        var s = Substring(text)
        while let c = s.utf8.last, c == 32 || c == 9 { s = s.dropLast() }
        return String(s)
    }

    /// The message of a list item a person pasted (`1. Type 'X' does not conform to protocol 'Y'`, `- Cannot find
    /// 'x' in scope`): rules that match neither the line nor its bare message are tried on it. It is not the bare
    /// message, because a numbered line is often the tool's own (a compiler's stack dump: `1.\tWhile emitting IR`).
    /// Also a message after its level written as a word, without a colon (`error Command failed with exit code 1.`,
    /// `error call to consteval function …`): yarn and the React Native CLI print levels so, and people paste a
    /// message after the level they read on screen.
    var listItem: String? {
        guard header == nil, prefixLevel == nil, let first = text.utf8.first else { return nil }
        if first == 101 { return LogLine.dropLevelWord(text) } // `e`
        guard (48...57).contains(first) || first == 45 || first == 42 else { return nil }
        return LogLine.dropListMarker(text)
    }

    /// `error ` then a letter: the rest. Not `error:` (a level prefix, handled before) nor `error.` or `errors`.
    static func dropLevelWord(_ text: String) -> String? {
        let u = text.utf8
        guard u.count > 7, u.starts(with: "error ".utf8) else { return nil }
        let next = u[u.index(u.startIndex, offsetBy: 6)]
        guard (65...90).contains(next) || (97...122).contains(next) else { return nil }
        return String(text.dropFirst(6))
    }

    /// `1. `, `12) `, `- ` or `* ` before a message that opens with a letter or a quote: an item of a list a
    /// person pasted. Not `0.\t` (a stack dump's frame list) and not a marker alone.
    static func dropListMarker(_ text: String) -> String? {
        let u = text.utf8
        guard let first = u.first else { return nil }
        var i = u.startIndex
        if first == 45 || first == 42 { // '-', '*'
            i = u.index(after: i)
        } else {
            var digits = 0
            while i != u.endIndex, (48...57).contains(u[i]), digits < 3 { i = u.index(after: i); digits += 1 }
            guard digits > 0, i != u.endIndex, u[i] == 46 || u[i] == 41 else { return nil } // '.', ')'
            i = u.index(after: i)
        }
        guard i != u.endIndex, u[i] == 32 else { return nil }
        i = u.index(after: i)
        guard i != u.endIndex else { return nil }
        let c = u[i]
        guard (65...90).contains(c) || (97...122).contains(c) || c == 39 || c == 34 else { return nil }
        return String(text[i...])
    }

    /// A message a structured reader recorded with its level and location (an activity log's issue, a
    /// result bundle's): the header comes from the record, not from parsing text, and the message is
    /// matched as it is (its own text may still carry a prefix a tool printed).
    public init(message raw: String, level: LineLevel?, location: SourceLocation?) {
        self.init(raw: raw)
        guard let level else { return }
        if let location {
            header = DiagnosticHeader(location: location, level: level, message: header?.message ?? bare)
            bare = header!.message
            prefixLevel = nil
        } else if header == nil {
            prefixLevel = level
        }
    }

    /// A line inside a Swift-style diagnostic box (` 12 | code`, `    |  `- note: ...`): it repeats
    /// the header above it, so it is context, never a finding of its own while that header is there.
    public var isBoxLine: Bool {
        if boxed { return true }
        var scalars = text.unicodeScalars[...]
        while let c = scalars.first, ("0"..."9").contains(c) || c == " " { scalars = scalars.dropFirst() }
        guard let mark = scalars.first else { return false }
        if mark == "|" { return !isTableRow }
        return mark == ":" && scalars.count == 1 // the elision line between excerpts
    }

    /// A row of a table a CI service or fastlane prints (`| x | xcode-archive@2.4.15 (exit code: 1) | 271 sec |`):
    /// it opens and closes with `|` and has cells between, where a diagnostic box line holds one `|` before code.
    var isTableRow: Bool {
        var u = text.utf8[...]
        while let last = u.last, last == 32 || last == 9 || last == 13 { u = u.dropLast() }
        while let first = u.first, first == 32 || first == 9 { u = u.dropFirst() }
        guard u.count > 4, u.first == 124, u.last == 124 else { return false }
        return u.lazy.filter { $0 == 124 }.count >= 3
    }

    /// A table's title row, `|    Lane Context    |`: one cell between the line's first and last byte (fastlane's
    /// tables). It starts like a box line, but it is a line of its own.
    public var isTableTitle: Bool {
        var u = text.utf8[...]
        while let last = u.last, last == 32 || last == 9 || last == 13 { u = u.dropLast() }
        guard u.count > 2, u.first == 124, u.last == 124 else { return false }
        return u.dropFirst().dropLast().allSatisfy { $0 != 124 } && u.contains { $0 != 124 && $0 != 32 }
    }

    /// The bare message is the end of the line's text (a header or a level prefix taken off its front).
    var bareEndsText: Bool {
        text.utf8.count > bare.utf8.count && text.utf8.suffix(bare.utf8.count).elementsEqual(bare.utf8)
    }

    /// Level from the header, a bare level prefix or the glyph.
    public var level: LineLevel? { header?.level ?? prefixLevel ?? glyphLevel }

    /// A log copied out of a web page keeps its HTML entities (`&quot;`, `&apos;`, `&#39;`, `&lt;`).
    static func unescapeHTML(_ text: String) -> String {
        guard LogLine.has(UInt8(ascii: "&"), in: text.utf8), text.contains(";") else { return text }
        var out = text
        for (entity, character) in [("&quot;", "\""), ("&apos;", "'"), ("&#39;", "'"), ("&#x27;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")] {
            out = out.replacingOccurrences(of: entity, with: character)
        }
        return out
    }

    static func strip(_ raw: String, glyph: inout LineLevel?) -> String {
        var boxed = false
        return strip(raw, glyph: &glyph, boxed: &boxed)
    }

    static func strip(_ raw: String, glyph: inout LineLevel?, boxed: inout Bool) -> String {
        var s = Substring(raw)
        var changed = true
        while changed {
            changed = false
            let trimmed = s.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.startIndex != s.startIndex { s = trimmed; changed = true }
            // Every wrapper but a tool's `name[pid:tid] ` starts with one of a few bytes: a line that
            // starts otherwise (most lines: a path, a word) skips their tests.
            guard let first = s.utf8.first else { break }
            if !LogLine.wrapperFirstBytes[Int(first)] {
                // fastlane's `INFO [date]: ` starts with an upper-case letter, never a wrapper's first byte: tried here only.
                if (65...90).contains(first), let (rest, level) = dropFastlaneLevelTime(s) {
                    s = rest
                    if let level, glyph == nil { glyph = level }
                    changed = true
                    continue
                }
                if let rest = dropToolPrefix(s) { s = rest; changed = true; continue }
                if let rest = dropRunViewColumns(s) { s = rest; changed = true; continue }
                if first == 98 || first == 115 || first == 101 || first == 99, LogLine.has(9, in: s.utf8, within: 8),
                   let rest = dropDateTime(s) { s = rest; changed = true; continue } // Bamboo's `build\t…`
                continue
            }
            if let rest = dropGitHubTimestamp(s) { s = rest; changed = true; continue }
            if let rest = dropBuildKitStep(s) { s = rest; changed = true; continue }
            if let rest = dropFastlaneTime(s) { s = rest; changed = true; continue }
            // `##[error]` / `::error::` and `[ERROR] ` (they start differently, so one try covers both).
            if let (rest, level) = dropWorkflowCommand(s) ?? dropLevelTag(s) {
                s = rest
                if let level, glyph == nil { glyph = level }
                changed = true
                continue
            }
            if let rest = dropBracketedTimestamp(s) ?? dropFlutterElapsed(s) { s = rest; changed = true; continue }
            if let rest = dropOrphanColour(s) { s = rest; changed = true; continue }
            if let rest = dropClockTime(s) { s = rest; changed = true; continue }
            if let rest = dropDateTime(s) { s = rest; changed = true; continue }
            if let rest = dropToolPrefix(s) { s = rest; changed = true; continue }
            // A Markdown quote: `> `, or `>` right before a bracketed prefix (`>[16:15:42]: …`, Markdown needs no space).
            if s.hasPrefix("> ") || s.hasPrefix(">[") || s == ">" { s = s.dropFirst(); changed = true; continue }
            // (Before a box's corner: `` `error: …` `` is a quoted line, `` `- error: `` a corner.)
            if let rest = dropInlineCode(s) { s = rest; changed = true; continue }
            if let rest = dropBox(s) {
                s = rest
                boxed = true
                changed = true
                continue
            }
            // A compiler header cut before its colon, the file's name lost in the paste (`: error: …`).
            if s.hasPrefix(": "), DiagnosticHeader.dropLevelPrefix(s.dropFirst(2)) != nil { s = s.dropFirst(2); changed = true; continue }
            // xcbeautify without colours writes `[x] ` where it would write `❌ `. (Its `[!] ` for
            // warnings stays: CocoaPods starts its errors with `[!] `.)
            if s.hasPrefix("[x] ") {
                s = s.dropFirst(4)
                if glyph == nil { glyph = .error }
                changed = true
                continue
            }
            if let first = s.unicodeScalars.first, let (rest, level) = dropGlyph(s, first: first) {
                s = rest
                if let level, glyph == nil { glyph = level }
                changed = true
                continue
            }
            // xcpretty's `▸ ` after a CI's prefix, in a log that lost its encoding: `? ` (Bamboo, Jenkins
            // in ASCII) or `â–¸ ` (UTF-8 read as Windows-1252). Only after a prefix came off: a line of
            // its own may start with `? ` (git's untracked files).
            if s.startIndex != raw.startIndex, let rest = dropMangledArrow(s) { s = rest; changed = true }
        }
        return String(s)
    }

    /// Whether `byte` is among the first `limit` bytes of `utf8`: `memchr` on a native string's storage.
    static func has<C: Collection>(_ byte: UInt8, in utf8: C, within limit: Int = .max) -> Bool where C.Element == UInt8 {
        if let found = utf8.withContiguousStorageIfAvailable({ buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return memchr(base, Int32(byte), min(buffer.count, limit)) != nil
        }) {
            return found
        }
        return utf8.prefix(limit).contains(byte)
    }

    /// First bytes of the wrappers `strip` takes off, other than an upper-case letter (fastlane's
    /// `INFO [`) and a tool name: a digit (timestamps, clock times), `[`, `#`, `:`, `>`, `|`, `` ` ``,
    /// and the lead byte of a non-ASCII glyph.
    private static let wrapperFirstBytes: [Bool] = (0..<256).map { b in
        (48...57).contains(b) || b >= 0xC0 || [91, 35, 58, 62, 124, 96, 63].contains(b)
    }

    /// `2024-05-01T10:00:00.1234567Z ` (GitHub Actions raw logs).
    private static func dropGitHubTimestamp(_ s: Substring) -> Substring? {
        let u = s.utf8
        guard u.count > 21 else { return nil }
        var i = u.startIndex
        func digit(_ n: Int) -> Bool {
            for _ in 0..<n {
                guard i < u.endIndex, (48...57).contains(u[i]) else { return false }
                i = u.index(after: i)
            }
            return true
        }
        func char(_ c: UInt8) -> Bool {
            guard i < u.endIndex, u[i] == c else { return false }
            i = u.index(after: i)
            return true
        }
        guard digit(4), char(45), digit(2), char(45), digit(2), char(84), digit(2), char(58), digit(2), char(58), digit(2) else { return nil }
        if char(46) { while i < u.endIndex, (48...57).contains(u[i]) { i = u.index(after: i) } }
        guard char(90) else { return nil }
        guard i < u.endIndex, u[i] == 32 else { return i == u.endIndex ? s[i...] : nil }
        return s[u.index(after: i)...]
    }

    /// `Build\tRun tests\t2024-05-01T10:00:00.1234567Z ` (`gh run view --log` and `--log-failed`: the job's and the
    /// step's names, each ended by a tab, before GitHub's timestamp; the first line of a step's log may carry a byte
    /// order mark, also as code page 437 shows it, `∩╗┐`). Leaves the timestamp for `dropGitHubTimestamp`.
    static func dropRunViewColumns(_ s: Substring) -> Substring? {
        let u = s.utf8
        // (Most lines have no tab: `memchr` says so before the columns are looked for.)
        guard LogLine.has(9, in: u, within: 160), let job = u.prefix(160).firstIndex(of: 9) else { return nil }
        let afterJob = u.index(after: job)
        guard let step = u[afterJob...].prefix(160).firstIndex(of: 9) else { return nil }
        var rest = s[u.index(after: step)...]
        if rest.hasPrefix("\u{FEFF}") { rest = rest.dropFirst() } else if rest.hasPrefix("∩╗┐") { rest = rest.dropFirst(3) }
        guard let first = rest.utf8.first, (48...57).contains(first), dropGitHubTimestamp(rest) != nil else { return nil }
        return rest
    }

    /// `#27 204.1 ` (Docker BuildKit's plain progress: the step's number and the seconds since it started, before each
    /// line a `RUN swift build` printed).
    static func dropBuildKitStep(_ s: Substring) -> Substring? {
        let u = s.utf8
        guard u.first == 35 else { return nil } // '#'
        var i = u.index(after: u.startIndex)
        func digits(_ most: Int) -> Int {
            var n = 0
            while n < most, i != u.endIndex, (48...57).contains(u[i]) { i = u.index(after: i); n += 1 }
            return n
        }
        guard digits(4) > 0, i != u.endIndex, u[i] == 32 else { return nil }
        i = u.index(after: i)
        guard digits(5) > 0, i != u.endIndex, u[i] == 46 else { return nil } // '.'
        i = u.index(after: i)
        guard digits(3) > 0 else { return nil }
        guard i != u.endIndex else { return s[i...] }
        guard u[i] == 32 else { return nil }
        return s[u.index(after: i)...]
    }

    /// `[12:00:00]: ` (fastlane).
    private static func dropFastlaneTime(_ s: Substring) -> Substring? {
        let u = Array(s.utf8.prefix(12))
        guard u.count >= 11, u[0] == 91, u[3] == 58, u[6] == 58, u[9] == 93, u[10] == 58 else { return nil }
        for k in [1, 2, 4, 5, 7, 8] where !(48...57).contains(u[k]) { return nil }
        let rest = s.utf8.dropFirst(u.count >= 12 && u[11] == 32 ? 12 : 11)
        return Substring(rest)
    }

    /// `INFO [2018-11-07 14:45:28.70]: ` (fastlane with `--verbose` or on CI, and tools that wrap it: deliver's
    /// Transporter output), also with DEBUG, WARN, ERROR and FATAL; ERROR and FATAL give the line an error's level.
    private static func dropFastlaneLevelTime(_ s: Substring) -> (Substring, LineLevel?)? {
        guard let first = s.utf8.first, (65...90).contains(first) else { return nil } // an upper-case letter
        for level in ["INFO [", "DEBUG [", "WARN [", "ERROR [", "FATAL ["] where s.hasPrefix(level) {
            let u = Array(s.utf8.dropFirst(level.utf8.count).prefix(32))
            // yyyy-MM-dd HH:mm:ss, then optional fraction digits, then `]: `
            guard u.count >= 22, u[4] == 45, u[7] == 45, u[10] == 32, u[13] == 58, u[16] == 58 else { return nil }
            for k in [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18] where !(48...57).contains(u[k]) { return nil }
            var i = 19
            if i < u.count, u[i] == 46 { i += 1; while i < u.count, (48...57).contains(u[i]) { i += 1 } }
            guard i + 1 < u.count, u[i] == 93, u[i + 1] == 58 else { return nil }
            i += 2
            if i < u.count, u[i] == 32 { i += 1 }
            return (Substring(s.utf8.dropFirst(level.utf8.count + i)), level == "ERROR [" || level == "FATAL [" ? .error : nil)
        }
        return nil
    }

    /// GitHub Actions' `##[error]` / `##[warning]` / `##[group]` and workflow commands
    /// `::error file=…,line=…::` / `::warning::` / `::notice::`, with the level they give.
    private static func dropWorkflowCommand(_ s: Substring) -> (Substring, LineLevel?)? {
        if s.hasPrefix("##[") {
            guard let close = s.firstIndex(of: "]") else { return nil }
            let name = s[s.index(s.startIndex, offsetBy: 3)..<close].lowercased()
            guard ["error", "warning", "notice", "debug", "group", "endgroup", "command", "section"].contains(name) else { return nil }
            return (s[s.index(after: close)...], name == "error" ? .error : name == "warning" ? .warning : nil)
        }
        if s.hasPrefix("::") {
            let body = s.dropFirst(2)
            for (name, level) in [("error", LineLevel.error), ("warning", .warning), ("notice", .note)] where body.hasPrefix(name) {
                let after = body.dropFirst(name.count)
                guard let first = after.first, first == " " || first == ":" else { return nil }
                guard let end = after.range(of: "::") else { return nil }
                return (after[end.upperBound...], level)
            }
        }
        return nil
    }

    /// `[2024-05-01 10:00:00]`, `[2024-05-01T10:00:00.123Z]`, `[10:00:00]` or `[10:00:00.123]` then a
    /// space (CI services, Jenkins' timestamper, build scripts). TeamCity puts its block after the time,
    /// with no space in its web log (`[09:05:31][Step 2/5] `, `[15:52:22][:xcodebuild] `) and after a
    /// status and a tab in a downloaded one (`[14:36:30] :\t [Step 1/5] `, `[14:36:30]W:\t [Step 1/5] `):
    /// the block comes off with the time.
    private static func dropBracketedTimestamp(_ s: Substring) -> Substring? {
        let u = Array(s.utf8.prefix(40))
        guard u.count >= 10, u[0] == 91 else { return nil }
        guard let close = u.firstIndex(of: 93), close >= 9 else { return nil }
        let inner = u[1..<close]
        // digits, '-', ':', '.', 'T', 'Z', ' ', '+', ',' only, with at least two ':'
        guard inner.allSatisfy({ (48...57).contains($0) || [45, 58, 46, 84, 90, 32, 43, 44].contains($0) }),
              inner.filter({ $0 == 58 }).count >= 2, (48...57).contains(inner.first ?? 0) else { return nil }
        var rest = s.utf8.dropFirst(close + 1)
        if rest.first == 91 { return dropTeamCityBlock(rest) ?? Substring(rest) } // `][Step 2/5] `
        if let status = rest.first, rest.dropFirst().first == 58, status == 32 || (65...90).contains(status) || (97...122).contains(status),
           let tab = rest.dropFirst(2).first, tab == 9 { // ` :\t`, `W:\t`, `E:\t`, `i:\t`
            let body = Substring(rest.dropFirst(2)).drop(while: { $0 == " " || $0 == "\t" })
            return body.first == "[" ? dropTeamCityBlock(body.utf8) ?? body : body
        }
        if rest.first == 58 { rest = rest.dropFirst() } // `]:`
        guard rest.first == 32 || rest.first == 9 || rest.isEmpty else { return nil }
        return Substring(rest)
    }

    /// TeamCity's block name in brackets and the white space after it (`[Step 2/5] `, `[:xcodebuild] `,
    /// `[Build/app.msbuild] `): anything but a bracket, up to 100 bytes.
    private static func dropTeamCityBlock(_ u: Substring.UTF8View) -> Substring? {
        guard u.first == 91 else { return nil }
        var i = u.index(after: u.startIndex), n = 0
        while i != u.endIndex, u[i] != 93, u[i] != 91, n < 100 { i = u.index(after: i); n += 1 }
        guard n > 0, i != u.endIndex, u[i] == 93 else { return nil }
        let after = u.index(after: i)
        guard after == u.endIndex || u[after] == 32 || u[after] == 9 else { return nil }
        return Substring(u[after...]).drop(while: { $0 == " " || $0 == "\t" })
    }

    /// `flutter -v`'s elapsed time before each line: `[  +12 ms] `, `[+3686 ms] `, or `[        ] ` (nothing elapsed).
    private static func dropFlutterElapsed(_ s: Substring) -> Substring? {
        let u = Array(s.utf8.prefix(24))
        guard u.count >= 11, u[0] == 91 else { return nil }
        var i = 1
        while i < u.count, u[i] == 32 { i += 1 }
        if i < u.count, u[i] == 43 { // `+`, digits, ` ms`
            i += 1
            let digits = i
            while i < u.count, (48...57).contains(u[i]) { i += 1 }
            guard i > digits, i + 2 < u.count, u[i] == 32, u[i + 1] == 109, u[i + 2] == 115 else { return nil }
            i += 3
        } else if i < 9 {
            return nil // `[ ]` and the like: not the fixed-width empty form
        }
        guard i + 1 < u.count, u[i] == 93, u[i + 1] == 32 else { return nil }
        return Substring(s.utf8.dropFirst(i + 2))
    }

    /// The line without the colour codes a paste left in it, anywhere in the line: a code whose escape byte became
    /// U+FFFD (`\u{FFFD}[31mError:\u{FFFD}[0m protobuf-swift: failed`), one in caret notation as `cat -v` and `less`
    /// show it (`^[[31m`), and codes whose escape byte a web page dropped (`Error:[0m`, `[33m0.054[0m seconds`),
    /// these only when the line has a reset code too (`[0m`, `[m`, `[39m`), as a coloured span does: a lone
    /// `[5m` may be a duration. `LogReader` already drops codes whose escape byte is there.
    static func withoutPastedColours(_ raw: String) -> String {
        guard LogLine.has(91, in: raw.utf8) else { return raw } // `[`
        var raw = raw
        return raw.withUTF8 { u in LogLine.withoutPastedColours(u) } ?? raw
    }

    private static func withoutPastedColours(_ u: UnsafeBufferPointer<UInt8>) -> String? {
        // The end of a colour code from `i` (just after its `[`: parameters, then `m`), and whether it only resets
        // (`0`, `22`, `39`, `49`, or none). An orphan code needs a parameter: `a[m]` is an index.
        func code(_ i: Int, orphan: Bool) -> (end: Int, reset: Bool)? {
            var j = i, digits = 0, value = 0, reset = true
            while j < u.count, j - i <= 12 {
                let b = u[j]
                if (48...57).contains(b) {
                    digits += 1
                    value = value * 10 + Int(b - 48)
                } else if b == 59 || b == 109 { // `;`, `m`
                    if ![0, 22, 39, 49].contains(value) { reset = false }
                    value = 0
                    if b == 109 { return orphan && digits == 0 ? nil : (j + 1, reset) }
                } else {
                    return nil
                }
                j += 1
            }
            return nil
        }
        var orphans = false
        for i in u.indices where u[i] == 91 {
            if let (_, reset) = code(i + 1, orphan: true), reset { orphans = true; break }
        }
        var out: [UInt8]? // made at the first code: most lines have none
        var i = 0
        while i < u.count {
            var end: Int?
            // U+FFFD (EF BF BD) or `^[` before `[`: an escape byte a paste replaced.
            if i + 3 < u.count, u[i] == 0xEF, u[i + 1] == 0xBF, u[i + 2] == 0xBD, u[i + 3] == 91 {
                end = code(i + 4, orphan: false)?.end
            } else if i + 2 < u.count, u[i] == 94, u[i + 1] == 91, u[i + 2] == 91 {
                end = code(i + 3, orphan: false)?.end
            } else if orphans, u[i] == 91 {
                end = code(i + 1, orphan: true)?.end
            }
            if let end {
                if out == nil { out = Array(u[..<i]) }
                i = end
                continue
            }
            out?.append(u[i])
            i += 1
        }
        return out.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The line without the links a copy of GitHub Actions' web log leaves in it when pasted into an issue: a run of
    /// digits became a Markdown link to a line of the job's log (`iOS 1[8](https://github.com/o/r/actions/runs/1/job/2#step:4:9).2`,
    /// `xcodebuild[6712:2[9](https://github.com/o/r/actions/runs/1/job/2?pr=3#step:8:10)051]`); the digits stay.
    static func withoutLogLinks(_ raw: String) -> String {
        guard LogLine.has(93, in: raw.utf8), Bytes.contains(raw, LogLine.logLinkOpening) else { return raw } // `]`
        let u = Array(raw.utf8)
        let opening = LogLine.logLinkOpening
        var out: [UInt8] = []
        out.reserveCapacity(u.count)
        var i = 0, copied = 0
        while i + opening.count <= u.count {
            guard u[i] == 93, u[i..<(i + opening.count)].elementsEqual(opening) else { i += 1; continue }
            // `[digits]` before, `(url)` after, the URL a job's log line (`/actions/runs/`, `#step:N:M`).
            var start = i - 1
            while start >= copied, (48...57).contains(u[start]) { start -= 1 }
            guard start >= copied, start < i - 1, u[start] == 91,
                  let close = u[(i + 2)...].firstIndex(where: { $0 == 41 || $0 == 32 }), u[close] == 41 else { i += 1; continue }
            let url = String(decoding: u[(i + 2)..<close], as: UTF8.self)
            guard url.contains("/actions/runs/"), url.contains("#step:") else { i += 1; continue }
            out += u[copied..<start]
            out += u[(start + 1)..<i]
            copied = close + 1
            i = copied
        }
        guard copied > 0 else { return raw }
        out += u[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    private static let logLinkOpening = Array("](https://github.com/".utf8)

    /// A colour code whose escape byte a paste lost: `[31merror: No dSYM paths provided`, `[31;1mfailing
    /// tests (exit status 65)` (the escape byte is not printable, so web pages and copies drop it).
    private static func dropOrphanColour(_ s: Substring) -> Substring? {
        let u = s.utf8
        guard u.first == 91 else { return nil }
        var i = u.index(after: u.startIndex), digits = 0
        while i != u.endIndex, digits <= 8, (48...57).contains(u[i]) || u[i] == 59 { digits += 1; i = u.index(after: i) }
        guard digits > 0, digits <= 8, i != u.endIndex, u[i] == 109 else { return nil } // `m`
        return Substring(u[u.index(after: i)...])
    }

    /// A logger's level in brackets before the text: `[ERROR] `, `[WARN] `, `[INFO] ` (Titanium, appium,
    /// Gradle-style tools that drive xcodebuild), also with a colon (`[warning]: ` of notarization scripts), with
    /// the level it gives.
    private static func dropLevelTag(_ s: Substring) -> (Substring, LineLevel?)? {
        guard s.hasPrefix("[") else { return nil }
        for (tag, level) in levelTags where s.hasPrefix(tag) {
            var rest = s.dropFirst(tag.count)
            if rest.first == ":" { rest = rest.dropFirst() }
            guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
            rest = rest.drop(while: { $0 == " " || $0 == "\t" })
            return (rest, level)
        }
        return (dropPhaseTag(s) ?? dropStreamTag(s)).map { ($0, nil) }
    }

    /// Flutter's devicelab echoes a task's processes under the task's name and the stream:
    /// `[native_ui_tests_macos] [STDOUT] stderr: ** TEST FAILED **` (the name may be missing, or a timestamp
    /// in its place, already taken off). The name is only taken with a stream tag after it.
    private static func dropStreamTag(_ s: Substring) -> Substring? {
        var rest = s
        if !(rest.hasPrefix("[STDOUT]") || rest.hasPrefix("[STDERR]")) {
            let u = rest.utf8
            var i = u.index(after: u.startIndex)
            while i != u.endIndex, u[i] != 0x5D {
                let b = u[i]
                guard (97...122).contains(b) || (65...90).contains(b) || (48...57).contains(b) || b == 0x5F || b == 0x2D || b == 0x2E else { return nil }
                i = u.index(after: i)
            }
            guard i != u.endIndex, i != u.index(after: u.startIndex) else { return nil }
            rest = Substring(u[u.index(after: i)...]).drop(while: { $0 == " " })
            guard rest.hasPrefix("[STDOUT]") || rest.hasPrefix("[STDERR]") else { return nil }
        }
        rest = rest.dropFirst(8)
        guard rest.isEmpty || rest.first == " " else { return nil }
        rest = rest.drop(while: { $0 == " " })
        if rest.hasPrefix("stdout: ") || rest.hasPrefix("stderr: ") { rest = rest.dropFirst(8) }
        else if rest == "stdout:" || rest == "stderr:" { rest = rest.dropFirst(7) }
        return rest
    }

    /// An EAS Build phase before the text: `[RUN_FASTLANE] `, `[INSTALL_PODS] ` (upper-case words joined by `_`;
    /// a single word in brackets, `[CP]` or `[MT]`, is left alone).
    private static func dropPhaseTag(_ s: Substring) -> Substring? {
        let u = s.utf8
        var i = u.index(after: u.startIndex)
        var sawUnderscore = false
        var previous: UInt8 = 0x5F // `_`: the tag may not start with one
        while i != u.endIndex, u[i] != 0x5D { // `]`
            let b = u[i]
            if b == 0x5F {
                guard previous != 0x5F else { return nil }
                sawUnderscore = true
            } else if !(65...90).contains(b) && !(48...57).contains(b) {
                return nil
            }
            previous = b
            i = u.index(after: i)
        }
        guard i != u.endIndex, sawUnderscore, previous != 0x5F else { return nil }
        let after = u.index(after: i)
        guard after == u.endIndex || u[after] == 0x20 || u[after] == 0x09 else { return nil }
        return Substring(u[after...]).drop(while: { $0 == " " || $0 == "\t" })
    }

    private static let levelTags: [(String, LineLevel?)] = [
        ("[ERROR]", .error), ("[error]", .error), ("[FATAL]", .error), ("[WARN]", .warning), ("[WARNING]", .warning),
        ("[warn]", .warning), ("[warning]", .warning), ("[Warning]", .warning), ("[INFO]", nil), ("[info]", nil), ("[DEBUG]", nil), ("[debug]", nil), ("[TRACE]", nil), ("[NOTICE]", nil),
    ]

    /// `10:00:00 `, `10:00:00.123 ` (a clock time before the text: Jenkins, Buildkite, Bitrise exports).
    private static func dropClockTime(_ s: Substring) -> Substring? {
        let u = Array(s.utf8.prefix(16))
        guard u.count >= 9, u[2] == 58, u[5] == 58 else { return nil }
        for k in [0, 1, 3, 4, 6, 7] where !(48...57).contains(u[k]) { return nil }
        var i = 8
        if i < u.count, u[i] == 46 || u[i] == 44 { i += 1; while i < u.count, (48...57).contains(u[i]) { i += 1 } }
        guard i < u.count, u[i] == 32 else { return nil }
        return Substring(s.utf8.dropFirst(i + 1))
    }

    /// A date and time before the text, as CI services and loggers print them, with what separates them
    /// from the text (` | `, ` - `, a tab, spaces): `13-Oct-2022 22:44:31 | ` (Bamboo's web log),
    /// `2024-05-01 10:00:00.123 ` or `2024-05-01T10:00:00+02:00 ` (GitLab, Jenkins' timestamper, loggers),
    /// `2024/05/01 10:00:00 `. Bamboo's raw log puts its line kind first: `build\t13-Oct-2022 22:44:31\t`.
    private static func dropDateTime(_ s: Substring) -> Substring? {
        var u = Array(s.utf8.prefix(48))
        var skipped = 0
        for kind in ["build\t", "simple\t", "error\t", "command\t"] where u.starts(with: Array(kind.utf8)) {
            skipped = kind.utf8.count
            u.removeFirst(skipped)
            break
        }
        func isDigit(_ k: Int) -> Bool { k < u.count && (48...57).contains(u[k]) }
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy(isDigit) }
        var i: Int
        if digits(0..<4), u.count > 10, u[4] == 45 || u[4] == 47, digits(5..<7), u[7] == u[4], digits(8..<10) {
            i = 10 // 2024-05-01, 2024/05/01
        } else if digits(0..<2), u.count > 11, u[2] == 45, (3..<6).allSatisfy({ (65...90).contains(u[$0] & 0xDF) }), u[6] == 45, digits(7..<11) {
            i = 11 // 13-Oct-2022
        } else {
            return nil
        }
        guard i < u.count, u[i] == 32 || u[i] == 84 else { return nil } // ` ` or `T`
        i += 1
        guard digits(i..<i + 2), i + 7 < u.count, u[i + 2] == 58, digits(i + 3..<i + 5), u[i + 5] == 58, digits(i + 6..<i + 8) else { return nil }
        i += 8
        if i < u.count, u[i] == 46 || u[i] == 44 { i += 1; while isDigit(i) { i += 1 } }
        if i < u.count, u[i] == 90 { i += 1 } // Z
        else if i + 2 < u.count, u[i] == 43 || u[i] == 45, isDigit(i + 1) { // +02:00, -0500
            i += 1
            while i < u.count, isDigit(i) || u[i] == 58 { i += 1 }
        }
        guard i < u.count, u[i] == 32 || u[i] == 9 else { return nil }
        var j = i
        while j < u.count, u[j] == 32 || u[j] == 9 { j += 1 }
        if j + 1 < u.count, u[j] == 124 || u[j] == 45, u[j + 1] == 32 { j += 2 } // ` | `, ` - `
        return Substring(s.utf8.dropFirst(skipped + j))
    }

    private static func dropMangledArrow(_ s: Substring) -> Substring? {
        if s.hasPrefix("? ") { return s.dropFirst(2) }
        if s.hasPrefix("\u{E2}\u{2013}\u{B8} ") { return s.dropFirst(4) }
        return nil
    }

    /// `xcodebuild[12345:678901] ` or `2024-05-01 10:00:00.123 xcodebuild[12345:678901] ` (Apple's
    /// logging), also with `+0000` after the time.
    private static func dropToolPrefix(_ s: Substring) -> Substring? {
        guard LogLine.has(91, in: s.utf8, within: 160) else { return nil } // no `[` in reach
        let u = Array(s.utf8.prefix(160))
        var i = 0
        // Optional date and time: yyyy-MM-dd HH:mm:ss[.SSS][ +zzzz] and a space.
        if u.count > 20, u[4] == 45, u[7] == 45, u[10] == 32, u[13] == 58, u[16] == 58,
           [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18].allSatisfy({ (48...57).contains(u[$0]) }) {
            i = 19
            if i < u.count, u[i] == 46 { i += 1; while i < u.count, (48...57).contains(u[i]) { i += 1 } }
            if i + 1 < u.count, u[i] == 32, u[i + 1] == 43 || u[i + 1] == 45 { // ` +0000`
                var j = i + 2
                while j < u.count, (48...57).contains(u[j]) { j += 1 }
                if j > i + 2 { i = j }
            }
            guard i < u.count, u[i] == 32 else { return nil }
            i += 1
        }
        // tool name, then [digits:hex-or-digits]
        let nameStart = i
        while i < u.count, u[i] != 91, u[i] != 32 { i += 1 }
        guard i > nameStart, i < u.count, u[i] == 91 else { return nil }
        i += 1
        let pidStart = i
        while i < u.count, (48...57).contains(u[i]) { i += 1 }
        guard i > pidStart, i < u.count, u[i] == 58 else { return nil }
        i += 1
        while i < u.count, (48...57).contains(u[i]) || (97...102).contains(u[i]) || u[i] == 120 { i += 1 }
        guard i < u.count, u[i] == 93 else { return nil }
        i += 1
        guard i < u.count, u[i] == 32 else { return nil }
        return Substring(s.utf8.dropFirst(i + 1))
    }

    /// The box drawing in front of a diagnostic inside a Swift-style box: `|- error: `, `` `- note: ``,
    /// `|  |- warning: `. Only when a level follows, so code lines (` 12 | let x`) stay box lines.
    private static func dropBox(_ s: Substring) -> Substring? {
        guard let first = s.utf8.first, first == 124 || first == 96 else { return nil } // | or `
        var rest = s.utf8[...]
        while let b = rest.first, b == 124 || b == 96 || b == 32 || b == 45 { rest = rest.dropFirst() }
        let tail = Substring(rest)
        guard DiagnosticHeader.dropLevelPrefix(tail) != nil else { return nil }
        return tail
    }

    /// A line a person pasted as Markdown inline code, one backtick at each end (`` `error: 'some' return types are
    /// only available in macOS 10.15.0 or newer` ``): the text between them. Not a code block's fence, not a box's
    /// corner (`` `- note: `` has no closing backtick).
    static func dropInlineCode(_ s: Substring) -> Substring? {
        guard s.utf8.first == 96 else { return nil }
        var body = s.dropFirst()
        while let last = body.utf8.last, last == 32 || last == 9 || last == 13 { body = body.dropLast() }
        guard body.utf8.count >= 2, body.utf8.first != 96, body.utf8.last == 96, !body.hasPrefix("- ") else { return nil }
        body = body.dropLast()
        return body.utf8.last == 96 ? nil : body
    }

    /// A formatter's leading symbol followed by a space. Returns the rest and the level it implies.
    private static func dropGlyph(_ s: Substring, first: Unicode.Scalar) -> (Substring, LineLevel?)? {
        let value = first.value
        let level: LineLevel?
        switch value {
        case 0x274C, 0x2716, 0x2718, 0x2717, 0x1F6AB, 0x2A2F: level = .error // ❌ ✖ ✘ ✗ 🚫, and electron-builder's and goreleaser's ⨯
        case 0x26A0: level = .warning // ⚠
        // ▸ ✔ ✓ → ↳ ◇ ℹ ⏭ 💥 •, ❗ and ‼ (a tool's own alert, `❗️ Error signing files:` of gon; the words after it say the
        // level), and the bar Tuist's alerts open each line with (`▌ ✖ Error`, `▌ No build logs for project …`).
        case 0x25B8, 0x2714, 0x2713, 0x2192, 0x21B3, 0x25C7, 0x2139, 0x23ED, 0x1F4A5, 0x2022, 0x2757, 0x203C, 0x258C: level = nil
        case 0x100000...0x10FFFF, 0xF0000...0xFFFFD: // SF Symbols (private use): xcbeautify/swift-testing
            level = value == 0x100884 || value == 0x1001FA || value == 0x10027D ? .error : nil
        default: return nil
        }
        var scalars = s.unicodeScalars.dropFirst()
        while let next = scalars.first, next.value == 0xFE0F || next.value == 0xFE0E { scalars = scalars.dropFirst() }
        guard let space = scalars.first, space == " " else { return scalars.isEmpty ? (Substring(scalars), level) : nil }
        return (Substring(scalars.dropFirst()), level)
    }
}

/// `path:line:col: error: message`, `path:line: error: message` (XCTest), and xcbeautify's
/// `path:line:col: message` behind a `❌`.
public struct DiagnosticHeader: Sendable, Equatable {
    public var location: SourceLocation
    public var level: LineLevel
    public var message: String

    static func parse(_ text: String, glyphLevel: LineLevel?) -> DiagnosticHeader? {
        // Fast reject: every header has ": " after a digit.
        guard LogLine.has(58, in: text.utf8) else { return nil }
        // Read in place on the string's own bytes (copying them to an array first, then the rest to a string,
        // cost a third of building an error line's `LogLine`).
        if let header = text.utf8.withContiguousStorageIfAvailable({ parse(bytes: $0, glyphLevel: glyphLevel) }) { return header }
        var copy = text
        copy.makeContiguousUTF8()
        return copy.utf8.withContiguousStorageIfAvailable { parse(bytes: $0, glyphLevel: glyphLevel) } ?? nil
    }

    /// The levels a header may have: the compilers' own, and the capitalised ones Dart's compiler writes after a
    /// location (`lib/main.dart:14:8: Error: Error when reading 'lib/x.dart'`, `Warning: `, `Context: `), which a
    /// Flutter build of an iOS app prints. Those count only after a location, never at a line's start.
    private static let levelPrefixBytes: [([UInt8], LineLevel)] = (levelPrefixes
        + [("Error: ", .error), ("Warning: ", .warning), ("Context: ", .note)]).map { (Array($0.0.utf8), $0.1) }

    /// The header of a line's bytes: `<file>:<line>[:<column>]: <level>: <message>`, where `<file>` has no `: `
    /// in it and the location is within the first 4096 bytes; the message runs to the line's end.
    private static func parse(bytes all: UnsafeBufferPointer<UInt8>, glyphLevel: LineLevel?) -> DiagnosticHeader? {
        let u = UnsafeBufferPointer(rebasing: all[..<min(all.count, 4096)])
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: UnsafeBufferPointer(rebasing: u[range]), as: UTF8.self)) }
        var i = 0
        while i < u.count {
            if u[i] == 58 { // ':'
                var j = i + 1
                var lineEnd = j
                while lineEnd < u.count, (48...57).contains(u[lineEnd]) { lineEnd += 1 }
                if lineEnd > j, lineEnd < u.count, u[lineEnd] == 58 {
                    let file = String(decoding: UnsafeBufferPointer(rebasing: u[0..<i]), as: UTF8.self)
                    let lineNumber = number(j..<lineEnd)
                    j = lineEnd + 1
                    var column: Int?
                    var colEnd = j
                    while colEnd < u.count, (48...57).contains(u[colEnd]) { colEnd += 1 }
                    if colEnd > j, colEnd < u.count, u[colEnd] == 58 {
                        column = number(j..<colEnd)
                        j = colEnd + 1
                    }
                    guard j < u.count, u[j] == 32, isPlausibleFile(file) else { return nil }
                    let rest = UnsafeBufferPointer(rebasing: all[(j + 1)...])
                    let location = SourceLocation(file: file, line: lineNumber, column: column)
                    for (prefix, level) in levelPrefixBytes where rest.starts(with: prefix) {
                        let message = String(decoding: UnsafeBufferPointer(rebasing: rest[(rest.startIndex + prefix.count)...]), as: UTF8.self)
                        return DiagnosticHeader(location: location, level: level, message: message)
                    }
                    // A paste wrapped right after the level: `File.swift:58:9: error:` and the message below.
                    for (prefix, level) in levelPrefixBytes where rest.elementsEqual(prefix.dropLast()) {
                        return DiagnosticHeader(location: location, level: level, message: "")
                    }
                    if let glyphLevel {
                        return DiagnosticHeader(location: location, level: glyphLevel, message: String(decoding: rest, as: UTF8.self))
                    }
                    return nil
                }
                if i + 1 < u.count, u[i + 1] == 32 { return nil } // "word: " before any location
            }
            i += 1
        }
        return nil
    }

    /// `error: message` → (`message`, .error); also `fatal error: `, `warning: `, `note: `.
    static func dropLevelPrefix<S: StringProtocol>(_ text: S) -> (String, LineLevel)? {
        guard let first = text.utf8.first, first == 101 || first == 102 || first == 119 || first == 110 || first == 114 else { return nil }
        for (prefix, level) in levelPrefixes where text.hasPrefix(prefix) {
            return (String(text.dropFirst(prefix.count)), level)
        }
        return nil
    }

    /// `tool: level: message` (`ld: warning: `, `xcodebuild: error: `, `ld.lld: error: `): a tool's name of one word
    /// (letters, digits, `.`, `+`, `-`, `_`), then a level prefix.
    static func dropToolLevelPrefix(_ text: String) -> (String, LineLevel)? {
        let u = text.utf8
        guard let first = u.first, (65...90).contains(first) || (97...122).contains(first) else { return nil }
        var i = u.startIndex
        var n = 0
        while i != u.endIndex, n < 40 {
            let c = u[i]
            if c == 58 { break } // ':'
            guard (48...57).contains(c) || (65...90).contains(c) || (97...122).contains(c) || c == 46 || c == 43 || c == 45 || c == 95 else { return nil }
            i = u.index(after: i)
            n += 1
        }
        guard i != u.endIndex, u[i] == 58 else { return nil }
        let afterColon = u.index(after: i)
        guard afterColon != u.endIndex, u[afterColon] == 32 else { return nil }
        let rest = text[String.Index(u.index(after: afterColon), within: text)!...]
        return dropLevelPrefix(rest)
    }

    private static let levelPrefixes: [(String, LineLevel)] = [
        ("error: ", .error), ("fatal error: ", .error), ("warning: ", .warning), ("note: ", .note), ("remark: ", .note),
    ]

    private static func isPlausibleFile(_ file: String) -> Bool {
        guard !file.isEmpty, file.utf8.count < 1024 || file.count < 1024 else { return false }
        if file.hasPrefix("<") { return true } // <unknown>, <stdin>
        return LogLine.has(UInt8(ascii: "."), in: file.utf8) || LogLine.has(UInt8(ascii: "/"), in: file.utf8)
    }
}
