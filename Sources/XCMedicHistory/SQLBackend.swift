import Foundation
import XCMedicKit
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import SQLiteNIO

/// A value bound to or read from a statement; the store uses only integers, text and null.
enum SQLValue: Sendable, Equatable {
    case int(Int64)
    case text(String)
    case double(Double)
    case null

    var int: Int64? {
        switch self {
        case .int(let v): return v
        case .double(let d): return Int64(d)
        case .text(let t): return Int64(t)
        case .null: return nil
        }
    }

    var text: String? {
        switch self {
        case .text(let t): return t
        case .int(let v): return String(v)
        case .double(let d): return String(d)
        case .null: return nil
        }
    }
}

typealias SQLRow = [SQLValue]

extension Array where Element == SQLValue {
    func int(_ i: Int) -> Int64 { self[i].int ?? 0 }
    func text(_ i: Int) -> String { self[i].text ?? "" }
}

enum SQLDialect: Sendable { case sqlite, postgres }

/// One connection to a store. Every statement of the store is written once, with `?` placeholders, and
/// runs on both databases: that is what keeps SQLite and PostgreSQL giving the same answers.
protocol SQLBackend: Sendable {
    var dialect: SQLDialect { get }
    @discardableResult
    func execute(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]
    func close() async
}

extension SQLBackend {
    @discardableResult
    func execute(_ sql: String, _ binds: SQLValue...) async throws -> [SQLRow] { try await execute(sql, binds) }
}

/// A connection whose every statement must be answered within `seconds`: a server that stops answering (or
/// a lock nobody gives up) ends in `StoreError.unavailable`, with the connection closed, never in a wait
/// without end. The databases' own lock timeouts (`busy_timeout`, `lock_timeout`) are shorter, so a lock
/// held too long fails as the database says it.
final class DeadlineBackend: SQLBackend {
    let inner: any SQLBackend
    let seconds: Double

    init(_ inner: any SQLBackend, seconds: Double) {
        self.inner = inner
        self.seconds = seconds
    }

    var dialect: SQLDialect { inner.dialect }

    func execute(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let inner = self.inner
        return try await Deadline.run(seconds: seconds, what: "the store", abort: { await inner.close() }) {
            try await inner.execute(sql, binds)
        }
    }

    func close() async { await inner.close() }
}

/// Logs of the database clients are not xcmedic's output.
let quietLogger = Logger(label: "xcmedic.history", factory: { _ in SwiftLogNoOpLogHandler() })

/// SQLite through sqlite-nio, which bundles SQLite itself (no system library).
final class SQLiteBackend: SQLBackend {
    let dialect = SQLDialect.sqlite
    private let connection: SQLiteConnection
    private let threadPool: NIOThreadPool

    /// Opens (creating) the file; waits up to `busyTimeout` for another writer's lock, then fails
    /// (sqlite-nio's own busy handler would wait forever).
    ///
    /// Each connection has a thread of its own: on a shared pool, connections of one process waiting
    /// for the write lock would hold every thread while the one holding the lock waits for a thread.
    static func open(path: String, busyTimeout: Double) async throws -> SQLiteBackend {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: .file(path: path), threadPool: pool, logger: quietLogger,
                                                         on: MultiThreadedEventLoopGroup.singleton.any())
        } catch {
            try? await pool.shutdownGracefully()
            throw error
        }
        let backend = SQLiteBackend(connection: connection, threadPool: pool)
        do {
            try await backend.execute("PRAGMA busy_timeout = \(Int(busyTimeout * 1000))")
            // WAL: readers never block the writer; many jobs on one machine can share the file. Switching a
            // new file to WAL needs it alone, and there SQLite answers "busy" at once, without its busy
            // handler, when another connection is opening it too: tried again until the timeout.
            let deadline = Date().addingTimeInterval(busyTimeout)
            while true {
                do {
                    _ = try await backend.execute("PRAGMA journal_mode = WAL")
                    break
                } catch let error as SQLiteError where error.reason == .busy && Date() < deadline {
                    try await Task.sleep(nanoseconds: 5_000_000)
                }
            }
            try await backend.execute("PRAGMA synchronous = NORMAL")
            try await backend.execute("PRAGMA foreign_keys = ON")
        } catch {
            await backend.close()
            throw error
        }
        return backend
    }

    private init(connection: SQLiteConnection, threadPool: NIOThreadPool) {
        self.connection = connection
        self.threadPool = threadPool
    }

    func execute(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let data: [SQLiteData] = binds.map {
            switch $0 {
            case .int(let v): return .integer(SQLiteInt64(v))
            case .text(let t): return .text(t)
            case .double(let d): return .float(d)
            case .null: return .null
            }
        }
        let rows = try await connection.query(sql, data)
        return rows.map { row in
            row.columns.map { column in
                switch column.data {
                case .integer(let v): return .int(Int64(v))
                case .float(let d): return .double(d)
                case .text(let t): return .text(t)
                case .blob(var b): return .text(b.readString(length: b.readableBytes) ?? "")
                case .null: return .null
                }
            }
        }
    }

    func close() async {
        try? await connection.close()
        try? await threadPool.shutdownGracefully()
    }
}

/// PostgreSQL through postgres-nio.
final class PostgresBackend: SQLBackend {
    let dialect = SQLDialect.postgres
    private let connection: PostgresConnection

    /// `connectTimeout` bounds the connection and the server's handshake (postgres-nio closes the channel at
    /// the deadline) and is the server's `lock_timeout`: a statement waiting longer for a lock fails.
    static func connect(_ url: PostgresURL, connectTimeout: Double) async throws -> PostgresBackend {
        var configuration: PostgresConnection.Configuration
        if let socket = url.unixSocket {
            configuration = .init(unixSocketPath: socket, username: url.user, password: url.password, database: url.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            switch url.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require:
                var config = TLSConfiguration.makeClientConfiguration()
                if !url.verifyCertificate { config.certificateVerification = .none }
                tls = .require(try NIOSSLContext(configuration: config))
            }
            configuration = .init(host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: tls)
        }
        configuration.options.connectTimeout = .milliseconds(Int64(connectTimeout * 1000))
        configuration.options.additionalStartupParameters = [("application_name", "xcmedic"),
                                                             ("lock_timeout", String(max(1, Int(connectTimeout * 1000))))]
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: quietLogger)
        return PostgresBackend(connection: connection)
    }

    private init(connection: PostgresConnection) { self.connection = connection }

    func execute(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        var bindings = PostgresBindings(capacity: binds.count)
        for bind in binds {
            switch bind {
            case .int(let v): bindings.append(v)
            case .text(let t): bindings.append(t)
            case .double(let d): bindings.append(d)
            case .null: bindings.appendNull()
            }
        }
        let rows = try await connection.query(PostgresQuery(unsafeSQL: PostgresBackend.numbered(sql), binds: bindings), logger: quietLogger)
        var out: [SQLRow] = []
        for try await row in rows {
            var values: SQLRow = []
            for cell in row {
                if cell.bytes == nil {
                    values.append(.null)
                    continue
                }
                switch cell.dataType {
                case .int2, .int4, .int8: values.append(.int(try cell.decode(Int64.self)))
                case .float4, .float8: values.append(.double(try cell.decode(Double.self)))
                case .bool: values.append(.int(try cell.decode(Bool.self) ? 1 : 0))
                default: values.append(.text(try cell.decode(String.self)))
                }
            }
            out.append(values)
        }
        return out
    }

    func close() async { try? await connection.close() }

    /// `?` placeholders as PostgreSQL's `$1`, `$2`, …; the store's statements have no `?` in literals.
    static func numbered(_ sql: String) -> String {
        var out = ""
        out.reserveCapacity(sql.count + 16)
        var n = 0
        for c in sql {
            if c == "?" {
                n += 1
                out += "$\(n)"
            } else {
                out.append(c)
            }
        }
        return out
    }
}
