import Foundation

/// A ci_scripts shell script read as the shell reads it, as far as lint needs: which lines are commands
/// (not comments, not the inside of a quoted string or a here-document), at what nesting, and how each
/// begins. Enough to find pitfalls without flagging text that only looks like one.
struct ScriptText {
    struct Command {
        /// 1-based line of its first physical line.
        var line: Int
        /// The command with comments removed and continuation lines joined.
        var text: String
        /// Nesting (if/for/while/case/function bodies) when it starts; 0 at the top level.
        var depth: Int
        /// The physical line begins with `//` outside any quote or here-document.
        var slashComment: Bool
    }

    let text: String
    let shebang: String?
    let commands: [Command]

    init(_ text: String) {
        self.text = text
        let firstLine = text.prefix { $0 != "\n" }
        shebang = firstLine.hasPrefix("#!") ? String(firstLine.dropFirst(2)).trimmingCharacters(in: .whitespaces) : nil
        commands = Self.parse(text)
    }

    static let openers: Set<String> = ["if", "for", "while", "until", "case", "select", "{", "("]
    static let closers: Set<String> = ["fi", "done", "esac", "}", ")"]

    static func parse(_ text: String) -> [Command] {
        var commands: [Command] = []
        var depth = 0
        var pendingHeredocs: [(delimiter: String, stripTabs: Bool)] = []
        var heredoc: (delimiter: String, stripTabs: Bool)?
        var quote: Character?            // open quote carried across lines
        var current = "", currentLine = 0, currentSlash = false
        let heredocRegex = try? NSRegularExpression(pattern: #"<<(-?)\s*(?:'([^']+)'|"([^"]+)"|\\?([A-Za-z_][A-Za-z0-9_]*))"#)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

        func finish() {
            let trimmed = current.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty || currentSlash {
                let tokens = trimmed.replacingOccurrences(of: ";", with: " ; ").split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                var d = depth, start = depth, commandPosition = true
                for (i, w) in tokens.enumerated() {
                    if commandPosition && openers.contains(w) { d += 1 }
                    else if (commandPosition && (w == "fi" || w == "done" || w == "esac" || w == "}")) || w == ")" {
                        d -= 1
                        if i == 0 { start = max(0, d) }
                    }
                    commandPosition = [";", "then", "do", "else", "elif", "&&", "||", "!", "|", "{", "(", "in"].contains(w) || w.hasSuffix("()")
                }
                commands.append(Command(line: currentLine, text: trimmed, depth: start, slashComment: currentSlash))
                depth = max(0, d)
            }
            current = ""; currentSlash = false
        }

        for (index, line) in lines.enumerated() {
            if let doc = heredoc {
                let candidate = doc.stripTabs ? String(line.drop { $0 == "\t" }) : line
                if candidate == doc.delimiter || candidate.trimmingCharacters(in: .whitespaces) == doc.delimiter {
                    heredoc = pendingHeredocs.isEmpty ? nil : pendingHeredocs.removeFirst()
                }
                continue
            }
            if current.isEmpty && quote == nil {
                currentLine = index + 1
                currentSlash = line.drop { $0 == " " || $0 == "\t" }.hasPrefix("//")
            }
            // Walk the line: quotes, escapes, comments.
            var code = ""
            let chars = Array(line)
            var i = 0
            var continued = false
            while i < chars.count {
                let c = chars[i]
                if let q = quote {
                    if q == "\"" && c == "\\" && i + 1 < chars.count { code.append(c); code.append(chars[i + 1]); i += 2; continue }
                    if c == q { quote = nil }
                    code.append(c); i += 1; continue
                }
                switch c {
                case "'", "\"", "`":
                    quote = c; code.append(c)
                case "\\":
                    if i + 1 == chars.count { continued = true } else { code.append(c); code.append(chars[i + 1]); i += 1 }
                case "#" where code.isEmpty || code.last == " " || code.last == "\t" || code.last == ";":
                    i = chars.count; continue
                default:
                    code.append(c)
                }
                i += 1
            }
            if let regex = heredocRegex, quote == nil {
                for match in regex.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                    // `<<<` is a here-string, not a here-document.
                    if let r = Range(match.range, in: code), r.lowerBound > code.startIndex, code[code.index(before: r.lowerBound)] == "<" { continue }
                    if let r = Range(match.range, in: code), code[r].hasPrefix("<<<") { continue }
                    let strip = Range(match.range(at: 1), in: code).map { !code[$0].isEmpty } ?? false
                    let name = [2, 3, 4].compactMap { Range(match.range(at: $0), in: code).map { String(code[$0]) } }.first ?? ""
                    if !name.isEmpty { pendingHeredocs.append((name, strip)) }
                }
            }
            current += (current.isEmpty ? "" : " ") + code
            if continued || quote != nil { continue }
            finish()
            if heredoc == nil, !pendingHeredocs.isEmpty { heredoc = pendingHeredocs.removeFirst() }
        }
        finish()
        return commands
    }

    /// Shells a stock macOS has (and Xcode Cloud's image): absolute interpreters, or names for /usr/bin/env.
    static let presentInterpreters: Set<String> = ["/bin/sh", "/bin/bash", "/bin/zsh", "/bin/ksh", "/bin/csh", "/bin/tcsh", "/bin/dash",
                                                   "/usr/bin/env", "/usr/bin/python3", "/usr/bin/ruby", "/usr/bin/perl", "/usr/bin/swift", "/usr/bin/xcrun",
                                                   "/usr/bin/osascript"]
    /// Interpreters known to be absent from macOS (Linux paths, shells macOS never shipped, Python 2).
    static let absentInterpreters: [String: String] = [
        "/usr/bin/bash": "/bin/bash", "/usr/bin/zsh": "/bin/zsh", "/usr/bin/sh": "/bin/sh", "/usr/bin/dash": "/bin/sh",
        "/bin/ash": "/bin/sh", "/usr/bin/ash": "/bin/sh", "/bin/busybox": "/bin/sh", "/usr/bin/fish": "/bin/zsh", "/bin/fish": "/bin/zsh",
        "/usr/local/bin/fish": "/bin/zsh", "/opt/homebrew/bin/fish": "/bin/zsh", "/usr/bin/python": "/usr/bin/python3", "/usr/bin/python2": "/usr/bin/python3",
    ]
    static let absentEnvNames: [String: String] = ["fish": "zsh", "ash": "sh", "busybox": "sh", "python2": "python3", "python": "python3"]

    /// Steps whose failure does not matter or cannot happen in practice; everything else is a step that can fail.
    static let harmless: Set<String> = ["echo", "printf", "export", "mkdir", "local", "declare", "typeset", "readonly", "set", "setopt", "unsetopt", "unset",
                                        "shift", "true", "false", ":", "exit", "return", "[", "[[", "test", "defaults", "trap", "sleep", "ls", "pwd",
                                        "then", "else", "elif", "fi", "do", "done", "esac", "{", "}", "(", ")", "exec", "wait", "env", "date", "whoami", "which", "type"]

    var errexit: Bool {
        if let shebang, shebang.split(separator: " ").dropFirst().contains(where: { $0.hasPrefix("-") && $0.contains("e") }) { return true }
        for command in commands {
            let words = command.text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let first = words.first else { continue }
            if first == "set" {
                if words.dropFirst().contains(where: { $0.hasPrefix("-") && !$0.hasPrefix("--") && $0.dropFirst().contains("e") }) { return true }
                if let o = words.firstIndex(of: "-o"), o + 1 < words.count, words[o + 1] == "errexit" { return true }
            }
            if first == "setopt", words.dropFirst().contains(where: { $0.lowercased().replacingOccurrences(of: "_", with: "") == "errexit" }) { return true }
        }
        return false
    }

    /// The words that start each stage of a pipeline or list in `command` (`a | b && c` → a, b, c).
    static func stageHeads(_ command: String) -> [String] {
        var heads: [String] = []
        for stage in command.components(separatedBy: CharacterSet(charactersIn: "|&;")) {
            var words = stage.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            // Leading assignments (`FOO=1 cmd`) and `!` do not name the command.
            while let w = words.first, w == "!" || (w.contains("=") && !w.hasPrefix("=") && w.prefix(while: { $0 != "=" }).allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }) {
                words.removeFirst()
            }
            if let head = words.first { heads.append(head) }
        }
        return heads
    }

    func problems(name: String, path: String) -> [LintProblem] {
        var problems: [LintProblem] = []
        // A shebang for an interpreter macOS does not have: the script does not run at all.
        if let shebang {
            let parts = shebang.split(separator: " ").map(String.init)
            let interpreter = parts.first ?? ""
            var replacement: String?
            if let better = Self.absentInterpreters[interpreter] { replacement = "#!" + better }
            else if interpreter == "/usr/bin/env", let name = parts.dropFirst().first(where: { !$0.hasPrefix("-") }), let better = Self.absentEnvNames[name] { replacement = "#!/usr/bin/env " + better }
            else if interpreter.hasPrefix("/usr/local/bin/") || interpreter.hasPrefix("/opt/homebrew/bin/") {
                let tool = URL(fileURLWithPath: interpreter).lastPathComponent
                if ["bash", "zsh", "sh"].contains(tool) { replacement = "#!/bin/\(tool)" }
            }
            if let replacement {
                problems.append(LintProblem(kind: .missingShell, path: path, problem: "its shebang names \(interpreter == "/usr/bin/env" ? shebang : interpreter), which a stock macOS (and Xcode Cloud) does not have, so the script fails before its first line",
                                            fix: "make the first line '\(replacement)'"))
            }
        }
        // `//` is not a comment in a shell: zsh and bash try to run it (it is the root folder) and fail.
        for command in commands where command.slashComment {
            problems.append(LintProblem(kind: .slashComment, path: path, problem: "line \(command.line) starts with '//', which is not a shell comment: the shell tries to run '/' and fails (\(errexit ? "stopping the script" : "printing an error"))",
                                        fix: "start the line with '#' instead of '//'"))
            break
        }
        // defaults lines for the trust keys: the right domain, and YES.
        let defaults = try? NSRegularExpression(pattern: #"(?:^|[\s;&|(])defaults\s+write\s+(\S+)\s+(\S*IDESkip[A-Za-z]*\S*)(.*)$"#)
        for command in commands {
            let text = command.text
            guard let defaults, let match = defaults.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                  let domainRange = Range(match.range(at: 1), in: text), let keyRange = Range(match.range(at: 2), in: text), let restRange = Range(match.range(at: 3), in: text) else { continue }
            let unquote = { (s: Substring) in s.trimmingCharacters(in: CharacterSet(charactersIn: "'\"")) }
            let domain = unquote(text[domainRange]), key = unquote(text[keyRange])
            let words = text[restRange].split(whereSeparator: { $0 == " " || $0 == "\t" }).map { unquote($0) }
            let correctKey = key == CIScriptsLint.correctedPluginKey ? CIScriptsLint.pluginKey : key
            if domain != "com.apple.dt.Xcode" && !domain.hasPrefix("$") {
                problems.append(LintProblem(kind: .wrongDefaultsDomain, path: path, problem: "line \(command.line) writes \(key) to the domain \(domain); Xcode reads it only from com.apple.dt.Xcode, so this line does nothing",
                                            fix: "defaults write com.apple.dt.Xcode \(correctKey) -bool YES"))
            }
            if let flag = words.firstIndex(where: { $0 == "-bool" || $0 == "-boolean" || $0 == "-int" || $0 == "-integer" }), flag + 1 < words.count,
               ["no", "false", "0"].contains(words[flag + 1].lowercased()), name != "ci_post_xcodebuild.sh" {
                problems.append(LintProblem(kind: .skipKeyOff, path: path, problem: "line \(command.line) sets \(key) to \(words[flag + 1]), which keeps validation on: the build still stops at \"must be enabled\"",
                                            fix: "defaults write com.apple.dt.Xcode \(correctKey) -bool YES"))
            }
        }
        // No `set -e`: a failing step before the last one is ignored, and the script's status is the last step's.
        if !errexit {
            let top = commands.filter { $0.depth == 0 && !$0.slashComment }
            if let last = top.last {
                let ignored = top.dropLast().first { command in
                    guard !command.text.contains("||") else { return false } // handled on the line itself
                    let words = command.text.split(whereSeparator: { $0 == " " || $0 == "\t" })
                    if words.first.map({ ["if", "for", "while", "until", "case", "function"].contains(String($0)) || $0.hasSuffix("()") }) == true { return false }
                    // A plain assignment (`dir=$(pwd)`, `export`-less settings) is a setting, not a step.
                    if command.text.range(of: #"^[A-Za-z_][A-Za-z0-9_]*=\S*$"#, options: .regularExpression) != nil
                        || (command.text.range(of: #"^[A-Za-z_][A-Za-z0-9_]*=\$\("#, options: .regularExpression) != nil && command.text.hasSuffix(")")) { return false }
                    return Self.stageHeads(command.text).contains { !Self.harmless.contains($0) }
                }
                if let ignored {
                    let step = ignored.text.count > 60 ? String(ignored.text.prefix(57)) + "..." : ignored.text
                    problems.append(LintProblem(kind: .failureIgnored, path: path,
                                                problem: "no 'set -e': when '\(step)' (line \(ignored.line)) fails, the script carries on and exits with the status of its last command (line \(last.line)), so Xcode Cloud goes on to build as if it had worked",
                                                fix: "add 'set -e' right after the shebang (or 'set -euo pipefail' in a bash or zsh script)"))
                }
            }
        }
        return problems
    }
}
