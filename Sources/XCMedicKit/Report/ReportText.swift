import Foundation

/// The one place every report's text passes through before it is printed: secrets are cut out
/// (`Redactor`), then control characters are made visible (`TerminalSafe`) for the formats a terminal or a
/// web page shows as they are (text, github, markdown). JSON, SARIF and JUnit keep the characters and
/// escape them as their formats say (`TerminalSafe.escapeJSONControls`, `XML.escape`).
public struct ReportText: Sendable {
    public enum Controls: Sendable {
        /// Every control character but tab and newline is written as `\u{XX}`.
        case visible
        /// Left for the format's own escaping.
        case escapedByFormat
    }

    public var redactor: Redactor
    public var controls: Controls

    public init(redactor: Redactor, controls: Controls) {
        self.redactor = redactor
        self.controls = controls
    }

    /// One text as the report prints it.
    public func text(_ s: String) -> String {
        let redacted = redactor.redact(s)
        return controls == .visible ? TerminalSafe.visible(redacted) : redacted
    }

    /// The diagnosis with every text in it redacted and, for `.visible`, made terminal-safe.
    public func prepare(_ diagnosis: Diagnosis) -> Diagnosis {
        var d = redactor.redact(diagnosis)
        d.inputs = d.inputs.map { input in
            var input = input
            input.path = text(input.path)
            input.dialect = visible(input.dialect)
            input.lastLines = input.lastLines.map(text)
            return input
        }
        // What the history store says (names of builds, branches and tests) is text that leaves xcmedic too.
        d.history = d.history?.mapText(text)
        for i in d.findings.indices { d.findings[i].history = d.findings[i].history?.mapText(text) }
        guard controls == .visible else { return d }
        d.findings = d.findings.map { f in
            var f = f
            f.rule = visible(f.rule)
            f.category = visible(f.category)
            f.title = visible(f.title)
            f.message = visible(f.message)
            f.captures = shared(f.captures, f.captures.mapValues(visible))
            f.collected = shared(f.collected, f.collected.mapValues { $0.map(visible) })
            f.excerpt = shared(f.excerpt, f.excerpt.map(visible))
            f.explanation = visible(f.explanation)
            f.docs = shared(f.docs, f.docs.map(visible))
            f.occurrences.mapFiles(visible)
            f.fixes = shared(f.fixes, f.fixes.map { fix in
                Fix(summary: visible(fix.summary), commands: fix.commands.map(visible), snippet: fix.snippet.map(visible), docs: fix.docs.map(visible))
            })
            return f
        }
        return d
    }

    private func visible(_ s: String) -> String { controls == .visible ? TerminalSafe.visible(s) : s }
}

/// Control characters a log may carry (backspace that overprints, C1 CSI/OSC that a terminal obeys, NUL,
/// VT, FF, DEL, a lone CR) made visible, so a report can never move the cursor, retitle the window, hide
/// text or print a link it does not show.
public enum TerminalSafe {
    /// Every control character but tab and newline — C0 (U+0000–U+001F), DEL (U+007F) and C1
    /// (U+0080–U+009F) — written as `\u{XX}` (upper-case hex, as Swift writes it): ESC becomes `\u{1B}`,
    /// CSI `\u{9B}`.
    public static func visible(_ text: String) -> String {
        guard hasControl(text) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether the scalar is one `visible` rewrites.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (v < 0x20 && v != 0x09 && v != 0x0A) || (v >= 0x7F && v <= 0x9F)
    }

    /// A byte scan: C0 but tab and LF, DEL, and the UTF-8 lead 0xC2 of U+0080–U+009F.
    /// Eight bytes at a time: a word with no byte below 0x20, no DEL and no 0xC2 (most of a report's text, JSON's
    /// indentation and words) is passed over whole; one with a tab, a newline or a candidate is read byte by byte.
    static func hasControl(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            func isControl(at i: Int) -> Bool {
                let b = bytes[i]
                if (b < 0x20 && b != 0x09 && b != 0x0A) || b == 0x7F { return true }
                return b == 0xC2 && i + 1 < bytes.count && bytes[i + 1] >= 0x80 && bytes[i + 1] <= 0x9F
            }
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
            var i = 0
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while i + 8 <= bytes.count {
                    let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    // A byte below 0x20 (x - 0x20 in a byte borrows into its high bit), DEL or 0xC2 in the word.
                    if (x &- ones &* 0x20) & ~x & highs != 0 || hasZero(x ^ (ones &* 0x7F)) || hasZero(x ^ (ones &* 0xC2)) {
                        for k in i..<(i + 8) where isControl(at: k) { return true }
                    }
                    i += 8
                }
            }
            while i < bytes.count {
                if isControl(at: i) { return true }
                i += 1
            }
            return false
        }
    }

    /// JSON text from an encoder, with DEL and C1 written as `\u00XX` too (JSON requires it of C0 only, which
    /// the encoder does). Outside strings JSON is ASCII, so every such character is inside a string.
    public static func escapeJSONControls(_ json: String) -> String {
        guard hasControl(json) else { return json }
        var out = ""
        out.reserveCapacity(json.utf8.count + 16)
        for scalar in json.unicodeScalars {
            if scalar.value >= 0x7F && scalar.value <= 0x9F {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
