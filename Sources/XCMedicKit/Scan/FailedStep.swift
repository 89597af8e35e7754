import Foundation

/// A build step that failed, read from the lines it printed: what a person does by hand when
/// xcodebuild says only `Command PhaseScriptExecution failed with a nonzero exit code`.
///
/// xcodebuild prints each step's output as one block: the step's start line
/// (`PhaseScriptExecution Run\ Script /…/Script-1A2B.sh (in target 'App' from project 'App')`), the
/// commands it ran (`cd …`, `export …`, `/bin/sh -c …`), what they printed, and, when the step failed,
/// `Command <Kind> failed with a nonzero exit code`. fastlane, Xcode Cloud and CI services close a
/// failed step with lines of their own. When no rule names a cause inside the step, the last lines
/// the step printed are its explanation.
struct FailedStep: Equatable {
    /// `PhaseScriptExecution`, `Ld`, `SwiftCompile`, `ci_post_clone.sh`, …
    var kind: String
    /// What the step was about: a script phase's name, a file, a target.
    var title: String?
    /// 1-based line number of the step's start line, when the block has one.
    var startLine: Int?
    /// The last meaningful lines it printed, oldest first.
    var lines: [String]

    /// The category a failure of this kind of step belongs to.
    var category: String { FailedStep.category(ofKind: kind) }

    static func category(ofKind kind: String) -> String {
        if let known = kinds[kind] ?? fastlaneActions[kind] { return known }
        // Another fastlane action (a lower-case snake_case name; the row fastlane's summary marks 💥) can fail for many
        // reasons (gym, scan, match): it is read for the words of what it printed, not for its name's parts.
        if kind != "ld", let first = kind.unicodeScalars.first, (97...122).contains(first.value),
           kind.unicodeScalars.allSatisfy({ (97...122).contains($0.value) || (48...57).contains($0.value) || $0 == "_" }) {
            return FindingCategory.buildFailed
        }
        if kind.hasPrefix("/") { // Xcode 9 and earlier: `Command /bin/sh failed with exit code 1`
            let tool = kind.split(separator: "/").last.map(String.init) ?? kind
            switch tool {
            case "sh", "bash", "zsh", "dash", "ruby", "python", "python3", "node", "perl": return "phase-script-failed"
            case "codesign": return "codesign-other"
            case "ld", "clang", "clang++", "libtool", "lipo": return "linker-other"
            case "swift", "swiftc", "swift-frontend", "swift-driver": return "compile-error-generic"
            // Resource compilers: Core Data models, Interface Builder files, asset catalogs, Metal shaders, strings.
            case "momc", "mapc", "cdtool", "ibtool", "actool", "metal", "metallib", "xcstringstool", "realitytool", "coremlc", "intentbuilderc":
                return "compile-error-generic"
            default: return FindingCategory.buildFailed
            }
        }
        let lower = kind.lowercased()
        // A package plug-in's step (`Apply build tool plug-in “SwiftLintPlugin” to target …`, `Validate plug-in …`,
        // the plug-in's own command `SwiftLint BuildTool Plugin`) that failed with nothing printed: on CI, the
        // plug-in was not trusted.
        if lower.contains("plug-in") || lower.contains("plugin") { return "plugin-validation" }
        if lower.hasPrefix("ci_") && lower.hasSuffix(".sh") { return "xcode-cloud-script" }
        if lower.contains("script") || lower.hasSuffix(".sh") { return "phase-script-failed" }
        if lower.contains("compile") || lower.contains("swift") { return "compile-error-generic" }
        if lower.contains("sign") { return "codesign-other" }
        if lower.contains("link") || lower == "ld" { return "linker-other" }
        return FindingCategory.buildFailed
    }

    /// fastlane's actions (and their aliases) that do one thing, and the category of their failure.
    static let fastlaneActions: [String: String] = {
        var table: [String: String] = [:]
        for a in ["pilot", "upload_to_testflight", "testflight", "deliver", "upload_to_app_store", "appstore", "notarize",
                  "app_store_build_number", "latest_testflight_build_number"] { table[a] = "app-store-upload" }
        for a in ["sigh", "get_provisioning_profile", "install_provisioning_profile"] { table[a] = "provisioning-profile" }
        for a in ["cert", "get_certificates", "import_certificate"] { table[a] = "codesign-certificate" }
        // The machine's keychain, before any certificate is in it (the actions setup_ci runs).
        for a in ["setup_ci", "create_keychain", "unlock_keychain", "delete_keychain"] { table[a] = "ci-environment" }
        for a in ["cocoapods", "pod_lib_lint", "pod_push"] { table[a] = "cocoapods" }
        for a in ["ensure_xcode_version", "xcversion", "xcodes", "xcode_select"] { table[a] = "xcode-version" }
        return table
    }()

    /// xcodebuild's step names (Xcode 8 to 26) and the category of a failure in each.
    static let kinds: [String: String] = {
        var table: [String: String] = [:]
        for k in ["PhaseScriptExecution", "RunScript", "ShellScript"] { table[k] = "phase-script-failed" }
        for k in ["Ld", "Libtool", "CreateUniversalBinary", "GenerateDSYMFile", "Strip", "MetalLink"] { table[k] = "linker-other" }
        for k in ["SwiftCompile", "CompileSwift", "CompileSwiftSources", "SwiftEmitModule", "EmitSwiftModule", "SwiftDriver",
                  "SwiftDriverJobDiscovery", "SwiftDriverCompilation", "SwiftMergeGeneratedHeaders", "MergeSwiftModule",
                  "PrecompileSwiftBridgingHeader", "SwiftGeneratePch", "CompileC", "ProcessPCH", "ProcessPCH++",
                  "ScanDependencies", "CompileXIB", "CompileStoryboard", "LinkStoryboards", "CompileAssetCatalog",
                  "CompileMetalFile", "CompileDocumentationCatalog", "GenerateAssetSymbols", "CompileSkybox",
                  "CompileCoreMLModel", "CoreMLModelCodegen", "DataModelCompile", "ExtractAppIntentsMetadata",
                  "SwiftExplicitDependencyCompileModuleFromInterface", "SwiftExplicitDependencyGeneratePcm",
                  "CompileStringCatalog", "EmitSwiftModuleDerivedFile",
                  // The project's own property lists and strings files (a malformed Info.plist, a Localizable.strings
                  // with a syntax error) are compiled by these; their failure is an error in the project's files.
                  "ProcessInfoPlistFile", "CopyPlistFile", "CopyStringsFile", "Preprocess"] {
            table[k] = "compile-error-generic"
        }
        for k in ["CodeSign", "ProcessProductPackaging", "ProcessProductPackagingDER", "ValidateEmbeddedBinary", "Validate",
                  "RegisterExecutionPolicyException", "SignFile"] {
            table[k] = "codesign-other"
        }
        for k in ["ComputeTargetDependencyGraph", "ComputePackagePrebuildTargetDependencyGraph", "ResolvePackageGraph"] {
            table[k] = "spm-resolution"
        }
        return table
    }()

    /// The kind of step a line of xcodebuild's failed-commands list names: its first word
    /// (`PhaseScriptExecution`, `CodeSign`), or the phrase Xcode 14 and later write for a plug-in
    /// (`Apply build tool plug-in “X” to target “Y”`) or a script (`Run custom shell script 'X'`), up to
    /// the first quote. A line that is a plug-in command's own name (`SwiftLint BuildTool Plugin`) is
    /// the whole line.
    static func listKind(_ text: String) -> String {
        let word = String(text.prefix(while: { $0 != " " }))
        guard kinds[word] == nil, !startNames.contains(word) else { return word }
        if let quote = text.firstIndex(where: { $0 == "“" || $0 == "'" || $0 == "\"" }) {
            let phrase = text[..<quote].trimmingCharacters(in: .whitespaces)
            let lower = phrase.lowercased()
            if phrase.contains(" "), !phrase.contains("/"), !phrase.contains("\\"),
               lower.contains("plug-in") || lower.contains("plugin") || lower.contains("script") { return phrase }
        }
        if !text.contains("/"), text.lowercased().hasSuffix(" plugin") { return text }
        return word
    }

    /// Step names that start a step block even without Xcode 11+'s `(in target '…' from project '…')`.
    static let startNames: Set<String> = Set(kinds.keys).union([
        "ProcessInfoPlistFile", "CpResource", "CopySwiftLibs", "Touch", "Ditto", "CopyPNGFile", "CopyPlistFile",
        "CopyStringsFile", "WriteAuxiliaryFile", "CreateBuildDirectory", "MkDir", "SymLink", "PBXCp", "Copy",
        "RegisterWithLaunchServices", "ProcessXCFramework", "CopyTiffFile", "CpHeader", "Preprocess",
    ])

    /// The step a start line opens: `PhaseScriptExecution [CP]\ Check\ Pods\ Manifest.lock /…sh (in target 'A' from project 'A')`.
    static func parseStart(_ line: String) -> (kind: String, title: String?)? {
        // xcpretty and xcbeautify: `▸ Running script '[CP] Embed Pods Frameworks'` (the glyph is off `text`);
        // Xcode's own step title in an activity log: `Run custom shell script '[CP] Check Pods Manifest.lock'`.
        for prefix in ["Running script '", "Run custom shell script '"] where line.hasPrefix(prefix) {
            let name = line.dropFirst(prefix.count)
            return ("PhaseScriptExecution", String(name.prefix { $0 != "'" }))
        }
        // fastlane's banner for each action: `--- Step: upload_to_testflight ---`.
        if line.hasPrefix("--- Step: "), line.hasSuffix(" ---") {
            return (String(line.dropFirst(10).dropLast(4)), nil)
        }
        guard let first = line.utf8.first, (65...90).contains(first) else { return nil } // at column 0, upper case
        let kindEnd = line.firstIndex(of: " ") ?? line.endIndex
        let kind = String(line[..<kindEnd])
        guard kind.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" }) else { return nil }
        let hasTarget = line.contains("(in target '") || line.contains("(in target: ")
        guard hasTarget || startNames.contains(kind) else { return nil }
        return (kind, title(kind: kind, arguments: line[kindEnd...]))
    }

    /// A readable name for the step: the script phase's name, or the file the step works on, with its target.
    /// What a phrase-named step was about: the rest of its line (`“SwiftLintPlugin” to target “App” in project “App”`).
    static func quotedTitle(_ rest: Substring) -> String? {
        let text = rest.trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }

    /// A list line that names no step: the base64 blob Xcode 14 prints under a plug-in's command
    /// (`eyJ0eXBlIjp7IndvcmtzcGFjZSI6e319fQ==`).
    static func isOpaque(_ text: String) -> Bool {
        text.utf8.count >= 16 && !text.contains(" ") && text.utf8.allSatisfy { b in
            (48...57).contains(b) || (65...90).contains(b) || (97...122).contains(b) || b == 43 || b == 47 || b == 61
        } && (text.hasSuffix("=") || text.utf8.contains { (48...57).contains($0) })
    }

    static func title(kind: String, arguments: Substring) -> String? {
        var args = arguments.drop(while: { $0 == " " })
        var target: String?
        if let r = args.range(of: " (in target '") {
            let rest = args[r.upperBound...]
            target = rest.firstIndex(of: "'").map { String(rest[..<$0]) }
            args = args[..<r.lowerBound]
        }
        // The first argument, with `\ ` escapes undone (xcodebuild escapes spaces that way).
        var first = ""
        var i = args.startIndex
        while i < args.endIndex {
            let c = args[i]
            if c == "\\", args.index(after: i) < args.endIndex {
                first.append(args[args.index(after: i)])
                i = args.index(i, offsetBy: 2)
                continue
            }
            if c == " " { break }
            first.append(c)
            i = args.index(after: i)
        }
        if kind != "PhaseScriptExecution", let slash = first.lastIndex(of: "/") { first = String(first[first.index(after: slash)...]) }
        if first.isEmpty && target == nil { return nil }
        if let target, !first.isEmpty { return "\(first) (target '\(target)')" }
        return first.isEmpty ? target.map { "target '\($0)'" } : first
    }

    /// A line the step printed that explains nothing: the commands xcodebuild echoes, blank lines,
    /// other wrappers.
    static func isNoise(_ text: String) -> Bool {
        if text.isEmpty { return true }
        for prefix in ["cd ", "export ", "/bin/sh -c ", "/bin/bash -c ", "/bin/zsh -c ", "builtin-", "setenv ", "** ", "Command ",
                       "note: ", "warning: ", "(in target", "The following build commands failed", "Testing cancelled",
                       "Build description", "Run script build phase"] where text.hasPrefix(prefix) {
            return true
        }
        if text.hasPrefix("("), text.hasSuffix(")"), text.contains(" failure") { return true } // (1 failure)
        if text.hasPrefix("[!] Exit status") || text.hasPrefix("Exit status:") { return true }
        // fastlane's lane context, printed after a failed action: `Variable Dump:` and its Ruby hash (fastlane 1.x).
        if text == "Variable Dump:" || text.hasPrefix("{:") { return true }
        if text.hasPrefix("/Applications/Xcode") || text.hasPrefix("/Library/Developer/") { return true } // tool invocations
        // A CI service's summary table (Bitrise's rows of steps and their borders) lists steps; it is not what one printed.
        if text.hasPrefix("|"), text.hasSuffix("|") { return true }
        if text.hasPrefix("+"), text.allSatisfy({ $0 == "+" || $0 == "-" || $0 == "=" || $0 == " " }) { return true }
        return text.allSatisfy { $0 == "-" || $0 == "=" || $0 == "*" || $0 == "_" || $0 == " " || $0 == "▸" }
    }

    /// The line most likely to say why: the last one with an error word, else the last one.
    static func mostTelling(_ lines: [String]) -> String? {
        let words = ["error", "Error", "ERROR", "fatal", "Fatal", "FATAL", "failed", "Failed", "FAILED", "not found", "No such file",
                     "Permission denied", "denied", "cannot", "Cannot", "can't", "could not", "Could not", "unable", "Unable",
                     "invalid", "Invalid", "missing", "Missing", "exception", "Exception", "Traceback", "not installed"]
        if let hit = lines.last(where: { line in words.contains { line.contains($0) } }) { return hit }
        return lines.last
    }
}

/// The lines before a position in the log, newest first: the current chunk, then what was kept of
/// the previous one.
struct PrecedingLines {
    let base: UnsafePointer<UInt8>
    /// Start of the current line in `base`; lines before it are read backwards from here.
    let before: Int
    /// The end of the previous chunk, kept by the scanner.
    let previous: [UInt8]

    /// Walks back at most `maxLines` lines, calling `body` with each decoded line (normalised as
    /// rules see it) until it returns false.
    func walk(maxLines: Int, _ body: (LogLine) -> Bool) {
        var count = 0
        var end = before - 1 // the LF that ends the previous line
        while end >= 0, count < maxLines {
            let start = Scanner.lineStart(base, before: end, notBefore: 0)
            let line = LogLine(raw: Scanner.decode(base, from: start, to: end))
            count += 1
            if !body(line) { return }
            end = start - 1
        }
        guard count < maxLines, !previous.isEmpty else { return }
        previous.withUnsafeBufferPointer { buffer in
            guard let p = buffer.baseAddress else { return }
            var end = buffer.count - 1 // previous ends with LF
            while end >= 0, count < maxLines {
                let start = Scanner.lineStart(p, before: end, notBefore: 0)
                let line = LogLine(raw: Scanner.decode(p, from: start, to: end))
                count += 1
                if !body(line) { return }
                end = start - 1
            }
        }
    }
}

extension FailedStep {
    /// The finding's rule: a cause of the step's category, explained by the lines the step printed.
    static func rule(for step: FailedStep) -> Rule {
        let category = step.category
        let what: String
        var fixes: [Fix]
        switch category {
        case "phase-script-failed":
            what = "A Run Script build phase (or a script a build tool runs, such as CocoaPods' [CP] phases, Flutter's "
                + "xcode_backend.sh or React Native's bundler) exited non-zero. xcodebuild says only that the command failed; "
                + "what the script printed just before it stopped, shown here, is why."
            fixes = [
                Fix(summary: "Read the script's last lines above: a missing tool (command not found), a missing file or an out-of-date generated file is the usual cause"),
                Fix(summary: "Run the phase's script by hand from the project folder with the same environment to see its full output",
                    commands: ["xcodebuild -showBuildSettings | grep -E 'SRCROOT|PODS_ROOT|PATH'"]),
                Fix(summary: "On CI, install the tools the script needs (node, swiftlint, pod) before the build, or guard the script with `command -v TOOL || exit 0` where the step is optional"),
            ]
        case "xcode-cloud-script":
            what = "An Xcode Cloud custom script (ci_post_clone.sh, ci_pre_xcodebuild.sh, ci_post_xcodebuild.sh) exited non-zero. "
                + "Its last lines, shown here, say why."
            fixes = [
                Fix(summary: "Fix the command the script's last lines name; run the script locally with `sh -x ci_scripts/NAME.sh` to trace it"),
                Fix(summary: "Make sure the script is executable in git", commands: ["git update-index --chmod=+x ci_scripts/*.sh"]),
            ]
        case "compile-error-generic":
            what = "A compile step failed. No compiler diagnostic in the log names the error, so the lines the step printed, shown here, are all there is."
            fixes = [Fix(summary: "Build the target locally and read the compiler's first error; on CI keep the raw xcodebuild log (without a formatter) so the error is not lost")]
        case "linker-other":
            what = "A link step failed. No linker message in the log names the problem, so the lines the step printed are shown."
            fixes = [Fix(summary: "Read the linker's lines above; rebuild with the raw xcodebuild log kept, since formatters often drop `ld:` lines")]
        case "codesign-other":
            what = "A signing or validation step failed. The lines the step printed are shown; codesign and the validation tools print their reason there."
            fixes = [Fix(summary: "Check the signing identity and profile for the target named above (Signing & Capabilities), and that the keychain holding the certificate is unlocked on CI")]
        case "plugin-validation":
            what = "A package plug-in's step failed (Xcode 14 and later run a package's build tool plug-ins in their own steps) and "
                + "the log shows no output of it. On a CI machine that is almost always a plug-in nobody trusted there: Xcode "
                + "asks once per machine (Trust & Enable), and a fresh runner or Xcode Cloud has no answer, so the step fails "
                + "(`… must be enabled before it can be used`, a line formatters drop)."
            fixes = [
                Fix(summary: "Trust the plug-ins at the revisions Package.resolved pins (an allow-list that follows it)",
                    commands: ["xcmedic ci-scripts --plugin PACKAGE:PLUGIN"]),
                Fix(summary: "Skip plug-in validation for this xcodebuild invocation (trusts every plug-in)",
                    commands: ["xcodebuild ARGS -skipPackagePluginValidation"]),
                Fix(summary: "Skip it machine-wide on CI; Xcode reads Apple's misspelled key",
                    commands: ["defaults write com.apple.dt.Xcode IDESkipPackagePluginFingerprintValidatation -bool YES"]),
            ]
        case _ where fastlaneActions[step.kind] != nil:
            what = "The fastlane action \(step.kind) failed (fastlane's summary marks it 💥), and no rule names the error it printed. "
                + "It does one thing, which gives the category; its last lines before the summary, shown here, say why."
            fixes = [Fix(summary: "Read the lines \(step.kind) printed above; run the lane again with --verbose for its full output",
                         commands: ["bundle exec fastlane <lane> --verbose"])]
        default:
            what = "A build step failed and no line in the log names a known cause; the lines it printed before failing are shown."
            fixes = [Fix(summary: "Read the step's last lines above; they are what the tool printed when it failed")]
        }
        // A step of no known kind is an error shown as printed, not a named cause.
        let known = category != FindingCategory.buildFailed
        return Rule(
            id: Scanner.failedStepRuleID, title: known ? "A build step failed: \(step.kind)" : "A step failed; its last lines",
            category: known ? category : FindingCategory.unrecognized,
            severity: .error, role: known ? .cause : .unrecognized, patterns: [], explanation: what, fixes: fixes,
            matches: [], nonMatches: [], origin: "xcmedic"
        )
    }
}
