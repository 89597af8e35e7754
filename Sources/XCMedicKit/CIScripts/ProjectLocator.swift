import Foundation

/// The Xcode project, workspace or Swift package `ci-scripts` works for, and its Package.resolved.
public struct ProjectLocation: Sendable, Equatable {
    /// The folder holding the project: `ci_scripts/` belongs here (Xcode Cloud looks nowhere else).
    public var directory: String
    /// `App.xcworkspace`, `App.xcodeproj`, `project.yml`, `Project.swift`, `Workspace.swift` or `Package.swift`.
    public var projectFile: String
    /// The Package.resolved Xcode Cloud reads for it, relative to `directory`; nil when there is none.
    public var resolvedPath: String?
    /// Where a Package.resolved was looked for, relative to `directory` (for error messages).
    public var searched: [String]
    /// What kind of layout this is, for people: "Xcode workspace", "XcodeGen (project.yml)", ...
    public var layout: String = ""
    /// Why this project was picked among several, when it was.
    public var choice: String?

    public var resolvedURL: URL? { resolvedPath.map { URL(fileURLWithPath: directory).appendingPathComponent($0) } }
    public var ciScriptsDirectory: String { URL(fileURLWithPath: directory).appendingPathComponent("ci_scripts").path }
}

public enum ProjectLocator {
    /// Folders never searched for projects: build output, dependency checkouts, VCS data, generators' own packages.
    static let skipped: Set<String> = [".build", ".git", ".swiftpm", "Pods", "Carthage", "node_modules", "DerivedData", "SourcePackages", "build",
                                       "ci_scripts", "Tuist", "vendor", "Checkouts", "checkouts"]
    /// Deepest folder searched below the starting one.
    static let maxDepth = 12

    /// The project files directly in `directory`, in the order their Package.resolved is preferred:
    /// workspaces, projects, the generators' manifests (Tuist, XcodeGen), then Package.swift.
    public static func projectFiles(in directory: String) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        return names.filter { $0.hasSuffix(".xcworkspace") } + names.filter { $0.hasSuffix(".xcodeproj") }
            + names.filter { $0 == "Workspace.swift" } + names.filter { $0 == "Project.swift" }
            + names.filter { $0 == "project.yml" || $0 == "project.yaml" } + names.filter { $0 == "Package.swift" }
    }

    /// Folders that hold an app project (not only a Package.swift).
    static func isAppProject(_ directory: String) -> Bool {
        projectFiles(in: directory).contains { $0 != "Package.swift" }
    }

    /// Every folder at or below `root` holding a project, before any choice.
    public static func candidates(in root: String) -> [String] {
        projectFiles(in: root).isEmpty ? projectFolders(below: root, depth: maxDepth) : [root]
    }

    /// Finds the project in `directory`, or, when it holds none, the one folder below it a workflow would build:
    /// app projects win over local Swift packages, and in a Flutter or React Native repository the `ios/` one.
    public static func locate(in directory: String) throws -> ProjectLocation {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDir) else {
            throw CIScriptsError("\(directory): no such folder")
        }
        guard isDir.boolValue else { throw CIScriptsError("\(directory) is a file, not a folder; pass the folder that holds the project") }
        let root = URL(fileURLWithPath: directory).resolvingSymlinksInPath().standardizedFileURL.path
        let found = candidates(in: root)
        guard !found.isEmpty else {
            throw CIScriptsError("\(directory): no .xcodeproj, .xcworkspace, project.yml (XcodeGen), Project.swift (Tuist) or Package.swift here or below; pass --project DIR")
        }
        let (picked, why) = choose(found, root: root)
        guard let projectDir = picked else {
            let names = found.map { relative($0, to: root) }.joined(separator: ", ")
            throw CIScriptsError("\(directory): several projects below (\(names)); pick one with --project DIR")
        }
        var location = location(of: projectDir)
        location.choice = why
        return location
    }

    /// The one candidate a workflow builds, or nil when that is a guess; with the reason when there was a choice.
    static func choose(_ found: [String], root: String) -> (String?, String?) {
        if found.count == 1 { return (found[0], nil) }
        var apps = found.filter(isAppProject)
        var why = "Swift packages beside an app project are the app's local packages"
        if apps.isEmpty { apps = found; why = "" }
        if apps.count == 1 { return (apps[0], why) }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
        let crossPlatform = names.contains("pubspec.yaml") ? "Flutter" : names.contains("package.json") ? "React Native" : nil
        if let crossPlatform {
            let ios = apps.filter { relative($0, to: root) == "ios" || relative($0, to: root).hasPrefix("ios/") }
            if ios.count == 1 { return (ios[0], "a \(crossPlatform) app's Xcode Cloud workflow builds its ios/ project") }
        }
        return (nil, nil)
    }

    static func layout(of projectDir: String, file: String) -> String {
        let parent = URL(fileURLWithPath: projectDir).deletingLastPathComponent().path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        let inIOS = URL(fileURLWithPath: projectDir).lastPathComponent == "ios"
        let prefix = inIOS && names.contains("pubspec.yaml") ? "Flutter ios/: " : inIOS && names.contains("package.json") ? "React Native ios/: " : ""
        switch file {
        case let f where f.hasSuffix(".xcworkspace"): return prefix + "Xcode workspace"
        case let f where f.hasSuffix(".xcodeproj"): return prefix + "Xcode project"
        case "Workspace.swift", "Project.swift": return prefix + "Tuist (\(file)); generate the project in ci_post_clone.sh"
        case "project.yml", "project.yaml": return prefix + "XcodeGen (\(file)); generate the project in ci_post_clone.sh"
        default: return prefix + "Swift package"
        }
    }

    /// The name a generator gives the project it writes: XcodeGen's `name:`, Tuist's `Project(name:` / `Workspace(name:`.
    static func generatedName(_ projectDir: String, file: String) -> String? {
        guard let text = FileManager.default.contents(atPath: projectDir + "/" + file).map({ String(decoding: $0, as: UTF8.self) }) else { return nil }
        let pattern = file.hasSuffix(".swift") ? #"(?:Project|Workspace)\s*\(\s*name\s*:\s*"([^"]+)""# : #"(?m)^name\s*:\s*["']?([^"'#\n]+?)["']?\s*$"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[range])
    }

    static func location(of projectDir: String) -> ProjectLocation {
        let files = projectFiles(in: projectDir)
        var searched: [String] = []
        var candidates: [(file: String, resolved: String)] = []
        for file in files {
            if file.hasSuffix(".xcworkspace") { candidates.append((file, "\(file)/xcshareddata/swiftpm/Package.resolved")) }
            else if file.hasSuffix(".xcodeproj") { candidates.append((file, "\(file)/project.xcworkspace/xcshareddata/swiftpm/Package.resolved")) }
            else if file == "Package.swift" { candidates.append((file, "Package.resolved")) }
            else if let name = generatedName(projectDir, file: file) {
                // A generated project is usually not committed; its Package.resolved may be, where Xcode keeps it.
                if file == "Workspace.swift" { candidates.append((file, "\(name).xcworkspace/xcshareddata/swiftpm/Package.resolved")) }
                else { candidates.append((file, "\(name).xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved")) }
            }
        }
        for (file, candidate) in candidates where !searched.contains(candidate) {
            searched.append(candidate)
            if FileManager.default.fileExists(atPath: projectDir + "/" + candidate) {
                return ProjectLocation(directory: projectDir, projectFile: file, resolvedPath: candidate, searched: searched,
                                       layout: layout(of: projectDir, file: files.first ?? file))
            }
        }
        let file = files.first ?? ""
        return ProjectLocation(directory: projectDir, projectFile: file, resolvedPath: nil, searched: searched, layout: layout(of: projectDir, file: file))
    }

    static func projectFolders(below root: String, depth: Int) -> [String] {
        guard depth > 0 else { return [] }
        var result: [String] = []
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted()
        for name in names where !name.hasPrefix(".") && !skipped.contains(name) && !name.hasSuffix(".xcodeproj") && !name.hasSuffix(".xcworkspace") {
            let path = root + "/" + name
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { continue }
            // A symbolic link to a folder (Flutter's .symlinks, a shared checkout) is not where the project lives.
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil { continue }
            if !projectFiles(in: path).isEmpty { result.append(path) } else { result += projectFolders(below: path, depth: depth - 1) }
        }
        return result
    }

    /// Notes about other ci_scripts folders in the repository when writing to `scriptsDir`: Xcode Cloud runs one.
    static func otherScriptFolders(for project: ProjectLocation, writing scriptsDir: String) -> [String] {
        // The repository's root by its .git (no git process: this runs under the script's lock on every write).
        var root = project.directory
        var probe = URL(fileURLWithPath: project.directory)
        while probe.path != "/" {
            if FileManager.default.fileExists(atPath: probe.appendingPathComponent(".git").path) { root = probe.path; break }
            probe.deleteLastPathComponent()
        }
        let display = { (path: String) in relative(path, to: FileManager.default.currentDirectoryPath) }
        return CIScriptsLint.scriptFolders(below: root, depth: maxDepth)
            .filter { URL(fileURLWithPath: $0).standardizedFileURL.path != scriptsDir }
            .map { folder in
                let steps = CIScriptsLint.scriptNames.filter { FileManager.default.fileExists(atPath: folder + "/" + $0) }
                let what = steps.isEmpty ? "" : " with \(steps.joined(separator: ", "))"
                return "\(display(folder))\(what) exists too, but Xcode Cloud runs only \(display(scriptsDir)) (beside \(project.projectFile)); move its steps there and delete it"
            }
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
