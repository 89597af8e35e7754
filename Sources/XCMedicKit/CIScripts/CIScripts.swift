import Foundation

/// What `xcmedic ci-scripts` was asked to do.
public struct CIScriptsRequest: Sendable {
    public var projectDirectory: String
    public var targets: [TrustTarget]
    public var logs: [String]
    public var skipValidation: Bool
    /// Where to put ci_scripts/ when not beside the project (the repository's own example).
    public var scriptsDirectory: String?
    /// Extra `checkouts` folders to look in for targets a log names without their package.
    public var checkoutRoots: [String]
    /// `--remove PACKAGE:TARGET`: entries to drop from what the block already trusts (any kind).
    public var removals: [TrustTarget]
    /// `--replace`: the block trusts only what this run names, not what it trusted before.
    public var replace: Bool
    /// The command line, quoted, for the script's "Regenerate with" comment.
    public var command: String

    public init(projectDirectory: String, targets: [TrustTarget] = [], logs: [String] = [], skipValidation: Bool = false,
                scriptsDirectory: String? = nil, checkoutRoots: [String] = [], removals: [TrustTarget] = [], replace: Bool = false,
                command: String) {
        self.projectDirectory = projectDirectory
        self.targets = targets
        self.logs = logs
        self.skipValidation = skipValidation
        self.scriptsDirectory = scriptsDirectory
        self.checkoutRoots = checkoutRoots
        self.removals = removals
        self.replace = replace
        self.command = command
    }
}

/// The change `ci-scripts` would make to ci_post_clone.sh.
public struct CIScriptsPlan: Sendable {
    public var project: ProjectLocation
    public var scriptPath: String
    /// The script as it is now; nil when it does not exist yet.
    public var oldContents: [UInt8]?
    public var newContents: [UInt8]
    public var mode: TrustMode
    /// The marked block written (nil when the block is removed because nothing is left to trust).
    public var block: String?
    /// Entries new in this run, entries the block already had and keeps, entries it drops.
    public var added: [ResolvedTrust] = []
    public var kept: [ResolvedTrust] = []
    public var removed: [ResolvedTrust] = []
    /// Things the user should know (said on the terminal).
    public var notes: [String]

    public var changes: Bool { oldContents != newContents }

    public var trusts: [ResolvedTrust] {
        if case .allowList(let trusts, _) = mode { return trusts }
        return []
    }
}

public enum CIScripts {
    public static let scriptName = "ci_post_clone.sh"

    /// Where the script goes for `request`, and the project it is for.
    public static func destination(_ request: CIScriptsRequest) throws -> (project: ProjectLocation, scriptsDirectory: String) {
        let project = try ProjectLocator.locate(in: request.projectDirectory)
        let scriptsDir = request.scriptsDirectory.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? project.ciScriptsDirectory
        return (project, scriptsDir)
    }

    /// Plans and, unless `dryRun`, writes: the file-system checks first, then, holding the folder's lock,
    /// the read, the merge and the atomic replace, so concurrent runs serialise and none loses another's entries.
    public static func run(_ request: CIScriptsRequest, dryRun: Bool) throws -> CIScriptsPlan {
        let (_, scriptsDir) = try destination(request)
        try ScriptFile.preflight(scriptsDirectory: scriptsDir, scriptName: scriptName, creating: !dryRun)
        // Planned once without the lock, so a usage error or a run with nothing to change touches nothing
        // (not even the lock file), then again under it: what another run wrote meanwhile is merged, not lost.
        let first = try plan(request)
        if dryRun || !first.changes { return first }
        let lock = try ScriptFile.lock(scriptsDirectory: scriptsDir, scriptName: scriptName)
        defer { lock.unlock() }
        let plan = try plan(request)
        try write(plan)
        return plan
    }

    public static func plan(_ request: CIScriptsRequest) throws -> CIScriptsPlan {
        let (project, scriptsDir) = try destination(request)
        var notes: [String] = []
        if scriptsDir != project.ciScriptsDirectory {
            notes.append("\(scriptsDir) is not beside \(project.projectFile): Xcode Cloud only runs the ci_scripts folder next to the project or workspace")
        }
        notes += ProjectLocator.otherScriptFolders(for: project, writing: scriptsDir)
        let scriptPath = scriptsDir + "/" + scriptName
        try ScriptFile.checkScript(scriptPath)
        let old = try ScriptFile.read(scriptPath)
        let previous = old.flatMap { MarkedBlock.extract(from: $0) }.flatMap { TrustBlockParser.contents(of: $0) }
        var previousEntries: [TrustBlockParser.Entry] = []
        if case .allowList(let entries)? = previous { previousEntries = entries }

        let mode: TrustMode
        var added: [ResolvedTrust] = [], kept: [ResolvedTrust] = [], removed: [ResolvedTrust] = []
        if request.skipValidation {
            guard request.targets.isEmpty, request.logs.isEmpty, request.removals.isEmpty else {
                throw CIScriptsError("--skip-validation trusts every macro and plugin; drop it, or drop --macro/--plugin/--from-log/--remove")
            }
            mode = .skipValidation
            removed = previousEntries.map { ResolvedTrust(kind: $0.kind, identity: $0.identity, target: $0.target, pin: PackagePin(identity: $0.identity, location: "")) }
            if !removed.isEmpty { notes.append("--skip-validation replaces the allow-list of \(removed.count) target\(removed.count == 1 ? "" : "s") the block had") }
        } else {
            guard let resolvedURL = project.resolvedURL, let resolvedPath = project.resolvedPath else {
                let places = project.searched.map { "\(project.directory)/\($0)" }.joined(separator: ", ")
                throw CIScriptsError("no Package.resolved at \(places.isEmpty ? project.directory : places); resolve packages in Xcode and commit it (Xcode Cloud needs it)")
            }
            let resolved: PackageResolved
            do { resolved = try PackageResolved.load(path: resolvedURL.path) } catch let error as InputError { throw CIScriptsError(error.description) }
            let checkouts = Checkouts.standard(projectDirectory: project.directory, extra: request.checkoutRoots)
            var targets = request.targets
            var logPackages: [String: String] = [:]
            if !request.logs.isEmpty {
                let fromLog = try LogTrustRequest.scan(paths: request.logs)
                logPackages = fromLog.resolvedPackages
                targets += fromLog.targets
                for missing in fromLog.targetsWithoutPackage where !targets.contains(where: { $0.kind == missing.kind && $0.target == missing.target }) {
                    if let known = previousEntries.first(where: { $0.kind == missing.kind && $0.target == missing.target }) {
                        targets.append(TrustTarget(kind: missing.kind, package: known.identity, target: missing.target))
                        continue
                    }
                    let owners = checkouts.pins(declaring: missing.target, kind: missing.kind, in: resolved)
                    guard owners.count == 1 else {
                        let why = owners.isEmpty ? "no package checkout here declares it" : "several packages declare it (\(owners.map(\.identity).joined(separator: ", ")))"
                        throw CIScriptsError("the log names \(missing.kind.rawValue) target '\(missing.target)' (line \(missing.line)) without its package and \(why); add --\(missing.kind.rawValue) PACKAGE:\(missing.target)")
                    }
                    notes.append("the log names \(missing.kind.rawValue) target '\(missing.target)' without its package; its checkout says it belongs to \(owners[0].identity)")
                    targets.append(TrustTarget(kind: missing.kind, package: owners[0].identity, target: missing.target))
                }
                if targets.isEmpty {
                    throw CIScriptsError("\(request.logs.joined(separator: ", ")): no macro or plugin trust failure in the log; name targets with --macro/--plugin PACKAGE:TARGET")
                }
            }
            guard !targets.isEmpty || !request.removals.isEmpty else {
                throw CIScriptsError("nothing to trust: pass --macro PACKAGE:TARGET, --plugin PACKAGE:TARGET, --from-log LOG, --remove PACKAGE:TARGET or --skip-validation")
            }
            var requested: [ResolvedTrust] = []
            for target in targets {
                let pin = try self.pin(for: target, in: resolved, path: resolvedURL.path, checkouts: checkouts, logPackages: logPackages)
                guard pin.revision?.isEmpty == false else {
                    throw CIScriptsError("package '\(pin.identity)' is pinned without a revision in \(resolvedURL.path) (a registry or local package), so '\(target.target)' has no fingerprint an allow-list could name; trust it in Xcode, or use --skip-validation")
                }
                let trust = ResolvedTrust(kind: target.kind, identity: pin.identity, target: target.target, pin: pin)
                if !requested.contains(where: { $0.sameEntry(trust) }) { requested.append(trust) }
            }
            // What the block trusted before, resolved again (a package may have left Package.resolved since).
            var before: [ResolvedTrust] = []
            for entry in previousEntries {
                if let pin = resolved.pin(identity: entry.identity) {
                    before.append(ResolvedTrust(kind: entry.kind, identity: pin.identity, target: entry.target, pin: pin))
                } else {
                    before.append(ResolvedTrust(kind: entry.kind, identity: entry.identity, target: entry.target, pin: PackagePin(identity: entry.identity, location: "")))
                }
            }
            for removal in request.removals {
                let identities = Set(([removal.package.lowercased()] + [try? self.pin(for: removal, in: resolved, path: resolvedURL.path, checkouts: checkouts, logPackages: logPackages)]
                    .compactMap { $0?.identity.lowercased() }))
                let matching = before.filter { identities.contains($0.identity.lowercased()) && $0.target == removal.target }
                guard !matching.isEmpty else {
                    let have = before.map { "\($0.identity):\($0.target)" }.joined(separator: ", ")
                    throw CIScriptsError("--remove \(removal.package):\(removal.target): the block does not trust it (it trusts \(have.isEmpty ? "nothing" : have))")
                }
                if requested.contains(where: { r in matching.contains { $0.sameEntry(r) } }) {
                    throw CIScriptsError("--remove \(removal.package):\(removal.target) and --macro/--plugin/--from-log name the same target; pick one")
                }
                removed += matching
                before.removeAll { b in matching.contains { $0.sameEntry(b) } }
            }
            if request.replace {
                removed += before.filter { b in !requested.contains { $0.sameEntry(b) } }
                kept = before.filter { b in requested.contains { $0.sameEntry(b) } }
            } else {
                kept = before
            }
            added = requested.filter { r in !kept.contains { $0.sameEntry(r) } }
            for k in kept where k.pin.revision == nil && k.pin.location.isEmpty {
                notes.append("\(k.identity) (for \(k.kind.rawValue) '\(k.target)') is no longer in \(resolvedPath); kept, and the script leaves it out at CI time; drop it with --remove \(k.identity):\(k.target)")
            }
            let fromScripts = ProjectLocator.relative(project.directory + "/" + resolvedPath, to: scriptsDir)
            mode = .allowList((kept + added).sorted(), resolvedFromScripts: fromScripts)
        }
        let nothingLeft: Bool = { if case .allowList(let trusts, _) = mode { return trusts.isEmpty } else { return false } }()
        if nothingLeft { notes.append("nothing is left to trust, so the xcmedic block is taken out of the script") }
        let block: String? = nothingLeft ? nil : ScriptRenderer.block(mode, command: regenerateCommand(base: request.command, mode: mode))
        let new: [UInt8]
        if let old {
            if let block { new = try MarkedBlock.apply(block, to: old, path: scriptPath) } else { new = try MarkedBlock.remove(from: old, path: scriptPath) }
            // Kept as they are (the file is the user's), but said, since either makes Xcode Cloud run it differently.
            let mode = ((try? FileManager.default.attributesOfItem(atPath: scriptPath))?[.posixPermissions] as? NSNumber)?.intValue ?? 0o755
            if mode & 0o111 == 0 { notes.append("\(scriptPath) is not executable, so Xcode Cloud ignores its shebang and runs it with zsh: chmod +x it and git update-index --chmod=+x it") }
            if !old.starts(with: Array("#!".utf8)) { notes.append("\(scriptPath) has no shebang, so Xcode Cloud runs it with zsh") }
        } else if let block {
            new = Array(ScriptRenderer.newScript(block: block).utf8)
        } else {
            throw CIScriptsError("\(scriptPath) does not exist, so there is nothing to remove")
        }
        return CIScriptsPlan(project: project, scriptPath: scriptPath, oldContents: old, newContents: new, mode: mode, block: block,
                             added: added.sorted(), kept: kept.sorted(), removed: removed.sorted(), notes: notes)
    }

    /// `base` (`xcmedic ci-scripts [--project DIR]`) plus what reproduces the whole block: `--replace` and every target.
    public static func regenerateCommand(base: String, mode: TrustMode) -> String {
        guard case .allowList(let trusts, _) = mode else { return base }
        return ([base, "--replace"] + trusts.sorted().map { "--\($0.kind.rawValue) " + ShellQuote.word("\($0.identity):\($0.target)") }).joined(separator: " ")
    }

    /// The pin `target.package` names: by identity, by the URL the log's resolved-packages list gives that
    /// name, by its URL's last component, else by the package's display name in its checkout.
    static func pin(for target: TrustTarget, in resolved: PackageResolved, path: String, checkouts: Checkouts, logPackages: [String: String] = [:]) throws -> PackagePin {
        if let pin = resolved.pin(identity: target.package) { return pin }
        if let url = logPackages[target.package] ?? logPackages.first(where: { $0.key.lowercased() == target.package.lowercased() })?.value,
           let pin = resolved.pin(identity: PackageResolved.identity(fromLocation: url))
            ?? resolved.pins.first(where: { PackageResolved.identity(fromLocation: $0.location) == PackageResolved.identity(fromLocation: url) }) {
            return pin
        }
        if let pin = resolved.pins.first(where: { PackageResolved.identity(fromLocation: $0.location) == target.package.lowercased() }) { return pin }
        if let pin = checkouts.pin(named: target.package, in: resolved) { return pin }
        let pinned = resolved.pins.map(\.identity).sorted().joined(separator: ", ")
        throw CIScriptsError("package '\(target.package)' (for \(target.kind.rawValue) '\(target.target)') is not pinned in \(path) (pinned: \(pinned.isEmpty ? "none" : pinned)); name it as Package.resolved does")
    }

    /// Writes the plan atomically (a temporary file in the same folder renamed over the script, mode and
    /// owner kept); refuses when the script changed since the plan read it.
    public static func write(_ plan: CIScriptsPlan) throws {
        try writeScript(path: plan.scriptPath, old: plan.oldContents, new: plan.newContents, block: plan.block)
    }

    /// Replaces the script at `path` (expected to hold `old`) with `new`; a change made meanwhile gets
    /// `block` merged into it (or the block taken out when `block` is nil).
    static func writeScript(path scriptPath: String, old: [UInt8]?, new: [UInt8], block: String?) throws {
        guard old != new else { return }
        let folder = URL(fileURLWithPath: scriptPath).deletingLastPathComponent().path
        try ScriptFile.preflight(scriptsDirectory: folder, scriptName: URL(fileURLWithPath: scriptPath).lastPathComponent, creating: true)
        if case .missing = ScriptFile.node(folder) {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false) } catch {
                throw CIScriptsError("\(folder) cannot be created: \(error.localizedDescription)")
            }
        }
        try ScriptFile.replace(path: scriptPath, expected: old, with: new) { current in
            // The script changed under us after the rename check (an append to the old file): merge again.
            if let block { return try MarkedBlock.apply(block, to: current, path: scriptPath) }
            return try MarkedBlock.remove(from: current, path: scriptPath)
        }
    }
}

/// `xcmedic ci-scripts --post-xcodebuild`: ci_post_xcodebuild.sh, whose xcmedic block explains a failed
/// xcodebuild from the action's activity logs and result bundle. Written like ci_post_clone.sh: only the
/// marked block is xcmedic's, the file is replaced atomically under the folder's lock, a change made
/// meanwhile is merged, and a new file is executable.
public enum PostXcodebuildScript {
    public static let scriptName = "ci_post_xcodebuild.sh"

    public struct Plan: Sendable {
        public var project: ProjectLocation
        public var scriptPath: String
        public var oldContents: [UInt8]?
        public var newContents: [UInt8]
        public var block: String
        public var notes: [String]
        public var changes: Bool { oldContents != newContents }
    }

    /// The block, ending in a newline; `command` goes into a comment with control characters neutralised.
    public static func block(command: String) -> String {
        EmbeddedTemplates.postXcodebuildBlock.replacingOccurrences(of: "{{COMMAND}}", with: ShellQuote.commentSafe(command)) + "\n"
    }

    /// A new ci_post_xcodebuild.sh: sh shebang, the comments, then the block.
    public static func newScript(block: String) -> String {
        EmbeddedTemplates.ciPostXcodebuild.replacingOccurrences(of: "{{XCMEDIC_BLOCK}}", with: String(block.dropLast())) + "\n"
    }

    public static func plan(projectDirectory: String, scriptsDirectory: String?, command: String) throws -> Plan {
        let project = try ProjectLocator.locate(in: projectDirectory)
        let scriptsDir = scriptsDirectory.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? project.ciScriptsDirectory
        var notes: [String] = []
        if scriptsDir != project.ciScriptsDirectory {
            notes.append("\(scriptsDir) is not beside \(project.projectFile): Xcode Cloud only runs the ci_scripts folder next to the project or workspace")
        }
        let scriptPath = scriptsDir + "/" + scriptName
        try ScriptFile.checkScript(scriptPath)
        let old = try ScriptFile.read(scriptPath)
        let block = self.block(command: command)
        let new: [UInt8]
        if let old {
            new = try MarkedBlock.apply(block, to: old, path: scriptPath)
            let mode = ((try? FileManager.default.attributesOfItem(atPath: scriptPath))?[.posixPermissions] as? NSNumber)?.intValue ?? 0o755
            if mode & 0o111 == 0 { notes.append("\(scriptPath) is not executable, so Xcode Cloud ignores its shebang and runs it with zsh: chmod +x it and git update-index --chmod=+x it") }
        } else {
            new = Array(newScript(block: block).utf8)
        }
        if !FileManager.default.fileExists(atPath: scriptsDir + "/" + CIScripts.scriptName) {
            notes.append("xcmedic must be installed on Xcode Cloud for this script to explain anything: install it in \(scriptsDir)/\(CIScripts.scriptName)")
        }
        return Plan(project: project, scriptPath: scriptPath, oldContents: old, newContents: new, block: block, notes: notes)
    }

    /// Plans and, unless `dryRun`, writes under the folder's lock (planned again under it).
    public static func run(projectDirectory: String, scriptsDirectory: String?, command: String, dryRun: Bool) throws -> Plan {
        let first = try plan(projectDirectory: projectDirectory, scriptsDirectory: scriptsDirectory, command: command)
        let folder = URL(fileURLWithPath: first.scriptPath).deletingLastPathComponent().path
        try ScriptFile.preflight(scriptsDirectory: folder, scriptName: scriptName, creating: !dryRun)
        if dryRun || !first.changes { return first }
        let lock = try ScriptFile.lock(scriptsDirectory: folder, scriptName: scriptName)
        defer { lock.unlock() }
        let plan = try plan(projectDirectory: projectDirectory, scriptsDirectory: scriptsDirectory, command: command)
        try CIScripts.writeScript(path: plan.scriptPath, old: plan.oldContents, new: plan.newContents, block: plan.block)
        return plan
    }
}
