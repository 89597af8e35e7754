import Foundation

/// `--format junit`: the JUnit XML that Jenkins, GitLab, Buildkite, CircleCI and Bitrise show as test results.
///
/// One `<testcase>` per test the log names, however many lines name it: the tests it ran with their results
/// and durations (`Test Case '…' passed (0.001 seconds)`, the parallel `Test case '…' failed on 'Clone 1 of …'`,
/// Swift Testing's `Test x() passed after …`), grouped in suites, so the totals match the log's own
/// `Executed N tests, with M failures`; a failing test also named by its assertion, the `Failing tests:` list
/// or a crash restart stays one testcase, the assertion's message and location on it. A test that started
/// and never finished in a log that shows a crash is one failure. A test only a failure line names (a log cut
/// before its results) is a failed testcase too. Every other build-breaking finding becomes a failed
/// testcase of its category, so a build that never reached its tests still shows up red.
public struct JUnitReport: Sendable {
    static let maxMessageLength = 1_000

    public var redactor: Redactor
    /// Log lines quoted in a failure's body.
    public var excerptLines = 12

    public init(redactor: Redactor = .standard) {
        self.redactor = redactor
    }

    struct Case {
        var suite: String
        var name: String
        var file: String?
        var line: Int?
        var time: Double?
        var status: TestResult.Status = .failed
        var messages: [String] = []
        var details: [String] = []
        var type: String
        /// With `scan --record`: what the store knows about the failure's cause (the first finding's that has it).
        var history: CauseHistory?
        /// With `scan --record`, for a test that passed: it failed in earlier builds of this commit.
        var passedAfterFailing: FlakyEvidence?
        /// The lines the test ran over (input, first, last; a crashed test to the end): a failure line between
        /// them that names no test is this test's.
        var span: (input: Int, from: Int, to: Int)?
        /// Matching key: the suite's last component (or "") and the bare test name.
        var key: (suite: String, name: String) { (suite.isEmpty ? "" : FindingCollector.lastComponent(suite), FindingCollector.bareTestName(name)) }
    }

    public func render(_ input: Diagnosis) -> String {
        var out = ""
        write(input, to: &out)
        return out
    }

    /// The report written piece by piece to `out`: a log of 100,000 tests is never one string in memory.
    public func write<Out: TextOutputStream>(_ input: Diagnosis, to out: inout Out) {
        let context = ReportContext(input, redactor: redactor, controls: .escapedByFormat)
        var attached = Set<String>()
        var tests = testCases(context, attachedCrashes: &attached)
        var buildProperties: [(String, String)] = []
        if let history = context.diagnosis.history {
            buildProperties.append(("xcmedic.history.build", history.text))
            for flaky in history.passedAfterFailing {
                let (suite, name) = TestRunReader.splitTestID(flaky.test)
                let key = (suite.map(FindingCollector.lastComponent) ?? "", FindingCollector.bareTestName(name))
                if let i = tests.firstIndex(where: { $0.status == .passed && $0.key.name == key.1 && (key.0.isEmpty || $0.key.suite == key.0) }) {
                    tests[i].passedAfterFailing = flaky
                } else {
                    buildProperties.append(("xcmedic.flaky", "\(flaky.test) \(flaky.passedNowText)"))
                }
            }
        }
        tests.append(contentsOf: buildFailures(context, excluding: attached))
        let cases = tests
        tests = []
        // Each suite's cases by index, in order of first appearance (the cases are not copied).
        var suites: [(name: String, cases: [Int])] = []
        var suiteIndex: [String: Int] = [:]
        for (i, c) in cases.enumerated() {
            if let s = suiteIndex[c.suite] { suites[s].cases.append(i) } else { suiteIndex[c.suite] = suites.count; suites.append((c.suite, [i])) }
        }
        func failures<L: Sequence<Case>>(_ list: L) -> Int { list.filter { $0.status == .failed || $0.status == .crashed }.count }
        func skipped<L: Sequence<Case>>(_ list: L) -> Int { list.filter { $0.status == .skipped }.count }
        func time<L: Sequence<Case>>(_ list: L) -> String { JUnitReport.seconds(list.compactMap(\.time).reduce(0, +)) }

        out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        guard !cases.isEmpty else {
            // Some consumers (Jenkins by default) fail a job whose report has no testcase at all.
            out.write("<testsuites name=\"xcmedic\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\">\n")
            out.write("  <testsuite name=\"xcmedic\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\">\n")
            out.write(JUnitReport.properties(buildProperties, indent: "    "))
            out.write("    <testcase classname=\"xcmedic\" name=\"\(XML.escape("no failures in \(context.inputNames)"))\"/>\n")
            out.write("  </testsuite>\n</testsuites>\n")
            return
        }
        out.write("<testsuites name=\"xcmedic\" tests=\"\(cases.count)\" failures=\"\(failures(cases))\" errors=\"0\" skipped=\"\(skipped(cases))\" time=\"\(time(cases))\">\n")
        for suite in suites {
            let members = suite.cases.lazy.map { cases[$0] }
            out.write("  <testsuite name=\"\(XML.escape(suite.name))\" tests=\"\(suite.cases.count)\" failures=\"\(failures(members))\" errors=\"0\"")
            out.write(" skipped=\"\(skipped(members))\" time=\"\(time(members))\">\n")
            if suite.name == suites.first?.name { out.write(JUnitReport.properties(buildProperties, indent: "    ")) }
            for c in members {
                var attributes = "classname=\"\(XML.escape(c.suite))\" name=\"\(XML.escape(c.name))\""
                if let file = c.file { attributes += " file=\"\(XML.escape(file))\"" }
                if let line = c.line { attributes += " line=\"\(line)\"" }
                if let t = c.time { attributes += " time=\"\(JUnitReport.seconds(t))\"" }
                let properties = JUnitReport.properties(JUnitReport.historyProperties(c), indent: "      ")
                switch c.status {
                case .passed where properties.isEmpty:
                    out.write("    <testcase \(attributes)/>\n")
                case .passed:
                    out.write("    <testcase \(attributes)>\n" + properties)
                    if let flaky = c.passedAfterFailing { out.write("      <system-out>\(XML.escape("flaky: \(flaky.test) \(flaky.passedNowText)"))</system-out>\n") }
                    out.write("    </testcase>\n")
                case .skipped:
                    out.write("    <testcase \(attributes)>\n" + properties + "      <skipped/>\n    </testcase>\n")
                case .failed, .crashed:
                    out.write("    <testcase \(attributes)>\n" + properties)
                    // The attribute is what report pages show in a list; the whole text is in the body.
                    let full = c.messages.first ?? c.name
                    let message = full.count > JUnitReport.maxMessageLength ? String(full.prefix(JUnitReport.maxMessageLength)) + "…" : full
                    out.write("      <failure message=\"\(XML.escape(message))\" type=\"\(XML.escape(c.type))\">")
                    // Report pages that ignore properties (GitLab) show the body: the history line leads it.
                    out.write(XML.escape(((c.history.map { ["History: \($0.text)"] } ?? []) + c.details).joined(separator: "\n\n")))
                    out.write("</failure>\n")
                    out.write("    </testcase>\n")
                }
            }
            out.write("  </testsuite>\n")
        }
        out.write("</testsuites>\n")
    }

    static func seconds(_ t: Double) -> String { String(format: "%.3f", t) }

    /// A `<properties>` element (JUnit's, which Jenkins and other report pages list), or nothing without properties.
    static func properties(_ list: [(String, String)], indent: String) -> String {
        guard !list.isEmpty else { return "" }
        return indent + "<properties>\n"
            + list.map { "\(indent)  <property name=\"\(XML.escape($0.0))\" value=\"\(XML.escape($0.1))\"/>\n" }.joined()
            + indent + "</properties>\n"
    }

    /// A test case's history facts as properties: first seen (build, commit, date), recent builds, new, flaky.
    static func historyProperties(_ c: Case) -> [(String, String)] {
        var out: [(String, String)] = []
        if let h = c.history {
            out.append(("xcmedic.history", h.text))
            out.append(("xcmedic.history.firstSeen.build", h.firstSeen.label))
            out.append(("xcmedic.history.firstSeen.commit", h.firstSeen.commit))
            out.append(("xcmedic.history.firstSeen.date", HistoryDates.iso(h.firstSeen.time)))
            out.append(("xcmedic.history.recent", h.recentText))
            out.append(("xcmedic.history.newInThisBuild", String(h.newInThisBuild)))
            out.append(("xcmedic.history.fingerprint", h.fingerprint))
            if let flaky = h.flaky { out.append(("xcmedic.flaky", flaky.text)) }
        }
        if let flaky = c.passedAfterFailing { out.append(("xcmedic.flaky", "\(flaky.test) \(flaky.passedNowText)")) }
        return out
    }

    // MARK: - Tests

    /// Whether a finding is about one test (or a list of them) that the test cases carry.
    static func isTestFinding(_ f: Finding) -> Bool {
        // A restart line the log shows no crash for is text a test printed (its role says so), not a test.
        (f.category == FindingCategory.testFailure || (f.category == FindingCategory.testRunnerCrash && f.role != .symptom)) && names(test: f)
    }

    static func names(test f: Finding) -> Bool {
        !(f.captures["test"] ?? "").isEmpty || !(f.collected["test"] ?? []).isEmpty || !(f.collected["tests"] ?? []).isEmpty
    }

    func testCases(_ context: ReportContext) -> [Case] {
        var attached = Set<String>()
        return testCases(context, attachedCrashes: &attached)
    }

    /// The test cases, and the crash findings that became the failure of a crashed test (`rule NUL message`).
    func testCases(_ context: ReportContext, attachedCrashes: inout Set<String>) -> [Case] {
        let diagnosis = context.diagnosis
        var cases: [Case] = diagnosis.tests.results.map { r in
            var c = Case(suite: r.suite ?? "", name: r.name, time: r.duration, status: r.status, type: FindingCategory.testFailure)
            switch r.status {
            case .failed:
                c.messages = ["\(r.name) failed"]
                c.details = ["\(r.name) failed (\(context.logLine(Occurrence(line: r.line, input: r.input), always: true)))"]
            case .crashed:
                c.type = FindingCategory.testRunnerCrash
                c.messages = ["\(r.name) started and never finished: the test process crashed or was stopped"]
                c.details = ["\(r.name) started (\(context.logLine(Occurrence(line: r.line, input: r.input), always: true))) and never finished"]
            case .passed, .skipped: break
            }
            if let start = r.startLine { c.span = (r.input, start, r.status == .crashed ? Int.max : r.line) }
            return c
        }
        // The cases by bare test name, in order: a log of 100,000 tests is looked up, not walked, per failure.
        var byName: [String: [Int]] = [:]
        for i in cases.indices { byName[FindingCollector.bareTestName(cases[i].name), default: []].append(i) }
        func find(_ suite: String?, _ name: String) -> Int? {
            let key = (suite.map(FindingCollector.lastComponent) ?? "", FindingCollector.bareTestName(name))
            let named = byName[key.1] ?? []
            return named.first { key.0.isEmpty || cases[$0].key.suite.isEmpty || cases[$0].key.suite == key.0 }
                ?? (key.0.isEmpty && named.count == 1 ? named[0] : nil)
        }
        // Swift Testing's `Suite X failed after …` names a suite, not a test.
        let suites = Set(diagnosis.tests.swiftTestingSuites)
        for f in diagnosis.findings where JUnitReport.isTestFinding(f) && !suites.contains(TestRunReader.unquoted(f.captures["test"] ?? "")) {
            let detail = self.detail(f, context)
            var named: [(suite: String?, name: String, location: SourceLocation?)] = []
            if let test = f.captures["test"], !test.isEmpty {
                var (suite, name) = TestRunReader.splitTestID(test)
                if let s = f.captures["suite"], !s.isEmpty, s.split(separator: ".").count >= (suite?.split(separator: ".").count ?? 0) { suite = s }
                named.append((suite, name, f.location))
            }
            for key in ["test", "tests"] {
                for value in f.collected[key] ?? [] where !value.isEmpty {
                    let (suite, name) = TestRunReader.splitTestID(value)
                    named.append((suite, name, nil))
                }
            }
            for (suite, name, location) in named {
                let i: Int
                if let found = find(suite, name) {
                    i = found
                } else {
                    cases.append(Case(suite: suite ?? "", name: name, type: f.category))
                    i = cases.count - 1
                    byName[FindingCollector.bareTestName(name), default: []].append(i)
                }
                if cases[i].status == .passed || cases[i].status == .skipped {
                    // A line from an earlier run of a test that passed on a retry: the verdict is the last run's.
                    continue
                }
                add(f, detail: detail, location: location, to: &cases[i])
            }
        }
        // A failure line that names no test (a UI test's `Assertion Failure`, an app that would not launch, a crash) is the failure of the test
        // that was running (between its start and result lines, or started and never finished): one testcase.
        for f in diagnosis.findings where f.severity == .error && !JUnitReport.isTestFinding(f) {
            guard let first = f.occurrences.first,
                  let i = cases.indices.last(where: { i in
                      (cases[i].status == .failed || cases[i].status == .crashed)
                          && (cases[i].span.map { $0.input == first.input && $0.from < first.line && first.line <= $0.to } ?? false)
                  })
            else { continue }
            add(f, detail: detail(f, context), location: f.location, to: &cases[i])
            attachedCrashes.insert(f.rule + "\u{0}" + f.message)
        }
        // A test without a suite (Swift Testing names none on its result lines) is filed under the one suite
        // the log ran, else its source file's name (Swift Testing suites are usually one per file), else `Tests`.
        let sole = diagnosis.tests.swiftTestingSuites.count == 1 ? diagnosis.tests.swiftTestingSuites[0] : nil
        for i in cases.indices where cases[i].suite.isEmpty {
            cases[i].suite = sole ?? cases[i].file.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent } ?? "Tests"
        }
        return cases
    }

    private func add(_ f: Finding, detail: String, location: SourceLocation?, to c: inout Case) {
        if c.history == nil { c.history = f.history }
        if c.file == nil, let loc = location {
            c.file = loc.file
            c.line = loc.line
        }
        if f.category == FindingCategory.testRunnerCrash { c.type = f.category }
        // The assertion's own message says more than the `failed (0.003 seconds)` line and the list.
        let generic = c.messages.first.map { $0.hasSuffix(" failed") || $0.hasSuffix("never finished: the test process crashed or was stopped") } ?? true
        if !c.messages.contains(f.message) {
            if location != nil || generic { c.messages.insert(f.message, at: 0) } else { c.messages.append(f.message) }
        }
        if !c.details.contains(detail) { c.details.append(detail) }
    }

    /// `-[AppTests.LoginTests testLogin]`, `AppTests.LoginTests.testLogin()`, `LoginTests/testLogin`
    /// or a bare `testLogin` → suite (if the name says it) and test name.
    static func splitTestID(_ id: String) -> (suite: String?, name: String) {
        let (suite, name) = TestRunReader.splitTestID(id)
        return (suite, name)
    }

    // MARK: - Build failures

    func buildFailures(_ context: ReportContext, excluding attached: Set<String> = []) -> [Case] {
        let diagnosis = context.diagnosis
        let breaking = diagnosis.findings.filter { f in
            f.severity == .error && !JUnitReport.isTestFinding(f) && !attached.contains(f.rule + "\u{0}" + f.message)
        }
        // Wrappers (`** BUILD FAILED **`) only when nothing else says what broke.
        let real = breaking.filter { $0.role != .symptom }
        let testsFailed = diagnosis.findings.contains(where: JUnitReport.isTestFinding)
            || diagnosis.tests.results.contains { $0.status == .failed || $0.status == .crashed }
        // When tests failed, an error no rule knows is most often a line a test printed, not a build failure.
        let chosen = real.isEmpty && !testsFailed ? breaking : testsFailed ? real.filter { $0.role == .cause } : real
        var cases: [Case] = []
        for f in chosen {
            var name = FindingCollector.clip(f.message.isEmpty ? f.title : f.message)
            var n = 2
            while cases.contains(where: { $0.suite == f.category && $0.name == name }) {
                name = FindingCollector.clip(f.message.isEmpty ? f.title : f.message) + " (\(n))"
                n += 1
            }
            var c = Case(suite: f.category, name: name, type: f.rule)
            c.file = f.location?.file
            c.line = f.location?.line
            c.messages = [f.message.isEmpty ? f.title : f.message]
            c.details = [detail(f, context)]
            c.history = f.history
            cases.append(c)
        }
        return cases
    }

    /// The failure's body: message, where, what it means, the first fix and the log lines.
    private func detail(_ f: Finding, _ context: ReportContext) -> String {
        var lines = ["\(f.title): \(f.message)"]
        if let loc = f.location { lines.append("at \(context.locationText(loc))") }
        if f.occurrences.first != nil { lines.append("log: \(context.logPlace(f))") }
        if f.role != .symptom { lines.append(f.explanation) }
        if let fix = f.fixes.first {
            lines.append("Fix: \(fix.summary)")
            lines.append(contentsOf: fix.commands.map { "  $ \($0)" })
        }
        if !f.excerpt.isEmpty {
            lines.append("")
            lines.append(contentsOf: f.excerpt.prefix(excerptLines))
        }
        return lines.joined(separator: "\n")
    }
}

/// Escaping for XML 1.0 text and attribute values.
enum XML {
    /// Escapes `& < > " '`. The C0 controls XML 1.0 cannot carry at all (all but tab, line feed and carriage
    /// return) are written visibly as `\u{XX}`, as the text reports write them; DEL and C1, which it allows,
    /// as character references (`&#x9B;`) so no raw one reaches a terminal; U+FFFE and U+FFFF are dropped.
    /// Line breaks and tabs are written as character references so attribute values keep them (parsers
    /// normalise literal ones to spaces).
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default:
                if scalar.value < 0x20 {
                    out += TerminalSafe.visible(String(scalar))
                } else if scalar.value >= 0x7F && scalar.value <= 0x9F {
                    out += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
                } else if isAllowed(scalar) {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// XML 1.0 `Char`: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: return true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
