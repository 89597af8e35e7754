import Foundation

/// Output formats of `scan`.
public enum ReportFormat: String, CaseIterable, Sendable {
    /// GitHub annotations on GitHub Actions, plain text everywhere else.
    case auto
    case text
    case json
    /// GitHub Actions workflow commands (`::error file=...::`): pull-request annotations.
    case github
    /// A pull-request comment or job summary.
    case markdown
    /// JUnit XML for test-report tools (Jenkins, GitLab, Buildkite, CircleCI, Bitrise).
    case junit
    /// SARIF 2.1.0 for code scanning.
    case sarif

    /// The concrete format `auto` stands for in this environment.
    public func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) -> ReportFormat {
        guard self == .auto else { return self }
        return CIEnvironment(environment).provider == .githubActions ? .github : .text
    }
}

/// The CI service a run is on, from the variables each service documents it sets.
public enum CIProvider: String, CaseIterable, Sendable {
    case githubActions = "GitHub Actions"
    case xcodeCloud = "Xcode Cloud"
    case bitrise = "Bitrise"
    case gitlab = "GitLab CI"
    case buildkite = "Buildkite"
    case circleci = "CircleCI"
    case jenkins = "Jenkins"
}

public struct CIEnvironment: Sendable {
    public var provider: CIProvider?
    public var variables: [String: String]

    public init(_ variables: [String: String] = ProcessInfo.processInfo.environment) {
        self.variables = variables
        func isSet(_ name: String, _ values: Set<String> = ["true", "TRUE", "True", "1"]) -> Bool {
            variables[name].map { values.contains($0) } ?? false
        }
        if isSet("GITHUB_ACTIONS") {
            provider = .githubActions
        } else if isSet("CI_XCODE_CLOUD") {
            provider = .xcodeCloud
        } else if isSet("BITRISE_IO") {
            provider = .bitrise
        } else if isSet("GITLAB_CI") {
            provider = .gitlab
        } else if isSet("BUILDKITE") {
            provider = .buildkite
        } else if isSet("CIRCLECI") {
            provider = .circleci
        } else if let url = variables["JENKINS_URL"], !url.isEmpty {
            provider = .jenkins
        } else {
            provider = nil
        }
    }

    /// Whether `--color auto` may colour a report that goes to a terminal. Xcode Cloud's log view shows
    /// escape sequences as text, so reports there stay plain even when a tool gives the script a TTY;
    /// `NO_COLOR` (https://no-color.org) turns colour off everywhere.
    public var allowsColor: Bool {
        if let noColor = variables["NO_COLOR"], !noColor.isEmpty { return false }
        return provider != .xcodeCloud
    }

    /// The repository checkout the log's absolute paths start with, when the CI says where it is:
    /// annotations and SARIF results name files relative to it.
    public var workspaceRoot: String? {
        let names: [String]
        switch provider {
        case .githubActions: names = ["GITHUB_WORKSPACE"]
        case .xcodeCloud: names = ["CI_PRIMARY_REPOSITORY_PATH"]
        case .bitrise: names = ["BITRISE_SOURCE_DIR"]
        case .gitlab: names = ["CI_PROJECT_DIR"]
        case .buildkite: names = ["BUILDKITE_BUILD_CHECKOUT_PATH"]
        case .circleci: names = ["CIRCLE_WORKING_DIRECTORY"]
        case .jenkins: names = ["WORKSPACE"]
        case nil: names = []
        }
        return names.lazy.compactMap { self.variables[$0] }.first { $0.hasPrefix("/") }
    }
}

/// When a scan exits 1.
public enum FailThreshold: String, CaseIterable, Sendable {
    case error, warning, never

    public func isMet(by diagnosis: Diagnosis) -> Bool {
        switch self {
        case .never: return false
        case .warning: return diagnosis.findings.contains { $0.severity >= .warning }
        case .error: return diagnosis.findings.contains { $0.severity >= .error }
        }
    }
}

/// What every renderer may need besides the diagnosis.
public struct ReportOptions: Sendable {
    public var color: Bool
    public var redactor: Redactor
    /// Absolute path of the repository checkout; file paths under it are written relative to it.
    public var workspaceRoot: String?
    /// The xcmedic version, for SARIF's tool description.
    public var toolVersion: String
    /// Columns the text report lays itself out for (`TerminalText.width`).
    public var width: Int
    /// The text report lists root causes only, one line each.
    public var quiet: Bool

    public init(color: Bool = false, redactor: Redactor = .standard, workspaceRoot: String? = nil, toolVersion: String = ToolInfo.version,
                width: Int = 80, quiet: Bool = false) {
        self.width = width
        self.quiet = quiet
        self.color = color
        self.redactor = redactor
        self.workspaceRoot = workspaceRoot
        self.toolVersion = toolVersion
    }
}

public enum ToolInfo {
    public static let name = "xcmedic"
    public static let version = "0.1.0"
}

public enum Report {
    public static func render(_ diagnosis: Diagnosis, format: ReportFormat, color: Bool, redactor: Redactor) -> String {
        render(diagnosis, format: format.resolved(), options: ReportOptions(color: color, redactor: redactor))
    }

    /// What goes into GitHub's job summary (`GITHUB_STEP_SUMMARY`) beside the annotations: the Markdown
    /// report, redacted and made safe like every report.
    public static func stepSummary(_ diagnosis: Diagnosis, options: ReportOptions) -> String {
        render(diagnosis, format: .markdown, options: options)
    }

    /// The report written into `out` as it is rendered: the JSON report finding by finding, the others whole.
    /// `format` must already be resolved (`auto` renders as text).
    public static func write<Out: TextOutputStream>(_ diagnosis: Diagnosis, format: ReportFormat, options: ReportOptions, to out: inout Out) {
        if format == .json {
            JSONReport.write(diagnosis, redactor: options.redactor, to: &out)
        } else if format == .junit {
            JUnitReport(redactor: options.redactor).write(diagnosis, to: &out)
        } else {
            out.write(render(diagnosis, format: format, options: options))
        }
    }

    /// `format` must already be resolved (`auto` renders as text).
    public static func render(_ diagnosis: Diagnosis, format: ReportFormat, options: ReportOptions) -> String {
        switch format {
        case .json: return JSONReport.render(diagnosis, redactor: options.redactor)
        case .github: return GitHubReport(redactor: options.redactor, workspaceRoot: options.workspaceRoot).render(diagnosis)
        case .markdown: return MarkdownReport(redactor: options.redactor, workspaceRoot: options.workspaceRoot).render(diagnosis)
        case .junit: return JUnitReport(redactor: options.redactor).render(diagnosis)
        case .sarif:
            return SARIFReport(redactor: options.redactor, workspaceRoot: options.workspaceRoot, toolVersion: options.toolVersion).render(diagnosis)
        case .text, .auto: return TerminalReport(color: options.color, redactor: options.redactor, width: options.width, quiet: options.quiet).render(diagnosis)
        }
    }
}

/// A file path as a report shows it: relative to the workspace root when it lies under it.
func relativePath(_ path: String, to root: String?) -> String {
    guard let root, !root.isEmpty, path.hasPrefix("/") else { return path }
    let base = root.hasSuffix("/") ? root : root + "/"
    return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
}
