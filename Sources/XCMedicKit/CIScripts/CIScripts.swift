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
    /// The command line, quoted, for the script's "Regenerate with" comment.
    public var command: String

    public init(projectDirectory: String, targets: [TrustTarget] = [], logs: [String] = [], skipValidation: Bool = false,
                scriptsDirectory: String? = nil, checkoutRoots: [String] = [], command: String) {
        self.projectDirectory = projectDirectory
        self.targets = targets
        self.logs = logs
        self.skipValidation = skipValidation
        self.scriptsDirectory = scriptsDirectory
        self.checkoutRoots = checkoutRoots
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

    public static func plan(_ request: CIScriptsRequest) throws -> CIScriptsPlan {
        let project = try ProjectLocator.locate(in: request.projectDirectory)
        let scriptsDir = request.scriptsDirectory.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? project.ciScriptsDirectory
        var notes: [String] = []
        if scriptsDir != project.ciScriptsDirectory {
            notes.append("\(scriptsDir) is not beside \(project.projectFile): Xcode Cloud only runs the ci_scripts folder next to the project or workspace")
        }
        let mode: TrustMode
        if request.skipValidation {
            guard request.targets.isEmpty, request.logs.isEmpty else {
                throw CIScriptsError("--skip-validation trusts every macro and plugin; drop it, or drop --macro/--plugin/--from-log")
            }
            mode = .skipValidation
        } else {
            guard let resolvedURL = project.resolvedURL, let resolvedPath = project.resolvedPath else {
                let places = project.searched.map { "\(project.directory)/\($0)" }.joined(separator: ", ")
                throw CIScriptsError("no Package.resolved at \(places.isEmpty ? project.directory : places); resolve packages in Xcode and commit it (Xcode Cloud needs it)")
            }
            let resolved: PackageResolved
            do { resolved = try PackageResolved.load(path: resolvedURL.path) } catch let error as InputError { throw CIScriptsError(error.description) }
            let checkouts = Checkouts.standard(projectDirectory: project.directory, extra: request.checkoutRoots)
            var targets = request.targets
            if !request.logs.isEmpty {
                let fromLog = try LogTrustRequest.scan(paths: request.logs)
                targets += fromLog.targets
                for missing in fromLog.targetsWithoutPackage where !targets.contains(where: { $0.kind == missing.kind && $0.target == missing.target }) {
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
            guard !targets.isEmpty else {
                throw CIScriptsError("nothing to trust: pass --macro PACKAGE:TARGET, --plugin PACKAGE:TARGET, --from-log LOG, or --skip-validation")
            }
            var trusts: [ResolvedTrust] = []
            for target in targets {
                let pin = try self.pin(for: target, in: resolved, path: resolvedURL.path, checkouts: checkouts)
                guard pin.revision?.isEmpty == false else {
                    throw CIScriptsError("package '\(pin.identity)' is pinned without a revision in \(resolvedURL.path) (a registry or local package), so '\(target.target)' has no fingerprint an allow-list could name; trust it in Xcode, or use --skip-validation")
                }
                let trust = ResolvedTrust(kind: target.kind, identity: pin.identity, target: target.target, pin: pin)
                if !trusts.contains(where: { $0.kind == trust.kind && $0.identity == trust.identity && $0.target == trust.target }) { trusts.append(trust) }
            }
            let fromScripts = ProjectLocator.relative(project.directory + "/" + resolvedPath, to: scriptsDir)
            mode = .allowList(trusts.sorted(), resolvedFromScripts: fromScripts)
        }
        let block = ScriptRenderer.block(mode, command: request.command)
        let scriptPath = scriptsDir + "/" + scriptName
        let old = FileManager.default.contents(atPath: scriptPath).map { [UInt8]($0) }
        let new: [UInt8]
        if let old {
            new = try MarkedBlock.apply(block, to: old, path: scriptPath)
            // Kept as they are (the file is the user's), but said, since either makes Xcode Cloud run it differently.
            let mode = ((try? FileManager.default.attributesOfItem(atPath: scriptPath))?[.posixPermissions] as? NSNumber)?.intValue ?? 0o755
            if mode & 0o111 == 0 { notes.append("\(scriptPath) is not executable, so Xcode Cloud ignores its shebang and runs it with zsh: chmod +x it and git update-index --chmod=+x it") }
            if !old.starts(with: Array("#!".utf8)) { notes.append("\(scriptPath) has no shebang, so Xcode Cloud runs it with zsh") }
        } else {
            new = Array(ScriptRenderer.newScript(block: block).utf8)
        }
        return CIScriptsPlan(project: project, scriptPath: scriptPath, oldContents: old, newContents: new, mode: mode, notes: notes)
    }

    /// The pin `target.package` names: by identity, else by the package's display name in its checkout.
    static func pin(for target: TrustTarget, in resolved: PackageResolved, path: String, checkouts: Checkouts) throws -> PackagePin {
        if let pin = resolved.pin(identity: target.package) { return pin }
        if let pin = resolved.pins.first(where: { PackageResolved.identity(fromLocation: $0.location) == target.package.lowercased() }) { return pin }
        if let pin = checkouts.pin(named: target.package, in: resolved) { return pin }
        let pinned = resolved.pins.map(\.identity).sorted().joined(separator: ", ")
        throw CIScriptsError("package '\(target.package)' (for \(target.kind.rawValue) '\(target.target)') is not pinned in \(path) (pinned: \(pinned.isEmpty ? "none" : pinned)); name it as Package.resolved does")
    }

    /// Writes the plan: a new file gets mode 755; an existing one is rewritten in place, keeping its mode.
    public static func write(_ plan: CIScriptsPlan) throws {
        guard plan.changes else { return }
        let url = URL(fileURLWithPath: plan.scriptPath)
        if plan.oldContents == nil {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: url.path, contents: Data(plan.newContents), attributes: [.posixPermissions: 0o755]) else {
                throw CIScriptsError("\(url.path): cannot be written")
            }
            // createFile's permissions pass through the umask; the script must be executable whatever it is.
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        } else {
            guard let handle = FileHandle(forWritingAtPath: url.path) else { throw CIScriptsError("\(url.path): cannot be written") }
            defer { try? handle.close() }
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data(plan.newContents))
        }
    }
}
