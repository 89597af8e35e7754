import ArgumentParser
import Foundation
import XCMedicKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ReportFormat: ExpressibleByArgument {}
extension FailThreshold: ExpressibleByArgument {}

enum ColorChoice: String, CaseIterable, ExpressibleByArgument {
    case auto, always, never
}

struct Scan: ParsableCommand {
    static let brokenPipeStatus = CommandLineText.brokenPipeStatus
    /// The log shows no build result and nothing xcmedic knows failed: not a green build, and not a diagnosis.
    static let noResultStatus: Int32 = 3

    static let configuration = CommandConfiguration(
        abstract: "Diagnose a build log: name each failure, its root cause and the fix.",
        discussion: """
        Reads each PATH in turn (plain text, .gz, or an Xcode .xcactivitylog, which is decoded; a folder such as \
        Logs/Build or a whole DerivedData means its .xcactivitylog files, newest first; the JSON that \
        'xcrun xcresulttool get test-results tests', 'get build-results' or the legacy 'get' prints, each failing \
        test named with its -only-testing: identifier; on macOS an .xcresult bundle, read with xcresulttool); with \
        no PATH, or '-', reads standard input. \
        With --tee, every byte read is copied to standard output as it arrives (a .gz decompressed, an activity \
        log as its decoded text) and the report goes to standard error or to --report FILE, so xcmedic can sit \
        in a pipeline: \
        'xcodebuild ... 2>&1 | xcmedic scan --tee'. \
        --format auto gives GitHub annotations on GitHub Actions (and appends a Markdown summary to \
        $GITHUB_STEP_SUMMARY) and text elsewhere. \
        Exit status: 0 when no finding reaches --fail-on, 1 when one does, 2 on a usage or input error, \
        3 when the log shows no build result (no line says it passed or failed, and nothing xcmedic knows failed: \
        a cut log, or a failure no rule names; not with --tee, where the command's own exit status says whether it \
        passed, nor with --fail-on never), \
        141 when the reader of standard output went away (for example '| head'); then xcmedic stops \
        quietly without a report.
        """
    )

    @Argument(help: "Log files, .xcactivitylog files or folders of them, xcresulttool JSON or (macOS) .xcresult bundles to scan ('-' for standard input).")
    var paths: [String] = []

    @Option(help: "Output format: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: ReportFormat = .auto

    @Option(name: .customLong("fail-on"), help: "Lowest severity that makes the exit status 1: error, warning or never.")
    var failOn: FailThreshold = .error

    @Option(name: .customLong("rules"), help: "A YAML rules file to add (repeatable); its rules win over built-in ones with the same id.")
    var ruleFiles: [String] = []

    @Flag(name: .customLong("no-config"), help: "Do not read .xcmedic.yml from the repository root.")
    var noConfig = false

    @Option(help: "Colour: auto (only on a terminal, not on Xcode Cloud, not with NO_COLOR), always or never.")
    var color: ColorChoice = .auto

    @Flag(name: .customLong("no-redact"), help: "Show secrets (tokens, passwords, keys) in the report instead of [REDACTED].")
    var noRedact = false

    @Flag(help: "Pipe mode: copy the input to standard output unchanged as it arrives; the report goes to standard error.")
    var tee = false

    @Flag(name: .shortAndLong, help: "Print only the root causes, one line each (the text format).")
    var quiet = false

    @Option(name: .customLong("report"), help: ArgumentHelp("Write the report to FILE instead of standard output (or standard error with --tee).", valueName: "FILE"))
    var reportFile: String?

    @Option(name: .customLong("record"), help: ArgumentHelp(
        "Record the diagnosis in the history store and report, per cause, first seen, how often in recent builds, new or flaky. " +
        "The store: a SQLite file or a postgres:// URL; without one $XCMEDIC_HISTORY, else .xcmedic/history.sqlite at the repository root. " +
        "A store that cannot be used is a warning; the scan's output and exit status stay the same.",
        valueName: "PATH|URL"))
    var record: String?

    @OptionGroup(title: "Build identity for --record (read from the CI's variables; these override them)")
    var build: BuildOptions

    func validate() throws {
        if record == nil, let option = build.given.first {
            throw ValidationError("\(option) needs --record")
        }
    }

    /// `--record` takes a store only when the next word is one (`postgres://…`, `sqlite:…`, `*.sqlite`,
    /// `*.db`) or with `=`; otherwise it stands alone and the next word is a log: `scan --record build.log`.
    /// What a bare `--record` becomes (argument-parser has no option with an optional value).
    static let defaultStore = "@default"

    static func normaliseRecordArgument(_ arguments: [String]) -> [String] {
        var out = arguments
        for i in out.indices where out[i] == "--record" {
            let next = i + 1 < out.count ? out[i + 1] : ""
            let isStore = next.hasPrefix("postgres://") || next.hasPrefix("postgresql://") || next.hasPrefix("sqlite:")
                || [".sqlite", ".sqlite3", ".db"].contains { next.hasSuffix($0) }
            if !isStore { out[i] = "--record=" + Scan.defaultStore }
        }
        return out
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let ci = CIEnvironment(environment)
        // Nothing to read: a terminal on standard input means the user forgot the log, not that they will type it.
        if paths.isEmpty, isatty(0) == 1 {
            let usage = "USAGE: " + XCMedic.usageString(for: Scan.self) + "\n\n"
                + "xcmedic: scan: give a log file, or pipe one in: xcodebuild ... 2>&1 | xcmedic scan (see 'xcmedic scan --help')\n"
            FileHandle.standardError.write(Data(usage.utf8))
            throw ExitCode(2)
        }
        let inputs = try LogInput.expand(paths.isEmpty ? ["-"] : paths)
        if let reportFile { try ReportFile.check(reportFile, inputs: inputs) }
        // A closed pipe must be an error code from write(2), not a signal that kills xcmedic mid-line.
        signal(SIGPIPE, SIG_IGN)

        var diagnosis = try diagnose(inputs)
        if let record {
            diagnosis = try build.record(diagnosis, store: record == Scan.defaultStore ? nil : record, environment: environment)
        }

        let resolved = format.resolved(environment: environment)
        let destination: Int32? = reportFile == nil ? (tee ? 2 : 1) : nil
        let useColor: Bool
        switch color {
        case .always: useColor = true
        case .never: useColor = false
        case .auto: useColor = (destination.map { isatty($0) == 1 } ?? false) && ci.allowsColor
        }
        let options = ReportOptions(color: useColor, redactor: noRedact ? .off : .standard,
                                    workspaceRoot: ci.workspaceRoot, toolVersion: XCMedic.configuration.version,
                                    width: destination.map { TerminalText.width(fd: $0) } ?? 80, quiet: quiet)
        if let reportFile {
            try ReportFile.write(to: reportFile) { Report.write(diagnosis, format: resolved, options: options, to: &$0) }
        } else if let destination {
            var stream = FDTextStream(fd: destination)
            Report.write(diagnosis, format: resolved, options: options, to: &stream)
            switch stream.finish() {
            case .ok: break
            case .closed: throw ExitCode(Scan.brokenPipeStatus)
            case .failed(let error): throw CLIError("cannot write the report: \(error)")
            }
        }
        if resolved == .github, let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            let markdown = Report.stepSummary(diagnosis, options: options)
            if let problem = ReportFile.append(markdown, to: summary) {
                // The annotations are out; a summary that cannot be written does not change the diagnosis.
                FileHandle.standardError.write(Data("xcmedic: cannot append to GITHUB_STEP_SUMMARY \(summary): \(problem)\n".utf8))
            }
        }
        if failOn.isMet(by: diagnosis) { throw ExitCode(1) }
        // No build result is not a green build. In pipe mode the command's own exit status (`set -o pipefail`)
        // says whether it passed, so xcmedic adds only the failures it found.
        if diagnosis.status == .unknown, failOn != .never, !tee { throw ExitCode(Scan.noResultStatus) }
    }
    /// The logs scanned, as a diagnosis; the scanner (and what it kept while reading) goes when this returns,
    /// before the report is written.
    private func diagnose(_ inputs: [String]) throws -> Diagnosis {
        let rules = try Catalog.rules(userFiles: ruleFiles, autoConfig: !noConfig)
        let scanner = Scanner(ruleSet: try RuleSet(rules: rules))
        for path in inputs {
            if tee {
                try scanner.scan(path: path, rawObserver: { bytes in
                    // Each chunk is written out before the next read: the log flows on at the pace it arrives.
                    switch FDWriter.writeAll(1, bytes) {
                    case .ok: break
                    case .closed: Foundation.exit(Scan.brokenPipeStatus)
                    case .failed(let error): XCMedic.fail("cannot write standard output: \(error)")
                    }
                })
            } else {
                try scanner.scan(path: path)
            }
        }
        return scanner.finish()
    }
}

/// The file `--report` names.
enum ReportFile {
    /// Before the scan: the report can be written there, and it is not one of the logs being read
    /// (writing it would destroy the log).
    static func check(_ path: String, inputs: [String]) throws {
        var target = stat()
        if stat(path, &target) == 0 {
            if (target.st_mode & S_IFMT) == S_IFDIR { throw CLIError("--report \(path): is a directory") }
            for input in inputs where input != "-" {
                var info = stat()
                if stat(input, &info) == 0, info.st_dev == target.st_dev, info.st_ino == target.st_ino {
                    throw CLIError("--report \(path) is the log being scanned; choose another file")
                }
            }
            if access(path, W_OK) != 0 { throw CLIError("--report \(path): \(String(cString: strerror(errno)))") }
        } else {
            let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var info = stat()
            guard stat(parent, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                throw CLIError("--report \(path): no such directory \(parent)")
            }
            if access(parent, W_OK) != 0 { throw CLIError("--report \(path): \(String(cString: strerror(errno)))") }
        }
    }

    /// Replaces the file's content (or creates it); `/dev/stdout` and named pipes work too.
    static func write(to path: String, _ render: (inout FDTextStream) -> Void) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw CLIError("--report \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var stream = FDTextStream(fd: fd)
        render(&stream)
        switch stream.finish() {
        case .ok: return
        case .closed: throw ExitCode(Scan.brokenPipeStatus)
        case .failed(let error): throw CLIError("--report \(path): \(error)")
        }
    }

    /// Appends (GitHub's job summary file is shared by every step); returns the problem, if any.
    static func append(_ text: String, to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        switch FDWriter.writeAll(fd, text) {
        case .ok: return nil
        case .closed: return "closed"
        case .failed(let error): return error
        }
    }
}

/// Who the recorded build is, when the CI's variables do not say or say it wrong.
struct BuildOptions: ParsableArguments {
    @Option(help: "Repository (owner/name).")
    var repository: String?

    @Option(help: "Branch.")
    var branch: String?

    @Option(help: "Commit hash.")
    var commit: String?

    @Option(help: "Job (or workflow) within the build.")
    var job: String?

    @Option(name: .customLong("build-id"), help: "The CI's id of this run; recording the same run again replaces its record.")
    var buildID: String?

    @Option(help: "Attempt (1 for the first run, 2 for its first re-run).")
    var attempt: Int?

    @Option(name: .customLong("build-time"), help: "When the build ran (ISO 8601, e.g. 2026-11-20T14:03:00Z); default now.")
    var buildTime: String?

    @Option(name: .customLong("history-window"), help: "How many recent builds of the branch the report counts a cause in.")
    var historyWindow: Int?

    /// The options given, for "needs --record".
    var given: [String] {
        [("--repository", repository), ("--branch", branch), ("--commit", commit), ("--job", job), ("--build-id", buildID),
         ("--build-time", buildTime)].compactMap { $0.1 == nil ? nil : $0.0 }
            + (attempt == nil ? [] : ["--attempt"]) + (historyWindow == nil ? [] : ["--history-window"])
    }

    func identity(environment: [String: String]) throws -> BuildIdentity {
        var time: Date?
        if let buildTime {
            guard let parsed = HistoryDates.parse(buildTime) else { throw CLIError("--build-time \(buildTime): not an ISO 8601 date (2026-11-20T14:03:00Z)") }
            time = parsed
        }
        if let attempt, attempt < 1 { throw CLIError("--attempt \(attempt): attempts count from 1") }
        var identity = BuildIdentity.fromEnvironment(environment)
        if identity.service == "local" {
            // Outside CI, git says where we are.
            let git = Git(directory: FileManager.default.currentDirectoryPath)
            if let head = try? git.result(["rev-parse", "HEAD"]), head.ok { identity.commit = head.stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
            if let name = try? git.result(["rev-parse", "--abbrev-ref", "HEAD"]), name.ok {
                let branch = name.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                if branch != "HEAD" { identity.branch = branch }
            }
            if let top = try? git.topLevel() { identity.repository = URL(fileURLWithPath: top).lastPathComponent }
        }
        return identity.overriding(repository: repository, branch: branch, commit: commit, job: job, buildID: buildID, attempt: attempt, time: time)
    }

    /// The diagnosis with the store's facts, recorded by `xcmedic-history` (this executable links no
    /// store); anything in the way (a bad store, the tool missing, failing or silent) is a warning only.
    func record(_ diagnosis: Diagnosis, store: String?, environment: [String: String]) throws -> Diagnosis {
        let identity = try identity(environment: environment).redacted(.standard)
        let root = StoreLocation.defaultRoot()
        let location: StoreLocation
        do {
            location = try StoreLocation.resolve(store, environment: environment, root: root)
        } catch {
            warn("history not recorded: \(error)")
            return diagnosis
        }
        let timeout = StoreLocation.timeout(environment: environment)
        let request = HistoryExchange.Request(identity: identity, build: BuildRecord(diagnosis), window: historyWindow ?? 20,
                                              toolVersion: XCMedic.configuration.version, timeout: timeout, root: root)
        switch HistoryTool.record(request, store: store, limit: HistoryTool.recordLimit(timeout: timeout), environment: environment) {
        case .success(let facts): return facts.applied(to: diagnosis)
        case .failure(let failure):
            warn("history not recorded in \(location): \(failure)")
            return diagnosis
        }
    }

    private func warn(_ message: String) {
        FileHandle.standardError.write(Data("xcmedic: warning: \(message)\n".utf8))
    }
}
