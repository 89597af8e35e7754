import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `xcmedic-history`, the executable that holds the history store (SQLite, PostgreSQL, SwiftNIO), so that
/// `xcmedic` itself links none of it and a scan that does not record pays nothing for it.
///
/// `xcmedic history …` becomes `xcmedic-history …` (same arguments, same standard streams, same exit
/// status); `xcmedic scan --record` hands the build to `xcmedic-history record` (`HistoryExchange`) and
/// puts the facts it answers into the report.
public enum HistoryTool {
    /// `history`'s one-line help, the same in `xcmedic --help` and `xcmedic-history --help`.
    public static let abstract = "What broke CI over time: top causes, new causes, flaky tests, one cause's timeline."
    /// The store `history` reads, as both executables' help describe it.
    public static let storeHelp = "Reads the store that 'xcmedic scan --record' writes: a SQLite file (default .xcmedic/history.sqlite at the "
        + "repository root, or $XCMEDIC_HISTORY) or a PostgreSQL server (postgres://user@host/db; the password from the "
        + "URL or $PGPASSWORD, never printed). Without a subcommand, lists the top causes."

    public static let name = "xcmedic-history"

    /// `$XCMEDIC_HISTORY_TOOL` when set (nothing else is tried then), else `xcmedic-history` beside the
    /// running executable (symbolic links resolved: Homebrew's `bin/xcmedic` finds its Cellar), else on PATH.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<String, ToolMissing> {
        if let given = environment["XCMEDIC_HISTORY_TOOL"], !given.isEmpty {
            return access(given, X_OK) == 0 && !isDirectory(given) ? .success(given)
                : .failure(ToolMissing(message: "XCMEDIC_HISTORY_TOOL=\(given) is not an executable file"))
        }
        if let own = RunningExecutable.path {
            let beside = (own as NSString).deletingLastPathComponent + "/" + name
            if access(beside, X_OK) == 0, !isDirectory(beside) { return .success(beside) }
        }
        if let onPath = ChildProcess.resolve(name, path: environment["PATH"]), !isDirectory(onPath) { return .success(onPath) }
        return .failure(ToolMissing(message: "\(name) was not found beside \(RunningExecutable.path ?? "xcmedic") or on PATH; install it with xcmedic (see README), or set XCMEDIC_HISTORY_TOOL"))
    }

    public struct ToolMissing: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// How long `scan --record` waits for `xcmedic-history record`: every wait inside it is bounded by
    /// `timeout` (a connection, a lock) or twice it (one statement's answer), so a few times it and a start-up.
    public static func recordLimit(timeout: Double) -> Double { 5 + 6 * timeout }

    /// Runs `xcmedic-history record` with `request` on its standard input; the store (`--record`'s value)
    /// goes in its environment as `XCMEDIC_HISTORY`, never into a file. Returns the facts, or why not in
    /// one line (the tool missing, failing, ended by a signal, or silent past `limit` seconds).
    public static func record(_ request: HistoryExchange.Request, store: String?, limit: Double,
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<HistoryFacts, ToolFailure> {
        let tool: String
        switch locate(environment: environment) {
        case .success(let path): tool = path
        case .failure(let missing): return .failure(ToolFailure(message: missing.message))
        }
        // A private folder for the exchange: the request (redacted already), the answer, the tool's errors.
        var template = Array((NSTemporaryDirectory() + "/xcmedic-history-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return .failure(ToolFailure(message: "cannot make a temporary folder: \(String(cString: strerror(errno)))")) }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/request.json", output = folder + "/answer.json", errors = folder + "/stderr.txt"
        do {
            try HistoryExchange.encoder.encode(request).write(to: URL(fileURLWithPath: input))
        } catch {
            return .failure(ToolFailure(message: "cannot write the request: \(error.localizedDescription)"))
        }
        var options = ChildProcess.Options(outputPath: output, errorPath: errors, timeout: limit, interruptible: false)
        options.inputPath = input
        if let store { options.environment["XCMEDIC_HISTORY"] = store }
        let exit: ChildExit
        do {
            exit = try ChildProcess.run([tool, "record"], options)
        } catch {
            return .failure(ToolFailure(message: "\(name): \(error)"))
        }
        // The first line the tool wrote on standard error, redacted like anything else xcmedic prints.
        let said = (try? String(contentsOfFile: errors, encoding: .utf8))?
            .split(separator: "\n").first.map { ": " + Redactor.standard.redact($0.trimmingCharacters(in: .whitespaces)) } ?? ""
        switch exit {
        case .couldNotStart(let why): return .failure(ToolFailure(message: "cannot run \(why)"))
        case .timedOut: return .failure(ToolFailure(message: "\(name) gave no answer within \(Int(limit.rounded(.up)))s and was ended"))
        case .exited(let status) where status != 0:
            let how = status > 128 ? "was ended by signal \(status - 128)" : "exited with status \(status)"
            return .failure(ToolFailure(message: "\(name) \(how)\(said)"))
        case .exited:
            break
        }
        guard let data = FileManager.default.contents(atPath: output),
              let answer = try? HistoryExchange.decoder.decode(HistoryExchange.Answer.self, from: data),
              answer.schema == HistoryExchange.Answer.schema else {
            return .failure(ToolFailure(message: "\(name) gave no answer this xcmedic understands (a different version?)\(said)"))
        }
        if let facts = answer.facts { return .success(facts) }
        return .failure(ToolFailure(message: answer.problem.map(Redactor.standard.redact) ?? "\(name) answered without facts"))
    }

    public struct ToolFailure: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// `xcmedic history …`: becomes `xcmedic-history …`, which inherits the standard streams and whose
    /// exit status is the command's. Returns only when the tool cannot be found or started (why, in one line).
    public static func replaceProcess(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        switch locate(environment: environment) {
        case .failure(let missing): return missing.message
        case .success(let tool): return ChildProcess.replaceProcess(with: [tool] + arguments)
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }
}

/// The internal interface between `xcmedic scan --record` and `xcmedic-history record` (docs/history.md):
/// one JSON request on the tool's standard input, one JSON answer on its standard output, each with a
/// schema name whose number changes with any change of meaning. Both executables ship together.
public enum HistoryExchange {
    public struct Request: Sendable, Equatable, Codable {
        public static let schema = "xcmedic.history.record/1"
        public var schema = Request.schema
        /// The build, redacted.
        public var identity: BuildIdentity
        public var build: BuildRecord
        /// `--history-window`: how many recent builds of the branch the facts count.
        public var window: Int
        /// The xcmedic that scanned.
        public var toolVersion: String
        /// `XCMEDIC_HISTORY_TIMEOUT` as the scan read it: the bound of each wait on the store.
        public var timeout: Double
        /// The folder the default store (`.xcmedic/history.sqlite`) is under: the checkout's root.
        public var root: String

        public init(identity: BuildIdentity, build: BuildRecord, window: Int, toolVersion: String, timeout: Double, root: String) {
            self.identity = identity
            self.build = build
            self.window = window
            self.toolVersion = toolVersion
            self.timeout = timeout
            self.root = root
        }
    }

    public struct Answer: Sendable, Equatable, Codable {
        public static let schema = "xcmedic.history.facts/1"
        public var schema = Answer.schema
        /// The store's facts; nil when it could not be used.
        public var facts: HistoryFacts?
        /// Why not (`history not recorded in STORE: why`), never with a credential.
        public var problem: String?

        public init(facts: HistoryFacts?, problem: String?) {
            self.facts = facts
            self.problem = problem
        }
    }

    public static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .secondsSince1970
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    public static var decoder: JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .secondsSince1970
        return d
    }
}

/// The path of the running executable, symbolic links resolved.
public enum RunningExecutable {
    public static var path: String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return Bundle.main.executablePath }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #elseif canImport(Darwin)
        var size: UInt32 = 0
        _ = _NSGetExecutablePath(nil, &size)
        var buffer = [CChar](repeating: 0, count: Int(size) + 1)
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return Bundle.main.executablePath }
        guard let resolved = realpath(buffer, nil) else { return Bundle.main.executablePath }
        defer { free(resolved) }
        return String(cString: resolved)
        #else
        return Bundle.main.executablePath
        #endif
    }
}
