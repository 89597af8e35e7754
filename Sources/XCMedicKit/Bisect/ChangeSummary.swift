import Foundation

/// What changed between two revisions, in the terms a broken build cares about: commits, files by
/// area, dependency pins of every Package.resolved, toolchain and CI files.
public struct ChangeSummary: Sendable, Codable {
    public struct FileChange: Sendable, Codable, Equatable {
        /// `added`, `modified`, `deleted`, `renamed`, `copied`, `type-changed`.
        public var status: String
        public var path: String
        public var oldPath: String?
    }

    public struct Area: Sendable, Codable, Equatable {
        /// The top-level folder (`Sources/`) or `(top level)` for files at the root.
        public var name: String
        public var files: [FileChange]
    }

    public struct PinState: Sendable, Codable, Equatable {
        public var version: String?
        public var revision: String?
        public var branch: String?
        /// `1.2.3`, `main@abc1234`, `abc1234`.
        public var description: String

        init(_ pin: PackagePin) {
            version = pin.version
            revision = pin.revision
            branch = pin.branch
            description = pin.stateDescription
        }
    }

    public struct DependencyChange: Sendable, Codable, Equatable {
        public enum Kind: String, Sendable, Codable { case added, removed, changed }
        /// The Package.resolved that pins it.
        public var file: String
        public var identity: String
        public var location: String
        public var change: Kind
        public var old: PinState?
        public var new: PinState?
    }

    public struct ToolchainChange: Sendable, Codable, Equatable {
        public var path: String
        /// `xcode-version`, `swift-version`, `tool-versions`, `swift-tools-version`, `ci-scripts`,
        /// `github-workflow`, `podfile-lock`, `gemfile-lock`, `cartfile-resolved`.
        public var kind: String
        public var status: String
        /// For version files and `swift-tools-version`: the value before and after.
        public var old: String?
        public var new: String?
        /// A renamed file's path before (`Package@swift-5.6.swift` → `Package@swift-5.8.swift`).
        public var oldPath: String? = nil
    }

    public var from: CommitInfo
    public var to: CommitInfo
    /// Newest first.
    public var commits: [CommitInfo]
    public var areas: [Area]
    public var dependencies: [DependencyChange]
    public var toolchain: [ToolchainChange]
    /// What changed manifests and CI files say: dependencies with their requirements, platforms, runner, Xcode.
    public var manifests: [ManifestChange]
    /// Package.resolved files that could not be read at one of the revisions.
    public var warnings: [String]

    public var fileCount: Int { areas.reduce(0) { $0 + $1.files.count } }

    // MARK: - Building it

    public static func between(_ from: String, and to: String, git: Git) throws -> ChangeSummary {
        let fromInfo = try git.commitInfo(from), toInfo = try git.commitInfo(to)
        let commits = try git.commits(from: fromInfo.hash, to: toInfo.hash)
        let files = try changedFiles(git, fromInfo.hash, toInfo.hash)
        var warnings: [String] = []
        let dependencies = try dependencyChanges(git, fromInfo.hash, toInfo.hash, warnings: &warnings)
        let toolchain = toolchainChanges(git, fromInfo.hash, toInfo.hash, files: files)
        var manifests: [ManifestChange] = []
        for file in files {
            let text = { (revision: String, path: String) in git.show(revision, path: path).map { String(decoding: $0, as: UTF8.self) } }
            let old = file.status == "added" ? nil : text(fromInfo.hash, file.oldPath ?? file.path)
            let new = file.status == "deleted" ? nil : text(toInfo.hash, file.path)
            manifests += ManifestDiff.changes(path: file.path, oldPath: file.oldPath, old: old, new: new)
        }
        return ChangeSummary(from: fromInfo, to: toInfo, commits: commits, areas: group(files), dependencies: dependencies,
                             toolchain: toolchain, manifests: manifests, warnings: warnings)
    }

    static func changedFiles(_ git: Git, _ from: String, _ to: String) throws -> [FileChange] {
        let fields = try git.run("diff", "--name-status", "-z", "-M", "--no-ext-diff", from, to)
            .split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        var changes: [FileChange] = []
        var i = 0
        while i < fields.count, !fields[i].isEmpty {
            let code = fields[i]
            let letter = code.first ?? "M"
            if letter == "R" || letter == "C", i + 2 < fields.count {
                changes.append(FileChange(status: letter == "R" ? "renamed" : "copied", path: fields[i + 2], oldPath: fields[i + 1]))
                i += 3
            } else if i + 1 < fields.count {
                let status: String
                switch letter {
                case "A": status = "added"
                case "D": status = "deleted"
                case "T": status = "type-changed"
                default: status = "modified"
                }
                changes.append(FileChange(status: status, path: fields[i + 1], oldPath: nil))
                i += 2
            } else { break }
        }
        return changes
    }

    static func group(_ files: [FileChange]) -> [Area] {
        var order: [String] = []
        var byArea: [String: [FileChange]] = [:]
        for file in files {
            let parts = file.path.split(separator: "/", maxSplits: 1)
            let area = parts.count > 1 ? "\(parts[0])/" : "(top level)"
            if byArea[area] == nil { order.append(area) }
            byArea[area, default: []].append(file)
        }
        return order.sorted { (byArea[$0]!.count, $1) > (byArea[$1]!.count, $0) }.map { Area(name: $0, files: byArea[$0]!) }
    }

    static func isPackageResolved(_ path: String) -> Bool {
        (path as NSString).lastPathComponent == "Package.resolved"
    }

    /// Pins of every Package.resolved (the package's, and Xcode's inside `*.xcworkspace/xcshareddata/swiftpm/`).
    static func dependencyChanges(_ git: Git, _ from: String, _ to: String, warnings: inout [String]) throws -> [DependencyChange] {
        let oldFiles = Set(try git.files(at: from).filter(isPackageResolved))
        let newFiles = Set(try git.files(at: to).filter(isPackageResolved))
        var changes: [DependencyChange] = []
        for file in oldFiles.union(newFiles).sorted() {
            func pins(_ revision: String, _ present: Bool) -> [PackagePin] {
                guard present, let data = git.show(revision, path: file) else { return [] }
                do { return try PackageResolved.parse(data, path: file).pins } catch {
                    warnings.append("\(file) at \(revision.prefix(10)): \(error)")
                    return []
                }
            }
            let old = pins(from, oldFiles.contains(file)), new = pins(to, newFiles.contains(file))
            let oldByID = Dictionary(old.map { ($0.identity.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
            let newByID = Dictionary(new.map { ($0.identity.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
            for id in Set(oldByID.keys).union(newByID.keys).sorted() {
                switch (oldByID[id], newByID[id]) {
                case (nil, let n?):
                    changes.append(DependencyChange(file: file, identity: n.identity, location: n.location, change: .added, old: nil, new: PinState(n)))
                case (let o?, nil):
                    changes.append(DependencyChange(file: file, identity: o.identity, location: o.location, change: .removed, old: PinState(o), new: nil))
                case (let o?, let n?) where o.version != n.version || o.revision != n.revision || o.branch != n.branch:
                    changes.append(DependencyChange(file: file, identity: n.identity, location: n.location, change: .changed, old: PinState(o), new: PinState(n)))
                default: break
                }
            }
        }
        return changes
    }

    static func toolchainKind(_ path: String) -> String? {
        let name = (path as NSString).lastPathComponent
        switch name {
        case ".xcode-version": return "xcode-version"
        case ".swift-version": return "swift-version"
        case ".tool-versions": return "tool-versions"
        case "Podfile.lock": return "podfile-lock"
        case "Gemfile.lock": return "gemfile-lock"
        case "Cartfile.resolved": return "cartfile-resolved"
        default: break
        }
        if name == "Package.swift" || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift")) { return "swift-tools-version" }
        let components = path.split(separator: "/")
        if components.contains("ci_scripts") { return "ci-scripts" }
        if path.hasPrefix(".github/workflows/") { return "github-workflow" }
        return nil
    }

    static func toolchainChanges(_ git: Git, _ from: String, _ to: String, files: [FileChange]) -> [ToolchainChange] {
        var changes: [ToolchainChange] = []
        for file in files {
            guard let kind = toolchainKind(file.path) else { continue }
            let oldPath = file.oldPath ?? file.path
            let oldText = file.status == "added" ? nil : git.show(from, path: oldPath).map { String(decoding: $0, as: UTF8.self) }
            let newText = file.status == "deleted" ? nil : git.show(to, path: file.path).map { String(decoding: $0, as: UTF8.self) }
            switch kind {
            case "xcode-version", "swift-version", "tool-versions":
                changes.append(ToolchainChange(path: file.path, kind: kind, status: file.status, old: oldText.map(short), new: newText.map(short)))
            case "swift-tools-version":
                let old = oldText.flatMap(toolsVersion), new = newText.flatMap(toolsVersion)
                // A manifest edit that keeps the tools version is an ordinary source change.
                if old != new {
                    changes.append(ToolchainChange(path: file.path, kind: kind, status: file.status, old: old, new: new, oldPath: file.oldPath))
                }
            default:
                changes.append(ToolchainChange(path: file.path, kind: kind, status: file.status, old: nil, new: nil))
            }
        }
        return changes
    }

    /// A version file's content on one line.
    static func short(_ text: String) -> String {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let joined = lines.prefix(4).joined(separator: "; ")
        return lines.count > 4 ? joined + "; …" : joined
    }

    /// `6.0` from a manifest's first line `// swift-tools-version:6.0` (or `// swift-tools-version: 5.9`).
    static func toolsVersion(_ manifest: String) -> String? {
        guard let first = manifest.split(whereSeparator: \.isNewline).first,
              let range = first.range(of: "swift-tools-version") else { return nil }
        let rest = first[range.upperBound...].drop { $0 == ":" || $0 == " " }
        let version = rest.prefix { !$0.isWhitespace && $0 != ";" }
        return version.isEmpty ? nil : String(version)
    }
}

// MARK: - Rendering

extension ChangeSummary {
    public func renderText(maxFilesPerArea: Int = 8, maxCommits: Int = 30, indent: String = "") -> String {
        var out = ""
        func line(_ s: String) { out += indent + s + "\n" }
        line("\(commits.count) commit\(commits.count == 1 ? "" : "s") from \(from.short) to \(to.short):")
        for c in commits.prefix(maxCommits) { line("  \(c.short) \(c.date.prefix(10)) \(c.subject) (\(c.author))") }
        if commits.count > maxCommits { line("  … and \(commits.count - maxCommits) more") }

        out += "\n"
        line("Files changed: \(fileCount)")
        for area in areas {
            line("  \(area.name) (\(area.files.count))")
            for f in area.files.prefix(maxFilesPerArea) {
                let mark = ["added": "A", "deleted": "D", "renamed": "R", "copied": "C", "type-changed": "T"][f.status] ?? "M"
                line("    \(mark) \(f.oldPath.map { "\($0) → " } ?? "")\(f.path)")
            }
            if area.files.count > maxFilesPerArea { line("    … and \(area.files.count - maxFilesPerArea) more") }
        }

        out += "\n"
        if dependencies.isEmpty {
            line("Dependencies: no Package.resolved pin changed")
        } else {
            line("Dependencies (Package.resolved):")
            let width = dependencies.map(\.identity.count).max() ?? 0
            for d in dependencies {
                let name = d.identity.padding(toLength: width, withPad: " ", startingAt: 0)
                switch d.change {
                case .added: line("  + \(name)  \(d.new?.description ?? "")  (added, \(d.file))")
                case .removed: line("  - \(name)  \(d.old?.description ?? "")  (removed, \(d.file))")
                case .changed: line("  ~ \(name)  \(d.old?.description ?? "") → \(d.new?.description ?? "")  (\(d.file))")
                }
            }
        }
        for w in warnings { line("  note: \(w)") }

        out += "\n"
        if manifests.isEmpty {
            line("Manifests and CI files: no dependency, platform, runner or Xcode change")
        } else {
            line("Manifests and CI files:")
            for m in manifests {
                let mark = m.change == .added ? "+" : m.change == .removed ? "-" : "~"
                let what: String
                switch m.kind {
                case .runner: what = "runner"
                case .xcode: what = "Xcode"
                case .platforms: what = m.name
                default: what = m.name
                }
                let value = m.change == .changed ? "\(m.old ?? "") → \(m.new ?? "")" : (m.new ?? m.old ?? "")
                let from = m.kind == .packageDependency ? m.location.map { "  (\($0))" } ?? "" : ""
                line("  \(m.file): \(mark) \(what) \(value)\(from)")
            }
        }

        out += "\n"
        if toolchain.isEmpty {
            line("Toolchain and CI: no change")
        } else {
            line("Toolchain and CI:")
            for t in toolchain {
                if t.old != nil || t.new != nil {
                    let path = t.oldPath.map { "\($0) → \(t.path)" } ?? t.path
                    let label = t.kind == "swift-tools-version" ? "\(path) swift-tools-version" : path
                    line("  \(label): \(t.old ?? "(none)") → \(t.new ?? "(none)")")
                } else {
                    line("  \(t.path): \(t.status)")
                }
            }
        }
        return out
    }

    public func renderJSON() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// `refs/xcmedic/last-good`: the last revision CI saw green, written by `mark-good`.
public enum LastGood {
    public static let ref = "refs/xcmedic/last-good"
    public static let name = "last-good"

    public static let howToRecord = """
    no last good revision recorded (\(ref) does not exist); run 'xcmedic mark-good' on a green build, \
    or fetch the one CI pushed: git fetch origin '+\(ref):\(ref)'
    """

    /// The commit `revision` names; `last-good` reads the ref. Nil: not found (the caller says which).
    public static func resolve(_ revision: String, git: Git) throws -> String {
        if revision == name {
            guard let commit = git.commit(ref) else { throw BisectError.refused(howToRecord) }
            return commit
        }
        guard let commit = git.commit(revision) else { throw BisectError.refused("'\(revision)' is not a commit in this repository") }
        return commit
    }

    /// Points the ref at `revision`; returns the commit.
    @discardableResult
    public static func mark(_ revision: String, git: Git) throws -> String {
        let commit = try resolve(revision, git: git)
        try git.run("update-ref", "-m", "xcmedic mark-good", ref, commit)
        return commit
    }
}
