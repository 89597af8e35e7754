import Foundation

/// The Xcode project, workspace or Swift package `ci-scripts` works for, and its Package.resolved.
public struct ProjectLocation: Sendable, Equatable {
    /// The folder holding the project: `ci_scripts/` belongs here (Xcode Cloud looks nowhere else).
    public var directory: String
    /// `App.xcworkspace`, `App.xcodeproj` or `Package.swift`.
    public var projectFile: String
    /// The Package.resolved Xcode Cloud reads for it, relative to `directory`; nil when there is none.
    public var resolvedPath: String?
    /// Where a Package.resolved was looked for, relative to `directory` (for error messages).
    public var searched: [String]

    public var resolvedURL: URL? { resolvedPath.map { URL(fileURLWithPath: directory).appendingPathComponent($0) } }
    public var ciScriptsDirectory: String { URL(fileURLWithPath: directory).appendingPathComponent("ci_scripts").path }
}

public enum ProjectLocator {
    /// Folders never searched for projects: build output, dependency checkouts, VCS data.
    static let skipped: Set<String> = [".build", ".git", ".swiftpm", "Pods", "Carthage", "node_modules", "DerivedData", "SourcePackages", "build", "ci_scripts"]

    /// The project files directly in `directory`, in the order their Package.resolved is preferred:
    /// workspaces, then projects, then Package.swift.
    public static func projectFiles(in directory: String) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        return names.filter { $0.hasSuffix(".xcworkspace") } + names.filter { $0.hasSuffix(".xcodeproj") }
            + names.filter { $0 == "Package.swift" }
    }

    /// Finds the project in `directory`, or, when it holds none, the single folder below it that does.
    public static func locate(in directory: String) throws -> ProjectLocation {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDir), isDir.boolValue else {
            throw CIScriptsError("\(directory): no such folder")
        }
        let root = URL(fileURLWithPath: directory).resolvingSymlinksInPath().standardizedFileURL.path
        var found = projectFiles(in: root).isEmpty ? [] : [root]
        if found.isEmpty { found = projectFolders(below: root, depth: 4) }
        guard let projectDir = found.first else {
            throw CIScriptsError("\(directory): no .xcodeproj, .xcworkspace or Package.swift here or below; pass --project DIR")
        }
        guard found.count == 1 else {
            let names = found.map { relative($0, to: root) }.joined(separator: ", ")
            throw CIScriptsError("\(directory): several projects below (\(names)); pick one with --project DIR")
        }
        return location(of: projectDir)
    }

    static func location(of projectDir: String) -> ProjectLocation {
        let files = projectFiles(in: projectDir)
        var searched: [String] = []
        for file in files {
            let candidate: String
            if file.hasSuffix(".xcworkspace") { candidate = "\(file)/xcshareddata/swiftpm/Package.resolved" }
            else if file.hasSuffix(".xcodeproj") { candidate = "\(file)/project.xcworkspace/xcshareddata/swiftpm/Package.resolved" }
            else { candidate = "Package.resolved" }
            searched.append(candidate)
            if FileManager.default.fileExists(atPath: projectDir + "/" + candidate) {
                return ProjectLocation(directory: projectDir, projectFile: file, resolvedPath: candidate, searched: searched)
            }
        }
        return ProjectLocation(directory: projectDir, projectFile: files.first ?? "", resolvedPath: nil, searched: searched)
    }

    static func projectFolders(below root: String, depth: Int) -> [String] {
        guard depth > 0 else { return [] }
        var result: [String] = []
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted()
        for name in names where !name.hasPrefix(".") && !skipped.contains(name) && !name.hasSuffix(".xcodeproj") && !name.hasSuffix(".xcworkspace") {
            let path = root + "/" + name
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { continue }
            if !projectFiles(in: path).isEmpty { result.append(path) } else { result += projectFolders(below: path, depth: depth - 1) }
        }
        return result
    }

    /// `path` relative to the folder `base` (both absolute), with `..` where needed.
    public static func relative(_ path: String, to base: String) -> String {
        let p = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let b = URL(fileURLWithPath: base).standardizedFileURL.pathComponents
        var common = 0
        while common < p.count, common < b.count, p[common] == b[common] { common += 1 }
        let parts = Array(repeating: "..", count: b.count - common) + p[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
