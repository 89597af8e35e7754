import ArgumentParser
import Foundation
import XCMedicHistory
import XCMedicKit

extension HistoryFormat: ExpressibleByArgument {}

enum ExportFormat: String, CaseIterable, ExpressibleByArgument {
    case ndjson
}

/// Where the store is and which builds a question is about; shared by every `history` subcommand.
struct HistoryOptions: ParsableArguments {
    @Option(name: .customLong("store"), help: ArgumentHelp(
        "The store: a SQLite file or a postgres:// URL (default: $XCMEDIC_HISTORY, else .xcmedic/history.sqlite at the repository root).",
        valueName: "PATH|URL"))
    var store: String?

    @Option(help: "Only builds of this repository (as recorded: owner/name on most CI services).")
    var repository: String?

    @Option(help: "Only builds of this branch.")
    var branch: String?

    @Option(help: "Output format: text, json or markdown.")
    var format: HistoryFormat = .text

    func location() throws -> StoreLocation {
        do {
            return try StoreLocation.resolve(store, environment: ProcessInfo.processInfo.environment, root: HistoryCLI.storeRoot())
        } catch let error as StoreError {
            throw CLIError(error.description)
        }
    }

    /// Opens the store (never creating one), runs `body`, closes; store errors exit 2 with one line.
    func withStore<T: Sendable>(create: Bool = false, _ body: @escaping @Sendable (HistoryStore) async throws -> T) throws -> T {
        let location = try location()
        let timeout = HistoryCLI.timeout()
        do {
            // A question about a large store may take a while; a server silent for a minute is gone.
            return try Blocking.run {
                try await HistoryStore.using(location, create: create, timeout: timeout, answerTimeout: max(60, timeout * 2), body)
            }
        } catch let error as StoreError {
            throw CLIError(error.description)
        } catch {
            throw CLIError("\(location): \(String(describing: error).split(separator: "\n").first ?? "")")
        }
    }

    var scopeRepository: String { repository ?? "" }
    var scopeBranch: String { branch ?? "" }

    /// Asks the store and prints the answer in the chosen format.
    func answer<T: Sendable>(_ ask: @escaping @Sendable (HistoryStore) async throws -> T, _ render: (HistoryReport) -> (T) -> String) throws {
        let value = try withStore(ask)
        try HistoryCLI.write(render(HistoryReport(format: format))(value))
    }
}

/// `--since` of the questions about a window of builds (top causes, flaky tests).
struct HistoryWindow: ParsableArguments {
    @Option(help: "Builds since a duration ago (30d, 12h, 2w) or a date (2026-11-01).")
    var since = "30d"

    func scope(_ options: HistoryOptions) throws -> HistoryScope {
        HistoryScope(since: try HistoryCLI.time(since, option: "--since"), repository: options.scopeRepository, branch: options.scopeBranch)
    }
}

enum HistoryCLI {
    static func storeRoot() -> String { StoreLocation.defaultRoot() }

    static func timeout() -> Double { StoreLocation.timeout() }

    /// `30d`, `12h`, `2w` before now, or a date (`2026-11-01`, ISO 8601).
    static func time(_ text: String, option: String, now: Date = Date()) throws -> Date {
        if let seconds = HistoryDates.duration(text) { return now.addingTimeInterval(-seconds) }
        if let date = HistoryDates.parse(text) { return date }
        throw CLIError("\(option) \(text): give a duration (30d, 12h, 2w) or a date (2026-11-01)")
    }

    static func write(_ text: String) throws {
        switch Array(text.utf8).withUnsafeBytes({ FDWriter.writeAll(1, $0) }) {
        case .ok: return
        case .closed: throw ExitCode(CommandLineText.brokenPipeStatus)
        case .failed(let error): throw CLIError("cannot write standard output: \(error)")
        }
    }
}

/// `xcmedic history …` (xcmedic runs this executable with the same arguments).
@main
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xcmedic history",
        abstract: HistoryTool.abstract,
        discussion: HistoryTool.storeHelp + " See docs/history.md.",
        version: ToolInfo.version,
        subcommands: [HistoryTop.self, HistoryNew.self, HistoryFlaky.self, HistoryShow.self, HistoryPrune.self, HistoryRecord.self],
        defaultSubcommand: HistoryTop.self
    )

    /// Usage and store errors exit 2 with one line on stderr, as `xcmedic`'s do.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue)
        } catch let error as CLIError {
            fail(error.message)
        } catch let error as StoreError {
            fail(error.description)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            let message = CommandLineText.oneLine(self.message(for: error))
            if !message.isEmpty { fail(message + " (see 'xcmedic history --help')") }
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("xcmedic: \(message)\n".utf8))
        Foundation.exit(2)
    }
}

/// A user error the CLI reports on one line with exit code 2.
struct CLIError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

struct HistoryTop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top",
        abstract: "The causes that failed the most builds (or, with --export ndjson, every record for a warehouse)."
    )

    @OptionGroup var options: HistoryOptions
    @OptionGroup var window: HistoryWindow

    @Option(help: "Causes listed.")
    var limit = 20

    @Option(help: ArgumentHelp("Write every build in the window with its failures, one JSON object a line (schema: docs/history.md).", valueName: "ndjson"))
    var export: ExportFormat?

    func run() throws {
        let scope = try window.scope(options), limit = self.limit
        if export != nil {
            _ = try options.withStore { store in
                try await store.exportNDJSON(scope) { line in try HistoryCLI.write(line) }
            }
            return
        }
        try options.answer({ try await $0.topCauses(scope, limit: limit) }, HistoryReport.render)
    }
}

struct HistoryNew: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Causes first recorded after a revision (its last recorded build) or a date."
    )

    @OptionGroup var options: HistoryOptions

    @Option(help: ArgumentHelp("A revision (a commit hash or prefix, or any name git resolves here), a date, or a duration ago.", valueName: "REV|DATE"))
    var since: String

    @Option(help: "Causes listed.")
    var limit = 50

    func run() throws {
        let label = since, repository = options.scopeRepository, branch = options.scopeBranch, limit = self.limit
        let given: Date? = HistoryDates.duration(since).map { Date().addingTimeInterval(-$0) } ?? HistoryDates.parse(since)
        var commit = since
        if given == nil, let resolved = try? Git(directory: FileManager.default.currentDirectoryPath).result(["rev-parse", "--verify", "--quiet", since + "^{commit}"]),
           resolved.ok {
            commit = resolved.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if given == nil, commit.isEmpty || !commit.allSatisfy(\.isHexDigit) {
            throw CLIError("--since \(since): not a date, a duration, or a revision git knows here")
        }
        let revision = commit
        try options.answer({ store in
            var after = given
            if after == nil {
                after = try await store.lastBuildTime(atCommit: revision, repository: repository)
                guard after != nil else { throw StoreError.notFound("no build recorded at \(label) (\(revision.prefix(12)))") }
            }
            return try await store.newCauses(since: label, after: after!, repository: repository, branch: branch, limit: limit)
        }, HistoryReport.render)
    }
}

struct HistoryFlaky: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flaky",
        abstract: "Tests that changed between failing and passing, by flip rate; a commit with both makes a test flaky beyond doubt."
    )

    @OptionGroup var options: HistoryOptions
    @OptionGroup var window: HistoryWindow

    @Option(help: "Tests listed.")
    var limit = 50

    func run() throws {
        let scope = try window.scope(options), limit = self.limit
        try options.answer({ try await $0.flakyTests(scope, limit: limit) }, HistoryReport.render)
    }
}

struct HistoryShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "One cause's timeline: every recorded build that had it, newest first."
    )

    @OptionGroup var options: HistoryOptions

    @Argument(help: "The cause's fingerprint (or a unique prefix), as the other history commands and scan --record print it.")
    var fingerprint: String

    @Option(help: "Builds listed.")
    var limit = 50

    func run() throws {
        let fingerprint = self.fingerprint, repository = options.scopeRepository, limit = self.limit
        try options.answer({ try await $0.timeline(fingerprint, repository: repository, limit: limit) }, HistoryReport.render)
    }
}

struct HistoryPrune: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete the builds recorded before a date or a duration ago, with their failures."
    )

    @OptionGroup var options: HistoryOptions

    @Option(name: .customLong("older-than"), help: ArgumentHelp("A duration (90d, 12w) or a date (2026-01-01).", valueName: "AGE|DATE"))
    var olderThan: String

    func run() throws {
        let cut = try HistoryCLI.time(olderThan, option: "--older-than")
        let location = try options.location()
        let removed = try options.withStore { store in try await store.prune(olderThan: cut) }
        try HistoryCLI.write("pruned \(removed) build\(removed == 1 ? "" : "s") recorded before \(HistoryDates.iso(cut)) from \(location)\n")
    }
}

/// `xcmedic scan --record`'s half in this executable (not for users): reads one `HistoryExchange.Request`
/// on standard input, records it in the store (`XCMEDIC_HISTORY` in the environment, else the default
/// file under the request's root), and writes one `HistoryExchange.Answer` on standard output: the
/// facts, or why the store could not be used. Exit 0 either way; 2 when the request cannot be read.
struct HistoryRecord: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a scan's build for 'xcmedic scan --record' (a JSON request on standard input; see docs/history.md).",
        shouldDisplay: false
    )

    func run() throws {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        let request: HistoryExchange.Request
        do {
            request = try HistoryExchange.decoder.decode(HistoryExchange.Request.self, from: data)
        } catch {
            throw CLIError("record: standard input is not a \(HistoryExchange.Request.schema) request (what 'xcmedic scan --record' sends; see docs/history.md)")
        }
        guard request.schema == HistoryExchange.Request.schema else {
            throw CLIError("record: request schema \(request.schema), this xcmedic-history reads \(HistoryExchange.Request.schema); install xcmedic and xcmedic-history together")
        }
        var answer = HistoryExchange.Answer(facts: nil, problem: nil)
        do {
            let location = try StoreLocation.resolve(nil, environment: ProcessInfo.processInfo.environment, root: request.root)
            switch HistoryRecorder.facts(request.build, to: location, as: request.identity, window: request.window,
                                         toolVersion: request.toolVersion, timeout: request.timeout) {
            case .success(let facts): answer.facts = facts
            case .failure(let problem): answer.problem = problem.description
            }
        } catch {
            answer.problem = "\(error)"
        }
        var bytes = try HistoryExchange.encoder.encode(answer)
        bytes.append(0x0A)
        try HistoryCLI.write(String(decoding: bytes, as: UTF8.self))
    }
}
