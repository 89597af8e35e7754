import Foundation

/// What a change to a manifest or CI file means for the build: dependencies with their requirement
/// in `Package.swift` (and `Package@swift-*.swift`), `Podfile`, `Podfile.lock` and `Cartfile.resolved`;
/// platforms; the runner image and the Xcode a CI file selects. Read from the files' text at both
/// revisions (nothing is run).
public struct ManifestChange: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// `.package(...)` of a Swift manifest: old/new are its requirement (`from: "1.2.0"`).
        case packageDependency = "package-dependency"
        /// `platforms:` of a Swift manifest, `platform :ios` of a Podfile: old/new the whole list.
        case platforms
        /// `pod 'Name', '~> 1.0'` of a Podfile: old/new the requirement.
        case pod
        /// A pod's resolved version in Podfile.lock, or the CocoaPods version (`name` "COCOAPODS").
        case podLock = "pod-lock"
        /// `github "owner/repo" "v1.2"` of Cartfile.resolved.
        case carthage
        /// `runs-on:` (GitHub Actions), `stack:` (Bitrise), `macos: xcode:` (CircleCI).
        case runner
        /// The Xcode a CI file selects (`xcode-select -s`, `DEVELOPER_DIR`, `xcode-version:`, `xcode:`).
        case xcode
    }

    public enum Change: String, Sendable, Codable { case added, removed, changed }

    public var file: String
    public var kind: Kind
    /// The dependency, pod or platform list's name; empty for runner and Xcode.
    public var name: String
    public var change: Change
    public var old: String?
    public var new: String?
    /// Where a package dependency comes from (its URL, path or registry id).
    public var location: String?
}

enum ManifestDiff {
    /// The changes of one file between its text at the old and new revision (nil: absent there).
    static func changes(path: String, oldPath: String?, old: String?, new: String?) -> [ManifestChange] {
        let name = (path as NSString).lastPathComponent
        let shown = oldPath.map { $0 != path ? "\($0) → \(path)" : path } ?? path
        if name == "Package.swift" || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift")) {
            let o = old.map(SwiftManifest.init), n = new.map(SwiftManifest.init)
            var out = compare(shown, .packageDependency, o?.dependencies ?? [:], n?.dependencies ?? [:])
            if o?.platforms != n?.platforms, !(o?.platforms ?? "").isEmpty || !(n?.platforms ?? "").isEmpty {
                out.append(single(shown, .platforms, "platforms", o?.platforms, n?.platforms))
            }
            return out
        }
        switch name {
        case "Podfile":
            var out = compare(shown, .pod, podfile(old), podfile(new))
            let op = old.flatMap(podPlatform), np = new.flatMap(podPlatform)
            if op != np { out.append(single(shown, .platforms, "platform", op, np)) }
            return out
        case "Podfile.lock":
            return compare(shown, .podLock, podLock(old), podLock(new))
        case "Cartfile.resolved":
            return compare(shown, .carthage, cartfile(old), cartfile(new))
        default: break
        }
        if isCIFile(path) {
            var out: [ManifestChange] = []
            let or = runners(old, path: path), nr = runners(new, path: path)
            if or != nr { out.append(single(shown, .runner, "", or.isEmpty ? nil : or.joined(separator: ", "), nr.isEmpty ? nil : nr.joined(separator: ", "))) }
            let ox = xcodes(old), nx = xcodes(new)
            if ox != nx { out.append(single(shown, .xcode, "", ox.isEmpty ? nil : ox.joined(separator: ", "), nx.isEmpty ? nil : nx.joined(separator: ", "))) }
            return out
        }
        return []
    }

    static func isCIFile(_ path: String) -> Bool {
        (path.hasPrefix(".github/workflows/") && (path.hasSuffix(".yml") || path.hasSuffix(".yaml")))
            || path == ".circleci/config.yml" || path == "bitrise.yml" || path == ".gitlab-ci.yml"
    }

    static func single(_ file: String, _ kind: ManifestChange.Kind, _ name: String, _ old: String?, _ new: String?) -> ManifestChange {
        ManifestChange(file: file, kind: kind, name: name, change: old == nil ? .added : new == nil ? .removed : .changed, old: old, new: new)
    }

    /// name → (requirement, location)
    static func compare(_ file: String, _ kind: ManifestChange.Kind, _ old: [String: (String, String?)], _ new: [String: (String, String?)]) -> [ManifestChange] {
        var out: [ManifestChange] = []
        for name in Set(old.keys).union(new.keys).sorted(by: { $0.lowercased() < $1.lowercased() }) {
            let o = old[name], n = new[name]
            if let o, let n, o.0 == n.0, o.1 == n.1 { continue }
            out.append(ManifestChange(file: file, kind: kind, name: name, change: o == nil ? .added : n == nil ? .removed : .changed,
                                      old: o?.0, new: n?.0, location: (n ?? o)?.1))
        }
        return out
    }

    // MARK: - Podfile, Podfile.lock, Cartfile.resolved

    /// `pod 'Alamofire', '~> 5.8'` → Alamofire: `'~> 5.8'` (every argument after the name, as written).
    static func podfile(_ text: String?) -> [String: (String, String?)] {
        var pods: [String: (String, String?)] = [:]
        for line in (text ?? "").split(whereSeparator: \.isNewline) {
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("pod "), let args = Optional(t.dropFirst(4).split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }),
                  let first = args.first else { continue }
            let name = first.trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
            pods[name] = (args.count > 1 ? args[1] : "any version", nil)
        }
        return pods
    }

    /// `platform :ios, '15.0'` → `ios 15.0`.
    static func podPlatform(_ text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) {
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("platform ") else { continue }
            return t.dropFirst(9).replacingOccurrences(of: ":", with: "").replacingOccurrences(of: "'", with: "")
                .replacingOccurrences(of: "\"", with: "").replacingOccurrences(of: ",", with: "")
        }
        return nil
    }

    /// The top-level entries of `PODS:` (`  - Alamofire (5.9.1)`) and `COCOAPODS: 1.15.2`.
    static func podLock(_ text: String?) -> [String: (String, String?)] {
        var pods: [String: (String, String?)] = [:]
        var inPods = false
        for line in (text ?? "").split(whereSeparator: \.isNewline) {
            if !line.hasPrefix(" ") {
                inPods = line == "PODS:"
                if line.hasPrefix("COCOAPODS: ") { pods["COCOAPODS"] = (String(line.dropFirst(11)), nil) }
                continue
            }
            guard inPods, line.hasPrefix("  - "), let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")"), open < close else { continue }
            let name = line[line.index(line.startIndex, offsetBy: 4)..<open].trimmingCharacters(in: CharacterSet(charactersIn: " \""))
            pods[name] = (String(line[line.index(after: open)..<close]), nil)
        }
        return pods
    }

    /// `github "Alamofire/Alamofire" "5.9.1"` → Alamofire/Alamofire: 5.9.1.
    static func cartfile(_ text: String?) -> [String: (String, String?)] {
        var deps: [String: (String, String?)] = [:]
        for line in (text ?? "").split(whereSeparator: \.isNewline) {
            let quoted = line.split(separator: "\"", omittingEmptySubsequences: false)
            guard quoted.count >= 5 else { continue }
            deps[String(quoted[1])] = (String(quoted[3]), line.split(separator: " ").first.map(String.init))
        }
        return deps
    }

    // MARK: - CI files

    /// `runs-on: macos-14` (also `runs-on: [self-hosted, macos]`), Bitrise `stack:`, CircleCI `xcode:` under `macos:`.
    static func runners(_ text: String?, path: String) -> [String] {
        var found: [String] = []
        for line in (text ?? "").split(whereSeparator: \.isNewline) {
            let t = line.trimmingCharacters(in: .whitespaces)
            for key in ["runs-on:", "stack:", "image:"] where t.hasPrefix(key) {
                let value = t.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
                    .trimmingCharacters(in: CharacterSet(charactersIn: "[]'\"")).replacingOccurrences(of: "\"", with: "")
                if !value.isEmpty, !found.contains(value) { found.append(value) }
            }
        }
        return found
    }

    /// Xcode versions a CI file selects: `/Applications/Xcode_16.2.app`, `xcode-version: '16.2'`,
    /// `xcode: "15.4.0"`, `xcodes select 16.2`.
    static func xcodes(_ text: String?) -> [String] {
        guard let text else { return [] }
        let patterns = [
            #"Xcode[_-]?([0-9]+(?:\.[0-9]+)*(?:[-_][A-Za-z0-9.]+)?)\.app"#,
            #"xcode-version:\s*['"]?([^'"\s#]+)"#,
            #"(?m)^\s*xcode:\s*['"]?([^'"\s#]+)"#,
            #"xcodes\s+select\s+['"]?([^'"\s]+)"#,
        ]
        var found: [String] = []
        for pattern in patterns {
            guard let regex = try? NSRegularExpression(pattern: pattern) else { continue }
            let ns = text as NSString
            for m in regex.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                let v = ns.substring(with: m.range(at: 1))
                if !found.contains(v) { found.append(v) }
            }
        }
        return found
    }
}

/// The parts of a Swift package manifest a broken build cares about, read from its text: each
/// `.package(...)` with its requirement, and `platforms: [...]`. Comments are left out; the manifest
/// is not run.
struct SwiftManifest {
    /// identity (the URL's or path's last component without `.git`, or the registry id) → (requirement, location)
    var dependencies: [String: (String, String?)] = [:]
    /// `iOS 15, macOS 12`
    var platforms: String?

    init(_ text: String) {
        let code = SwiftManifest.withoutComments(text)
        var search = code.startIndex
        while let r = code.range(of: ".package(", range: search..<code.endIndex) {
            guard let (inside, end) = SwiftManifest.balanced(code, from: r.upperBound) else { break }
            search = end
            let args = SwiftManifest.arguments(inside)
            var location: String?
            var requirement: [String] = []
            var name: String?
            for arg in args {
                let t = arg.trimmingCharacters(in: .whitespacesAndNewlines)
                if let v = SwiftManifest.labelled(t, "url") ?? SwiftManifest.labelled(t, "path") ?? SwiftManifest.labelled(t, "id") {
                    location = v
                    if t.hasPrefix("path") { requirement.append("local path") }
                } else if let v = SwiftManifest.labelled(t, "name") {
                    name = v
                } else {
                    requirement.append(t.split(whereSeparator: \.isWhitespace).joined(separator: " "))
                }
            }
            guard let location else { continue }
            var identity = (location as NSString).lastPathComponent
            if identity.hasSuffix(".git") { identity = String(identity.dropLast(4)) }
            if location.contains("."), !location.contains("/") { identity = location } // registry id scope.name
            _ = name
            dependencies[identity.lowercased()] = (requirement.isEmpty ? "any" : requirement.joined(separator: ", "), location)
        }
        if let r = code.range(of: "platforms:"), let open = code[r.upperBound...].firstIndex(of: "["),
           let (inside, _) = SwiftManifest.balanced(code, from: code.index(after: open), open: "[", close: "]") {
            let list = SwiftManifest.arguments(inside).compactMap { SwiftManifest.platform($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            platforms = list.isEmpty ? nil : list.joined(separator: ", ")
        }
    }

    /// `.iOS(.v15)` → `iOS 15`, `.macOS("12.0")` → `macOS 12.0`, `.macOS(.v10_15)` → `macOS 10.15`.
    static func platform(_ text: String) -> String? {
        guard text.hasPrefix("."), let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return nil }
        let name = text[text.index(after: text.startIndex)..<open]
        var version = text[text.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
        if version.hasPrefix(".v") { version = String(version.dropFirst(2)).replacingOccurrences(of: "_", with: ".") }
        version = version.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        return "\(name) \(version)"
    }

    /// `url: "https://…"` → the string, when `text` is that label's argument.
    static func labelled(_ text: String, _ label: String) -> String? {
        guard text.hasPrefix(label) else { return nil }
        let rest = text.dropFirst(label.count).drop { $0 == " " }
        guard rest.first == ":" else { return nil }
        let value = rest.dropFirst().trimmingCharacters(in: .whitespacesAndNewlines)
        guard value.hasPrefix("\""), value.count >= 2, value.hasSuffix("\"") else { return nil }
        return String(value.dropFirst().dropLast())
    }

    /// The text up to the bracket that closes the one just before `start`, skipping string literals.
    static func balanced(_ s: String, from start: String.Index, open: Character = "(", close: Character = ")") -> (String, String.Index)? {
        var depth = 1
        var i = start
        var inString = false
        while i < s.endIndex {
            let c = s[i]
            if inString {
                if c == "\\" { i = s.index(after: i) } else if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == open || (open == "(" && c == "[") || (open == "[" && c == "(") {
                depth += 1
            } else if c == close || (close == ")" && c == "]") || (close == "]" && c == ")") {
                depth -= 1
                if depth == 0 { return (String(s[start..<i]), s.index(after: i)) }
            }
            if i < s.endIndex { i = s.index(after: i) }
        }
        return nil
    }

    /// Splits at the top-level commas (not inside brackets or strings).
    static func arguments(_ s: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var inString = false
        var escaped = false
        for c in s {
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            } else if c == "\"" { inString = true
            } else if "([".contains(c) { depth += 1
            } else if ")]".contains(c) { depth -= 1
            } else if c == ",", depth == 0 {
                parts.append(current)
                current = ""
                continue
            }
            current.append(c)
        }
        if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { parts.append(current) }
        return parts
    }

    /// Drops `// …` and `/* … */` outside string literals (a URL's `//` stays).
    static func withoutComments(_ s: String) -> String {
        var out = ""
        var chars = Array(s)[...]
        var inString = false
        while let c = chars.first {
            if inString {
                out.append(c)
                chars = chars.dropFirst()
                if c == "\\", let next = chars.first { out.append(next); chars = chars.dropFirst() } else if c == "\"" { inString = false }
                continue
            }
            if c == "\"" { inString = true; out.append(c); chars = chars.dropFirst(); continue }
            if c == "/", chars.dropFirst().first == "/" {
                while let d = chars.first, d != "\n" { chars = chars.dropFirst() }
                continue
            }
            if c == "/", chars.dropFirst().first == "*" {
                chars = chars.dropFirst(2)
                while !chars.isEmpty, !(chars.first == "*" && chars.dropFirst().first == "/") { chars = chars.dropFirst() }
                chars = chars.dropFirst(2)
                continue
            }
            out.append(c)
            chars = chars.dropFirst()
        }
        return out
    }
}
