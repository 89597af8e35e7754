import Foundation

/// One thing wrong with a ci_scripts folder, with what to do about it.
public struct LintProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case wrongFolder = "wrong-folder"
        case misnamedScript = "misnamed-script"
        case notExecutable = "not-executable"
        case notExecutableInGit = "not-executable-in-git"
        case notCommitted = "not-committed"
        case noShebang = "no-shebang"
        case ignoredDefaultsKey = "ignored-defaults-key"
        case trustSetTooLate = "trust-set-too-late"
        case staleAllowList = "stale-allow-list"
        case notAFolder = "not-a-folder"
        case wrongDefaultsDomain = "wrong-defaults-domain"
        case skipKeyOff = "skip-key-off"
        case missingShell = "missing-shell"
        case slashComment = "slash-comment"
        case failureIgnored = "failure-ignored"
    }

    public var kind: Kind
    public var path: String
    public var problem: String
    public var fix: String

    public var description: String { "\(path): \(problem)\n  fix: \(fix)" }
}

/// Checks an existing ci_scripts folder for the mistakes that make Xcode Cloud scripts silently not work.
public enum CIScriptsLint {
    public static let scriptNames = ["ci_post_clone.sh", "ci_pre_xcodebuild.sh", "ci_post_xcodebuild.sh"]
    public static let macroKey = "IDESkipMacroFingerprintValidation"
    /// Apple's spelling (sic): the one Xcode reads.
    public static let pluginKey = "IDESkipPackagePluginFingerprintValidatation"
    /// The spelling people "correct" Apple's key to; Xcode ignores it.
    public static let correctedPluginKey = "IDESkipPackagePluginFingerprintValidation"

    /// What lint found: the project the workflow builds, the ci_scripts folder Xcode Cloud runs, the problems.
    public struct Report: Sendable {
        public var project: ProjectLocation
        /// The ci_scripts folder Xcode Cloud runs (beside the project), whether or not it exists.
        public var activeFolder: String
        public var problems: [LintProblem]
    }

    public static func run(projectDirectory: String) throws -> [LintProblem] {
        try report(projectDirectory: projectDirectory).problems
    }

    /// The project lint checks for: the one `ci-scripts` writes for, or, when that is ambiguous, the one
    /// candidate that has a ci_scripts folder beside it.
    static func project(in projectDirectory: String) throws -> ProjectLocation {
        do {
            return try ProjectLocator.locate(in: projectDirectory)
        } catch let error as CIScriptsError {
            let root = URL(fileURLWithPath: projectDirectory).resolvingSymlinksInPath().standardizedFileURL.path
            let withScripts = ProjectLocator.candidates(in: root).filter { FileManager.default.fileExists(atPath: $0 + "/ci_scripts") }
            guard withScripts.count == 1 else { throw error }
            var location = ProjectLocator.location(of: withScripts[0])
            location.choice = "the only project with a ci_scripts folder beside it"
            return location
        }
    }

    public static func report(projectDirectory: String) throws -> Report {
        let project = try project(in: projectDirectory)
        // Outside git, the folder lint was pointed at stands for the repository (ci_scripts may sit above the project).
        let start = URL(fileURLWithPath: projectDirectory).resolvingSymlinksInPath().standardizedFileURL.path
        let repoRoot = LintGit.topLevel(of: project.directory) ?? (project.directory.hasPrefix(start) ? start : project.directory)
        let expected = project.ciScriptsDirectory
        var problems: [LintProblem] = []
        let display = { (path: String) in ProjectLocator.relative(path, to: FileManager.default.currentDirectoryPath) }
        // Where ci_scripts should be there is a file (or a link to nothing): Xcode Cloud runs no script at all.
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: expected, isDirectory: &isDir), !isDir.boolValue {
            problems.append(LintProblem(kind: .notAFolder, path: display(expected), problem: "is a file, not a folder, so Xcode Cloud runs no custom script",
                                        fix: "git mv \(ShellQuote.quote(display(expected))) \(ShellQuote.quote(display(expected) + ".old")) && mkdir \(ShellQuote.quote(display(expected)))"))
        }
        let folders = scriptFolders(below: repoRoot, depth: ProjectLocator.maxDepth)

        if folders.isEmpty && problems.isEmpty {
            problems.append(LintProblem(kind: .wrongFolder, path: display(expected), problem: "no ci_scripts folder beside \(project.projectFile), so Xcode Cloud runs no custom script",
                                        fix: "xcmedic ci-scripts --project \(ShellQuote.quote(display(project.directory))) --macro PACKAGE:TARGET (or create \(display(expected)) by hand)"))
        }
        for folder in folders {
            let name = URL(fileURLWithPath: folder).lastPathComponent
            if name != "ci_scripts" {
                problems.append(LintProblem(kind: .wrongFolder, path: display(folder), problem: "Xcode Cloud looks only for a folder named exactly ci_scripts",
                                            fix: "git mv \(ShellQuote.quote(display(folder))) \(ShellQuote.quote(display(expected)))"))
            } else if folder != expected {
                let exists = folders.contains(expected)
                problems.append(LintProblem(kind: .wrongFolder, path: display(folder),
                                            problem: "dead: Xcode Cloud runs only the ci_scripts folder beside the project or workspace the workflow builds, \(display(expected)) (beside \(project.projectFile)), so nothing in this one runs",
                                            fix: exists ? "move its steps into \(display(expected)) and git rm -r \(ShellQuote.quote(display(folder)))"
                                                        : "git mv \(ShellQuote.quote(display(folder))) \(ShellQuote.quote(display(expected)))"))
            }
            problems += checkScripts(in: folder, repoRoot: repoRoot, display: display)
            problems += checkAllowLists(in: folder, project: project, display: display)
        }
        return Report(project: project, activeFolder: expected, problems: problems)
    }

    /// Folders named ci_scripts, or nearly so (`ci-scripts`, `CI_Scripts`, `ci_script`).
    static func scriptFolders(below root: String, depth: Int) -> [String] {
        guard depth > 0 else { return [] }
        var result: [String] = []
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted() where !name.hasPrefix(".") {
            let path = root + "/" + name
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { continue }
            let squashed = name.lowercased().replacingOccurrences(of: "-", with: "_")
            if name == "ci_scripts" { result.append(path); continue }
            // A near-miss name counts only when it holds what ci_scripts would (not, say, a source folder named CIScripts).
            if squashed == "ci_scripts" || squashed == "ci_script" || squashed == "ciscripts" {
                let inside = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                if inside.contains(where: { intendedScript($0) != nil || $0 == "macros.json" || $0 == "plugins.json" }) { result.append(path); continue }
            }
            if ProjectLocator.skipped.contains(name) || name.hasSuffix(".xcodeproj") || name.hasSuffix(".xcworkspace") { continue }
            result += scriptFolders(below: path, depth: depth - 1)
        }
        return result
    }

    static func checkScripts(in folder: String, repoRoot: String, display: (String) -> String) -> [LintProblem] {
        var problems: [LintProblem] = []
        let top = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        // Near-miss names and scripts in sub-folders never run.
        for name in top where !scriptNames.contains(name) {
            let path = folder + "/" + name
            if let intended = intendedScript(name) {
                problems.append(LintProblem(kind: .misnamedScript, path: display(path), problem: "Xcode Cloud runs only scripts named exactly \(scriptNames.joined(separator: ", "))",
                                            fix: "git mv \(ShellQuote.quote(display(path))) \(ShellQuote.quote(display(folder + "/" + intended)))"))
            }
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
                for nested in scriptNames where FileManager.default.fileExists(atPath: path + "/" + nested) {
                    problems.append(LintProblem(kind: .misnamedScript, path: display(path + "/" + nested), problem: "in a sub-folder: Xcode Cloud runs only scripts at the top level of ci_scripts",
                                                fix: "git mv \(ShellQuote.quote(display(path + "/" + nested))) \(ShellQuote.quote(display(folder + "/" + nested)))"))
                }
            }
        }
        var texts: [String: String] = [:]
        for name in scriptNames where top.contains(name) {
            let path = folder + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            texts[name] = text
            problems += scriptProblems([UInt8](data), name: name, path: display(path))
            let mode = ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber)?.intValue ?? 0
            if mode & 0o111 == 0 {
                problems.append(LintProblem(kind: .notExecutable, path: display(path), problem: "not executable (mode \(String(mode, radix: 8))): Xcode Cloud ignores its shebang and runs it with zsh",
                                            fix: "chmod +x \(ShellQuote.quote(display(path)))"))
            }
            switch LintGit.indexMode(of: path, repoRoot: repoRoot) {
            case .some("100755"), .none: break
            case .some(""):
                problems.append(LintProblem(kind: .notCommitted, path: display(path), problem: "not in git: Xcode Cloud builds a clone, which will not have it",
                                            fix: "git add --chmod=+x \(ShellQuote.quote(display(path)))"))
            case .some(let gitMode):
                problems.append(LintProblem(kind: .notExecutableInGit, path: display(path), problem: "git records it as \(gitMode), not executable, so the clone Xcode Cloud builds gets a non-executable script",
                                            fix: "git update-index --chmod=+x \(ShellQuote.quote(display(path))) && git commit"))
            }
        }
        // Trust defaults only after post-clone: Xcode Cloud has resolved packages and checked trust by then.
        for late in ["ci_pre_xcodebuild.sh", "ci_post_xcodebuild.sh"] {
            guard let text = texts[late] else { continue }
            let postClone = texts["ci_post_clone.sh"] ?? ""
            for key in [macroKey, pluginKey, correctedPluginKey] where text.contains(key) && !postClone.contains(key) {
                problems.append(LintProblem(kind: .trustSetTooLate, path: display(folder + "/" + late), problem: "sets \(key) only here; that is reported not to work, because Xcode Cloud checks trust before this script runs",
                                            fix: "set it in ci_post_clone.sh instead (xcmedic ci-scripts --skip-validation writes it there)"))
            }
        }
        return problems
    }

    /// What is wrong in one script's text, whatever folder it is in: shebang, keys, domain, values, comments, `set -e`.
    static func scriptProblems(_ data: [UInt8], name: String, path: String) -> [LintProblem] {
        var problems: [LintProblem] = []
        let text = String(decoding: data, as: UTF8.self)
        if !data.starts(with: Array("#!".utf8)) {
            let indented = text.prefix { $0 != "\n" }.trimmingCharacters(in: .whitespaces).hasPrefix("#!")
            problems.append(LintProblem(kind: .noShebang, path: path,
                                        problem: indented ? "no shebang: '#!' must be the first two bytes of the file, and here it is indented, so Xcode Cloud runs it as 'zsh \(name)'"
                                                          : "no shebang: Xcode Cloud runs it as 'zsh \(name)', whatever shell it was written for",
                                        fix: indented ? "remove the spaces before '#!' on the first line" : "make '#!/bin/zsh' (or the shell it is written for) its first line"))
        }
        problems += checkKeys(text, path: path)
        problems += ScriptText(text).problems(name: name, path: path)
        return problems
    }

    /// The script a near-miss name was meant to be (`ci-post-clone.sh`, `ci_post_clone.zsh`, `post_clone.sh`).
    static func intendedScript(_ name: String) -> String? {
        func core(_ file: String) -> String {
            var stem = file.lowercased()
            if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = String(stem[..<dot]) }
            var letters = stem.filter(\.isLetter)
            if letters.hasPrefix("ci") { letters.removeFirst(2) }
            return letters
        }
        return scriptNames.first { core($0) == core(name) }
    }

    /// Defaults keys Xcode does not read: a misspelling, or the "corrected" plugin key without Apple's.
    static func checkKeys(_ text: String, path: String) -> [LintProblem] {
        guard let regex = try? NSRegularExpression(pattern: #"IDESkip[A-Za-z]*"#) else { return [] }
        var seen: Set<String> = []
        var problems: [LintProblem] = []
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range, in: text) else { continue }
            let key = String(text[range])
            guard !seen.contains(key), key != macroKey, key != pluginKey else { continue }
            seen.insert(key)
            if key == correctedPluginKey {
                if !text.contains(pluginKey) {
                    problems.append(LintProblem(kind: .ignoredDefaultsKey, path: path, problem: "\(key) is the correct English spelling, which Xcode ignores; it reads Apple's misspelled \(pluginKey)",
                                                fix: "defaults write com.apple.dt.Xcode \(pluginKey) -bool YES"))
                }
                continue
            }
            let nearest = key.lowercased().contains("macro") ? macroKey : pluginKey
            problems.append(LintProblem(kind: .ignoredDefaultsKey, path: path, problem: "\(key) is not a key Xcode reads, so this line does nothing",
                                        fix: "defaults write com.apple.dt.Xcode \(nearest) -bool YES"))
        }
        return problems
    }

    /// Committed macros.json / plugins.json whose fingerprints are not the revisions Package.resolved pins now.
    static func checkAllowLists(in folder: String, project: ProjectLocation, display: (String) -> String) -> [LintProblem] {
        var problems: [LintProblem] = []
        let files = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
            .filter { ["macros.json", "plugins.json"].contains(URL(fileURLWithPath: $0).lastPathComponent) }.sorted()
        guard !files.isEmpty else { return [] }
        let resolved = project.resolvedURL.flatMap { try? PackageResolved.load(path: $0.path) }
        for file in files {
            let path = folder + "/" + file
            let kind: TrustTarget.Kind = file.hasSuffix("macros.json") ? .macro : .plugin
            guard let data = FileManager.default.contents(atPath: path),
                  let entries = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else {
                problems.append(LintProblem(kind: .staleAllowList, path: display(path), problem: "not an allow-list Xcode reads (a JSON array of {fingerprint, packageIdentity, targetName})",
                                            fix: "delete it and let the script write it at CI time: xcmedic ci-scripts --\(kind.rawValue) PACKAGE:TARGET"))
                continue
            }
            guard let resolved else {
                problems.append(LintProblem(kind: .staleAllowList, path: display(path), problem: "no Package.resolved beside \(project.projectFile) to check its fingerprints against",
                                            fix: "commit the Package.resolved Xcode Cloud builds with"))
                continue
            }
            var stale: [String] = []
            var targets: [String] = []
            for entry in entries {
                let identity = entry["packageIdentity"] as? String ?? "?", target = entry["targetName"] as? String ?? "?"
                let fingerprint = entry["fingerprint"] as? String ?? ""
                targets.append(ShellQuote.quote("\(identity):\(target)"))
                guard let pin = resolved.pin(identity: identity) else {
                    stale.append("\(identity) is not in Package.resolved"); continue
                }
                if pin.revision != fingerprint {
                    stale.append("\(identity) \(target) trusts \(fingerprint.prefix(12)) but \(pin.stateDescription) is pinned at \(pin.revision.map { String($0.prefix(12)) } ?? "no revision")")
                }
            }
            if !stale.isEmpty {
                problems.append(LintProblem(kind: .staleAllowList, path: display(path), problem: "fingerprints no longer match Package.resolved, so Xcode asks again and the build fails: " + stale.joined(separator: "; "),
                                            fix: "delete it and let ci_post_clone.sh write it from Package.resolved at CI time: xcmedic ci-scripts" + targets.map { " --\(kind.rawValue) \($0)" }.joined()))
            }
        }
        return problems
    }
}

/// The few git questions lint asks; nil answers when git or the repository is not there.
enum LintGit {
    static func topLevel(of directory: String) -> String? {
        guard let path = try? Git(directory: directory).topLevel(), !path.isEmpty else { return nil }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// The mode git's index records (`100755`, `100644`), "" when the file is not in the index, nil outside a repository.
    static func indexMode(of path: String, repoRoot: String) -> String? {
        guard topLevel(of: repoRoot) != nil, let result = try? Git(directory: repoRoot).result(["ls-files", "-s", "--", path]), result.ok else {
            return nil
        }
        return String(result.stdout.split(separator: " ").first ?? "")
    }
}
