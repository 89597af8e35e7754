import Foundation

/// A regular expression with the names of its captures, ready to run on one line.
///
/// Most of the catalog's patterns also compile to a `ByteRegex`, which matches the line's UTF-8 in
/// place and gives the same first match and captures; `NSRegularExpression` runs only for the
/// patterns and lines that one leaves to ICU, and is only built when one needs it.
final class CompiledRegex: @unchecked Sendable { // immutable but for the engines, which `lock` guards
    let pattern: String
    let ignoreCase: Bool
    let names: [String]
    /// The pattern can look before where its match starts (`^`, `\b`, `\B`, `\A`, `\G` or a lookbehind):
    /// then a match in a line's suffix need not be a match in the whole line.
    let looksBeforeStart: Bool
    private var byteEngine: ByteRegex??
    private var icu: NSRegularExpression?
    private let lock = NSLock()

    /// `lazily`: build the engines on first use (a rule's patterns, of which a scan tries few; rules
    /// files are checked with ICU when loaded, `RuleLoader`, and the built-in catalog by its tests).
    /// Otherwise an invalid pattern throws here.
    init(_ pattern: String, ignoreCase: Bool = false, lazily: Bool = false) throws {
        self.pattern = pattern
        self.ignoreCase = ignoreCase
        names = CompiledRegex.captureNames(in: pattern)
        looksBeforeStart = CompiledRegex.looksBeforeStart(pattern)
        if !lazily {
            if bytes == nil { icu = try NSRegularExpression(pattern: pattern, options: ignoreCase ? [.caseInsensitive] : []) }
        }
    }

    /// The byte engine for this pattern, or nil when the pattern is left to ICU.
    var bytes: ByteRegex? {
        lock.lock()
        defer { lock.unlock() }
        if let byteEngine { return byteEngine }
        let engine = ignoreCase ? nil : ByteRegex(pattern).flatMap { $0.groupNames.map(\.name) == names ? $0 : nil }
        byteEngine = .some(engine)
        return engine
    }

    /// Foundation's engine for this pattern, built on first use (nil only if ICU rejects a pattern
    /// that was never checked, which `RuleLoader` and the catalog tests rule out).
    var regex: NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if icu == nil { icu = try? NSRegularExpression(pattern: pattern, options: ignoreCase ? [.caseInsensitive] : []) }
        return icu
    }

    /// Longest slice of a line a regex is run on: bounds the work of any one match.
    static let maxSubjectUTF16 = 16 * 1024

    /// Longest time one regex may spend on one line before it is stopped (and the rule reported).
    static let matchBudget: UInt64 = 100_000_000 // nanoseconds

    enum CaptureOutcome {
        case matched([String: String])
        case noMatch
        /// The match ran past `matchBudget` and was stopped.
        case timedOut
    }

    /// The first match within the time budget. ICU reports progress while it backtracks, so a
    /// pathological pattern is stopped instead of hanging the scan.
    private func firstMatch(in text: String, ns: NSString) -> (NSTextCheckingResult?, timedOut: Bool) {
        guard let regex else { return (nil, false) }
        let range = NSRange(location: 0, length: min(ns.length, CompiledRegex.maxSubjectUTF16))
        let start = DispatchTime.now().uptimeNanoseconds
        var found: NSTextCheckingResult?
        var timedOut = false
        var progress = 0
        regex.enumerateMatches(in: text, options: [.reportProgress], range: range) { result, _, stop in
            progress += 1
            if let result {
                found = result
                stop.pointee = true
            } else if progress & 15 == 0, DispatchTime.now().uptimeNanoseconds - start > CompiledRegex.matchBudget { // the clock every 16th report
                timedOut = true
                stop.pointee = true
            }
        }
        return (found, timedOut)
    }

    /// Named captures of the first match; unmatched optional groups are left out.
    func match(_ text: String) -> CaptureOutcome {
        if let bytes, text.utf8.count <= CompiledRegex.maxSubjectUTF16 {
            var text = text
            let outcome: CaptureOutcome? = text.withUTF8 { utf8 in
                switch bytes.firstMatch(utf8, budgetNanoseconds: CompiledRegex.matchBudget) {
                case .matched(let slots):
                    var result: [String: String] = [:]
                    for (name, group) in bytes.groupNames where slots[2 * group] >= 0 {
                        result[name] = String(decoding: UnsafeBufferPointer(rebasing: utf8[slots[2 * group]..<slots[2 * group + 1]]), as: UTF8.self)
                    }
                    return .matched(result)
                case .noMatch: return .noMatch
                case .timedOut: return .timedOut
                case .unsupported: return nil
                }
            }
            if let outcome { return outcome }
        }
        return matchICU(text)
    }

    /// `match` with Foundation's engine alone.
    func matchICU(_ text: String) -> CaptureOutcome {
        let ns = text as NSString
        let (found, timedOut) = firstMatch(in: text, ns: ns)
        guard let match = found else { return timedOut ? .timedOut : .noMatch }
        var result: [String: String] = [:]
        for name in names {
            let r = match.range(withName: name)
            if r.location != NSNotFound { result[name] = ns.substring(with: r) }
        }
        return .matched(result)
    }

    /// Captures of the first match, or nil (also when the match had to be stopped).
    func captures(in text: String) -> [String: String]? {
        if case .matched(let captures) = match(text) { return captures }
        return nil
    }

    func matches(_ text: String) -> Bool {
        if let bytes, text.utf8.count <= CompiledRegex.maxSubjectUTF16 {
            var text = text
            switch text.withUTF8({ bytes.firstMatch($0, budgetNanoseconds: CompiledRegex.matchBudget) }) {
            case .matched: return true
            case .noMatch, .timedOut: return false
            case .unsupported: break
            }
        }
        return firstMatch(in: text, ns: text as NSString).0 != nil
    }

    /// Conservative: true for any `^` outside a character class, any `\b`, `\B`, `\A`, `\G` and any
    /// lookbehind, wherever they are in the pattern.
    static func looksBeforeStart(_ pattern: String) -> Bool {
        let chars = Array(pattern.utf8)
        var i = 0
        var inClass = false
        while i < chars.count {
            let c = chars[i]
            if c == UInt8(ascii: "\\") {
                if i + 1 < chars.count, !inClass, [UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "A"), UInt8(ascii: "G")].contains(chars[i + 1]) {
                    return true
                }
                i += 2
                continue
            }
            if inClass {
                if c == UInt8(ascii: "]") { inClass = false }
            } else if c == UInt8(ascii: "[") {
                inClass = true
                if i + 1 < chars.count, chars[i + 1] == UInt8(ascii: "^") { i += 1 } // a negated class
                if i + 1 < chars.count, chars[i + 1] == UInt8(ascii: "]") { i += 1 } // `]` first is literal
            } else if c == UInt8(ascii: "^") {
                return true
            } else if c == UInt8(ascii: "("), i + 3 < chars.count, chars[i + 1] == UInt8(ascii: "?"), chars[i + 2] == UInt8(ascii: "<"),
                      chars[i + 3] == UInt8(ascii: "=") || chars[i + 3] == UInt8(ascii: "!") {
                return true
            }
            i += 1
        }
        return false
    }

    static func captureNames(in pattern: String) -> [String] {
        var names: [String] = []
        let chars = Array(pattern.utf8)
        var i = 0
        while i + 3 < chars.count {
            if chars[i] == UInt8(ascii: "\\") { i += 2; continue }
            if chars[i] == UInt8(ascii: "("), chars[i + 1] == UInt8(ascii: "?"), chars[i + 2] == UInt8(ascii: "<"),
               chars[i + 3] != UInt8(ascii: "="), chars[i + 3] != UInt8(ascii: "!") {
                var j = i + 3
                while j < chars.count, chars[j] != UInt8(ascii: ">") { j += 1 }
                names.append(String(decoding: chars[(i + 3)..<j], as: UTF8.self))
                i = j
            }
            i += 1
        }
        return names
    }
}

/// A rule with its regexes compiled.
final class CompiledRule: @unchecked Sendable {
    let rule: Rule
    let patterns: [CompiledRegex]
    let continuation: CompiledRegex?
    let collect: CompiledRegex?
    let captureNames: Set<String>
    /// A rule from the user's files (not the built-in catalog): its time is counted (`RuleTimeBudget`).
    let isUserRule: Bool
    /// Its place in its `RuleSet`.
    let index: Int
    private let literalBytes: [[UInt8]]

    init(_ rule: Rule, index: Int) throws {
        self.rule = rule
        self.index = index
        isUserRule = !rule.origin.hasPrefix("builtin:")
        patterns = try rule.patterns.map { try CompiledRegex($0.regex, ignoreCase: $0.ignoreCase, lazily: true) }
        captureNames = Set(patterns.flatMap(\.names))
        literalBytes = rule.patterns.map { Array($0.literal.utf8) }
        continuation = try rule.continuation.map { try CompiledRegex($0.whileRegex, lazily: true) }
        collect = try rule.continuation?.collect.map { try CompiledRegex($0, lazily: true) }
    }

    func renderedFixes(_ captures: [String: String]) -> [Fix] {
        rule.fixes.map { fix in
            Fix(summary: Scanner.render(fix.summary, captures, names: captureNames),
                commands: fix.commands.map { Scanner.render($0, captures, names: captureNames) },
                snippet: fix.snippet.map { Scanner.render($0, captures, names: captureNames) },
                docs: fix.docs)
        }
    }

    /// Captures of the first pattern that matches `line`; `.timedOut` when a pattern had to be stopped.
    ///
    /// The literal is looked for in the line as read, like the prefilter does: a literal may include the
    /// formatter glyph that stripping removes (`✖ ` of a failing test in xcbeautify output).
    ///
    /// A pattern that does not match the line is tried on its bare message (`LogLine.bare`): the same
    /// message pasted without its `file:line: error:` header, or cut from it, is the same failure.
    /// Last, a message that opens with a capital (`Building for 'iOS-simulator', but linking in …`: Xcode's
    /// issue navigator, Xcode Cloud's web page and Flutter's `Swift Compiler Error (Xcode): Sending …`
    /// capitalise the compiler's first word) is tried as the compiler prints it, and an item of a pasted list
    /// without its `1. ` or `- ` (`LogLine.listItem`).
    func match(_ line: LogLine) -> CompiledRegex.CaptureOutcome {
        var timedOut = false
        // Not for a warning: a pattern that names `error:` around its message means to leave warnings out.
        let tryBare = line.bare.utf8.count != line.text.utf8.count && line.level != .warning
        // When the bare message ends the line (the header taken off its front), a pattern that cannot look
        // before its start matches the message only if it matches the line: no second try is needed.
        var bareEndsText: Bool?
        func bareIsLineEnd() -> Bool {
            if let known = bareEndsText { return known }
            let ends = line.bareEndsText
            bareEndsText = ends
            return ends
        }
        var decapitalized: String??
        var listItem: String??
        for (index, pattern) in patterns.enumerated() where Bytes.contains(line.raw, literalBytes[index]) {
            switch pattern.match(line.text) {
            case .matched(let captures): return .matched(captures)
            case .timedOut: timedOut = true
            case .noMatch:
                if tryBare, pattern.looksBeforeStart || !bareIsLineEnd() {
                    switch pattern.match(line.bare) {
                    case .matched(let captures): return .matched(captures)
                    case .timedOut: timedOut = true
                    case .noMatch: break
                    }
                }
                if decapitalized == nil { decapitalized = CompiledRule.decapitalized(line.bare) }
                if let lower = decapitalized ?? nil {
                    switch pattern.match(lower) {
                    case .matched(let captures): return .matched(captures)
                    case .timedOut: timedOut = true
                    case .noMatch: break
                    }
                }
                if listItem == nil { listItem = line.listItem }
                guard let item = listItem ?? nil else { continue }
                switch pattern.match(item) {
                case .matched(let captures): return .matched(captures)
                case .timedOut: timedOut = true
                case .noMatch: continue
                }
            }
        }
        return timedOut ? .timedOut : .noMatch
    }

    /// `Building for …` → `building for …`: a message whose first word is capitalised (a capital, then
    /// lower-case letters up to a space). Not a label (`Error: `, `Warning: `), an acronym (`SDK`), a
    /// name in quotes, or a line that starts otherwise.
    static func decapitalized(_ message: String) -> String? {
        let bytes = message.utf8
        guard let first = bytes.first, first >= 0x41, first <= 0x5A else { return nil }
        var seenLower = false
        for b in bytes.dropFirst() {
            if b >= 0x61 && b <= 0x7A { seenLower = true; continue }
            guard b == 0x20, seenLower else { return nil }
            return String(UnicodeScalar(first + 0x20)) + message.dropFirst()
        }
        return nil
    }
}

/// Rules in priority order (user rules first, specific before generic) with one prefilter over all
/// their literals and the scanner's own markers.
public final class RuleSet: @unchecked Sendable {
    public let rules: [Rule]
    let compiled: [CompiledRule]
    let prefilter: Prefilter
    /// For each prefilter literal: the rules (indices into `compiled`) with a pattern on it.
    let rulesByLiteral: [[Int]]
    /// What the scanner reads each prefilter literal for, besides the rules on it: one lookup a literal
    /// on a line, no hashing.
    struct Roles: OptionSet {
        let rawValue: UInt8
        /// An error-looking line.
        static let error = Roles(rawValue: 1)
        /// A line that says a build or test run succeeded.
        static let success = Roles(rawValue: 2)
        /// A sentence that says something failed (`Failed to …`, `Could not …`): read only when no other
        /// line of the log gives its verdict.
        static let statement = Roles(rawValue: 4)
        /// A line the scanner reads for the test run and the invocation (never findings).
        static let test = Roles(rawValue: 8)
        static let invocation = Roles(rawValue: 16)
        /// A test marker no rule and no other marker shares: a line with only these is read by the test reader alone.
        static let testOnly = Roles(rawValue: 32)
        /// A level word alone on its line (`Error`): the level of the message on the next line.
        static let levelAlone = Roles(rawValue: 64)
    }
    /// For each prefilter literal: its roles.
    let roles: [Roles]

    public convenience init(rules: [Rule]) throws {
        try self.init(rules: rules, errorMarkers: ScanMarkers.errorLiterals, successMarkers: ScanMarkers.successLiterals)
    }

    init(rules: [Rule], errorMarkers: [String], successMarkers: [String], statementMarkers: [String] = ScanMarkers.statementLiterals) throws {
        self.rules = rules
        compiled = try rules.enumerated().map { try CompiledRule($1, index: $0) }
        var literalIndex: [String: Int] = [:]
        var literals: [[UInt8]] = []
        var byLiteral: [[Int]] = []
        func index(of literal: String) -> Int {
            if let i = literalIndex[literal] { return i }
            literalIndex[literal] = literals.count
            literals.append(Array(literal.utf8))
            byLiteral.append([])
            return literals.count - 1
        }
        for (r, rule) in rules.enumerated() {
            for pattern in rule.patterns {
                let i = index(of: pattern.literal)
                if !byLiteral[i].contains(r) { byLiteral[i].append(r) }
            }
        }
        let marked: [(Roles, [Int])] = [(.error, errorMarkers.map(index(of:))), (.success, successMarkers.map(index(of:))),
                                         (.statement, statementMarkers.map(index(of:))), (.test, TestRunReader.literals.map(index(of:))),
                                         (.invocation, InvocationReader.literals.map(index(of:))),
                                         (.levelAlone, ScanMarkers.levelAloneLiterals.map(index(of:)))]
        var roles = [Roles](repeating: [], count: literals.count)
        for (role, indices) in marked { for i in indices { roles[i].insert(role) } }
        for i in roles.indices where roles[i].contains(.test) && byLiteral[i].isEmpty && roles[i].isDisjoint(with: [.error, .success, .invocation]) {
            roles[i].insert(.testOnly)
        }
        self.roles = roles
        prefilter = Prefilter(literals: literals)
        rulesByLiteral = byLiteral
    }

    /// The prefilter's literals, one per line (`xcmedic rules --literals`); not the level words that end with their
    /// line's newline, which a list of lines cannot hold.
    public var literals: [String] {
        prefilter.literals.filter { !$0.contains(0x0A) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The built-in catalog alone, compiled once.
    public static func builtin() throws -> RuleSet { try RuleSet(rules: BuiltinCatalog.rules()) }
}

/// Lines the scanner looks at on its own, whatever the rules: errors no rule knows, and the marks of a
/// build or test run that succeeded.
enum ScanMarkers {
    static let errorLiterals = ["rror:", "FAILED **", "\u{274C}", "[!] ", "rror :", "ERROR", "FATAL", "fatal: ", "##[error]", "::error", "Error ", ": error ",
                                "rror[E", "e: ", " error ", "ld: "]
    static let successLiterals = ["SUCCEEDED **", "Build complete!", "Build succeeded", "Test run with ", "with 0 failures", "skipped and 0 failures", "tests' passed at ",
                                  "BUILD SUCCESSFUL in ", "delivery was successful", "Pod installation complete!"]
    static let statementLiterals = ["Failed to ", "FAILED to ", "Could not ", "Couldn't ", "Couldn\u{2019}t ", "Unable to ", "Cannot ",
                                    "Can't ", "failed - ", " failed: ", "FAILED ", "FAILED:",
                                    " failed", "error occurred", "error has occurred", "error was encountered", "exception occurred", "exception has occurred", "There was an",
                                    "There were ", "There was a problem",
                                    "npm ERR! ", "Timed out", "not be ", "n't be ", "n\u{2019}t be ", "annot be ", "Exception: ", "Exception in thread ", "No such file or directory - ",
                                    "Did not find ", "No valid ", "No matching ", "No suitable ", " timed out", " not available", " not installed", "command not found: ", "failed downloading ",
                                    "failed to ", "unable to ", "could not ", "Encountered ", "ncountered an ", "Error: ", "Error [", " failed unexpectedly", "FAILURE: ",
                                    "Traceback (most recent call last)"]
    static var literals: [String] { errorLiterals + successLiterals + statementLiterals }
    /// A level word that is its whole line, newline included (a line's own bytes never hold the newline, so only the
    /// scan's search for the next literal finds these): Xcode's issue navigator and Xcode Cloud's log view copy an
    /// issue as `Error`, then its message on the line below (`Error` / `Incompatible function pointer types …`,
    /// `Error` / `` / `Command exited with non-zero exit-code: 65`).
    static let levelAloneLiterals = ["Error\n", "error\n", "ERROR\n"]

    /// An error no rule may claim silently: an error marker anywhere in the line once CI and formatter
    /// prefixes are off (`tool: error: `, `[ERROR] `, `ERROR: ` (also after a word: `** INTERNAL ERROR: …`, `LLVM ERROR: …`), `Error: ` after a space (or ending the line, its message on the lines below: `altool[7839:30474]  Error:`; a lower-case `error:` ends it only alone or as `Fatal error:`, Carthage's `Skipped … due to the error:` is a notice), `Error 0xe8008018: `, git's `fatal: `,
    /// a `[!] ` line (fastlane, CocoaPods) that says something failed or does not exist, a `FAILED` banner in any case, the CocoaPods validator's `- ERROR | `, MSBuild's `TOOL : error CODE: ` (also with its subcategory: `ILLink : unknown error IL7000: `, `cl : Command line error D8021 : `), rustc's `error[E0463]: `, OpenSSL's and LibreSSL's `4535426560:error:0909006C:PEM routines:get_name:no start line:…` (a thread id, then the error code), the Kotlin compiler's `e: ` opening
    /// the line, as Gradle prints it, Apple's linker's `ld: ` opening it with anything but a warning: ld64 prints its fatal
    /// errors with no level, `ld: in lib.a(x.o), archive member … is not mach-o`, `ld: unknown options: …`). A line whose level is a warning never counts.
    static let errorLike = try! CompiledRegex(
        #"(?:^|[\s\]\)>|,])(?:fatal )?error ?: |^error ?:$|[Ff]atal error:$|: (?:[A-Za-z]+ ){0,2}error [A-Z]{1,10}\d{1,6} ?: |(?:^|[\s*])(?:Fatal )?Error(?: (?:0x[0-9A-Fa-f]+|-?\d+))?:(?: |$)|[\s*]ERROR:(?: |$)|^(?:Fatal |FATAL |Uncaught )?(?:Error|ERROR|FATAL)(?:\]|:)? |\[ *(?:ERROR|Error|FATAL|error) *\]|^Fatal error: |^fatal: |(?:^|\s)error\[E\d{3,5}\]: |^e: \S|^\*\* [A-Za-z][A-Za-z -]* (?:FAILED|[Ff]ailed) \*\*|^- ERROR +\| |^ld: (?!warning:|note:)\S|^\[!\] .*(?:[Ee]rror|[Ff]ail|[Cc]ould not|[Cc]ouldn't|[Uu]nable|[Ii]nvalid|not found|[Nn]o such|[Cc]annot|can't|denied|[Mm]issing|\bNo\b.* found\b|does(?:n['\x{2019}]t| not) exist|does not validate|did not pass)|^error$|^CMake Error\b|^[0-9A-Fa-f]{1,16}:error:[0-9A-Fa-f]{8}:"#
    )
    /// A sentence that says something failed, as its own message: at the start of the line or after a
    /// prefix (`tool[pid] [MT] iPhoneSimulator: Could not launch simulator: -600`, `● Failed to install app
    /// on device`), a line that opens with `FAILED` (Bazel's `FAILED: Build did NOT complete successfully`, a test
    /// plug-in's `FAILED -[Suite test] - (5.0 seconds)`, Gradle's `BUILD FAILED in 1m`), a subject and `failed` (`Build
    /// failed after 12 s`, `Task failed with an exception`), `An error occurred …` (or an exception: iTMSTransporter's `An exception has occurred: null`, `An un-handled exception occurred`), `There was an error …` (or a problem), npm's `npm ERR! `,
    /// `Timed out …`, `X failed unexpectedly` (MSBuild's `The "DetectSdkLocations" task failed unexpectedly.`, Codemagic's `Executing
    /// AppStoreConnect action apps failed unexpectedly.`), a line opening with `FAILURE: ` (a test script's `FAILURE: assertion … failed`),
    /// `Encountered a fatal error while running …` (CodeQL), a tool's lower-case error wrapping another (`failed to create host: Image xcode:9.2.0 is not supported`,
    /// CircleCI's and Docker's Go-style messages), Flutter's `Encountered error while creating the IPA:`, a subject and `failed: `
    /// (Carthage's `GitHub API request failed: API rate limit exceeded …`, also after a prefix: `Process config: simulator UDID lookup failed: …`), `X timed out …` (Carthage's `xcodebuild timed out while trying to read …`, Flutter's `Process "xcrun" timed out`), `Did not find …` and `No
    /// valid/matching/suitable … found` (a tool that looked for a certificate, a profile, a device), `The iOS 15.0 simulator
    /// runtime is not available`, zsh's and bundler's `bundler: command not found: fastlane`, SwiftPM's `failed downloading
    /// '…zip' which is required by binary target …` after a formatter's arrow, an uncaught exception's `Name(space.)XxxException: message` opening the line (Dart's
    /// `ProcessException: Process timed out`, .NET's `System.IO.IOException: …`, Ruby's `Gem::LoadError: …`, a script's `Exception: …`, Node's `AssertionError [ERR_ASSERTION]: …`), Python's
    /// `Traceback (most recent call last):` (a log cut right after it still shows a script died on an exception), Java's
    /// `Exception in thread "main" java.lang.OutOfMemoryError: …`, Ruby's `No such file or directory - pod` (a command that is not installed), a passive `could not be validated` / `cannot be found`, or a test assertion's wording without its `file:line: error:` header (`XCTAssertTrue
    /// failed - …`, Nimble's ` failed - expected to equal …`, `Expectation failed: …`). A log that shows
    /// neither an error nor a success is read as failed on these (a message pasted alone, a cut log);
    /// in any other log they are context.
    static let failureStatement = try! CompiledRegex(
        #"(?:^|: |\] |^\W*\s)(?:Failed to|FAILED to|Could not|Couldn['\x{2019}]t|Unable to|Cannot|Can't) |(?:^|\s)failed - |\b(?:XCT[A-Za-z]+|Expectation) failed\b|^FAILED:? \S"#
        + #"|^(?:[A-Z]+ )+FAILED\b|^[A-Z][a-z]+(?:-[a-z]+)?(?: [a-z]+(?:-[a-z]+)?){0,2} failed(?:$|[.:!,]| (?:after|with|because|due|in|on|for)\b)"#
        + #"|\b[Aa]n (?:unexpected |unknown |internal |un-?handled )?(?:error|exception) (?:occurred|has occurred|was encountered)\b|(?:^|\] )Exception in thread "[^"]*" [\w.$]+|^No such file or directory - [\w.-]+\s*$|\bThere (?:was|were) (?:an? )?(?:\w+ )?(?:errors?|problems?)\b"#
        + #"|^Did not find \w|^No (?:valid|matching|suitable) [\w -]+? (?:was |were |is |are )?found\b"#
        + #"|^(?:The )?[\w.-]+(?: (?:[\w.-]+|"[^"\s]+"|'[^'\s]+')){0,3} timed out\b|^(?:The )?[\w.-]+(?: [\w.-]+){0,4} (?:is|are) not (?:available|installed)\b"#
        + #"|^(?:[\w.]+\.|(?:[A-Z]\w*::)+)?[A-Z]\w*(?:Exception|[A-Za-z]Error)(?: \[[A-Z][A-Z_\d]+\])?: \S|^Traceback \(most recent call last\):|\bencountered an? (?:unexpected |unknown |internal |fatal )?error\b|^[\w.-]+: command not found: \S|^failed downloading \S|^(?:failed to|unable to|could not) [a-z]+\b[^:]*: \S|^Encountered (?:an? )?(?:fatal )?error while \w|\b\w+ failed unexpectedly\b|^FAILURE: \S|(?:^[A-Z]|^[a-z]|: [a-z])[\w.-]*(?: [\w.-]+){0,3} failed: (?!\d)\S|^npm ERR! |(?:^|: )Timed out\b|\b(?:[Cc]ould not|[Cc]ouldn['\x{2019}]t|[Cc]annot|[Cc]an['\x{2019}]t) be (?:[a-z]+ed|found|opened|read|run|built|signed)\b"#
    )

    /// A sentence that goes on to say the tool tries again (`…, trying again with a 384 second timeout`, `Retrying in 5
    /// seconds`): what failed was one attempt.
    static let retrying = try! CompiledRegex(#"\b(?:trying again|[Rr]etrying|will retry|retry in \d)"#)

    /// The last word of a whole build or test run: xcodebuild's `** … SUCCEEDED **`, SwiftPM's
    /// `Build complete!`, Swift Testing's closing `Test run with N tests passed`. Per-suite totals are not. (`success`
    /// also takes CocoaPods' `Pod installation complete! There are 20 dependencies …`, and Gradle's `BUILD SUCCESSFUL in 3m 12s`: the Gradle part of a Kotlin Multiplatform or React Native build
    /// succeeded, which says a log is not a failure pasted alone, not that the Xcode build after it passed.)
    static let finalSuccess = try! CompiledRegex(
        #"^\*\* [A-Z][A-Z -]* SUCCEEDED \*\*|^Build complete!|^Test run with \d+ tests? (?:in \d+ suites? )?passed after"#
    )
    static let success = try! CompiledRegex(
        #"^\*\* [A-Z][A-Z -]* SUCCEEDED \*\*|^Build complete!|^Build succeeded|^Test run with \d+ tests? (?:in \d+ suites? )?passed after|^Executed \d+ tests?, with (?:\d+ tests? skipped and )?0 failures|^Test Suite '.*' passed at "#
        + #"|^BUILD SUCCESSFUL in \d|\b(?:Although|Your) delivery was successful,|^-> Pod installation complete!|^Pod installation complete!"#
    )
    /// App Store Connect's notice for an upload it accepted with issues (`Although delivery was successful, you may want to
    /// correct the following issues in your next delivery.`, and in its e-mail `Your delivery was successful, but you may
    /// wish to correct …`): the `ITMS-` issues listed under it are warnings for the next upload, not a rejection.
    static let delivered = try! CompiledRegex(#"\b(?:Although|Your) delivery was successful,"#)
}
