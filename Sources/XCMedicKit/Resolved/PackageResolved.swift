import Foundation

/// One dependency pin of a Package.resolved.
public struct PackagePin: Sendable, Equatable, Hashable {
    /// SwiftPM's package identity (`swift-case-paths`): the key of macros.json/plugins.json entries.
    public var identity: String
    public var location: String
    /// `remoteSourceControl`, `localSourceControl`, `registry` (v2/v3); nil for v1 files.
    public var kind: String?
    public var version: String?
    public var revision: String?
    public var branch: String?

    public init(identity: String, location: String, kind: String? = nil, version: String? = nil, revision: String? = nil, branch: String? = nil) {
        self.identity = identity
        self.location = location
        self.kind = kind
        self.version = version
        self.revision = revision
        self.branch = branch
    }

    /// `1.2.3`, `main@abc1234` or `abc1234`: how a person names what is pinned.
    public var stateDescription: String {
        if let version { return version }
        let short = revision.map { String($0.prefix(12)) }
        if let branch { return short.map { "\(branch)@\($0)" } ?? branch }
        return short ?? "(unpinned)"
    }
}

/// A SwiftPM / Xcode Package.resolved, format 1, 2 or 3.
public struct PackageResolved: Sendable, Equatable {
    public var formatVersion: Int
    /// v3 only: hash of the manifests' dependency requirements.
    public var originHash: String?
    public var pins: [PackagePin]

    public init(formatVersion: Int, originHash: String? = nil, pins: [PackagePin]) {
        self.formatVersion = formatVersion
        self.originHash = originHash
        self.pins = pins
    }

    public func pin(identity: String) -> PackagePin? {
        let wanted = identity.lowercased()
        return pins.first { $0.identity.lowercased() == wanted }
    }

    public static func load(path: String) throws -> PackageResolved {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(path: path, problem: FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")
        }
        return try parse(data, path: path)
    }

    /// Reads formats 1 (`object.pins[].package/repositoryURL`), 2 and 3 (`pins[].identity/location/kind`).
    public static func parse(_ data: Data, path: String = "Package.resolved") throws -> PackageResolved {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw InputError(path: path, problem: "is not a Package.resolved (not a JSON object)")
        }
        guard let version = root["version"] as? Int else {
            throw InputError(path: path, problem: "is not a Package.resolved (no \"version\")")
        }
        switch version {
        case 1:
            guard let object = root["object"] as? [String: Any], let pins = object["pins"] as? [[String: Any]] else {
                throw InputError(path: path, problem: "format 1 without object.pins")
            }
            return PackageResolved(formatVersion: 1, pins: try pins.map { entry in
                guard let url = entry["repositoryURL"] as? String else {
                    throw InputError(path: path, problem: "a format-1 pin has no repositoryURL")
                }
                let state = entry["state"] as? [String: Any] ?? [:]
                return PackagePin(identity: identity(fromLocation: url), location: url, kind: nil,
                                  version: state["version"] as? String, revision: state["revision"] as? String,
                                  branch: state["branch"] as? String)
            })
        case 2, 3:
            guard let pins = root["pins"] as? [[String: Any]] else {
                throw InputError(path: path, problem: "format \(version) without pins")
            }
            return PackageResolved(formatVersion: version, originHash: root["originHash"] as? String, pins: try pins.map { entry in
                guard let identity = entry["identity"] as? String else {
                    throw InputError(path: path, problem: "a format-\(version) pin has no identity")
                }
                let state = entry["state"] as? [String: Any] ?? [:]
                return PackagePin(identity: identity, location: entry["location"] as? String ?? "", kind: entry["kind"] as? String,
                                  version: state["version"] as? String, revision: state["revision"] as? String,
                                  branch: state["branch"] as? String)
            })
        default:
            throw InputError(path: path, problem: "Package.resolved format \(version) is not supported (1, 2 and 3 are)")
        }
    }

    /// SwiftPM's identity for a source-control location: the last path component, lowercased, without `.git`.
    public static func identity(fromLocation location: String) -> String {
        var name = location
        while name.hasSuffix("/") { name.removeLast() }
        name = String(name.split(whereSeparator: { $0 == "/" || $0 == ":" }).last ?? Substring(name))
        if name.hasSuffix(".git") { name.removeLast(4) }
        return name.lowercased()
    }
}
