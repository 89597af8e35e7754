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

/// `scan --record`: stores a build and tells what the store knows of it, and never fails the scan.
public enum HistoryRecorder {
    /// The diagnosis with history facts, or unchanged with `warning` told why when the store could not
    /// be used (down, locked, unreachable, a newer schema): recording never changes a scan's outcome.
    public static func record(_ diagnosis: Diagnosis, to location: StoreLocation, as identity: BuildIdentity, window: Int,
                              toolVersion: String, timeout: Double, warning: (String) -> Void) -> Diagnosis {
        switch facts(BuildRecord(diagnosis), to: location, as: identity, window: window, toolVersion: toolVersion, timeout: timeout) {
        case .success(let facts): return facts.applied(to: diagnosis)
        case .failure(let problem):
            warning("history not recorded in \(location): \(problem)")
            return diagnosis
        }
    }

    /// Records `build` and returns the store's facts, or why the store could not be used (one line, no credential).
    public static func facts(_ build: BuildRecord, to location: StoreLocation, as identity: BuildIdentity, window: Int,
                             toolVersion: String, timeout: Double) -> Result<HistoryFacts, StoreError> {
        do {
            return .success(try Blocking.run {
                try await HistoryStore.using(location, create: true, timeout: timeout) { store in
                    try await store.record(build, as: identity, window: window, toolVersion: toolVersion)
                }
            })
        } catch {
            return .failure(.unavailable(HistoryStore.describe(error)))
        }
    }
}
