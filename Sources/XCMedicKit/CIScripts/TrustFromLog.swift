import Foundation

/// Which macros and plugins a failing build log says Xcode refused to run.
public struct LogTrustRequest: Sendable, Equatable {
    /// Targets whose package the log names.
    public var targets: [TrustTarget]
    /// Targets the log names without their package (Xcode 15's "Target 'X' must be enabled ...").
    public var targetsWithoutPackage: [(kind: TrustTarget.Kind, target: String, line: Int)]

    public static func == (a: LogTrustRequest, b: LogTrustRequest) -> Bool {
        a.targets == b.targets && a.targetsWithoutPackage.map { "\($0.kind)\($0.target)\($0.line)" } == b.targetsWithoutPackage.map { "\($0.kind)\($0.target)\($0.line)" }
    }

    /// Scans `paths` with the built-in catalog and keeps the `macro-validation` and `plugin-validation` findings.
    public static func scan(paths: [String]) throws -> LogTrustRequest {
        let scanner = Scanner(ruleSet: try RuleSet(rules: Catalog.rules(userFiles: [], autoConfig: false)))
        for path in paths { try scanner.scan(path: path) }
        return from(scanner.finish())
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
