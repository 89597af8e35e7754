import Foundation

/// Removes secrets from text that leaves xcmedic in a report.
public struct Redactor: Sendable {
    public var enabled: Bool

    public static let standard = Redactor(enabled: true)
    public static let off = Redactor(enabled: false)

    public init(enabled: Bool) { self.enabled = enabled }

    public func redact(_ text: String) -> String {
        guard enabled else { return text }
        return SecretShapes.redact(text)
    }
}

/// The shapes of secrets build logs are known to carry.
enum SecretShapes {
    static let replacement = "[REDACTED]"

    private static let shapes: [(NSRegularExpression, String)] = {
        let specs: [(String, String)] = [
            // GitHub tokens: classic and fine-grained.
            (#"\b(?:ghp|gho|ghs|ghu|ghr)_[A-Za-z0-9]{20,}"#, replacement),
            (#"\bgithub_pat_[A-Za-z0-9_]{20,}"#, replacement),
            // AWS access key ids.
            (#"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b"#, replacement),
            // Slack tokens.
            (#"\bxox[abprs]-[A-Za-z0-9-]{10,}"#, replacement),
            // Authorization headers.
            (#"(?i)(authorization:\s*(?:bearer|basic|token)\s+)[^\s'"]+"#, "$1" + replacement),
            // Credentials in URLs.
            (#"([a-zA-Z][a-zA-Z0-9+.-]*://)[^/\s:@'"]+:[^/\s@'"]+@"#, "$1" + replacement + "@"),
            // Values of variables named like secrets: FOO_PASSWORD=..., MATCH_PASSWORD: ...
            (#"(?i)\b([A-Z0-9_]*(?:PASSWORD|PASSWD|TOKEN|SECRET|API_KEY|PRIVATE_KEY)[A-Z0-9_]*)(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s'"]+)"#, "$1$2" + replacement),
            // Private key blocks (App Store Connect .p8 keys among them), also one line at a time.
            (#"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)"#, replacement),
        ]
        return specs.map { (try! NSRegularExpression(pattern: $0.0), $0.1) }
    }()

    static func redact(_ text: String) -> String {
        var out = text
        for (regex, template) in shapes {
            let range = NSRange(out.startIndex..., in: out)
            guard regex.firstMatch(in: out, range: range) != nil else { continue }
            out = regex.stringByReplacingMatches(in: out, range: range, withTemplate: template)
        }
        return out
    }
}
