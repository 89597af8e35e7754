import Foundation

/// The rules a run uses: users' rules first (they win), then the built-in catalog.
public enum Catalog {
    /// Name of the rules file read automatically from the repository root.
    public static let configFileName = ".xcmedic.yml"

    /// Built-in rules plus the rules of `files` and, when `autoConfig` is set, `.xcmedic.yml` at the
    /// root of the git work tree containing `directory`. A user rule with a built-in's id replaces it.
    public static func rules(userFiles: [String], autoConfig: Bool = true, directory: String = FileManager.default.currentDirectoryPath) throws -> [Rule] {
        var files = userFiles
        if autoConfig, let config = findConfig(from: directory), !files.contains(config) { files.append(config) }
        var user: [Rule] = []
        var userIDs = Set<String>()
        for file in files {
            for rule in try RuleLoader.load(file: file) where !userIDs.contains(rule.id) {
                user.append(rule)
                userIDs.insert(rule.id)
            }
        }
        return user + (try BuiltinCatalog.rules()).filter { !userIDs.contains($0.id) }
    }

    /// `.xcmedic.yml` in the nearest directory upwards that holds `.git`, or in `directory` itself.
    static func findConfig(from directory: String) -> String? {
        var url = URL(fileURLWithPath: directory).standardizedFileURL
        let fm = FileManager.default
        while true {
            let candidate = url.appendingPathComponent(configFileName).path
            if fm.fileExists(atPath: candidate) { return candidate }
            if fm.fileExists(atPath: url.appendingPathComponent(".git").path) { return nil }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
    }

    /// The id closest to `id` by edit distance, for "did you mean".
    public static func nearestID(to id: String, in rules: [Rule]) -> String? {
        nearest(to: id, in: rules.map(\.id))
    }

    /// The candidate closest to a mistyped word (a rule id, a subcommand, a format), if one is close enough.
    public static func nearest(to word: String, in candidates: [String]) -> String? {
        candidates.map { ($0, editDistance($0, word)) }.min { $0.1 < $1.1 }.flatMap { $0.1 <= max(2, min(3, word.count / 2)) ? $0.0 : nil }
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
