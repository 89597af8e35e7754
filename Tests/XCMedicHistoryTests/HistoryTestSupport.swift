import Foundation
import XCTest
import XCMedicTestSupport
@testable import XCMedicHistory
@testable import XCMedicKit

/// Real logs of the shapes xcodebuild prints, scanned by the real scanner and catalog.
enum HistoryLogs {
    /// A module that cannot be found (the path differs per runner, the cause does not).
    static func missingModule(workspace: String = "/Users/runner/work/app/app", line: Int = 3) -> String {
        """
        CompileSwift normal arm64 \(workspace)/Sources/App/App.swift (in target 'App' from project 'App')
        \(workspace)/Sources/App/App.swift:\(line):8: error: no such module 'Alamofire'
        import Alamofire
               ^
        ** BUILD FAILED **
        """
    }

    /// An XCTest assertion in `LoginTests.testLogin` (its message differs between runs; the test does not).
    static func failingTest(value: Int = 2) -> String {
        """
        Test Suite 'LoginTests' started at 2026-11-20 10:00:00.000.
        Test Case '-[AppTests.LoginTests testLogin]' started.
        /Users/runner/work/app/app/Tests/AppTests/LoginTests.swift:21: error: -[AppTests.LoginTests testLogin] : XCTAssertEqual failed: ("1") is not equal to ("\(value)")
        Test Case '-[AppTests.LoginTests testLogin]' failed (0.012 seconds).
        ** TEST FAILED **
        """
    }

    static let passing = """
        Test Case '-[AppTests.LoginTests testLogin]' passed (0.004 seconds).
        ** TEST SUCCEEDED **
        """

    static func diagnosis(_ log: String) throws -> Diagnosis {
        let scanner = Scanner(ruleSet: try RuleSet(rules: try BuiltinCatalog.rules()))
        try scanner.scan(text: log, name: "build.log")
        return scanner.finish()
    }
}

/// The stores the behaviour tests run on: a SQLite file, and a fresh database on the PostgreSQL server
/// named by XCMEDIC_TEST_POSTGRES_URL (`.ci/run` starts one; without it those tests skip).
enum TestStores {
    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["XCMEDIC_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static func sqlite(in directory: URL) -> StoreLocation {
        .sqlite(path: directory.appendingPathComponent("history.sqlite").path)
    }

    /// A new database on the test server; dropped by `dropPostgres`.
    static func postgres() throws -> (location: StoreLocation, url: String, name: String) {
        guard let base = postgresURL else { throw XCTSkip("XCMEDIC_TEST_POSTGRES_URL is not set (.ci/run starts a PostgreSQL server and sets it)") }
        let name = "xcmedic_t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        let admin = try PostgresURL(base, environment: [:])
        try Blocking.run {
            let backend = try await PostgresBackend.connect(admin, connectTimeout: 10)
            try await backend.execute("CREATE DATABASE \(name)")
            await backend.close()
        }
        var components = URLComponents(string: base)!
        components.path = "/" + name
        let url = components.string!
        return (try StoreLocation.resolve(url, environment: [:], root: "/"), url, name)
    }

    static func dropPostgres(_ name: String) {
        guard let base = postgresURL, let admin = try? PostgresURL(base, environment: [:]) else { return }
        _ = try? Blocking.run {
            let backend = try await PostgresBackend.connect(admin, connectTimeout: 10)
            _ = try? await backend.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            await backend.close()
        }
    }
}

extension XCTestCase {
    func temporaryDirectory(_ label: String) throws -> URL {
        let url = Scratch.url("xcmedic-\(label)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}

/// A TCP server on 127.0.0.1 that accepts every connection and never sends a byte: a database server
/// that hangs, a firewall that swallows replies after the handshake. `closedByPeer` tells whether the
/// client closed its end (nothing left holding the connection).
final class SilentServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let thread: Thread

    /// Called with each accepted connection instead of keeping it silent (`FreezingProxy`).
    var onAccept: (@Sendable (Int32) -> Void)? {
        get { acceptBox.handler }
        set { acceptBox.handler = newValue }
    }

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let box = AcceptBox()
        thread = Thread {
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                if let handler = box.handler { handler(client) } else { box.add(client) }
            }
        }
        acceptBox = box
        thread.start()
    }

    private final class AcceptBox: @unchecked Sendable {
        private let lock = NSLock()
        private var fds: [Int32] = []
        private var _handler: (@Sendable (Int32) -> Void)?
        var handler: (@Sendable (Int32) -> Void)? {
            get { lock.lock(); defer { lock.unlock() }; return _handler }
            set { lock.lock(); _handler = newValue; lock.unlock() }
        }
        func add(_ fd: Int32) { lock.lock(); fds.append(fd); lock.unlock() }
        var all: [Int32] { lock.lock(); defer { lock.unlock() }; return fds }
    }
    private var acceptBox: AcceptBox!

    var connections: Int { acceptBox.all.count }

    /// Whether every accepted connection has been closed by the client, waiting up to `seconds`. What the
    /// client sent (its startup message) is read and dropped; only the end of the stream counts.
    func closedByPeer(within seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        var open = Set(acceptBox.all)
        var buffer = [UInt8](repeating: 0, count: 512)
        while !open.isEmpty, Date() < end {
            for fd in open {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 20) > 0 else { continue }
                let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { open.remove(fd) }
            }
        }
        return open.isEmpty
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in acceptBox.all { close(fd) }
    }
}

/// A TCP proxy to a real server that can go silent: until `freeze()` it passes bytes both ways; after it,
/// it passes nothing and keeps the connections open, as a server that hangs in the middle of a session
/// (or a network that drops every packet). `closedByClient` tells whether the client closed its end.
final class FreezingProxy: @unchecked Sendable {
    let port: Int
    private let listener: SilentServer
    private let target: Int
    private let state = NSLock()
    private var frozen = false
    private var clientClosed = false

    init(to targetPort: Int) throws {
        listener = try SilentServer()
        port = listener.port
        target = targetPort
        listener.onAccept = { [weak self] client in self?.pump(client) }
    }

    func freeze() { state.lock(); frozen = true; state.unlock() }
    private var isFrozen: Bool { state.lock(); defer { state.unlock() }; return frozen }

    var closedByClient: Bool { state.lock(); defer { state.unlock() }; return clientClosed }

    private func pump(_ client: Int32) {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(target).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard connected == 0 else { close(server); close(client); return }
        Thread {
            var buffer = [UInt8](repeating: 0, count: 16_384)
            var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
            while true {
                if self.isFrozen {
                    // Read nothing more from the server; only notice when the client goes away.
                    var one = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                    if poll(&one, 1, 50) > 0 {
                        let n = recv(client, &buffer, buffer.count, 0)
                        if n <= 0 { break }
                    }
                    continue
                }
                guard poll(&fds, 2, 50) >= 0 else { break }
                if fds[0].revents != 0 {
                    let n = recv(client, &buffer, buffer.count, 0)
                    if n <= 0 { break }
                    _ = send(server, buffer, n, Int32(MSG_NOSIGNAL))
                }
                if fds[1].revents != 0, !self.isFrozen {
                    let n = recv(server, &buffer, buffer.count, 0)
                    if n <= 0 { break }
                    _ = send(client, buffer, n, Int32(MSG_NOSIGNAL))
                }
            }
            self.state.lock(); self.clientClosed = true; self.state.unlock()
            close(client)
            close(server)
        }.start()
    }

    func stop() { listener.stop() }
}
