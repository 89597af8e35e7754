import Foundation
import XCMedicKit

/// Work on a store that must answer within a time: when it does not, `abort` closes the connection, which
/// fails whatever awaits it, and the work ends with `StoreError.unavailable`. Nothing is left running: the
/// work is awaited to its end (a closed connection ends it at once).
enum Deadline {
    private enum Outcome<T: Sendable>: Sendable {
        case done(T)
        case expired
    }

    static func run<T: Sendable>(seconds: Double, what: String, abort: @escaping @Sendable () async -> Void,
                                 _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Outcome<T>.self) { group in
            group.addTask { .done(try await body()) }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
                return .expired
            }
            // The first to finish decides; the other is cancelled (a sleep ends at once) or failed by the abort.
            guard let first = try await group.next() else { throw CancellationError() }
            switch first {
            case .done(let value):
                group.cancelAll()
                return value
            case .expired:
                await abort()
                while (try? await group.next()) != nil {}
                throw StoreError.unavailable("\(what): no answer within \(Deadline.text(seconds))")
            }
        }
    }

    /// `10s`, `0.5s`.
    static func text(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds))s" : String(format: "%.1fs", seconds)
    }
}
