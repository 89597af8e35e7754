import ArgumentParser
import Foundation
import XCMedicKit

struct CIScriptsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ci-scripts",
        abstract: "Write Xcode Cloud's ci_scripts/ci_post_clone.sh so package macros and plugins are trusted on CI, ci_post_xcodebuild.sh so a failed build is explained, or check an existing ci_scripts.",
        discussion: """
        By default the script trusts exactly the named macros and plugins at the revision pinned in the \
        Package.resolved of the commit being built (it writes Xcode's macros.json and plugins.json at CI time), \
        so a dependency update needs no re-run. Each run adds to what the block already trusts; --remove drops \
        an entry and --replace starts the list afresh. xcmedic owns only the block between '# >>> xcmedic >>>' \
        and '# <<< xcmedic <<<'; the rest of an existing script, its mode and owner are kept. The script is \
        replaced atomically under a lock, so concurrent runs and a kill never lose a line. \
        With --post-xcodebuild it writes ci_scripts/ci_post_xcodebuild.sh instead (the same block rules): when \
        xcodebuild failed, it scans the activity logs under $CI_DERIVED_DATA_PATH/Logs/Build and Logs/Test and the \
        result bundle at $CI_RESULT_BUNDLE_PATH and prints the diagnosis into the build log, always exiting 0. \
        Exit status: 0 done, 1 when --lint finds a problem, 2 on a usage or input error (nothing changed).
        """
    )

    @Option(name: .customLong("project"), help: "Folder with the .xcodeproj, .xcworkspace, project.yml (XcodeGen), Project.swift (Tuist) or Package.swift (default: here, or the project below).")
    var project: String = "."

    @Option(name: .customLong("macro"), help: ArgumentHelp("Trust this package macro (repeatable).", valueName: "PACKAGE:TARGET"))
    var macros: [String] = []

    @Option(name: .customLong("plugin"), help: ArgumentHelp("Trust this package build-tool plugin (repeatable).", valueName: "PACKAGE:TARGET"))
    var plugins: [String] = []

    @Option(name: .customLong("from-log"), help: ArgumentHelp("Trust the macros and plugins a failing build log says Xcode refused (repeatable).", valueName: "LOG"))
    var logs: [String] = []

    @Option(name: .customLong("remove"), help: ArgumentHelp("Stop trusting this target, macro or plugin (repeatable).", valueName: "PACKAGE:TARGET"))
    var removals: [String] = []

    @Flag(name: .customLong("replace"), help: "Trust only what this run names, dropping what the script trusted before.")
    var replace = false

    @Flag(name: .customLong("skip-validation"), help: "Switch macro and plugin validation off for every package instead (less safe).")
    var skipValidation = false

    @Flag(name: .customLong("dry-run"), help: "Print the change instead of writing it.")
    var dryRun = false

    @Flag(name: .customLong("post-xcodebuild"), help: "Write ci_scripts/ci_post_xcodebuild.sh, which explains a failed xcodebuild in the build log, instead of ci_post_clone.sh.")
    var postXcodebuild = false

    @Flag(help: "Check the existing ci_scripts folder for known pitfalls; exit 1 when it has any.")
    var lint = false

    @Option(name: .customLong("checkouts"), help: ArgumentHelp("A SwiftPM checkouts folder to look in for a target's package (repeatable).", valueName: "DIR"))
    var checkoutRoots: [String] = []

    @Option(name: .customLong("ci-scripts-dir"), help: ArgumentHelp("Write ci_scripts here instead of beside the project (Xcode Cloud will not find it there).", valueName: "DIR"))
    var scriptsDirectory: String?

    /// A dry run prints the diff (or that nothing would change), and a run that changes nothing says
    /// so; both write nothing. Returns whether it printed one of those.
    static func reportedWithoutWriting(old: [UInt8]?, new: [UInt8], changes: Bool, shown: String, dryRun: Bool) -> Bool {
        if dryRun {
            let diff = LineDiff.unified(old: old.map { String(decoding: $0, as: UTF8.self) } ?? "", new: String(decoding: new, as: UTF8.self),
                                        oldName: old == nil ? "/dev/null" : shown, newName: shown)
            if diff.isEmpty { print("\(shown): already up to date (dry run)") } else { print("dry run, nothing written:\n" + diff, terminator: "") }
            return true
        }
        guard changes else {
            print("\(shown): already up to date")
            return true
        }
        return false
    }

    func run() throws {
        do {
            if lint { try runLint() } else if postXcodebuild { try generatePostXcodebuild() } else { try generate() }
        } catch let error as CIScriptsError {
            throw CLIError(error.description)
        }
    }

    func generatePostXcodebuild() throws {
        guard macros.isEmpty, plugins.isEmpty, logs.isEmpty, removals.isEmpty, !replace, !skipValidation, !lint else {
            throw CLIError("--post-xcodebuild writes only ci_post_xcodebuild.sh; run it without --macro, --plugin, --from-log, --remove, --replace, --skip-validation or --lint")
        }
        var words = ["xcmedic", "ci-scripts", "--post-xcodebuild"]
        if project != "." { words += ["--project", project] }
        if let scriptsDirectory { words += ["--ci-scripts-dir", scriptsDirectory] }
        let plan = try PostXcodebuildScript.run(projectDirectory: project, scriptsDirectory: scriptsDirectory,
                                                command: words.map(ShellQuote.word).joined(separator: " "), dryRun: dryRun)
        for note in plan.notes { FileHandle.standardError.write(Data("xcmedic: note: \(note)\n".utf8)) }
        let shown = ProjectLocator.relative(plan.scriptPath, to: FileManager.default.currentDirectoryPath)
        guard !Self.reportedWithoutWriting(old: plan.oldContents, new: plan.newContents, changes: plan.changes, shown: shown, dryRun: dryRun) else { return }
        if plan.oldContents == nil {
            print("wrote \(shown) (new, executable): when xcodebuild fails on Xcode Cloud it prints xcmedic's diagnosis into the build log")
            print("Commit it executable: git add --chmod=+x \(ShellQuote.quote(shown))")
        } else {
            print("updated the xcmedic block of \(shown); the rest of the file and its mode are unchanged")
        }
    }

    func runLint() throws {
        guard macros.isEmpty, plugins.isEmpty, logs.isEmpty, removals.isEmpty, !replace, !skipValidation, !dryRun else {
            throw CLIError("--lint only checks; run it without --macro, --plugin, --from-log, --remove, --replace, --skip-validation or --dry-run")
        }
        let report = try CIScriptsLint.report(projectDirectory: project)
        let here = FileManager.default.currentDirectoryPath
        let active = ProjectLocator.relative(report.activeFolder, to: here)
        let projectShown = ProjectLocator.relative(report.project.directory + "/" + report.project.projectFile, to: here)
        print("Xcode Cloud runs \(active)/ (beside \(projectShown), \(report.project.layout)\(report.project.choice.map { "; picked because \($0)" } ?? ""))")
        let problems = report.problems
        if problems.isEmpty {
            print("ci_scripts: no known pitfall found")
            return
        }
        for problem in problems { print(problem.description) }
        print("\(problems.count) problem\(problems.count == 1 ? "" : "s")")
        throw ExitCode(1)
    }

    func generate() throws {
        for log in logs where !FileManager.default.fileExists(atPath: log) {
            throw CLIError("\(log): no such file")
        }
        let targets = try macros.map { try TrustTarget.parse($0, kind: .macro) } + plugins.map { try TrustTarget.parse($0, kind: .plugin) }
        let removed = try removals.map { text -> TrustTarget in
            do { return try TrustTarget.parse(text, kind: .macro) } catch { throw CLIError("--remove '\(text)': expected PACKAGE:TARGET, e.g. swift-case-paths:CasePathsMacros") }
        }
        let request = CIScriptsRequest(projectDirectory: project, targets: targets, logs: logs, skipValidation: skipValidation,
                                       scriptsDirectory: scriptsDirectory, checkoutRoots: checkoutRoots, removals: removed, replace: replace,
                                       command: commandLine())
        let plan = try CIScripts.run(request, dryRun: dryRun)
        for note in plan.notes { FileHandle.standardError.write(Data("xcmedic: note: \(note)\n".utf8)) }
        let shown = ProjectLocator.relative(plan.scriptPath, to: FileManager.default.currentDirectoryPath)
        switch plan.mode {
        case .skipValidation:
            print("""
            Skipping macro and plugin validation for every package. This trades away Xcode's review: any macro or
            build-tool plugin, from any package at any revision (a hijacked update included), runs in your CI build
            unasked. The safer alternative trusts named targets at their pinned revision: --macro/--plugin PACKAGE:TARGET.
            """)
        case .allowList(let trusts, _):
            if !trusts.isEmpty { print("Trusting at the revision pinned in \(plan.project.resolvedPath ?? "Package.resolved") (read again on every CI run):") }
            let entry = { (trust: ResolvedTrust) -> String in
                let state = trust.pin.revision == nil ? "no longer pinned" : "\(trust.pin.stateDescription), \(trust.pin.revision.map { String($0.prefix(12)) } ?? "")"
                return "\(trust.kind.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)) \(trust.identity):\(trust.target)  (\(state))"
            }
            for trust in plan.added { print("  added   \(entry(trust))") }
            for trust in plan.kept { print("  kept    \(entry(trust))") }
        }
        for trust in plan.removed { print("  removed \(trust.kind.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)) \(trust.identity):\(trust.target)") }
        if case .allowList = plan.mode {
            print("\(plan.added.count) added, \(plan.kept.count) kept, \(plan.removed.count) removed")
        }
        guard !Self.reportedWithoutWriting(old: plan.oldContents, new: plan.newContents, changes: plan.changes, shown: shown, dryRun: dryRun) else { return }
        if plan.oldContents == nil {
            print("wrote \(shown) (new, executable)")
            print("Commit it executable: git add --chmod=+x \(ShellQuote.quote(shown))")
        } else {
            print(plan.block == nil ? "took the xcmedic block out of \(shown); the rest of the file and its mode are unchanged"
                                    : "updated the xcmedic block of \(shown); the rest of the file and its mode are unchanged")
        }
    }

    /// The start of the command that regenerates the block, for the script's comment; ci-scripts appends
    /// `--replace` and every target the block trusts, so the comment stays true as trust accumulates.
    func commandLine() -> String {
        var words = ["xcmedic", "ci-scripts"]
        if project != "." { words += ["--project", project] }
        if let scriptsDirectory { words += ["--ci-scripts-dir", scriptsDirectory] }
        if skipValidation { words.append("--skip-validation") }
        return words.map(ShellQuote.word).joined(separator: " ")
    }
}
