import Foundation

/// One test the log names with a result: XCTest's `Test Case '…' passed (0.001 seconds).`, the parallel
/// form `Test case '…' failed on 'Clone 1 of …' (0.3 seconds)`, Swift Testing's `Test x() passed after …`.
public struct TestResult: Sendable, Equatable {
    public enum Status: String, Sendable {
        case passed, failed, skipped
        /// Started and never finished in a log that shows a crash or a restart: the crash is its failure.
        case crashed
    }

    /// `Module.Suite` (XCTest), nil when the line names none (Swift Testing).
    public var suite: String?
    public var name: String
    public var status: Status
    /// Seconds, as the log states them (the last run's, when a test was retried).
    public var duration: Double?
    /// Times the log shows it run (retries and repetitions).
    public var runs: Int
    public var input: Int
    /// The line of its result (of its start, for a crashed test).
    public var line: Int
    /// The line that said it started, when the log has one: lines between belong to the test.
    public var startLine: Int?
    public var framework: Framework

    public enum Framework: String, Sendable { case xctest, swiftTesting }
}

/// What the log itself says about a run's size: `Executed 4 tests, with 1 failure` (XCTest) or
/// `Test run with 5 tests passed after …` (Swift Testing).
public struct StatedTotal: Sendable, Equatable {
    public var framework: TestResult.Framework
    public var tests: Int
    /// XCTest states its failures; Swift Testing states issues, not failed tests (nil then).
    public var failures: Int?
    public var input: Int
}

/// The tests a log names and the totals it states, per input.
public struct TestRun: Sendable {
    public var results: [TestResult] = []
    public var totals: [StatedTotal] = []
    /// `Test Suite 'AppTests.xctest' started`: the test bundles (targets) the log ran, in order.
    public var bundles: [String] = []
    /// Swift Testing's `Suite Name started`: the suites it ran, in order (its test lines name no suite).
    public var swiftTestingSuites: [String] = []
    /// Results beyond `TestRunReader.maxResults` that were counted but not kept.
    public var droppedResults = 0

    public init() {}

    public var isEmpty: Bool { results.isEmpty && totals.isEmpty }
}

/// Reads test results from lines the scanner hands it (after `LogLine` took off CI and tool prefixes).
/// Memory is bounded by the number of distinct tests (capped), never by the log's size.
struct TestRunReader {
    static let maxResults = 100_000
    /// Prefilter literals of the lines this reader wants.
    static let literals = ["Test Case '", "Test case '", "Test Suite '", "Test suite '", "Executed ", "Test run with ",
                           " passed after ", " failed after ", ") skipped", "\" skipped", "Suite "]

    private(set) var run = TestRun()
    /// Whether the log showed any test's start or result (a restart among them is the run going on).
    var sawTests: Bool { !run.results.isEmpty || !started.isEmpty || pending != nil }
    private var index: [Key: Int] = [:]
    /// Tests started and not finished, per input: a crash leaves its test here.
    private var started: [Key: (suite: String?, line: Int, input: Int)] = [:]
    /// The test started last, while it has not finished: a log prints most tests' results right after their
    /// starts, so the start waits here and goes to `started` only when another test starts first.
    private var pending: (key: Key, line: Int, input: Int)?
    /// The largest stated XCTest total per input (the outermost suite states the whole run), and the sum of
    /// the totals of the top-level suites (`All tests`, `Selected tests`), one per run, when the log has them.
    private var xctestLargest: [Int: (tests: Int, failures: Int)] = [:]
    private var xctestRuns: [Int: (tests: Int, failures: Int)] = [:]
    /// The suite whose end was the last `Test Suite '…' passed/failed` line: the next `Executed` line is its total.
    private var finishedSuite: String?

    private struct Key: Hashable {
        var suite: String
        var name: String
    }

    /// `Test Case '<id>' <status>[ on '<device>'][ (<seconds> seconds)]` read on its bytes, without a regex or
    /// Foundation: a test log has one or two of these lines per test, so they are the reader's hot path.
    static func xctestEvent(_ text: String) -> (id: String, status: String, seconds: Double?)? {
        var text = text
        return text.withUTF8 { bytes -> (String, String, Double?)? in
            let quote = UInt8(ascii: "'")
            guard bytes.count > 12, let close = bytes[11...].firstIndex(of: quote), close > 11, close + 1 < bytes.count,
                  bytes[close + 1] == UInt8(ascii: " ") else { return nil }
            let id = String(decoding: UnsafeBufferPointer(rebasing: bytes[11..<close]), as: UTF8.self)
            let rest = UnsafeBufferPointer(rebasing: bytes[(close + 2)...])
            func starts(_ word: StaticString) -> Bool {
                word.utf8CodeUnitCount <= rest.count && memcmp(rest.baseAddress!, word.utf8Start, word.utf8CodeUnitCount) == 0
            }
            let status: String
            if starts("started") { status = "started" } else if starts("passed") { status = "passed" }
            else if starts("failed") { status = "failed" } else if starts("skipped") { status = "skipped" } else { return nil }
            guard status != "started", let open = rest.lastIndex(of: UInt8(ascii: "(")) else { return (id, status, nil) }
            var end = open + 1
            while end < rest.count, (rest[end] >= 0x30 && rest[end] <= 0x39) || rest[end] == UInt8(ascii: ".") { end += 1 }
            guard end > open + 1, rest[end...].starts(with: " seconds)".utf8) else { return (id, status, nil) }
            return (id, status, Double(String(decoding: UnsafeBufferPointer(rebasing: rest[(open + 1)..<end]), as: UTF8.self)))
        }
    }

    private static let bundle = try! CompiledRegex(#"^Test [Ss]uite '(?<name>[^']+)\.xctest' started"#)
    private static let suiteWord = Array("Suite ".utf8)
    private static let suiteEnd = try! CompiledRegex(#"^Test [Ss]uite '(?<name>[^']+)' (?:passed|failed) "#)
    private static let executed = try! CompiledRegex(
        #"^Executed (?<tests>\d+) tests?, with (?:\d+ tests? skipped and )?(?<failures>\d+) failures?"#)
    private static let swiftTestingRun = try! CompiledRegex(
        #"^(?:\S{1,2}\s+)?Test run with (?<tests>\d+) tests? (?:in \d+ suites? )?(?:passed|failed) after"#)
    private static let swiftTestingSuite = try! CompiledRegex(#"^(?:\S{1,2}\s+)?Suite (?<name>"[^"]*"|[A-Za-z_][\w.]*) started"#)
    private static let swiftTestingCase = try! CompiledRegex(
        #"^(?:\S{1,2}\s+)?Test (?<name>"[^"]*"|[^\s'"][^'"]*?\))(?: with \d+ test cases?)? (?:(?<status>passed|failed) after (?<seconds>[0-9.]+) seconds|(?<skipped>skipped))"#)

    mutating func observe(_ text: String, line: Int, input: Int) {
        if text.hasPrefix("Test Case '") || text.hasPrefix("Test case '") {
            guard let (id, status, seconds) = TestRunReader.xctestEvent(text) else { return }
            // Keyed by the identifier as printed (one log prints one form); split into suite and name only
            // when a test is first recorded.
            let key = Key(suite: "\u{1}", name: id)
            switch status {
            case "started":
                if let earlier = pending { started[earlier.key] = (nil, earlier.line, earlier.input) }
                pending = (key, line, input)
            default:
                let startedAt: (line: Int, input: Int)?
                if let last = pending, last.key == key {
                    startedAt = (last.line, last.input)
                    pending = nil
                    if !started.isEmpty { started[key] = nil } // an earlier start of the same test
                } else {
                    startedAt = started.removeValue(forKey: key).map { ($0.line, $0.input) }
                }
                let start = startedAt.flatMap { $0.input == input ? $0.line : nil }
                let s: TestResult.Status = status == "passed" ? .passed : status == "failed" ? .failed : .skipped
                record(key, suite: nil, name: id, status: s, seconds: seconds, line: line, input: input, framework: .xctest, startLine: start)
            }
        } else if text.hasPrefix("Test Suite '") || text.hasPrefix("Test suite '") {
            if let name = TestRunReader.bundle.captures(in: text)?["name"], !run.bundles.contains(name), run.bundles.count < 100 {
                run.bundles.append(name)
            }
            finishedSuite = TestRunReader.suiteEnd.captures(in: text)?["name"]
        } else if text.hasPrefix("Executed ") {
            guard let c = TestRunReader.executed.captures(in: text), let tests = c["tests"].flatMap(Int.init),
                  let failures = c["failures"].flatMap(Int.init) else { return }
            // Suites state their own totals first; each run's outermost (`All tests`) states the run's.
            if finishedSuite == "All tests" || finishedSuite == "Selected tests" {
                let sum = xctestRuns[input] ?? (0, 0)
                xctestRuns[input] = (sum.tests + tests, sum.failures + failures)
            }
            finishedSuite = nil
            if tests >= xctestLargest[input]?.tests ?? -1 { xctestLargest[input] = (tests, failures) }
            let total = xctestRuns[input] ?? xctestLargest[input] ?? (tests, failures)
            run.totals.removeAll { $0.input == input && $0.framework == .xctest }
            run.totals.append(StatedTotal(framework: .xctest, tests: total.tests, failures: total.failures, input: input))
        } else if Bytes.contains(text, TestRunReader.suiteWord), !text.hasPrefix("Test Suite"), let c = TestRunReader.swiftTestingSuite.captures(in: text), let quoted = c["name"] {
            let name = TestRunReader.unquoted(quoted)
            if !run.swiftTestingSuites.contains(name), run.swiftTestingSuites.count < 1_000 { run.swiftTestingSuites.append(name) }
        } else if let c = TestRunReader.swiftTestingRun.captures(in: text), let tests = c["tests"].flatMap(Int.init) {
            run.totals.append(StatedTotal(framework: .swiftTesting, tests: tests, failures: nil, input: input))
        } else if let c = TestRunReader.swiftTestingCase.captures(in: text), let quoted = c["name"] {
            let status: TestResult.Status = c["skipped"] != nil ? .skipped : c["status"] == "passed" ? .passed : .failed
            let name = TestRunReader.unquoted(quoted)
            record(Key(suite: "", name: name), suite: nil, name: name, status: status, seconds: c["seconds"].flatMap(Double.init),
                   line: line, input: input, framework: .swiftTesting)
        }
    }

    /// Records a result; an XCTest result's `startLine` is the line its test started on (nil when unknown).
    private mutating func record(_ key: Key, suite: String?, name: String, status: TestResult.Status, seconds: Double?,
                                 line: Int, input: Int, framework: TestResult.Framework, startLine: Int? = nil) {
        // Swift Testing names a test without its suite: a second result for a name that passed is another
        // test of the same name (a retry follows only a failure).
        if framework == .swiftTesting, let i = index[key], run.results[i].status == .passed {
            index[key] = nil
            var k = key
            k.suite = "\u{0}\(run.results.count)"
            index[k] = i
        }
        if let i = index[key] {
            // A retry's result replaces the earlier one: the last run is the test's verdict.
            run.results[i].status = status
            run.results[i].duration = seconds ?? run.results[i].duration
            run.results[i].runs += 1
            run.results[i].line = line
            if framework == .xctest { run.results[i].startLine = startLine }
            return
        }
        guard run.results.count < TestRunReader.maxResults else { run.droppedResults += 1; return }
        index[key] = run.results.count
        let (suite, name) = framework == .xctest ? TestRunReader.splitTestID(name) : (suite, name)
        run.results.append(TestResult(suite: suite, name: name, status: status, duration: seconds, runs: 1, input: input, line: line,
                                      startLine: framework == .xctest ? startLine : nil, framework: framework))
    }

    /// The tests that started and never finished become crashed when the log shows a crash (`crashed`);
    /// otherwise the log was cut and they are left out.
    mutating func finish(crashed: Bool) -> TestRun {
        if let last = pending { started[last.key] = (nil, last.line, last.input); pending = nil }
        if crashed {
            for (key, start) in started.sorted(by: { ($0.value.input, $0.value.line) < ($1.value.input, $1.value.line) }) where index[key] == nil {
                index[key] = run.results.count
                let (suite, name) = TestRunReader.splitTestID(key.name)
                run.results.append(TestResult(suite: suite ?? start.suite, name: name, status: .crashed, duration: nil,
                                              runs: 1, input: start.input, line: start.line, startLine: start.line, framework: .xctest))
            }
        }
        started = [:]
        return run
    }

    /// A Swift Testing display name without its quotes.
    static func unquoted(_ name: String) -> String {
        name.count >= 2 && name.hasPrefix("\"") && name.hasSuffix("\"") ? String(name.dropFirst().dropLast()) : name
    }

    /// `-[AppTests.LoginTests testLogin]`, `AppTests.LoginTests.testLogin()`, `LoginTests/testLogin` or a bare
    /// `testLogin` → suite (if the name says it) and test name.
    static func splitTestID(_ id: String) -> (suite: String?, name: String) {
        // (Called for every test result of a test-heavy log: a printable ASCII identifier, which nearly every
        // one is, is split on its bytes; any other by its characters, without Foundation.)
        var bytes = id
        if let split = bytes.withUTF8({ splitASCII($0) }) { return split }
        var text = id
        if text.first?.isWhitespace == true || text.last?.isWhitespace == true {
            let start = text.firstIndex(where: { !$0.isWhitespace }) ?? text.endIndex
            let end = text.lastIndex(where: { !$0.isWhitespace }).map { text.index(after: $0) } ?? start
            text = start < end ? String(text[start..<end]) : ""
        }
        // A Swift Testing display name is one name, dots and slashes and all.
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { return (nil, unquoted(text)) }
        if text.hasPrefix("-["), text.hasSuffix("]") {
            text = String(text.dropFirst(2).dropLast())
            if let space = text.lastIndex(of: " ") {
                return (String(text[..<space]), String(text[text.index(after: space)...]))
            }
            return (nil, text)
        }
        // `Suite.test()`, `Target/Suite/test()`: the last separator outside the argument list.
        let head = text.firstIndex(of: "(").map { text[..<$0] } ?? text[...]
        if let cut = head.lastIndex(where: { $0 == "/" || $0 == "." }), cut > head.startIndex {
            let suite = text[..<cut]
            return (suite.contains("/") ? String(suite.map { $0 == "/" ? "." : $0 }) : String(suite), String(text[text.index(after: cut)...]))
        }
        return (nil, text)
    }

    /// `splitTestID` of printable ASCII bytes with nothing to trim and no quotes (where a byte is a
    /// character); nil for any other identifier.
    private static func splitASCII(_ b: UnsafeBufferPointer<UInt8>) -> (suite: String?, name: String)? {
        let n = b.count
        guard n > 0, b.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), b[0] != 0x20, b[n - 1] != 0x20, b[0] != 0x22 else { return nil }
        func string(_ from: Int, _ to: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[from..<to]), as: UTF8.self) }
        if n >= 3, b[0] == 0x2D, b[1] == 0x5B, b[n - 1] == 0x5D { // -[Suite test]
            guard let space = b[2..<(n - 1)].lastIndex(of: 0x20) else { return (nil, string(2, n - 1)) }
            return (string(2, space), string(space + 1, n - 1))
        }
        let head = b.firstIndex(of: 0x28) ?? n // (
        guard let cut = b[0..<head].lastIndex(where: { $0 == 0x2F || $0 == 0x2E }), cut > 0 else { return (nil, string(0, n)) }
        let suite = b[0..<cut].contains(0x2F) ? String(string(0, cut).map { $0 == "/" ? "." : $0 }) : string(0, cut)
        return (suite, string(cut + 1, n))
    }
}
