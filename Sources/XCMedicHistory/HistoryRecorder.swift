import Foundation
import XCMedicKit

/// Runs async store work from the synchronous CLI, with a deadline.
public enum Blocking {
    private final class Box<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }

    /// Waits for `body` on the calling thread (never one of the concurrency pool's); after `timeout`
    /// seconds gives up with `StoreError.unavailable`, leaving the task to be cancelled.
    public static func run<T: Sendable>(timeout: Double, _ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            box.result = result
            done.signal()
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            task.cancel()
            throw StoreError.unavailable("no answer within \(Int(timeout))s")
        }
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
            return try Blocking.run(timeout: timeout + 5) {
                let store = try await HistoryStore.open(location, create: true, timeout: timeout)
                do {
                    let result = try await store.record(diagnosis, as: identity, window: window, toolVersion: toolVersion)
                    await store.close()
                    return result
                } catch {
                    await store.close()
                    throw error
                }
            }
        } catch {
            warning("history not recorded in \(location): \(HistoryStore.describe(error))")
            return diagnosis
        }
    }
}
