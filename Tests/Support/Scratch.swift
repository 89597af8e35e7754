import Foundation

/// Temporary folders and files for tests, removed when the test process exits: a test run leaves nothing
/// in the temporary directory, also when a test fails before its own clean-up.
public enum Scratch {
    private final class Registry: @unchecked Sendable { // `lock` guards `paths`
        let lock = NSLock()
        var paths: [String] = []
    }

    private static let registry: Registry = {
        atexit { Scratch.removeAll() }
        return Registry()
    }()

    /// A fresh path `<temporary directory>/<label>-<UUID>` (nothing is created there), removed at exit.
    public static func url(_ label: String, suffix: String = "") -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)\(suffix)")
        let registry = registry
        registry.lock.lock()
        registry.paths.append(url.path)
        registry.lock.unlock()
        return url
    }

    private static func removeAll() {
        let registry = registry
        registry.lock.lock()
        let paths = registry.paths
        registry.paths = []
        registry.lock.unlock()
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
    }
}
