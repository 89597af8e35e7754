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
        return SecretShapes.redact(text)
    }

    /// Consecutive lines of one block (an excerpt): a private key's body lines between its BEGIN and END
    /// lines are redacted as a whole.
    public func redactLines(_ lines: [String]) -> [String] {
        guard enabled else { return lines }
        var out: [String] = []
        out.reserveCapacity(lines.count)
        var insideKey = false
        for line in lines {
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
        guard enabled else { return finding }
        var f = finding
        f.title = redact(f.title)
        f.message = redact(f.message)
        f.captures = f.captures.mapValues(redact)
        f.collected = f.collected.mapValues(redactLines)
        f.excerpt = redactLines(f.excerpt)
        f.occurrences = f.occurrences.map { o in
            var o = o
            if let file = o.location?.file { o.location?.file = redact(file) }
            return o
        }
        f.fixes = f.fixes.map { fix in
            Fix(summary: redact(fix.summary), commands: fix.commands.map(redact), snippet: fix.snippet.map(redact), docs: fix.docs)
        }
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
        d.findings = d.findings.map(redact)
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

/// The shapes of secrets build logs are known to carry.
enum SecretShapes {
    static let replacement = "[REDACTED]"

    /// A value: quoted, or up to the next space or quote.
    private static let value = #"("[^"\n]*"|'[^'\n]*'|[^\s'"]+)"#
    private static let keyBegin = #"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"#
    private static let keyEnd = #"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"#

    /// A shape: texts that contain none of `triggers` (lowercased ASCII) skip its regex, so the cost of
    /// redaction on ordinary lines is a few byte searches.
    private struct Shape: @unchecked Sendable {
        var triggers: [[UInt8]]
        var regex: NSRegularExpression
        var template: String
    }

    private static let shapes: [Shape] = {
        let specs: [([String], String, String)] = [
            // Private key blocks (App Store Connect .p8 keys are PKCS#8 `PRIVATE KEY`), on one line or
            // several lines of one text; a block cut before its END line is redacted to the end.
            (["private key"], keyBegin + #"[\s\S]*?(?:"# + keyEnd + "|$)", replacement),
            // GitHub tokens: classic (personal, OAuth, app installation, user-to-server, refresh) and fine-grained.
            (["ghp_", "gho_", "ghs_", "ghu_", "ghr_"], #"\b(?:ghp|gho|ghs|ghu|ghr)_[A-Za-z0-9]{20,}"#, replacement),
            (["github_pat_"], #"\bgithub_pat_[A-Za-z0-9_]{20,}"#, replacement),
            // GitLab personal access tokens.
            (["glpat-"], #"\bglpat-[A-Za-z0-9_-]{20,}"#, replacement),
            // AWS access key ids (long-term and temporary).
            (["akia", "asia"], #"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b"#, replacement),
            // Slack tokens.
            (["xox"], #"\bxox[abprs]-[A-Za-z0-9-]{10,}"#, replacement),
            // Authorization headers.
            (["authorization"], #"(?i)(authorization:\s*(?:bearer|basic|token)\s+)[^\s'"]+"#, "$1" + replacement),
            (["bearer"], #"(?i)(\bbearer\s+)([A-Za-z0-9._~+/-]{16,}=*)"#, "$1" + replacement),
            // Credentials in URLs: https://user:password@host, https://x-access-token:TOKEN@github.com.
            (["://"], #"([a-zA-Z][a-zA-Z0-9+.-]*://)[^/\s:@'"]+:[^/\s@'"]+@"#, "$1" + replacement + "@"),
            // Values of variables named like secrets, in the environment's upper case: MATCH_PASSWORD=...,
            // FASTLANE_PASSWORD: ..., AWS_SECRET_ACCESS_KEY=..., GITHUB_TOKEN=...
            (["password", "passwd", "passphrase", "token", "secret", "api_key", "apikey", "private_key", "fastlane_session"],
             #"\b([A-Z0-9_]*(?:PASSWORD|PASSWD|PASSPHRASE|TOKEN|SECRET|API_KEY|APIKEY|PRIVATE_KEY|FASTLANE_SESSION)[A-Z0-9_]*)(\s*[=:]\s*)"# + value,
             "$1$2" + replacement),
            // ... and in lower or mixed case when the name is compound (aws_secret_access_key = ..., client_secret:,
            // X-Api-Key:), so that prose such as "expected token: ')'" stays.
            (["password", "passwd", "passphrase", "token", "secret", "api_key", "api-key", "apikey", "private_key"],
             #"(?i)\b((?:[a-z0-9]+[_-])+(?:password|passwd|passphrase|token|secret|api[_-]?key|private[_-]?key)(?:[_-][a-z0-9]+)*|(?:password|passwd|passphrase|token|secret)(?:[_-][a-z0-9]+)+)(\s*[=:]\s*)"# + value,
             "$1$2" + replacement),
            // A bare lower-case name assigned with `=` (query strings, .netrc-like config): password=..., token=...
            (["password=", "passwd=", "secret=", "token=", "apikey=", "api_key="],
             #"(?i)\b(password|passwd|secret|token|apikey|api_key)(=)"# + value, "$1$2" + replacement),
            // JSON keys: "password": "...", "apiKey": "..."
            (["password\"", "secret\"", "token\"", "key\""],
             #"(?i)("[A-Za-z0-9_-]*(?:password|secret|token|api_?key|private_?key)[A-Za-z0-9_-]*"\s*:\s*)"[^"\n]*""#,
             "$1\"" + replacement + "\""),
            // Password options: notarytool --password, altool -p/--password, fastlane --api_key ...
            (["--password", "--keychain-password", "--passphrase", "--api-key", "--api_key", "--token", "--client-secret"],
             #"(--(?:password|keychain-password|passphrase|api-key|api_key|token|client-secret)(?:=|\s+))"# + value, "$1" + replacement),
            (["altool"], #"(\baltool\b[^\n]*?\s-p\s+)"# + value, "$1" + replacement),
            // The keychain password of `security` (man security): unlock-keychain/create-keychain -p,
            // import/export -P (the .p12 passphrase), set-key-partition-list -k.
            (["security"], #"(\bsecurity\s+(?:unlock-keychain|create-keychain|set-keychain-password)\b[^\n]*?\s-p\s+)"# + value, "$1" + replacement),
            (["security"], #"(\bsecurity\s+(?:import|export)\b[^\n]*?\s-P\s+)"# + value, "$1" + replacement),
            (["security"], #"(\bsecurity\s+set-key-partition-list\b[^\n]*?\s-k\s+)"# + value, "$1" + replacement),
        ]
        return specs.map { spec in
            Shape(triggers: spec.0.map { Array($0.utf8) }, regex: try! NSRegularExpression(pattern: spec.1), template: spec.2)
        }
    }()

    static func redact(_ text: String) -> String {
        guard !text.isEmpty else { return text }
        var lowered = Array(text.utf8)
        for i in lowered.indices where lowered[i] >= 0x41 && lowered[i] <= 0x5A { lowered[i] |= 0x20 }
        var out = text
        for shape in shapes {
            let triggered = lowered.withUnsafeBufferPointer { hay in
                shape.triggers.contains { needle in
                    needle.withUnsafeBufferPointer { Bytes.contains(hay.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: hay.count, $0) }
                }
            }
            guard triggered else { continue }
            let range = NSRange(out.startIndex..., in: out)
            out = shape.regex.stringByReplacingMatches(in: out, range: range, withTemplate: shape.template)
        }
        return out
    }

    private static let beginRegex = try! NSRegularExpression(pattern: keyBegin)
    private static let endRegex = try! NSRegularExpression(pattern: keyEnd)

    /// Whether `line` starts a private key block that it does not end.
    static func opensPrivateKey(_ line: String) -> Bool {
        guard Bytes.contains(line, Array("PRIVATE KEY".utf8)) else { return false }
        let range = NSRange(line.startIndex..., in: line)
        guard let lastBegin = beginRegex.matches(in: line, range: range).last else { return false }
        let after = NSRange(location: lastBegin.range.upperBound, length: range.length - lastBegin.range.upperBound)
        return endRegex.firstMatch(in: line, range: after) == nil
    }

    /// A line of a PEM body: base64 only (64 characters a line; the last one shorter).
    static func isBase64Line(_ line: String) -> Bool {
        let trimmed = line.utf8.drop { $0 == 0x20 || $0 == 0x09 }
        guard trimmed.count >= 4 else { return false }
        return trimmed.allSatisfy { b in
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2F || b == 0x3D
        }
    }

    /// Where the text after a private key's END marker starts, when `line` has one.
    static func privateKeyEnd(in line: String) -> String.Index? {
        guard Bytes.contains(line, Array("PRIVATE KEY".utf8)),
              let match = endRegex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
              let range = Range(match.range, in: line) else { return nil }
        return range.upperBound
    }
}
