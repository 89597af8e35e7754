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
    /// Exit status when the reader of standard output goes away (`| head`): what a shell reports for a
    /// process SIGPIPE ended (128 + 13), as `tee` and `cat` give.
    static let brokenPipeStatus: Int32 = 141

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

    @Option(name: .customLong("report"), help: ArgumentHelp("Write the report to FILE instead of standard output (or standard error with --tee).", valueName: "FILE"))
    var reportFile: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let ci = CIEnvironment(environment)
        let inputs = try LogInput.expand(paths.isEmpty ? ["-"] : paths)
        if let reportFile { try ReportFile.check(reportFile, inputs: inputs) }
        // A closed pipe must be an error code from write(2), not a signal that kills xcmedic mid-line.
        signal(SIGPIPE, SIG_IGN)

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
        let diagnosis = scanner.finish()

        let resolved = format.resolved(environment: environment)
        let destination: Int32? = reportFile == nil ? (tee ? 2 : 1) : nil
        let useColor: Bool
        switch color {
        case .always: useColor = true
        case .never: useColor = false
        case .auto: useColor = (destination.map { isatty($0) == 1 } ?? false) && ci.allowsColor
        }
        let options = ReportOptions(color: useColor, redactor: noRedact ? .off : .standard,
                                    workspaceRoot: ci.workspaceRoot, toolVersion: XCMedic.configuration.version)
        let text = Report.render(diagnosis, format: resolved, options: options)
        if let reportFile {
            try ReportFile.write(text, to: reportFile)
        } else if let destination {
            switch Array(text.utf8).withUnsafeBytes({ FDWriter.writeAll(destination, $0) }) {
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
    }
}

/// Unbuffered, complete writes to a file descriptor, telling a closed reader apart from other errors.
enum FDWriter {
    enum Outcome {
        case ok
        /// The reading end is gone (EPIPE).
        case closed
        case failed(String)
    }

    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Outcome {
        guard var p = bytes.baseAddress else { return .ok }
        var remaining = bytes.count
        while remaining > 0 {
            let n = write(fd, p, remaining)
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                if errno == EPIPE { return .closed }
                return .failed(String(cString: strerror(errno)))
            }
            p += n
            remaining -= n
        }
        return .ok
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
    static func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw CLIError("--report \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let outcome = Array(text.utf8).withUnsafeBytes { FDWriter.writeAll(fd, $0) }
        switch outcome {
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
        switch Array(text.utf8).withUnsafeBytes({ FDWriter.writeAll(fd, $0) }) {
        case .ok: return nil
        case .closed: return "closed"
        case .failed(let error): return error
        }
    }
}
