import Foundation

/// How bad a finding is.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    case info, warning, error

    var rank: Int {
        switch self {
        case .info: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// Whether a rule's line names a root cause or only wraps/follows one.
public enum Role: String, Sendable, Codable, CaseIterable {
    /// The line names what actually broke.
    case cause
    /// A consequence or wrapper (`** BUILD FAILED **`, `Command SwiftCompile failed ...`).
    case symptom
    /// An error-looking line that no rule claimed (findings only, never a rule's role).
    case unrecognized
}

/// One way a rule's message can appear in a log.
public struct Pattern: Sendable, Equatable {
    /// Text every matching line contains, byte for byte; the prefilter looks only for this.
    public var literal: String
    /// ICU regular expression with named captures, applied to the normalised line.
    public var regex: String
    public var ignoreCase: Bool

    public init(literal: String, regex: String, ignoreCase: Bool = false) {
        self.literal = literal
        self.regex = regex
        self.ignoreCase = ignoreCase
    }
}

/// Lines after a match that belong to it (notes of a compiler error, symbols after `Undefined symbols`).
public struct Continuation: Sendable, Equatable {
    /// A line continues the block while it matches this regex.
    public var whileRegex: String
    /// Named captures of this regex on continuation lines are collected into a list capture.
    public var collect: String?
    /// At most this many lines are taken.
    public var maxLines: Int

    public init(whileRegex: String, collect: String? = nil, maxLines: Int = 20) {
        self.whileRegex = whileRegex
        self.collect = collect
        self.maxLines = maxLines
    }
}

public struct Fix: Sendable, Equatable {
    public var summary: String
    public var commands: [String]
    public var snippet: String?
    public var docs: String?

    public init(summary: String, commands: [String] = [], snippet: String? = nil, docs: String? = nil) {
        self.summary = summary
        self.commands = commands
        self.snippet = snippet
        self.docs = docs
    }
}

/// A real line that must (or must not) match, with where it was seen.
public struct RuleExample: Sendable, Equatable {
    public var line: String
    public var source: String?
    /// Captures the match must yield (only for lines that must match).
    public var captures: [String: String]

    public init(line: String, source: String? = nil, captures: [String: String] = [:]) {
        self.line = line
        self.source = source
        self.captures = captures
    }
}

/// A known failure: how to recognise it and what to do about it.
public struct Rule: Sendable, Equatable {
    public var id: String
    public var title: String
    public var category: String
    public var severity: Severity
    public var role: Role
    public var patterns: [Pattern]
    public var continuation: Continuation?
    /// Rendered with the captures (`{macro}`) into the finding's message.
    public var message: String?
    public var explanation: String
    public var fixes: [Fix]
    public var docs: [String]
    public var matches: [RuleExample]
    public var nonMatches: [RuleExample]
    /// Where the rule came from: `builtin:<family>` or a rules file path.
    public var origin: String
    /// `consequence_of`: categories whose root cause, when the log has one (from another rule), makes
    /// this rule's finding a symptom of it rather than a root cause.
    public var consequenceOf: [String]
    /// `test_restart`: the line is xcodebuild restarting the runner after a test crashed, naming that
    /// test; a root cause only when the log shows the crash or names the test elsewhere.
    public var testRestart: Bool
    /// `failed_step`: the line closes a build or CI step that failed (`Command PhaseScriptExecution failed
    /// …`, a CI script's exit status). When no root cause was named inside the step, the lines it printed
    /// before failing explain it. A `(?<step>…)` capture names the kind of step.
    public var failedStep: Bool
    /// `last_resort`: evidence of no category of its own (an NSError of an unknown domain, a signal): when
    /// the log names no cause, its words are read for one (`Catalog/keywords.yml`) like an unknown error's.
    public var lastResort: Bool
    /// `catch_all`: the rule names any error of its shape (a compiler error it has no more to say about).
    /// When the message it matched goes on below, cut by a terminal or a paste, the message joined with
    /// its continuation is tried on the other rules first.
    public var catchAll: Bool
    /// `notice: true`: a tool's notice printed in the style of its errors (CocoaPods' `[!] Unable to read the
    /// license file …`, after which `pod install` goes on). Its finding keeps the rule's severity whatever
    /// its line looks like, where a symptom on an error-looking line is otherwise raised to an error.
    public var notice: Bool
    /// `category_outside_build`: the finding's category when the log shows no Xcode build around its line
    /// (no xcodebuild banner, failed-commands list or `Command … failed` in the log, no build step or path into
    /// Xcode's build folders in the lines before it): a tool missing from a CI step is the machine's
    /// (`ci-environment`), the same shell message inside a Run Script phase is the phase's.
    public var categoryOutsideBuild: String?

    public init(
        id: String, title: String, category: String, severity: Severity, role: Role,
        patterns: [Pattern], continuation: Continuation? = nil, message: String? = nil,
        explanation: String, fixes: [Fix], docs: [String] = [],
        matches: [RuleExample], nonMatches: [RuleExample], origin: String,
        consequenceOf: [String] = [], testRestart: Bool = false, failedStep: Bool = false, lastResort: Bool = false,
        catchAll: Bool = false, notice: Bool = false, categoryOutsideBuild: String? = nil
    ) {
        self.id = id
        self.title = title
        self.category = category
        self.severity = severity
        self.role = role
        self.patterns = patterns
        self.continuation = continuation
        self.message = message
        self.explanation = explanation
        self.fixes = fixes
        self.docs = docs
        self.matches = matches
        self.nonMatches = nonMatches
        self.origin = origin
        self.consequenceOf = consequenceOf
        self.testRestart = testRestart
        self.failedStep = failedStep
        self.lastResort = lastResort
        self.catchAll = catchAll
        self.notice = notice
        self.categoryOutsideBuild = categoryOutsideBuild
    }
}
