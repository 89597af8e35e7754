import Foundation
import XCTest
@testable import XCMedicKit

/// Every secret shape of `Fixtures/secrets/shapes.txt` (fake values) through the real scanner: none appears in
/// any of the six formats or in the GitHub step summary; with `--no-redact` each does (so the check can fail).
/// Redaction changes no line of the logs in Tests/Corpus and Tests/Holdout.
final class RedactionCorpusTests: XCTestCase {
    struct Shape {
        var name: String
        /// Log lines, the first after `error: secret check: `.
        var lines: [String]
        var secrets: [String]
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/secrets")

    static func loadShapes() throws -> [Shape] {
        let text = try String(contentsOf: folder.appendingPathComponent("shapes.txt"), encoding: .utf8)
        var shapes: [Shape] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let bar = line.range(of: " | ") else { throw XCTSkip("malformed shape line: \(line)") }
            let name = String(line[..<bar.lowerBound])
            var generator = FakeCharacters(seed: name)
            let template = String(line[bar.upperBound...]).replacingOccurrences(of: "␠", with: " ")
            let filled = generator.fill(template)
            // Secrets are between ⟦ and ⟧; the marks are not part of the log.
            var secrets: [String] = []
            var log = ""
            var current: String?
            for ch in filled {
                if ch == "⟦" { current = ""; continue }
                if ch == "⟧" { secrets.append(current ?? ""); current = nil; continue }
                log.append(ch)
                current?.append(ch)
            }
            shapes.append(Shape(name: name, lines: log.components(separatedBy: "⏎"), secrets: secrets.flatMap { $0.components(separatedBy: "⏎") }))
        }
        return shapes
    }

    /// Pieces of a secret that no report may hold: every 8 characters of its runs of characters that no
    /// format escapes (letters, digits, `-./+=@`), so a secret is caught escaped or cut as well as whole.
    static func windows(_ secret: String) -> [String] {
        let safe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-./+=@")
        var runs: [[Character]] = [[]]
        for ch in secret { if safe.contains(ch) { runs[runs.count - 1].append(ch) } else { runs.append([]) } }
        var windows: [String] = []
        for run in runs where run.count >= 8 {
            for start in 0...(run.count - 8) { windows.append(String(run[start..<(start + 8)])) }
        }
        return windows
    }

    /// A rule that quotes the log everywhere a rule can: message, captures, collected list, excerpt, fixes.
    static let rules = #"""
    - id: test-secret-check
      title: Secret check failed
      category: phase-script-failed
      severity: error
      role: cause
      patterns:
        - literal: 'error: secret check: '
          regex: 'error: secret check: (?<detail>.+)$'
      continuation:
        while: '^(?!\*\* )'
        collect: '^(?<value>.+)$'
        max_lines: 20
      message: 'Secret check failed: {detail}'
      explanation: A test rule that quotes the log.
      fixes:
        - summary: 'Rotate {detail}'
          commands: ['echo {detail}']
          snippet: '{detail}'
      examples:
        match:
          - line: 'Sources/App/Config.swift:3:5: error: secret check: value'
            source: written for these tests
        no_match:
          - line: 'error: secret'
    """#

    static let ruleSet = Result { try RuleSet(rules: try RuleLoader.load(yaml: rules, origin: "redaction-tests") + BuiltinCatalog.rules()) }

    static func diagnosis(_ shape: Shape) throws -> Diagnosis {
        var lines = shape.lines
        lines[0] = "Sources/App/Config.swift:3:5: error: secret check: " + lines[0]
        let scanner = Scanner(ruleSet: try RedactionCorpusTests.ruleSet.get())
        try scanner.scan(text: (lines + ["** BUILD FAILED **"]).joined(separator: "\n") + "\n", name: "build.log")
        return scanner.finish()
    }

    func testNoShapeLeaksInAnyFormatOrTheStepSummary() throws {
        let shapes = try RedactionCorpusTests.loadShapes()
        XCTAssertGreaterThanOrEqual(shapes.count, 150)
        let outputs: [(String, (Diagnosis, ReportOptions) -> String)] =
            [ReportFormat.text, .json, .github, .markdown, .junit, .sarif].map { format in
                (format.rawValue, { Report.render($0, format: format, options: $1) })
            } + [("step summary", { Report.stepSummary($0, options: $1) })]
        var leaks: [String] = []
        var checked = 0
        for shape in shapes {
            let windows = shape.secrets.flatMap(RedactionCorpusTests.windows)
            XCTAssertFalse(windows.isEmpty, "\(shape.name): mark a secret of 8 or more characters")
            let d = try RedactionCorpusTests.diagnosis(shape)
            XCTAssertNotNil(d.findings.first { $0.rule == "test-secret-check" }, shape.name)
            for (name, render) in outputs {
                let redacted = render(d, ReportOptions(redactor: .standard))
                if let leaked = windows.first(where: redacted.contains) {
                    leaks.append("\(shape.name) in \(name): '\(leaked)' of \(shape.secrets)")
                }
                // SARIF quotes a finding's first line only: a block's later lines are never in it.
                if name == "sarif", shape.lines.count > 1, !shape.secrets.contains(where: shape.lines[0].contains) { continue }
                XCTAssertTrue(redacted.contains("REDACTED"), "\(shape.name) in \(name)")
                let plain = render(d, ReportOptions(redactor: .off))
                XCTAssertTrue(windows.contains(where: plain.contains), "\(shape.name) in \(name) with --no-redact shows no secret: the check could not fail")
                checked += 1
            }
        }
        XCTAssertEqual(leaks, [], "\(leaks.count) leaks")
        print("RedactionCorpusTests: \(shapes.count) secret shapes x \(outputs.count) outputs (text, json, github, markdown, junit, sarif, step summary) = \(checked) reports, \(leaks.count) leaks")
    }

    /// Lines of the corpus that do carry a credential's shape, which redaction is right to change: an HTTP response's
    /// `Set-Cookie` header that altool printed (its session value already cut by the collector), a test's URL
    /// with a `password=` query parameter in an assertion message, and a string literal assigned to a constant named
    /// `…Token` in the source line a compiler error quotes (`"mfa-auth-v1"`: a name to its authors, but nothing in the
    /// line tells a name from a hard-coded token), a database password in the source a compiler error quotes, and Detox's session id in its config dump (a session id is a bearer
    /// credential wherever a server issues it; nothing in the line says this one is only a test run's name).
    static let credentialLines: [String: String] = [
        "g1016-openssl-xcode16-upload-409-bitcode.log": "\"Set-Cookie\" = ",
        "g3010-canvas-danger-xctest-failed-login-webview.log": "&password=",
        "f1021-swift6-isolated-conformance-encodable.log": "mfaCapabilityToken = \"",
        "f5019-rn-detox-ios12-beforeall-hook-timeout.log": "detoxSessionId: '",
        "m7009-codemagic-asc-invalid-api-key.log": "APP_STORE_CONNECT_PRIVATE_KEY='",
        "w6024-swift-build-postgres-logger-init-errors.log": "password: \"sonar\",",
    ]

    /// Redaction must not eat build output: no line of a log in Tests/Corpus or Tests/Holdout changes, the
    /// passing logs and the failing ones (paths, DerivedData hashes, simulator UUIDs, git SHAs, Swift code),
    /// except the few that carry a credential's shape (`credentialLines`), which must change.
    func testCorpusLogsAreUnchanged() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        var changed: [String] = []
        var lines = 0
        var files = 0
        var credentials = 0
        for folder in ["Corpus/cases", "Holdout/cases"] {
            let cases = tests.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: cases.path).sorted() {
                let data = try Data(contentsOf: cases.appendingPathComponent(name))
                files += 1
                for line in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
                    lines += 1
                    let text = String(line)
                    let redacted = Redactor.standard.redact(text)
                    if let marker = RedactionCorpusTests.credentialLines[name], text.contains(marker) {
                        XCTAssertTrue(redacted.contains("REDACTED"), "\(name): a credential's shape left as it was: \(text)")
                        credentials += 1
                        continue
                    }
                    if redacted != text { changed.append("\(name): \(text)\n  -> \(redacted)") }
                }
            }
        }
        XCTAssertGreaterThan(files, 700)
        XCTAssertEqual(credentials, RedactionCorpusTests.credentialLines.count, "each credential line is in the corpus once")
        XCTAssertEqual(changed, [], "\(changed.count) of \(lines) lines changed")
        print("RedactionCorpusTests: \(files) logs of Tests/Corpus and Tests/Holdout, \(lines) lines, \(changed.count) changed by redaction, \(credentials) credential lines redacted")
    }
}

/// Deterministic fake characters for a shape's placeholders (SplitMix64 seeded by the shape's name).
struct FakeCharacters {
    var state: UInt64

    init(seed: String) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in seed.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        state = h
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    static let alphabets: [String: [Character]] = [
        "an": Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
        "hex": Array("0123456789abcdef"),
        "HEX": Array("0123456789ABCDEF"),
        "up": Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
        "lo": Array("abcdefghijklmnopqrstuvwxyz"),
        "b64": Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"),
        "url": Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"),
        "d": Array("0123456789"),
    ]

    /// `{kind:N}` replaced by N fake characters of that kind.
    mutating func fill(_ template: String) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { rest = rest[open...]; break }
            let spec = rest[rest.index(after: open)..<close].split(separator: ":")
            if spec.count == 2, let alphabet = FakeCharacters.alphabets[String(spec[0])], let count = Int(spec[1]) {
                for _ in 0..<count { out.append(alphabet[Int(next() % UInt64(alphabet.count))]) }
                rest = rest[rest.index(after: close)...]
            } else {
                out += "{"
                rest = rest[rest.index(after: open)...]
            }
        }
        return out + rest
    }
}
