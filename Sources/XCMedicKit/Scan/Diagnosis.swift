import Foundation

/// One place in a log where a finding's line stood.
public struct Occurrence: Sendable, Equatable {
    /// 1-based line number in the input as read (prefixes and all).
    public var line: Int
    /// Index into `Diagnosis.inputs`.
    public var input: Int
    /// File, line and column the log line names, if it names them.
    public var location: SourceLocation?
}

extension [Occurrence] {
    /// Each occurrence's file through `transform`, written only where it changes: the occurrences are
    /// shared with the diagnosis they came from until one of them differs.
    mutating func mapFiles(_ transform: (String) -> String) {
        for i in indices {
            guard let file = self[i].location?.file else { continue }
            let changed = transform(file)
            if changed != file { self[i].location?.file = changed }
        }
    }
}

/// A named failure (or an error no rule knows) with everything a user needs to act on it.
public struct Finding: Sendable {
    public static let unrecognizedID = "unrecognized"

    public var rule: String
    public var category: String
    public var severity: Severity
    public var role: Role
    public var title: String
    public var message: String
    public var captures: [String: String]
    /// Values collected from continuation lines (`symbols` of an undefined-symbols block).
    public var collected: [String: [String]]
    public var count: Int
    /// The first occurrences (at most `Diagnosis.maxOccurrences`, and past `Diagnosis.maxStoredOccurrences`
    /// in the whole diagnosis only the first); `count` counts them all.
    public var occurrences: [Occurrence]
    /// The first occurrence's line and the lines that belong to it, as printed in the log.
    public var excerpt: [String]
    public var explanation: String
    public var fixes: [Fix]
    public var docs: [String]
    /// A warning today that the Swift 6 language mode makes an error.
    public var errorInSwift6: Bool
    /// The rule's `consequence_of`: categories of a root cause that make this finding a symptom of it.
    var consequenceOf: [String] = []
    /// The rule's `test_restart`: the line is xcodebuild restarting after a test crashed.
    var testRestart = false
    /// The rule's `last_resort`: its words may be read for a category when nothing names a cause.
    var lastResort = false
    /// The rule's `category_outside_build`, until an occurrence shows an Xcode build around its line
    /// (`Scanner.showsXcodeBuild`); applied at the end when the log shows none (`placeOutsideBuild`).
    var categoryOutsideBuild: String?
    /// What the history store knows about this cause (`scan --record`); nil without a store.
    public var history: CauseHistory?

    public var firstLine: Int { occurrences.first?.line ?? 0 }
    public var location: SourceLocation? { occurrences.first(where: { $0.location != nil })?.location }
}

/// What a scanned log says, in the order a user should read it.
public struct Diagnosis: Sendable {
    public enum Status: String, Sendable { case failed, passed, unknown }

    public struct Input: Sendable, Equatable {
        public var path: String
        public var bytes: Int
        public var lines: Int
        public var dialect: String
        /// The last meaningful lines of the input (up to `Diagnosis.maxEndLines`, oldest first): where a log with no
        /// build result stops, which a report shows when nothing else says why.
        public var lastLines: [String] = []

        /// How reports name the input: `stdin` for `-`.
        public var displayName: String { Input.displayName(path) }
        public static func displayName(_ path: String) -> String { path == "-" ? "stdin" : path }
    }

    public static let schemaVersion = 1
    static let maxOccurrences = 200
    /// Occurrences kept across all findings beyond each finding's first: a log of 100,000 distinct errors
    /// must not hold a path for every one of them (issue 17: 128,150 kept on the 200 MB error log).
    static let maxStoredOccurrences = 20_000
    static let maxExcerptLines = 24
    static let maxEndLines = 6
    static let maxExcerptLineLength = 400
    static let maxFindings = 5_000

    public var status: Status
    public var inputs: [Input]
    public var findings: [Finding]
    /// Distinct findings beyond `maxFindings` that were counted but not kept.
    public var droppedFindings: Int
    /// The tests the logs name with their results, and the totals the logs state.
    public var tests = TestRun()
    /// Per input: how its build was started, as far as it says.
    public var invocations: [Invocation] = []

    /// Writes each finding's fix commands for the build of its input (`Invocation.fill`).
    mutating func fillFixes() {
        for i in findings.indices {
            let input = findings[i].occurrences.first?.input ?? 0
            let invocation = invocations.indices.contains(input) ? invocations[input] : Invocation()
            findings[i].fixes = findings[i].fixes.map { invocation.fill($0, captures: findings[i].captures) }
        }
    }
    /// The recorded build (`scan --record`); nil without a store.
    public var history: BuildHistory?

    public var causes: [Finding] { findings.filter { $0.role == .cause } }
    public var highestSeverity: Severity? { findings.map(\.severity).max() }
}

/// Collects occurrences into findings while the scan runs, in memory bounded by the number of
/// distinct findings, not by the log's size.
struct FindingCollector {
    /// A finding's identity: its rule and its captures, as one array of names and values in the names' order
    /// (hashed in one pass; a dictionary hashes each entry with a hasher of its own).
    private struct Key: Hashable {
        var rule: String
        var captures: [String]

        init(rule: String, captures: [String: String]) {
            self.rule = rule
            self.captures = captures.count == 1 ? [captures.first!.key, captures.first!.value]
                : captures.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
        }
    }

    private var index: [Key: Int] = [:]
    private(set) var findings: [Finding] = []
    private(set) var dropped = 0
    /// Occurrences kept beyond each finding's first (`Diagnosis.maxStoredOccurrences`).
    private var storedOccurrences = 0
    var sawSuccess = false
    /// The log showed tests starting or finishing (`TestRunReader.sawTests`).
    var sawTests = false
    /// Per input: the line of the last marker that a whole build or test run succeeded.
    var lastSuccess: [Int: Int] = [:]
    /// Per input: the line of App Store Connect's notice that it accepted an upload with issues (`ScanMarkers.delivered`).
    var delivered: [Int: Int] = [:]
    /// Last-resort causes read off a line that is failure evidence itself (Carthage's `Task failed with exit code 65:`,
    /// a wrapper's line): a reason inferred from a bare status, which an error's own words outrank (`classifyUnrecognized`).
    var readOffStatus: Set<Int> = []

    /// Adds an occurrence; returns the finding's index and whether this was its first occurrence.
    /// `message` and `fixes` are only rendered for a new finding: a log may repeat one line thousands of times.
    mutating func add(rule: Rule?, fixes: @autoclosure () -> [Fix] = [], captures: [String: String], message: @autoclosure () -> String,
                      severity: Severity, occurrence: Occurrence, excerptLine: String, errorInSwift6: Bool) -> (Int, Bool)? {
        let id = rule?.id ?? Finding.unrecognizedID
        let key = Key(rule: id, captures: rule == nil ? ["message": message()] : captures)
        if let i = index[key] {
            findings[i].count += 1
            if findings[i].occurrences.count < Diagnosis.maxOccurrences, storedOccurrences < Diagnosis.maxStoredOccurrences {
                findings[i].occurrences.append(occurrence)
                storedOccurrences += 1
            }
            if severity > findings[i].severity { findings[i].severity = severity }
            findings[i].errorInSwift6 = findings[i].errorInSwift6 || errorInSwift6
            return (i, false)
        }
        guard findings.count < Diagnosis.maxFindings else {
            dropped += 1
            return nil
        }
        let finding = Finding(
            rule: id,
            category: rule?.category ?? FindingCategory.unrecognized,
            severity: severity,
            role: rule?.role ?? .unrecognized,
            title: rule?.title ?? "Error no rule recognises",
            message: message(),
            captures: captures,
            collected: [:],
            count: 1,
            occurrences: [occurrence],
            excerpt: [FindingCollector.clip(excerptLine)],
            explanation: rule?.explanation
                ?? "xcmedic has no rule for this error, so it is shown as printed. The lines around it in the log usually say more.",
            fixes: fixes(),
            docs: rule?.docs ?? [],
            errorInSwift6: errorInSwift6,
            consequenceOf: rule?.consequenceOf ?? [],
            testRestart: rule?.testRestart ?? false,
            lastResort: rule?.lastResort ?? false,
            categoryOutsideBuild: rule?.categoryOutsideBuild
        )
        index[key] = findings.count
        findings.append(finding)
        return (findings.count - 1, true)
    }

    /// An occurrence of the finding stands in an Xcode build: its category stays the rule's.
    mutating func keepCategory(_ i: Int) {
        findings[i].categoryOutsideBuild = nil
    }

    /// A log that shows no Xcode build (`xcodeBuildShown` false) gives the findings whose rule has a
    /// `category_outside_build`, and whose lines showed no build, that category.
    mutating func placeOutsideBuild(xcodeBuildShown: Bool) {
        for i in findings.indices {
            guard let other = findings[i].categoryOutsideBuild else { continue }
            findings[i].categoryOutsideBuild = nil
            if !xcodeBuildShown { findings[i].category = other }
        }
    }

    mutating func appendExcerpt(_ i: Int, _ line: String) {
        guard findings[i].excerpt.count < Diagnosis.maxExcerptLines else { return }
        findings[i].excerpt.append(FindingCollector.clip(line))
    }

    /// How many errors no rule knows `classifyUnrecognized` reads for their words.
    static let keywordReadLimit = 1_000

    /// When the log failed and no rule names a cause, the errors no rule knows are read for their
    /// words (`KeywordClassifier`): up to three whose words point at a category become causes of it,
    /// saying so. Errors before a final success are left alone (they were not fatal). Only the first
    /// `keywordReadLimit` are read: a log of thousands of errors no rule knows (a tool's own output) says
    /// no more in its ten-thousandth than in its first thousand, and each read runs the words' regexes.
    ///
    /// A rule's own warning that is a cause and a last resort (a toolchain older than the one a workload recommends)
    /// is what a person reads as the reason when the log failed with errors no rule names: it becomes the
    /// error-severity cause, under its rule's title, and the words of the unnamed errors are not read. One read off a
    /// line of failure evidence (`readOffStatus`) is the cause only when no unnamed error's words point at a category.
    mutating func classifyUnrecognized() {
        guard !findings.contains(where: { $0.role == .cause && $0.severity == .error }) else { return }
        let explaining = findings.indices.filter { findings[$0].role == .cause && findings[$0].lastResort && findings[$0].severity == .warning }
        if !explaining.isEmpty, findings.contains(where: { $0.severity == .error }) {
            // A reason read off a bare exit status yields to an error no rule names whose own words point at a category
            // (`CodeSign error: code signing is required …` above Carthage's `Task failed with exit code 65:`); a warning
            // of its own (MT0079's Xcode older than the workload's) does not.
            let strong = explaining.filter { !readOffStatus.contains($0) }
            if strong.isEmpty {
                readUnrecognizedWords(evidence: false)
                if findings.contains(where: { $0.role == .cause && $0.severity == .error }) { return }
            }
            for i in strong.isEmpty ? explaining : strong {
                findings[i].severity = .error
                findings[i].explanation = "The build failed with errors no rule names, and this warning is the likely reason. " + findings[i].explanation
            }
            return
        }
        readUnrecognizedWords(evidence: true)
    }

    /// The errors no rule names (and, with `evidence`, last-resort evidence), read for their words until three point at
    /// a category.
    private mutating func readUnrecognizedWords(evidence: Bool) {
        guard let classifier = try? KeywordClassifier.builtin() else { return }
        var promoted = 0
        var read = 0
        let order = findings.indices.filter {
            (findings[$0].role == .unrecognized && findings[$0].severity == .error) || (evidence && findings[$0].lastResort && findings[$0].role != .cause)
        }
            .sorted { (findings[$0].occurrences.first?.input ?? 0, findings[$0].firstLine) < (findings[$1].occurrences.first?.input ?? 0, findings[$1].firstLine) }
        var promotedUnrecognized = false
        for i in order where promoted < 3 && read < Self.keywordReadLimit {
            if let first = findings[i].occurrences.first, let success = lastSuccess[first.input], first.line < success { continue }
            // Failure evidence that names nothing itself (a backtrace, an NSError dump) says no more than an error
            // already read for its words: it is only read when no such error pointed at a category.
            if promotedUnrecognized, findings[i].role != .unrecognized { continue }
            read += 1
            let text = ([findings[i].message] + findings[i].excerpt).joined(separator: "\n")
            if let category = classifier.category(of: text) {
                findings[i].category = category
                findings[i].title = "An error no rule names; its words point at \(category)"
                findings[i].explanation = "xcmedic has no rule for this message, so it is shown as printed. It is the only error in the log, "
                    + "and its words point at \(category) (the category was read from the words, not from a rule). " + findings[i].explanation
            } else if let action = findings[i].collected[Scanner.actionKey]?.first {
                // Printed by a GitHub Action's own code (a `uses:` step), in words that name nothing else: the job's
                // set-up failed, not the build.
                findings[i].category = FindingCategory.ciEnvironment
                findings[i].title = "The GitHub Action \(action) failed"
                findings[i].explanation = "The error was printed by the GitHub Action \(action) (a `uses:` step of the workflow), and no rule "
                    + "names it: the action itself failed, before or around the build. Actions break when the tools they install "
                    + "move on (a release asset renamed, a runner image they do not know); a newer release of the action, or "
                    + "pinning the version it installs, usually fixes it. " + findings[i].explanation
            } else {
                continue
            }
            if findings[i].role == .unrecognized { promotedUnrecognized = true }
            findings[i].role = .cause
            findings[i].severity = .error
            promoted += 1
        }
    }

    /// In a log with no verdict, the warnings of last-resort rules (an NSError dump no rule names: a warning
    /// where the log shows how the run ended, as tools print errors they recover from) are the failure evidence
    /// there is: they become errors. Only those the scanner read from lines with no level of their own (not a
    /// `note:` that quotes an NSError).
    mutating func raiseLastResortWarnings(_ indices: Set<Int>) {
        for i in indices where findings.indices.contains(i) && findings[i].severity == .warning {
            findings[i].severity = .error
        }
    }

    /// An unrecognised finding made from a sentence that says something failed, in a log with no other verdict.
    mutating func describeStatement(_ i: Int) {
        findings[i].title = "A failure no rule names"
        findings[i].explanation = "The log shows no error line and no sign that the build or tests succeeded, and this line says "
            + "something failed, so the log is read as failed. xcmedic has no rule for the message; it is shown as printed."
    }

    /// Lines that stood before the finding's line (a failed step's output), in log order.
    mutating func prependExcerpt(_ i: Int, _ lines: [String]) {
        guard !lines.isEmpty else { return }
        let room = max(0, Diagnosis.maxExcerptLines - findings[i].excerpt.count)
        findings[i].excerpt.insert(contentsOf: lines.suffix(room).map(FindingCollector.clip), at: 0)
    }

    mutating func collect(_ i: Int, name: String, value: String) {
        var list = findings[i].collected[name] ?? []
        guard list.count < 100, !list.contains(value) else { return }
        list.append(value)
        findings[i].collected[name] = list
    }

    static func clip(_ line: String) -> String {
        line.count > Diagnosis.maxExcerptLineLength ? String(line.prefix(Diagnosis.maxExcerptLineLength)) + "…" : line
    }

    /// Root causes first (errors before warnings, then by first line), then unrecognised errors, then symptoms.
    func diagnosis(inputs: [Diagnosis.Input]) -> Diagnosis {
        func roleRank(_ r: Role) -> Int { r == .cause ? 0 : r == .unrecognized ? 1 : 2 }
        let adjusted = FindingCollector.acceptedUploadIssues(FindingCollector.nonFatalBeforeSuccess(FindingCollector.oneCausePerTest(
            FindingCollector.foldLessInformative(findings), runShown: sawSuccess || sawTests), lastSuccess: lastSuccess), delivered: delivered)
        // The order is found on each finding's keys and the findings moved once: 5,000 findings are large values to
        // shuffle, and copying one to compare it retains all its parts.
        let keys = adjusted.map { f in (rank: roleRank(f.role), severity: f.severity, input: f.occurrences.first?.input ?? 0, line: f.firstLine) }
        let order = keys.indices.sorted { i, j in
            let a = keys[i], b = keys[j]
            if a.rank != b.rank { return a.rank < b.rank }
            if a.severity != b.severity { return a.severity > b.severity }
            if a.input != b.input { return a.input < b.input }
            return a.line < b.line
        }
        let ordered = order.map { adjusted[$0] }
        let failed = ordered.contains { $0.severity == .error }
        let status: Diagnosis.Status = failed ? .failed : (sawSuccess ? .passed : .unknown)
        return Diagnosis(status: status, inputs: inputs, findings: ordered, droppedFindings: dropped, history: nil)
    }

    /// Two lists of occurrences, each in log order (they are recorded as the log is read), merged in log order and
    /// cut at `Diagnosis.maxOccurrences`; on a tie the first list's comes first, as a stable sort of both would put it.
    static func mergedInOrder(_ a: [Occurrence], _ b: [Occurrence]) -> [Occurrence] {
        func inOrder(_ list: [Occurrence]) -> Bool {
            zip(list, list.dropFirst()).allSatisfy { ($0.input, $0.line) <= ($1.input, $1.line) }
        }
        // An occurrence added after the scan (a step the log names but does not show) may stand out of order.
        guard inOrder(a), inOrder(b) else {
            return Array((a + b).sorted { ($0.input, $0.line) < ($1.input, $1.line) }.prefix(Diagnosis.maxOccurrences))
        }
        var out: [Occurrence] = []
        out.reserveCapacity(min(a.count + b.count, Diagnosis.maxOccurrences))
        var i = 0, j = 0
        while out.count < Diagnosis.maxOccurrences, i < a.count || j < b.count {
            if j == b.count || (i < a.count && (a[i].input, a[i].line) <= (b[j].input, b[j].line)) {
                out.append(a[i]); i += 1
            } else {
                out.append(b[j]); j += 1
            }
        }
        return out
    }

    /// One failure that a rule recognises on two lines, one of which names less (setup-xcode's table of the
    /// runner's Xcodes, then its error naming the version asked for), is one finding: a finding whose
    /// captures are a subset of another finding's of the same rule, with the same message, is folded into
    /// that one (its count and occurrences added, in log order).
    static func foldLessInformative(_ findings: [Finding]) -> [Finding] {
        // Grouped by rule and message, so an error-dense log's thousands of distinct findings are not compared pairwise.
        struct Key: Hashable { var rule: String, message: String }
        var groups: [Key: [Int]] = [:]
        for i in findings.indices where findings[i].rule != Finding.unrecognizedID {
            groups[Key(rule: findings[i].rule, message: findings[i].message), default: []].append(i)
        }
        var folded = Set<Int>()
        var result = findings
        for indices in groups.values where indices.count > 1 {
            for a in indices {
                guard let b = indices.first(where: { b in
                    b != a && !folded.contains(b)
                        && result[a].captures.count < result[b].captures.count
                        && result[a].captures.allSatisfy { result[b].captures[$0.key] == $0.value }
                }) else { continue }
                result[b].count += result[a].count
                result[b].occurrences = mergedInOrder(result[a].occurrences, result[b].occurrences)
                if result[a].severity > result[b].severity { result[b].severity = result[a].severity }
                result[b].errorInSwift6 = result[b].errorInSwift6 || result[a].errorInSwift6
                folded.insert(a)
            }
        }
        return folded.isEmpty ? findings : result.indices.filter { !folded.contains($0) }.map { result[$0] }
    }

    /// A failing test is one root cause however many lines report it. XCTest prints the assertion
    /// (`file:line: error: -[Suite test] : message`) and then `Test Case '-[Suite test]' failed (…)`;
    /// Swift Testing prints `Test x() recorded an issue at …` and then `Test x() failed after …`. The
    /// later line of another rule naming a test an earlier root cause already names becomes a symptom
    /// of it (two assertions of one test, from the same rule, stay two causes: they are two issues).
    ///
    /// A finding whose rule says `consequence_of: [category, ...]` becomes a symptom when another rule's
    /// finding of one of those categories is a root cause (Xcode's generic "Code signing is required"
    /// follows the line that says why signing is impossible).
    ///
    /// A finding whose rule says `test_restart: true` ("Restarting after unexpected exit … in
    /// Suite.test()") is a root cause only when the log shows the crash: a crash or timeout finding, or
    /// another line naming that test (the `Failing tests:` list, the test's failure line). Without
    /// either it is text a test printed (xcbeautify's own test logs print these lines as sample
    /// output), not an xcodebuild restart.
    /// Errors that a later `** BUILD SUCCEEDED **` (or SwiftPM's `Build complete!`, Swift Testing's
    /// passing run) shows were not fatal: a script that printed `error:` and went on, a retried step
    /// that passed. They stay in the report as warnings. Only when nothing after that line is an
    /// error: a failure after the success (a later step, a CI annotation) keeps every error.
    static func nonFatalBeforeSuccess(_ findings: [Finding], lastSuccess: [Int: Int]) -> [Finding] {
        guard !lastSuccess.isEmpty else { return findings }
        var result = findings
        for (input, successLine) in lastSuccess {
            let errorAfter = findings.contains { f in
                f.severity == .error && f.occurrences.contains { $0.input == input && $0.line > successLine }
            }
            guard !errorAfter else { continue }
            for i in result.indices where result[i].severity == .error {
                let occurrences = result[i].occurrences
                guard occurrences.count == result[i].count,
                      occurrences.allSatisfy({ $0.input == input && $0.line < successLine }) else { continue }
                result[i].severity = .warning
            }
        }
        return result
    }

    /// App Store Connect's issues for an upload it says it accepted (`Although delivery was successful, …` above them) are
    /// warnings: the build was delivered, and the issues are for the next one.
    static func acceptedUploadIssues(_ findings: [Finding], delivered: [Int: Int]) -> [Finding] {
        guard !delivered.isEmpty else { return findings }
        var result = findings
        for i in result.indices where result[i].severity == .error && result[i].category == FindingCategory.appStoreUpload {
            let occurrences = result[i].occurrences
            guard occurrences.count == result[i].count,
                  occurrences.allSatisfy({ o in delivered[o.input].map { o.line > $0 } ?? false }) else { continue }
            result[i].severity = .warning
            result[i].title = "App Store Connect accepted the upload and lists an issue to fix in the next one"
        }
        return result
    }

    /// Lines before a restart within which an error no rule knows counts as the crash it restarted after.
    static let crashWindow = 12

    static func oneCausePerTest(_ findings: [Finding], runShown: Bool = true) -> [Finding] {
        func testKey(_ f: Finding) -> (suite: String?, test: String)? {
            guard let raw = f.captures["test"], !raw.isEmpty else { return nil }
            return (f.captures["suite"].map(lastComponent), bareTestName(raw))
        }
        func key(_ f: Finding) -> (suite: String?, test: String)? {
            f.category == FindingCategory.testFailure ? testKey(f) : nil
        }
        func same(_ a: (suite: String?, test: String), _ b: (suite: String?, test: String)) -> Bool {
            guard a.test == b.test else { return false }
            guard let s = a.suite, let t = b.suite else { return true }
            return s == t
        }
        var result = findings
        let order = result.indices.sorted { (result[$0].occurrences.first?.input ?? 0, result[$0].firstLine) < (result[$1].occurrences.first?.input ?? 0, result[$1].firstLine) }
        var named: [(rule: String, key: (suite: String?, test: String))] = []
        for i in order where result[i].role == .cause {
            guard let k = key(result[i]) else { continue }
            if named.contains(where: { $0.rule != result[i].rule && same($0.key, k) }) {
                result[i].role = .symptom
            } else {
                named.append((result[i].rule, k))
            }
        }
        // xcodebuild's closing `Failing tests:` list repeats tests already reported one by one.
        for i in result.indices where result[i].role == .cause && result[i].category == FindingCategory.testFailure && key(result[i]) == nil {
            let listed = (result[i].collected["tests"] ?? []) + (result[i].collected["test"] ?? [])
            guard !listed.isEmpty else { continue }
            if listed.allSatisfy({ entry in named.contains { $0.key.test == bareTestName(entry) } }) { result[i].role = .symptom }
        }
        // `consequence_of`: judged on the causes as they stand before this step, so the order of the
        // findings does not matter.
        // Two summaries that would each be a consequence of the other (a Swift Testing suite's failure, the
        // run's totals) do not both go: the one that names something (a suite, a test) stays. A cause that is only a
        // warning (a simctl error a tool recovers from) does not make an error its consequence.
        let causes = result.filter { $0.role == .cause }
        for i in result.indices where result[i].role == .cause && !result[i].consequenceOf.isEmpty {
            let reasons = result[i].consequenceOf, rule = result[i].rule, category = result[i].category, severity = result[i].severity
            let namesNothing = result[i].captures.isEmpty
            if causes.contains(where: { $0.rule != rule && reasons.contains($0.category) && $0.severity >= severity
                    && (!$0.consequenceOf.contains(category) || (namesNothing && !$0.captures.isEmpty)) }) {
                result[i].role = .symptom
            }
        }
        let sawCrash = findings.contains { $0.category == FindingCategory.testRunnerCrash && $0.role == .cause && !$0.testRestart }
        for i in result.indices where result[i].testRestart && result[i].role == .cause && !sawCrash {
            guard let k = testKey(result[i]) else { continue }
            // The crash may be a line no rule knows, just before the restart (a mock's `--- FATAL ERROR: … ---`,
            // a framework's own assertion): an error there shows it.
            if let restart = result[i].occurrences.first, result.contains(where: { other in
                other.role == .unrecognized && other.severity == .error && other.occurrences.contains {
                    $0.input == restart.input && $0.line < restart.line && restart.line - $0.line <= crashWindow
                }
            }) { continue }
            let namedElsewhere = result.indices.contains { j in
                guard j != i else { return false }
                if let other = key(result[j]), same(other, k) { return true }
                let listed = (result[j].collected["tests"] ?? []) + (result[j].collected["test"] ?? [])
                return listed.contains { bareTestName($0) == k.test }
            }
            // A restart of a test nothing else names is the run going on (its test may have passed on the new launch),
            // unless the log shows nothing of the run, no test and no success: then the restart is all there is to say.
            if !namedElsewhere && runShown { result[i].role = .symptom }
        }
        return result
    }

    /// `testLogin()`, `-[Suite testLogin]`, `Suite.testLogin()` or `Suite/testLogin` → `testLogin`.
    static func bareTestName(_ raw: String) -> String {
        var text = Substring(raw.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("-["), text.hasSuffix("]") {
            text = text.dropFirst(2).dropLast()
            if let space = text.lastIndex(of: " ") { text = text[text.index(after: space)...] }
        }
        // Swift Testing's parameterized `test(value:) with 3 test cases` is the test `test(value:)`.
        if text.contains(" with "), let with = text.range(of: #" with \d+ test cases?$"#, options: .regularExpression) {
            text = text[..<with.lowerBound]
        }
        if text.hasSuffix("()") { text = text.dropLast(2) }
        if let cut = text.lastIndex(where: { $0 == "." || $0 == "/" }) { text = text[text.index(after: cut)...] }
        return String(text)
    }

    /// `App.LoginTests` → `LoginTests`: Darwin names the module, Linux and xcodebuild's restarts may not.
    static func lastComponent(_ suite: String) -> String {
        suite.split(separator: ".").last.map(String.init) ?? suite
    }
}
