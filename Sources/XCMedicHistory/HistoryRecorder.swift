import Foundation
import XCMedicKit

/// Runs async store work from the synchronous CLI.
///
/// Every wait inside the store has its own bound (the connection's deadline, the databases' lock
/// timeouts, `DeadlineBackend` for an answer), so the work always ends and is waited for to its end: no
/// task is left behind holding a connection or a lock. The calling thread must not be one of the
/// concurrency pool's (the CLI's main thread; a test's), or the work could wait for the thread it blocks.
public enum Blocking {
    private final class Box<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }

    public static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        // On a thread of the pool (inside a task) the wait could hold the very thread the work needs: with
        // one CPU the pool has one thread. Refused rather than risked.
        if withUnsafeCurrentTask(body: { $0 != nil }) {
            throw StoreError.unavailable("the store was used from inside a task, where waiting for it could stall it")
        }
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            box.result = result
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }
}

/// `scan --record`: stores the diagnosis and adds what the store knows to it, and never fails the scan.
public enum HistoryRecorder {
    /// The diagnosis with history facts, or unchanged with `warning` told why when the store could not
    /// be used (down, locked, unreachable, a newer schema): recording never changes a scan's outcome.
    public static func record(_ diagnosis: Diagnosis, to location: StoreLocation, as identity: BuildIdentity, window: Int,
                              toolVersion: String, timeout: Double, warning: (String) -> Void) -> Diagnosis {
        do {
            return try Blocking.run {
                try await HistoryStore.using(location, create: true, timeout: timeout) { store in
                    try await store.record(diagnosis, as: identity, window: window, toolVersion: toolVersion)
                }
            }
        } catch {
            warning("history not recorded in \(location): \(HistoryStore.describe(error))")
            return diagnosis
        }
    }
}
