import Foundation

/// How the build in a log was started, as far as the log says: the xcodebuild command line (echoed by a
/// CI step, fastlane's `$ … xcodebuild …`, or xcodebuild's own `Command line invocation:`), xcodebuild's
/// `Build settings from command line:`, fastlane's `Summary for scan`/`gym` parameter table, or a
/// `swift build`/`swift test` command. Fix commands are written with these values (`Invocation.fill`).
public struct Invocation: Sendable, Equatable {
    public var tool: Tool?
    public var workspace: String?
    public var project: String?
    public var scheme: String?
    public var destination: String?
    public var configuration: String?
    public var testPlan: String?
    /// `swift build --package-path X`, fastlane's `package_path`.
    public var packagePath: String?
    /// The xcodebuild arguments as the log gives them (no action words), in order.
    public var arguments: [String] = []
    /// `Build settings from command line:` (`KEY = value`), in order.
    public var buildSettings: [(key: String, value: String)] = []
    /// The test targets the log ran (`AppTests.xctest`), for `-only-testing:` identifiers.
    public var testTargets: [String] = []

    public enum Tool: String, Sendable { case xcodebuild, swiftpm, fastlane }

    public init() {}

    public static func == (a: Invocation, b: Invocation) -> Bool {
        a.tool == b.tool && a.workspace == b.workspace && a.project == b.project && a.scheme == b.scheme
            && a.destination == b.destination && a.configuration == b.configuration && a.testPlan == b.testPlan
            && a.packagePath == b.packagePath && a.arguments == b.arguments && a.testTargets == b.testTargets
            && a.buildSettings.map(\.key) == b.buildSettings.map(\.key) && a.buildSettings.map(\.value) == b.buildSettings.map(\.value)
    }

    public var isEmpty: Bool { self == Invocation() }

    // MARK: Filling fix commands

    /// The marked placeholders a fix command gets where the log does not say.
    public enum Placeholder {
        public static let scheme = "<scheme>"
        public static let destination = "<destination>"
        public static let testTarget = "<test-target>"
        public static let arguments = "<xcodebuild-arguments>"
    }

    /// The invocation tokens rule fixes may use (`Catalog/*.yml`):
    /// - `{$scheme}`, `{$destination}` (a shell word), `{$container}` (`-workspace W` or `-project P`, or nothing),
    /// - `{$selection}`: container and `-scheme`, `{$test-target}`: the test bundle for `-only-testing:`,
    /// - `{$args}`: the log's own xcodebuild arguments (minus action words and the `-only-testing` list),
    /// - `{$package}`: `--package-path P` for SwiftPM, or nothing.
    /// - `{$test-id}`: `Target/Suite/test` of the finding's `suite` and `test` captures,
    public static let tokens = ["{$test-id}", "{$scheme}", "{$destination}", "{$container}", "{$selection}", "{$test-target}", "{$args}", "{$package}"]

    public func fill(_ command: String, captures: [String: String] = [:]) -> String {
        // One pass over the bytes (a report fills every fix of up to 5,000 findings; Foundation's
        // `contains` and `replacingOccurrences` bridged each text to UTF-16 for each token).
        let text = Array(command.utf8)
        var out: [UInt8] = []
        var i = 0
        var marked = false
        while i < text.count {
            let opens = text[i] == UInt8(ascii: "{") && i + 1 < text.count && text[i + 1] == UInt8(ascii: "$")
            marked = marked || opens
            if opens, let close = text[(i + 2)...].firstIndex(of: UInt8(ascii: "}")),
               let value = value(of: String(decoding: text[(i + 2)..<close], as: UTF8.self), captures: captures) {
                out.append(contentsOf: value.utf8)
                i = close + 1
            } else {
                out.append(text[i])
                i += 1
            }
        }
        guard marked else { return command }
        // An empty token leaves a double space.
        var collapsed: [UInt8] = []
        collapsed.reserveCapacity(out.count)
        for byte in out where !(byte == UInt8(ascii: " ") && collapsed.last == UInt8(ascii: " ")) { collapsed.append(byte) }
        let result = String(decoding: collapsed, as: UTF8.self)
        guard let first = result.first, let last = result.last, first.isWhitespace || last.isWhitespace else { return result }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// What a token (`{$name}`, named without its braces) stands for; nil for a name that is no token.
    private func value(of name: String, captures: [String: String]) -> String? {
        switch name {
        case "test-id": return testIdentifier(captures)
        case "scheme": return scheme.map(ShellQuote.word) ?? Placeholder.scheme
        case "destination": return destination.map(ShellQuote.word) ?? Placeholder.destination
        case "container": return container
        case "selection": return ([container] + ["-scheme", scheme.map(ShellQuote.word) ?? Placeholder.scheme]).filter { !$0.isEmpty }.joined(separator: " ")
        case "test-target": return testTarget.map(ShellQuote.word) ?? Placeholder.testTarget
        case "args": return selectingArguments
        case "package": return packagePath.map { "--package-path " + ShellQuote.word($0) } ?? ""
        default: return nil
        }
    }

    public func fill(_ fix: Fix, captures: [String: String] = [:]) -> Fix {
        Fix(summary: fix.summary, commands: fix.commands.map { fill($0, captures: captures) },
            snippet: fix.snippet.map { fill($0, captures: captures) }, docs: fix.docs)
    }

    /// The `-only-testing:` identifier of the test a finding names (`suite`, `test` captures): `Target/Suite/test`,
    /// the target from the suite's module (`AppTests.LoginTests`) or the one test bundle the log ran; Swift
    /// Testing's `test()` keeps its parentheses, which xcodebuild needs.
    func testIdentifier(_ captures: [String: String]) -> String {
        guard let raw = captures["test"], !raw.isEmpty else { return testTarget.map(ShellQuote.word) ?? Placeholder.testTarget }
        var (suite, name) = TestRunReader.splitTestID(raw)
        if let s = captures["suite"], !s.isEmpty, s.split(separator: ".").count >= (suite?.split(separator: ".").count ?? 0) { suite = s }
        var parts = (suite ?? "").split(separator: ".").map(String.init)
        if parts.count < 2 { parts.insert(testTarget ?? Placeholder.testTarget, at: 0) }
        if parts.count == 1 { parts.append("<suite>") }
        let identifier = (parts + [name]).joined(separator: "/")
        return ShellQuote.word(identifier)
    }

    private var container: String {
        if let workspace { return "-workspace " + ShellQuote.word(workspace) }
        if let project { return "-project " + ShellQuote.word(project) }
        return ""
    }

    /// The one test bundle the log ran; several or none leave the choice to the user.
    public var testTarget: String? { testTargets.count == 1 ? testTargets[0] : nil }

    /// The log's xcodebuild arguments without its action words and test selection, so a fix can add its own.
    private var selectingArguments: String {
        var words: [String] = []
        var i = 0
        while i < arguments.count {
            let word = arguments[i]
            if Invocation.actions.contains(word) || word.hasPrefix("-only-testing") || word.hasPrefix("-skip-testing") {
                i += (word == "-only-testing" || word == "-skip-testing") ? 2 : 1
                continue
            }
            words.append(ShellQuote.word(word))
            i += 1
        }
        if words.isEmpty {
            let parts = [container, scheme.map { "-scheme " + ShellQuote.word($0) } ?? "", destination.map { "-destination " + ShellQuote.word($0) } ?? ""]
            let known = parts.filter { !$0.isEmpty }
            return known.isEmpty ? Placeholder.arguments : known.joined(separator: " ")
        }
        return words.joined(separator: " ")
    }

    static let actions: Set<String> = ["build", "test", "build-for-testing", "test-without-building", "archive", "clean", "analyze",
                                       "install", "installsrc", "docbuild", "-exportArchive"]

    /// Text with any placeholder `fill` leaves (the checks of the corpus test and of reports).
    public static let placeholderPattern = try! NSRegularExpression(pattern: "<(?:scheme|destination|test-target|suite|xcodebuild-arguments)>")
}

/// Shell words of a command line a log echoes.
enum ShellWord {
    /// Splits a command line as a POSIX shell does for words (quotes and backslashes; no expansion).
    static func split(_ text: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for ch in text {
            if escaped { current.append(ch); escaped = false; continue }
            if let q = quote {
                if ch == q { quote = nil } else if ch == "\\" && q == "\"" { escaped = true } else { current.append(ch) }
                continue
            }
            switch ch {
            case "\\": escaped = true; inWord = true
            case "'", "\"": quote = ch; inWord = true
            case " ", "\t":
                if inWord { words.append(current); current = ""; inWord = false }
            default: current.append(ch); inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}

/// Reads the invocation from the lines the scanner hands it. The first value the log gives for each field wins
/// (a later `xcodebuild -showBuildSettings` or a retry does not replace the build's own command).
struct InvocationReader {
    static let literals = ["xcodebuild ", "Build settings from command line", "Summary for ", "| scheme ", "| workspace ", "| project ",
                           "| destination ", "| device ", "| devices ", "| only_testing ", "| package_path ", "| configuration ",
                           "swift build", "swift test"]

    private(set) var invocation = Invocation()
    private var inFastlaneTable = false

    /// `following` gives the lines after this one (for `Build settings from command line:`).
    mutating func observe(_ text: String, following: () -> [String]) {
        if text.hasPrefix("Build settings from command line") {
            for line in following() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard let eq = trimmed.range(of: " = "), trimmed[..<eq.lowerBound].allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }) else { break }
                let key = String(trimmed[..<eq.lowerBound]), value = String(trimmed[eq.upperBound...])
                if !invocation.buildSettings.contains(where: { $0.key == key }) { invocation.buildSettings.append((key, value)) }
                if key == "CONFIGURATION", invocation.configuration == nil { invocation.configuration = value }
            }
            return
        }
        if text.contains("Summary for ") {
            inFastlaneTable = text.range(of: #"Summary for (scan|gym|run_tests|build_app|build_ios_app|spm)\b"#, options: .regularExpression) != nil
            if inFastlaneTable, invocation.tool == nil { invocation.tool = .fastlane }
            return
        }
        if text.hasPrefix("|"), inFastlaneTable {
            fastlaneRow(text)
            return
        }
        if let range = InvocationReader.command(in: text, tool: "xcodebuild") {
            xcodebuild(ShellWord.split(text[range]))
        } else if let range = InvocationReader.command(in: text, tool: "swift"), text[range].hasPrefix("build") || text[range].hasPrefix("test") {
            swiftpm(ShellWord.split(text[range]))
        }
    }

    /// The text after `tool` when it stands as a command word (start of the line, after `$ `, `+ `, `Run `, a
    /// path, `env X=Y`, `&& `, `| `), not inside prose or an error message (`xcodebuild: error:`).
    static func command(in text: String, tool: String) -> Range<String.Index>? {
        var search = text.startIndex
        while let r = text.range(of: tool + " ", range: search..<text.endIndex) {
            search = r.upperBound
            let before = text[..<r.lowerBound]
            let previous = before.last
            guard previous == nil || previous == " " || previous == "/" || previous == "\t" else { continue }
            let rest = text[r.upperBound...]
            // A command has options; prose and messages do not start with `-` after the tool's name.
            guard rest.first == "-" || (tool == "swift" && (rest.hasPrefix("build") || rest.hasPrefix("test"))) || tool == "xcodebuild" && rest.contains(" -") else { continue }
            if tool == "xcodebuild", rest.hasPrefix("-version") || rest.hasPrefix("-showsdks") || rest.hasPrefix("-list") || rest.hasPrefix("-help") { continue }
            return r.upperBound..<text.endIndex
        }
        return nil
    }

    private mutating func xcodebuild(_ words: [String]) {
        guard words.contains(where: { ["-scheme", "-workspace", "-project", "-destination"].contains($0) }) else { return }
        if invocation.tool == nil || invocation.tool == .fastlane { invocation.tool = invocation.tool ?? .xcodebuild }
        var args: [String] = []
        var i = 0
        func value() -> String? { i + 1 < words.count ? words[i + 1] : nil }
        while i < words.count {
            let w = words[i]
            // A pipe or a shell operator ends xcodebuild's arguments.
            if w == "|" || w == "&&" || w == "||" || w == ";" || w.hasPrefix(">") || w.hasPrefix("2>") { break }
            switch w {
            case "-scheme": set(\.scheme, value())
            case "-workspace": set(\.workspace, value())
            case "-project": set(\.project, value())
            case "-destination": set(\.destination, value())
            case "-configuration": set(\.configuration, value())
            case "-testPlan": set(\.testPlan, value())
            default: break
            }
            args.append(w)
            i += 1
        }
        if invocation.arguments.isEmpty { invocation.arguments = args }
    }

    private mutating func swiftpm(_ words: [String]) {
        if invocation.tool == nil { invocation.tool = .swiftpm }
        for (i, w) in words.enumerated() {
            if w == "--package-path", i + 1 < words.count { set(\.packagePath, words[i + 1]) }
            if w.hasPrefix("--package-path=") { set(\.packagePath, String(w.dropFirst("--package-path=".count))) }
        }
    }

    /// `| scheme           | App                          |`
    private mutating func fastlaneRow(_ text: String) {
        let cells = text.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        guard cells.count >= 2, !cells[1].isEmpty else { return }
        let value = cells[1]
        switch cells[0] {
        case "scheme": set(\.scheme, value)
        case "workspace": set(\.workspace, value)
        case "project": set(\.project, value)
        case "destination": set(\.destination, value.trimmingCharacters(in: CharacterSet(charactersIn: "[]\"")))
        case "device", "devices":
            // fastlane's `iPhone 15 Pro (17.5)` or `["iPhone 15 Pro (17.5)"]`: a simulator by name and OS.
            let device = value.trimmingCharacters(in: CharacterSet(charactersIn: "[]\""))
            if let m = device.range(of: #"^(.+?) \(([0-9.]+)\)$"#, options: .regularExpression) {
                let parts = device[m].dropLast().split(separator: "(")
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                set(\.destination, "platform=iOS Simulator,name=\(name),OS=\(parts.last ?? "")")
            } else {
                set(\.destination, "platform=iOS Simulator,name=\(device)")
            }
        case "configuration": set(\.configuration, value)
        case "package_path": set(\.packagePath, value)
        default: break
        }
    }

    private mutating func set(_ field: WritableKeyPath<Invocation, String?>, _ value: String?) {
        guard invocation[keyPath: field] == nil, let value, !value.isEmpty, !value.hasPrefix("-") else { return }
        invocation[keyPath: field] = value
    }

    func finish(testTargets: [String]) -> Invocation {
        var result = invocation
        result.testTargets = testTargets
        return result
    }
}
