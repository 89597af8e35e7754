import Foundation

/// Removes secrets from text that leaves xcmedic in a report.
///
/// Every renderer first passes the whole diagnosis through `redact(_: Diagnosis)`: messages, captures,
/// collected lists, excerpts, file paths and the fixes rendered with captures. An excerpt is redacted as
/// a sequence of lines, so the body of a private key printed over several lines (BEGIN line, base64
/// lines, END line) goes too, not only its BEGIN line.
public struct Redactor: Sendable {
    public var enabled: Bool

    public static let standard = Redactor(enabled: true)
    public static let off = Redactor(enabled: false)

    public init(enabled: Bool) { self.enabled = enabled }

    public func redact(_ text: String) -> String {
        guard enabled else { return text }
        // A text of several lines (a message, a snippet) is a block: a key's body lines go with it.
        guard Bytes.contains(text, [0x0A]) else { return SecretShapes.redact(text) }
        return redactLines(text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(Substring($0)) }).joined(separator: "\n")
    }

    /// Consecutive lines of one block (an excerpt): a private key's body lines between its BEGIN and END
    /// lines are redacted as a whole.
    public func redactLines(_ lines: [String]) -> [String] {
        guard enabled else { return lines }
        var out: [String] = []
        out.reserveCapacity(lines.count)
        var insideKey = false
        var cookieLines = 0
        for line in lines {
            if cookieLines > 0 {
                cookieLines -= 1
                if let redacted = SecretShapes.redactCookieValue(line) {
                    out.append(redacted)
                    continue
                }
            }
            if SecretShapes.opensCookieList(line) { cookieLines = 12 }
            if insideKey {
                if let end = SecretShapes.privateKeyEnd(in: line) {
                    insideKey = false
                    out.append(SecretShapes.replacement + SecretShapes.redact(String(line[end...])))
                } else {
                    out.append(SecretShapes.replacement)
                }
                continue
            }
            if let end = SecretShapes.privateKeyEnd(in: line), !Bytes.contains(line, Array("-----BEGIN".utf8)) {
                // An END line whose BEGIN line is not in this block (a list collected after the BEGIN line,
                // an excerpt that starts inside the key): the base64 lines just above it are the key's body.
                var i = out.count - 1
                while i >= 0, SecretShapes.isBase64Line(out[i]) {
                    out[i] = SecretShapes.replacement
                    i -= 1
                }
                out.append(SecretShapes.replacement + SecretShapes.redact(String(line[end...])))
                continue
            }
            insideKey = SecretShapes.opensPrivateKey(line)
            out.append(SecretShapes.redact(line))
        }
        return out
    }

    public func redact(_ finding: Finding) -> Finding {
        redact(finding, memo: Memo())
    }

    /// Texts many findings share (a rule's title, its fixes' summaries and commands, a capture's value), redacted
    /// once for a whole diagnosis rather than once per finding: 5,000 findings of one rule carry the same fixes.
    final class Memo {
        private var done: [String: String] = [:]
        func redact(_ text: String, _ redactor: Redactor) -> String {
            if let known = done[text] { return known }
            let redacted = redactor.redact(text)
            if done.count < 20_000 { done[text] = redacted }
            return redacted
        }
    }

    func redact(_ finding: Finding, memo: Memo) -> Finding {
        guard enabled else { return finding }
        var f = finding
        f.title = memo.redact(f.title, self)
        f.message = redact(f.message)
        f.captures = shared(f.captures, f.captures.mapValues { memo.redact($0, self) })
        let excerpt = redactLines(f.excerpt)
        // A list collected from the lines after a key's BEGIN line holds its body lines without the BEGIN
        // line: a value found in a line the excerpt redacted as a key's body goes too.
        let bodyLines = zip(f.excerpt, excerpt).filter { $1 == SecretShapes.replacement }.map(\.0)
        f.collected = shared(f.collected, f.collected.mapValues { values in
            redactLines(values).enumerated().map { i, value in
                let original = values[i]
                guard original.utf8.count >= 4, bodyLines.contains(where: { $0.contains(original) }) else { return value }
                return SecretShapes.replacement
            }
        })
        f.excerpt = shared(f.excerpt, excerpt)
        f.occurrences.mapFiles(redact)
        f.fixes = shared(f.fixes, f.fixes.map { fix in
            Fix(summary: memo.redact(fix.summary, self), commands: fix.commands.map { memo.redact($0, self) },
                snippet: fix.snippet.map { memo.redact($0, self) }, docs: fix.docs)
        })
        return f
    }

    /// An invocation's values (a command line may carry a password option or a token in a URL).
    public func redact(_ invocation: Invocation) -> Invocation {
        guard enabled else { return invocation }
        var i = invocation
        // A word and the option before it: `--password VALUE` is two words.
        i.arguments = i.arguments.indices.map { k in
            let word = redact(i.arguments[k])
            guard k > 0 else { return word }
            let pair = i.arguments[k - 1] + " " + i.arguments[k]
            return redact(pair) == pair ? word : SecretShapes.replacement
        }
        i.buildSettings = i.buildSettings.map { ($0.key, redact("\($0.key)=\($0.value)").dropFirst($0.key.count + 1).description) }
        for field in [\Invocation.workspace, \.project, \.scheme, \.destination, \.configuration, \.testPlan, \.packagePath] {
            i[keyPath: field] = i[keyPath: field].map(redact)
        }
        return i
    }

    /// The diagnosis with every text that came from the log redacted.
    public func redact(_ diagnosis: Diagnosis) -> Diagnosis {
        guard enabled else { return diagnosis }
        var d = diagnosis
        let memo = Memo()
        d.findings = d.findings.map { redact($0, memo: memo) }
        d.tests.results = d.tests.results.map { r in
            var r = r
            r.suite = r.suite.map(redact)
            r.name = redact(r.name)
            return r
        }
        d.invocations = d.invocations.map(redact)
        return d
    }
}

/// `old` when `new` equals it: a redacted or escaped copy of a diagnosis keeps sharing the storage of every
/// list and table it did not change (5,000 findings must not be held twice or three times, issue 17).
func shared<T: Equatable>(_ old: T, _ new: T) -> T { new == old ? old : new }
