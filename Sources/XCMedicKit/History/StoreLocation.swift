import Foundation

/// A PostgreSQL connection URL: `postgres://user:password@host:port/database?sslmode=require`.
///
/// The password comes from the URL or, when the URL has none, from `PGPASSWORD`; the user from the URL,
/// `PGUSER` or `postgres`. `description` never shows the password.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    public enum TLSMode: String, Sendable { case disable, prefer, require }

    public var host: String
    public var port: Int
    public var user: String
    package var password: String?
    public var database: String
    public var tls: TLSMode
    /// `sslmode=verify-full` and `verify-ca` check the server's certificate; `require` only encrypts, as libpq does.
    public var verifyCertificate: Bool
    /// `?host=/var/run/postgresql` (libpq's form): connect through the server's Unix socket in that folder.
    public var unixSocket: String?

    public init(_ text: String, environment: [String: String]) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
              scheme == "postgres" || scheme == "postgresql" else {
            throw StoreError.badLocation("not a postgres:// URL: \(PostgresURL.masked(text))")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        host = components.host.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding } ?? environment["PGHOST"] ?? "localhost"
        port = components.port ?? environment["PGPORT"].flatMap(Int.init) ?? 5432
        user = components.user?.removingPercentEncoding ?? environment["PGUSER"] ?? "postgres"
        password = components.password?.removingPercentEncoding ?? environment["PGPASSWORD"]
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? (environment["PGDATABASE"] ?? user) : (path.removingPercentEncoding ?? path)
        let mode = query["sslmode"] ?? environment["PGSSLMODE"] ?? "prefer"
        switch mode {
        case "disable", "allow": tls = .disable
        case "prefer": tls = .prefer
        case "require", "verify-ca", "verify-full": tls = .require
        default: throw StoreError.badLocation("sslmode=\(mode) is not one of disable, prefer, require, verify-ca, verify-full")
        }
        verifyCertificate = mode == "verify-ca" || mode == "verify-full"
        if let socketDir = query["host"], socketDir.hasPrefix("/") {
            unixSocket = socketDir.hasSuffix(".s.PGSQL.\(port)") ? socketDir : socketDir + "/.s.PGSQL.\(port)"
        } else if host.hasPrefix("/") {
            unixSocket = host + "/.s.PGSQL.\(port)"
        }
    }

    public var description: String {
        let at = unixSocket.map { "[\($0)]" } ?? "\(host):\(port)"
        return "postgres://\(user)@\(at)/\(database)"
    }

    /// A URL as it may be printed: any password replaced.
    public static func masked(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let rest = text[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var out = String(text[..<scheme.upperBound])
        if let at = authority.lastIndex(of: "@") {
            let userinfo = authority[..<at]
            let user = userinfo.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            out += user + (userinfo.contains(":") ? ":***" : "") + String(authority[at...])
        } else {
            out += String(authority)
        }
        var tail = String(rest[authorityEnd...])
        // libpq also takes `?password=…`.
        if let range = tail.range(of: "password=") {
            let end = tail[range.upperBound...].firstIndex(of: "&") ?? tail.endIndex
            tail.replaceSubrange(range.upperBound..<end, with: "***")
        }
        return out + tail
    }
}

/// Where `scan --record` and `history` keep their records.
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresURL)

    public static let defaultPath = ".xcmedic/history.sqlite"

    /// `value` is what `--record` or `--store` was given (nil or empty: `XCMEDIC_HISTORY`, else the
    /// default file under `root`): a `postgres://` URL, a `sqlite:` path or a file path.
    public static func resolve(_ value: String?, environment: [String: String], root: String) throws -> StoreLocation {
        var text = value ?? ""
        if text.isEmpty { text = environment["XCMEDIC_HISTORY"] ?? "" }
        if text.isEmpty { return .sqlite(path: (root as NSString).appendingPathComponent(defaultPath)) }
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            return .postgres(try PostgresURL(text, environment: environment))
        }
        if text.contains("://") { throw StoreError.badLocation("unknown store \(PostgresURL.masked(text)): use a file path or a postgres:// URL") }
        if text.hasPrefix("sqlite:") { text.removeFirst("sqlite:".count) }
        if text.hasPrefix("~/"), let home = environment["HOME"] { text = home + text.dropFirst() }
        guard !text.isEmpty else { throw StoreError.badLocation("sqlite: needs a file path") }
        return .sqlite(path: text)
    }

    /// As it may be shown: never a password.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url): return url.description
        }
    }
}

/// Why the store could not be used; the message never holds a credential.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case badLocation(String)
    case unavailable(String)
    case newerSchema(found: Int, known: Int)
    case notFound(String)

    public var description: String {
        switch self {
        case .badLocation(let why): return why
        case .unavailable(let why): return why
        case .newerSchema(let found, let known):
            return "the store has schema version \(found), newer than this xcmedic knows (\(known)); update xcmedic"
        case .notFound(let what): return what
        }
    }
}

extension StoreLocation {
    /// `.xcmedic/history.sqlite` lives at the root of the repository xcmedic runs in (the CI's
    /// checkout, else git's top level), else in the current folder.
    public static func defaultRoot() -> String {
        let cwd = FileManager.default.currentDirectoryPath
        if let root = CIEnvironment().workspaceRoot { return root }
        if let top = try? Git(directory: cwd).topLevel(), !top.isEmpty { return top }
        return cwd
    }

    /// Seconds to wait for a connection or a lock: `XCMEDIC_HISTORY_TIMEOUT`, else 10.
    public static func timeout(environment: [String: String] = ProcessInfo.processInfo.environment) -> Double {
        environment["XCMEDIC_HISTORY_TIMEOUT"].flatMap(Double.init).map { max(0.1, $0) } ?? 10
    }
}
