import Foundation

/// The JSON that `xcrun xcresulttool` prints for a result bundle, rendered as the console lines the
/// byte-level scanner already reads, so the catalog names its failures exactly as it names the same
/// failures in an xcodebuild log.
///
/// Four shapes are read, told apart by their content:
/// - `get test-results tests` (Xcode 16+): a `testNodes` tree (Test Plan > Unit test bundle > Test
///   Suite > Test Case), failures as child nodes of type `Failure Message` named `File.swift:12: text`;
/// - `get test-results summary` (Xcode 16+): `testFailures` with `targetName`, `testIdentifierString`;
/// - `get build-results` (Xcode 16+): `errors` and `warnings` with `message` and `sourceURL`;
/// - the legacy `ActionsInvocationRecord` (`get --legacy`, and `get` before Xcode 16): `_type`/`_value`
///   objects, `issues.errorSummaries`, `warningSummaries`, `testFailureSummaries`.
///
/// A failing XCTest test becomes one line, `File.swift:12: error: -[Target.Suite test] : message`, the
/// form XCTest prints, so the finding captures the suite and test and its fix names the identifier
/// `-only-testing:Target/Suite/test` takes; a failing Swift Testing test becomes
/// `File.swift:24: error: Test Target/Suite/failure() failed: message` (its identifier keeps the
/// parentheses `-only-testing:` needs); a build issue becomes `path:line:col: error: message`.
/// A run the record says succeeded ends with xcodebuild's own `** TEST SUCCEEDED **` or
/// `** BUILD SUCCEEDED **` line, so it is reported as passed.
public enum XCResultJSON {
    /// Larger JSON is refused: it is parsed whole.
    public static let defaultLimit = 256 << 20

    /// Whether the first bytes of an input look like xcresulttool's JSON (an object with one of the
    /// keys that only its shapes have near the start).
    public static func looksLikeXCResultJSON(_ head: [UInt8]) -> Bool {
        var index = 0
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while index < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[index]) { index += 1 }
        guard index < head.count, head[index] == UInt8(ascii: "{") else { return false }
        let text = String(decoding: head, as: UTF8.self)
        return markers.contains { text.contains($0) }
    }

    private static let markers = [
        "\"testNodes\"", "\"ActionsInvocationRecord\"", "\"analyzerWarningCount\"", "\"actionTitle\"",
        "\"totalTestCount\"", "\"testFailures\"",
    ]

    /// The console lines for one JSON document, or nil when it is JSON of no shape known here.
    public static func lines(from data: Data) -> [StructuredLine]? {
        guard let object = try? JSONSerialization.jsonObject(with: data), let root = object as? [String: Any] else { return nil }
        if let nodes = root["testNodes"] as? [[String: Any]] { return TestNodes.lines(nodes) }
        if root["testFailures"] != nil, root["totalTestCount"] != nil || root["result"] != nil { return summaryLines(root) }
        if root["errors"] != nil || root["warnings"] != nil, root["actionTitle"] != nil || root["errorCount"] != nil || root["status"] != nil {
            return buildLines(root)
        }
        if Legacy.typeName(root) == "ActionsInvocationRecord" { return Legacy.lines(root) }
        return nil
    }

    // MARK: - Build results (Xcode 16+)

    static func buildLines(_ root: [String: Any]) -> [StructuredLine] {
        // Issues without a source location (a failed script phase, a link) come first: the record keeps
        // no step around them, and a failed step's read-back must not take a compiler error for its output.
        var placed: [StructuredLine] = []
        var unplaced: [StructuredLine] = []
        for (key, level) in [("errors", "error"), ("warnings", "warning"), ("analyzerWarnings", "warning")] {
            for issue in root[key] as? [[String: Any]] ?? [] {
                guard let message = issue["message"] as? String else { continue }
                let url = issue["sourceURL"] as? String
                let line = diagnostic(level: level, message: message, url: url)
                if line.location == nil { unplaced.append(line) } else { placed.append(line) }
            }
        }
        var out = unplaced + placed
        switch (root["status"] as? String)?.lowercased() {
        case "succeeded"?: out.append(.output("** BUILD SUCCEEDED **"))
        case "failed"?: out.append(.output("** BUILD FAILED **"))
        default: break
        }
        return out
    }

    /// An issue as a message with its level and source location (one-based), as Xcode recorded it.
    static func diagnostic(level: String, message: String, url: String?) -> StructuredLine {
        let text = message.replacingOccurrences(of: "\r\n", with: "\n")
        let location = url.flatMap(DocumentURL.init).map { SourceLocation(file: $0.path, line: $0.line, column: $0.column) }
        return StructuredLine(kind: .message, text: text, location: location, level: level == "error" ? .error : .warning)
    }

    // MARK: - Test results summary (Xcode 16+)

    static func summaryLines(_ root: [String: Any]) -> [StructuredLine] {
        var out: [StructuredLine] = []
        var seen = Set<String>()
        for failure in root["testFailures"] as? [[String: Any]] ?? [] {
            let target = failure["targetName"] as? String
            let identifier = (failure["testIdentifierString"] as? String) ?? (failure["testName"] as? String) ?? "unknown"
            let key = (target ?? "") + "/" + identifier
            guard seen.insert(key).inserted else { continue }
            let parts = identifier.split(separator: "/").map(String.init)
            let test = parts.last ?? identifier
            let suite = ([target].compactMap { $0 } + parts.dropLast()).joined(separator: ".")
            out.append(.output(TestNodes.failureLine(suite: suite, test: test, message: (failure["failureText"] as? String) ?? "failed")))
        }
        switch (root["result"] as? String)?.lowercased() {
        case "passed"?: out.append(.output("** TEST SUCCEEDED **"))
        case "failed"?: out.append(.output("** TEST FAILED **"))
        default: break
        }
        return out
    }
}

/// A `file://` URL with Xcode's fragment (`#StartingLineNumber=20&StartingColumnNumber=8&…`, zero-based),
/// as a path with a one-based line and column.
struct DocumentURL {
    var path: String
    var line: Int?
    var column: Int?

    init?(_ url: String) {
        let (base, fragment) = url.firstIndex(of: "#").map { (String(url[..<$0]), String(url[url.index(after: $0)...])) } ?? (url, "")
        var path = base
        if path.hasPrefix("file://") {
            path.removeFirst("file://".count)
            path = path.removingPercentEncoding ?? path
        }
        guard !path.isEmpty else { return nil }
        self.path = path
        var fields: [String: Int] = [:]
        for pair in fragment.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        line = fields["StartingLineNumber"].map { $0 + 1 }
        column = line == nil ? nil : fields["StartingColumnNumber"].map { $0 + 1 }
    }
}

/// The `testNodes` tree of `get test-results tests`.
enum TestNodes {
    static func lines(_ roots: [[String: Any]]) -> [StructuredLine] {
        var out: [StructuredLine] = []
        var failed = false
        var ran = false
        func walk(_ node: [String: Any], bundle: String?, suites: [String]) {
            let type = node["nodeType"] as? String ?? ""
            let name = node["name"] as? String ?? ""
            switch type {
            case "Unit test bundle", "UI test bundle":
                for child in children(node) { walk(child, bundle: name, suites: []) }
            case "Test Suite":
                for child in children(node) { walk(child, bundle: bundle, suites: suites + [name]) }
            case "Test Case":
                ran = true
                let result = node["result"] as? String ?? ""
                guard result == "Failed" else { return }
                failed = true
                let suite = ([bundle].compactMap { $0 } + suites).joined(separator: ".")
                let messages = failureMessages(node)
                var (file, line, message) = split(messages.first ?? "failed")
                if messages.count > 1 { message += " (and \(messages.count - 1) more failure\(messages.count == 2 ? "" : "s"))" }
                if file == nil, let details = node["details"] as? String, messages.isEmpty { message = details }
                if isSwiftTesting(node), let bundle {
                    out.append(.output(swiftTestingLine(identifier: ([bundle] + suites + [name]).joined(separator: "/"), message: message, file: file, line: line)))
                } else {
                    out.append(.output(failureLine(suite: suite, test: name, message: message, file: file, line: line)))
                }
            default:
                for child in children(node) { walk(child, bundle: bundle, suites: suites) }
            }
        }
        for root in roots { walk(root, bundle: nil, suites: []) }
        let results = roots.compactMap { $0["result"] as? String }
        if failed || results.contains("Failed") {
            out.append(.output("** TEST FAILED **"))
        } else if ran {
            out.append(.output("** TEST SUCCEEDED **"))
        }
        return out
    }

    static func children(_ node: [String: Any]) -> [[String: Any]] {
        node["children"] as? [[String: Any]] ?? []
    }

    /// The distinct failure messages of a test, in order, from all its runs (repetitions, arguments).
    static func failureMessages(_ node: [String: Any]) -> [String] {
        var out: [String] = []
        func walk(_ node: [String: Any]) {
            for child in children(node) {
                if child["nodeType"] as? String == "Failure Message", let name = child["name"] as? String {
                    if !out.contains(name) { out.append(name) }
                } else if child["result"] as? String != "Passed" {
                    walk(child)
                }
            }
        }
        walk(node)
        return out
    }

    /// `File.swift:12: text` into its parts.
    static func split(_ message: String) -> (file: String?, line: Int?, message: String) {
        guard let match = message.firstMatch(of: /^([^:\s][^:]*\.\w+):(\d+): (.*)$/.dotMatchesNewlines()) else {
            return (nil, nil, message)
        }
        return (String(match.1), Int(match.2), String(match.3))
    }

    /// A Swift Testing test: its `nodeIdentifierURL` ends in the function's name with its parentheses
    /// (`test://com.apple.xcode/Project/Target/Suite/failure()`); an XCTest method's ends without them.
    static func isSwiftTesting(_ node: [String: Any]) -> Bool {
        guard let url = node["nodeIdentifierURL"] as? String else { return false }
        return url.hasSuffix(")")
    }

    /// `File.swift:24: error: Test Target/Suite/failure() failed: message`, which the catalog's
    /// `swift-testing-result-bundle-failure` reads, identifier as `-only-testing:` takes it.
    static func swiftTestingLine(identifier: String, message: String, file: String?, line: Int?) -> String {
        let clean = String(identifier.map { $0.isWhitespace ? "_" : $0 })
        let flat = message.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
        let header = file.map { "\($0):\(line ?? 0): error: " } ?? "error: "
        return "\(header)Test \(clean) failed: \(flat)"
    }

    /// XCTest's failure line. The test is the method's base name (`flaky(value:)` -> `flaky`): the
    /// form `-[Suite test]` takes, and what `-only-testing:` takes for an XCTest method.
    static func failureLine(suite: String, test: String, message: String, file: String? = nil, line: Int? = nil) -> String {
        var base = test
        if let paren = base.firstIndex(of: "(") { base = String(base[..<paren]) }
        base = String(base.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        let cleanSuite = String(suite.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." ? $0 : "_" })
        let flat = message.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
        let place = file.map { "\($0):\(line ?? 0)" } ?? "<unknown>:0"
        return "\(place): error: -[\(cleanSuite) \(base.isEmpty ? "test" : base)] : \(flat)"
    }
}

/// The legacy `ActionsInvocationRecord` (`_type`/`_value` objects).
enum Legacy {
    static func typeName(_ object: [String: Any]) -> String? {
        (object["_type"] as? [String: Any])?["_name"] as? String
    }

    static func value(_ object: [String: Any]?, _ key: String) -> String? {
        (object?[key] as? [String: Any])?["_value"] as? String
    }

    static func values(_ object: [String: Any]?, _ key: String) -> [[String: Any]] {
        (object?[key] as? [String: Any])?["_values"] as? [[String: Any]] ?? []
    }

    static func location(_ issue: [String: Any]) -> String? {
        let location = (issue["documentLocationInCreatingWorkspace"] ?? issue["documentLocationInBundle"]) as? [String: Any]
        return value(location, "url")
    }

    static func lines(_ root: [String: Any]) -> [StructuredLine] {
        var out: [StructuredLine] = []
        let issues = root["issues"] as? [String: Any]
        for (key, level) in [("errorSummaries", "error"), ("warningSummaries", "warning"), ("analyzerWarningSummaries", "warning")] {
            for issue in values(issues, key) {
                guard let message = value(issue, "message") else { continue }
                out.append(XCResultJSON.diagnostic(level: level, message: message, url: location(issue)))
            }
        }
        var seen = Set<String>()
        var testFailed = false
        for failure in values(issues, "testFailureSummaries") {
            testFailed = true
            let target = value(failure, "producingTarget")
            let testCase = value(failure, "testCaseName") ?? "unknown"
            guard seen.insert((target ?? "") + "/" + testCase).inserted else { continue }
            var parts = testCase.split(separator: ".").map(String.init)
            let test = parts.popLast() ?? testCase
            let suite = ([target].compactMap { $0 } + parts).joined(separator: ".")
            let place = location(failure).flatMap(DocumentURL.init)
            out.append(.output(TestNodes.failureLine(suite: suite, test: test, message: value(failure, "message") ?? "failed",
                                                     file: place?.path, line: place?.line)))
        }
        var buildStatuses: [String] = []
        var testStatuses: [String] = []
        for action in values(root, "actions") {
            let build = action["buildResult"] as? [String: Any]
            let result = action["actionResult"] as? [String: Any]
            if let status = value(build, "status") { buildStatuses.append(status) }
            if let status = value(result, "status") {
                if value(action as [String: Any], "schemeCommandName") == "Test" || result?["testsRef"] != nil {
                    testStatuses.append(status)
                } else {
                    buildStatuses.append(status)
                }
            }
        }
        if testFailed || testStatuses.contains("failed") {
            out.append(.output("** TEST FAILED **"))
        } else if buildStatuses.contains("failed") {
            out.append(.output("** BUILD FAILED **"))
        } else if !testStatuses.isEmpty, testStatuses.allSatisfy({ $0 == "succeeded" }) {
            out.append(.output("** TEST SUCCEEDED **"))
        } else if !buildStatuses.isEmpty, buildStatuses.allSatisfy({ $0 == "succeeded" || $0 == "notRequested" }), buildStatuses.contains("succeeded") {
            out.append(.output("** BUILD SUCCEEDED **"))
        }
        return out
    }
}
