import Foundation

/// A target resolved against Package.resolved: the identity Xcode keys its allow-list by.
public struct ResolvedTrust: Sendable, Hashable, Comparable {
    public var kind: TrustTarget.Kind
    /// SwiftPM identity from Package.resolved (`swift-case-paths`).
    public var identity: String
    public var target: String
    public var pin: PackagePin

    public init(kind: TrustTarget.Kind, identity: String, target: String, pin: PackagePin) {
        self.kind = kind
        self.identity = identity
        self.target = target
        self.pin = pin
    }

    /// The same allow-list entry: kind, identity (SwiftPM compares it case-insensitively) and target.
    public func sameEntry(_ other: ResolvedTrust) -> Bool {
        kind == other.kind && identity.lowercased() == other.identity.lowercased() && target == other.target
    }

    public static func < (a: ResolvedTrust, b: ResolvedTrust) -> Bool {
        (a.kind, a.identity, a.target) < (b.kind, b.identity, b.target)
    }
}

/// What the xcmedic block of ci_post_clone.sh does.
public enum TrustMode: Sendable, Equatable {
    /// Write macros.json/plugins.json for these targets, fingerprints read from this Package.resolved
    /// (path relative to the ci_scripts folder) at CI time.
    case allowList([ResolvedTrust], resolvedFromScripts: String)
    /// Switch validation off for every package with the defaults keys.
    case skipValidation
}

public enum ScriptRenderer {
    public static let beginMarker = "# >>> xcmedic >>>"
    public static let endMarker = "# <<< xcmedic <<<"

    /// The marked block, ending in a newline. Every interpolated value is one single-quoted word;
    /// `command` goes into a comment with control characters neutralised.
    public static func block(_ mode: TrustMode, command: String) -> String {
        let text: String
        switch mode {
        case .skipValidation:
            text = EmbeddedTemplates.skipValidationBlock
        case .allowList(let trusts, let resolved):
            var calls: [String] = []
            for kind in TrustTarget.Kind.allCases {
                let entries = trusts.filter { $0.kind == kind }.sorted()
                guard !entries.isEmpty else { continue }
                if entries.contains(where: { ($0.identity + $0.target).contains(where: { $0 == "$" || $0 == "`" }) }) {
                    // shellcheck warns that $ and backticks do not expand in single quotes: here that is the point.
                    calls.append("# Names are data: single quotes keep their $ and backticks literal.")
                    calls.append("# shellcheck disable=SC2016")
                }
                calls.append("xcmedic_trust \(kind.allowListFile) \\")
                for (i, entry) in entries.enumerated() {
                    let last = i == entries.count - 1
                    calls.append("  \(ShellQuote.quote(entry.identity)) \(ShellQuote.quote(entry.target))\(last ? "" : " \\")")
                }
            }
            text = EmbeddedTemplates.allowListBlock
                .replacingOccurrences(of: "{{RESOLVED}}", with: ShellQuote.quote(resolved))
                .replacingOccurrences(of: "{{TRUST_CALLS}}", with: calls.joined(separator: "\n"))
        }
        return text.replacingOccurrences(of: "{{COMMAND}}", with: ShellQuote.commentSafe(command)) + "\n"
    }

    /// A new ci_post_clone.sh: zsh shebang, strict error handling, then the block.
    public static func newScript(block: String) -> String {
        EmbeddedTemplates.ciPostClone.replacingOccurrences(of: "{{XCMEDIC_BLOCK}}\n", with: block)
            .replacingOccurrences(of: "{{XCMEDIC_BLOCK}}", with: String(block.dropLast())) + "\n"
    }
}

/// Puts the xcmedic block into an existing script without touching any other byte.
public enum MarkedBlock {
    /// Lines with their terminators, as bytes (the user's file need not be UTF-8).
    static func lines(_ data: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        for (i, byte) in data.enumerated() where byte == UInt8(ascii: "\n") {
            result.append(data[start...i])
            start = i + 1
        }
        if start < data.count { result.append(data[start...]) }
        return result
    }

    static func isMarker(_ line: ArraySlice<UInt8>, _ marker: String) -> Bool {
        var bytes = Array(line)
        while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes.removeLast() }
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes.removeFirst() }
        return bytes == Array(marker.utf8)
    }

    /// The marked block of `existing`, markers included; nil when it has none (or broken markers).
    public static func extract(from existing: [UInt8]) -> String? {
        let lines = lines(existing)
        let begins = lines.indices.filter { isMarker(lines[$0], ScriptRenderer.beginMarker) }
        let ends = lines.indices.filter { isMarker(lines[$0], ScriptRenderer.endMarker) }
        guard begins.count == 1, ends.count == 1, begins[0] < ends[0] else { return nil }
        return String(decoding: existing[lines[begins[0]].startIndex..<lines[ends[0]].endIndex], as: UTF8.self)
    }

    /// `existing` without its marked block (when nothing is left to trust).
    public static func remove(from existing: [UInt8], path: String) throws -> [UInt8] {
        let lines = lines(existing)
        let begins = lines.indices.filter { isMarker(lines[$0], ScriptRenderer.beginMarker) }
        let ends = lines.indices.filter { isMarker(lines[$0], ScriptRenderer.endMarker) }
        if begins.isEmpty && ends.isEmpty { return existing }
        guard begins.count == 1, ends.count == 1, begins[0] < ends[0] else {
            throw CIScriptsError("\(path): the lines '\(ScriptRenderer.beginMarker)' and '\(ScriptRenderer.endMarker)' must each appear once, in that order; fix them by hand")
        }
        return Array(existing[..<lines[begins[0]].startIndex]) + existing[lines[ends[0]].endIndex...]
    }

    /// `existing` with its marked block replaced by `block`, or, when it has none, `block` inserted
    /// after the shebang line (so trust is set up before the user's own steps run).
    public static func apply(_ block: String, to existing: [UInt8], path: String) throws -> [UInt8] {
        let lines = lines(existing)
        let begins = lines.indices.filter { isMarker(lines[$0], ScriptRenderer.beginMarker) }
        let ends = lines.indices.filter { isMarker(lines[$0], ScriptRenderer.endMarker) }
        let newBlock = Array(block.utf8)
        if begins.isEmpty && ends.isEmpty {
            guard let first = lines.first, first.starts(with: Array("#!".utf8)) else { return newBlock + existing }
            var head = Array(first)
            if head.last != UInt8(ascii: "\n") { head.append(UInt8(ascii: "\n")) }
            return head + newBlock + existing[first.endIndex...]
        }
        guard begins.count == 1, ends.count == 1, begins[0] < ends[0] else {
            throw CIScriptsError("\(path): the lines '\(ScriptRenderer.beginMarker)' and '\(ScriptRenderer.endMarker)' must each appear once, in that order; fix them by hand")
        }
        let from = lines[begins[0]].startIndex, to = lines[ends[0]].endIndex
        return Array(existing[..<from]) + newBlock + existing[to...]
    }
}

/// The trust entries an existing xcmedic block holds, read back from its `xcmedic_trust` calls.
public enum TrustBlockParser {
    public struct Entry: Sendable, Hashable {
        public var kind: TrustTarget.Kind
        public var identity: String
        public var target: String
    }

    /// What the block does: nil when `block` is not an xcmedic block this version can read.
    public enum Contents: Sendable, Equatable {
        case allowList([Entry])
        case skipValidation
    }

    public static func contents(of block: String) -> Contents? {
        let commands = ShellWords.commands(block)
        if commands.contains(where: { $0.first == "defaults" && $0.contains(where: { $0.hasPrefix("IDESkip") }) }) { return .skipValidation }
        var entries: [Entry] = []
        for words in commands where words.count >= 2 && words[0] == "xcmedic_trust" {
            guard let kind = TrustTarget.Kind.allCases.first(where: { $0.allowListFile == words[1] }) else { return nil }
            var rest = words.dropFirst(2)
            guard rest.count % 2 == 0 else { return nil }
            while let identity = rest.popFirst(), let target = rest.popFirst() {
                let entry = Entry(kind: kind, identity: identity, target: target)
                if !entries.contains(entry) { entries.append(entry) }
            }
        }
        return .allowList(entries)
    }
}

/// Just enough of the shell's word splitting to read back what ScriptRenderer wrote: single and double
/// quotes, backslashes, line continuations and comments; one array of words per command line.
enum ShellWords {
    static func commands(_ text: String) -> [[String]] {
        let chars = Array(text)
        var commands: [[String]] = [], words: [String] = [], word: String?
        var i = 0
        func flushWord() { if let w = word { words.append(w); word = nil } }
        func flushCommand() { flushWord(); if !words.isEmpty { commands.append(words) }; words = [] }
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "'":
                var j = i + 1
                var part = ""
                while j < chars.count, chars[j] != "'" { part.append(chars[j]); j += 1 }
                word = (word ?? "") + part
                i = j + 1
            case "\"":
                var j = i + 1
                var part = ""
                while j < chars.count, chars[j] != "\"" {
                    if chars[j] == "\\", j + 1 < chars.count, "\"\\$`\n".contains(chars[j + 1]) {
                        if chars[j + 1] != "\n" { part.append(chars[j + 1]) }
                        j += 2
                    } else { part.append(chars[j]); j += 1 }
                }
                word = (word ?? "") + part
                i = j + 1
            case "\\":
                if i + 1 < chars.count, chars[i + 1] != "\n" { word = (word ?? "") + String(chars[i + 1]) }
                i += 2
            case " ", "\t":
                flushWord(); i += 1
            case "\n", ";":
                flushCommand(); i += 1
            case "#" where word == nil:
                while i < chars.count, chars[i] != "\n" { i += 1 }
            default:
                word = (word ?? "") + String(c); i += 1
            }
        }
        flushCommand()
        return commands
    }
}

/// A unified diff of two texts, line by line, for `--dry-run`.
public enum LineDiff {
    public static func unified(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String {
        let a = splitLines(old), b = splitLines(new)
        // Longest common subsequence table; scripts are small.
        var lcs = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        enum Op { case same(String), del(String), add(String) }
        var ops: [Op] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] { ops.append(.same(a[i])); i += 1; j += 1 }
            else if i < a.count, j == b.count || lcs[i + 1][j] >= lcs[i][j + 1] { ops.append(.del(a[i])); i += 1 }
            else { ops.append(.add(b[j])); j += 1 }
        }
        let changed = ops.indices.filter { if case .same = ops[$0] { return false } else { return true } }
        guard !changed.isEmpty else { return "" }
        var out = "--- \(oldName)\n+++ \(newName)\n"
        var k = 0
        while k < changed.count {
            var last = k
            while last + 1 < changed.count, changed[last + 1] - changed[last] <= 2 * context { last += 1 }
            let lo = max(0, changed[k] - context), hi = min(ops.count - 1, changed[last] + context)
            var oldStart = 1, newStart = 1
            for op in ops[..<lo] {
                switch op { case .same: oldStart += 1; newStart += 1; case .del: oldStart += 1; case .add: newStart += 1 }
            }
            var oldCount = 0, newCount = 0, body = ""
            for op in ops[lo...hi] {
                switch op {
                case .same(let l): oldCount += 1; newCount += 1; body += " \(l)\n"
                case .del(let l): oldCount += 1; body += "-\(l)\n"
                case .add(let l): newCount += 1; body += "+\(l)\n"
                }
            }
            out += "@@ -\(oldCount == 0 ? oldStart - 1 : oldStart),\(oldCount) +\(newCount == 0 ? newStart - 1 : newStart),\(newCount) @@\n" + body
            k = last + 1
        }
        return out
    }

    static func splitLines(_ text: String) -> [String] {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
