import Foundation

/// Which macros and plugins a failing build log says Xcode refused to run.
public struct LogTrustRequest: Sendable, Equatable {
    /// Targets whose package the log names.
    public var targets: [TrustTarget]
    /// Targets the log names without their package (Xcode 15's "Target 'X' must be enabled ...").
    public var targetsWithoutPackage: [(kind: TrustTarget.Kind, target: String, line: Int)]
    /// The log's "Resolved source packages:" list: the name Xcode prints (`SwiftLintPlugins`) → its URL.
    public var resolvedPackages: [String: String] = [:]

    public static func == (a: LogTrustRequest, b: LogTrustRequest) -> Bool {
        a.targets == b.targets && a.resolvedPackages == b.resolvedPackages
            && a.targetsWithoutPackage.map { "\($0.kind)\($0.target)\($0.line)" } == b.targetsWithoutPackage.map { "\($0.kind)\($0.target)\($0.line)" }
    }

    /// Scans `paths` with the built-in catalog and keeps the `macro-validation` and `plugin-validation` findings,
    /// then reads the log's own hints about packages: checkout paths and the resolved-packages list.
    public static func scan(paths: [String]) throws -> LogTrustRequest {
        let scanner = Scanner(ruleSet: try RuleSet(rules: Catalog.rules(userFiles: [], autoConfig: false)))
        for path in paths { try scanner.scan(path: path) }
        var request = from(scanner.finish())
        let hints = LogPackageHints(texts: paths.compactMap { FileManager.default.contents(atPath: $0).map { String(decoding: $0, as: UTF8.self) } })
        request.apply(hints)
        return request
    }

    /// Gives a package to each target the log named without one when a checkout path on its line names it,
    /// and records the resolved-packages list.
    public mutating func apply(_ hints: LogPackageHints) {
        resolvedPackages.merge(hints.resolvedPackages) { a, _ in a }
        var still: [(kind: TrustTarget.Kind, target: String, line: Int)] = []
        for missing in targetsWithoutPackage {
            if let package = hints.checkoutPackage[missing.target] {
                let t = TrustTarget(kind: missing.kind, package: package, target: missing.target)
                if !targets.contains(t) { targets.append(t) }
            } else {
                still.append(missing)
            }
        }
        targetsWithoutPackage = still
    }

    public static func from(_ diagnosis: Diagnosis) -> LogTrustRequest {
        var request = LogTrustRequest(targets: [], targetsWithoutPackage: [])
        for finding in diagnosis.findings {
            let kind: TrustTarget.Kind
            switch finding.category {
            case FindingCategory.macroValidation: kind = .macro
            case FindingCategory.pluginValidation: kind = .plugin
            default: continue
            }
            guard let target = finding.captures[kind == .macro ? "macro" : "plugin"], !target.isEmpty else { continue }
            if let package = finding.captures["package"], !package.isEmpty {
                let t = TrustTarget(kind: kind, package: package, target: target)
                if !request.targets.contains(t) { request.targets.append(t) }
            } else if !request.targetsWithoutPackage.contains(where: { $0.kind == kind && $0.target == target }) {
                request.targetsWithoutPackage.append((kind, target, finding.firstLine))
            }
        }
        return request
    }
}

/// What a log says about packages besides the trust message's own words.
public struct LogPackageHints: Sendable, Equatable {
    /// Target → the checkout folder named on a "must be enabled" line
    /// (`.../SourcePackages/checkouts/swift-case-paths/Package.swift:PACKAGE-TARGET:CasePathsMacros: error: Target 'CasePathsMacros' must be enabled ...`).
    public var checkoutPackage: [String: String] = [:]
    /// "Resolved source packages:" entries: `  SwiftLintPlugins: https://github.com/SimplyDanny/SwiftLintPlugins @ 0.56.2`.
    public var resolvedPackages: [String: String] = [:]

    public init(texts: [String]) {
        for text in texts {
            var inResolved = false
            for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
                let line = String(raw)
                if line.trimmingCharacters(in: .whitespaces) == "Resolved source packages:" { inResolved = true; continue }
                if inResolved {
                    if let entry = Self.resolvedEntry(line) { resolvedPackages[entry.name] = resolvedPackages[entry.name] ?? entry.url; continue }
                    inResolved = false
                }
                if line.contains("must be enabled before it can be used"), let (package, target) = Self.checkoutTarget(line) {
                    checkoutPackage[target] = checkoutPackage[target] ?? package
                }
            }
        }
    }

    /// `  name: URL @ version` → (name, URL).
    static func resolvedEntry(_ line: String) -> (name: String, url: String)? {
        guard line.hasPrefix(" ") || line.hasPrefix("\t") else { return nil }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard let colon = trimmed.range(of: ": ") else { return nil }
        let name = String(trimmed[..<colon.lowerBound])
        var rest = String(trimmed[colon.upperBound...])
        if let at = rest.range(of: " @ ", options: .backwards) { rest = String(rest[..<at.lowerBound]) }
        let url = rest.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !name.contains(" "), !url.isEmpty, !url.contains(" ") else { return nil }
        return (name, url)
    }

    /// The package folder and target of `.../checkouts/PACKAGE/...:TARGET: error: ... 'TARGET' must be enabled`.
    static func checkoutTarget(_ line: String) -> (String, String)? {
        guard let checkouts = line.range(of: "/checkouts/") else { return nil }
        let afterCheckouts = line[checkouts.upperBound...]
        guard let slash = afterCheckouts.firstIndex(of: "/") else { return nil }
        let package = String(afterCheckouts[..<slash])
        // The target is the quoted name in the message ('X', "X", “X”).
        let quoted = #"(?:Target|Macro|Plugin)?\s*['"“‘](?<target>[^'"”’]+)['"”’](?: from package ['"“][^'"”]+['"”])? must be enabled"#
        guard !package.isEmpty, let regex = try? NSRegularExpression(pattern: quoted),
              let match = regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
              let range = Range(match.range(withName: "target"), in: line) else { return nil }
        return (package, String(line[range]))
    }
}

/// Package checkouts (`.build/checkouts`, Xcode's `SourcePackages/checkouts`) used to find which
/// pinned package declares a macro or plugin target, or which package a display name belongs to.
public struct Checkouts: Sendable {
    /// Checkout folders, each named after its repository.
    public var folders: [String]

    public init(folders: [String]) { self.folders = folders }

    /// The usual places for a project in `projectDirectory`, plus `extra` roots (each a `checkouts` folder).
    public static func standard(projectDirectory: String, extra: [String], home: String = NSHomeDirectory()) -> Checkouts {
        var roots = extra
        roots.append(projectDirectory + "/.build/checkouts")
        roots.append(projectDirectory + "/SourcePackages/checkouts")
        let derived = home + "/Library/Developer/Xcode/DerivedData"
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: derived)) ?? []).sorted() {
            roots.append("\(derived)/\(name)/SourcePackages/checkouts")
        }
        var folders: [String] = []
        for root in roots {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted() where !name.hasPrefix(".") {
                folders.append(root + "/" + name)
            }
        }
        return Checkouts(folders: folders)
    }

    /// The checkout of the pin with this identity, if one is here.
    func folder(for identity: String) -> String? {
        folders.first { PackageResolved.identity(fromLocation: $0) == identity.lowercased() }
    }

    func manifest(_ folder: String) -> String? {
        FileManager.default.contents(atPath: folder + "/Package.swift").map { String(decoding: $0, as: UTF8.self) }
    }

    /// Pins whose checked-out Package.swift declares `.macro(name: "target")` / `.plugin(name: "target")`.
    public func pins(declaring target: String, kind: TrustTarget.Kind, in resolved: PackageResolved) -> [PackagePin] {
        let pattern = #"\.\#(kind.rawValue)\s*\(\s*name\s*:\s*""# + NSRegularExpression.escapedPattern(for: target) + #"""#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return resolved.pins.filter { pin in
            guard let folder = folder(for: pin.identity), let text = manifest(folder) else { return false }
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
    }

    /// The pin whose checked-out Package.swift is `Package(name: "displayName", ...)`.
    public func pin(named displayName: String, in resolved: PackageResolved) -> PackagePin? {
        let pattern = #"Package\s*\(\s*name\s*:\s*""# + NSRegularExpression.escapedPattern(for: displayName) + #"""#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        return resolved.pins.first { pin in
            guard let folder = folder(for: pin.identity), let text = manifest(folder) else { return false }
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
    }
}
