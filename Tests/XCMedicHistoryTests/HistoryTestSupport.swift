import Foundation
import XCTest
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
        try Blocking.run(timeout: 60) {
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
        _ = try? Blocking.run(timeout: 60) {
            let backend = try await PostgresBackend.connect(admin, connectTimeout: 10)
            _ = try? await backend.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            await backend.close()
        }
    }
}

extension XCTestCase {
    func temporaryDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("xcmedic-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
