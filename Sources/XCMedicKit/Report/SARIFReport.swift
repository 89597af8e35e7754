import Foundation

/// `--format sarif`: SARIF 2.1.0 (OASIS) for code scanning, e.g. GitHub's `upload-sarif`.
///
/// One run; `tool.driver.rules` holds one reportingDescriptor per rule the findings use (title,
/// explanation, fixes as help text, first documentation link as `helpUri`), and each finding is a
/// result pointing at its rule by id and index. A result whose log line names a file gets a physical
/// location: the path relative to the workspace root (with `uriBaseId` `%SRCROOT%`) when it lies
/// under it, else an absolute `file://` URI; line and column when the log gives them. A result whose
/// line names no file points at its line in the log (`stdin` for standard input).
public struct SARIFReport: Sendable {
    public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    public static let sourceRootID = "%SRCROOT%"

    public var redactor: Redactor
    public var workspaceRoot: String?
    public var toolVersion: String
    /// Where the tool is described; omitted when unset (the project has no published home yet).
    public var informationURI: String?

    public init(redactor: Redactor = .standard, workspaceRoot: String? = nil, toolVersion: String = ToolInfo.version,
                informationURI: String? = nil) {
        self.redactor = redactor
        self.workspaceRoot = workspaceRoot
        self.toolVersion = toolVersion
        self.informationURI = informationURI
    }

    // MARK: SARIF objects (the subset xcmedic writes; property names as in the specification)

    struct Log: Encodable {
        var schema = SARIFReport.schemaURI
        var version = "2.1.0"
        var runs: [Run]
        enum CodingKeys: String, CodingKey { case schema = "$schema", version, runs }
    }

    struct Run: Encodable {
        var tool: Tool
        var originalUriBaseIds: [String: ArtifactLocation]?
        var results: [Result]
        var columnKind = "unicodeCodePoints"
        /// With `scan --record`: the recorded build and the tests that failed earlier on its commit.
        var properties: RunProperties?
    }

    struct RunProperties: Encodable { var history: BuildHistory }

    /// With `scan --record`: what the store knows about the result's cause (first seen, recent builds, new, flaky),
    /// and the same as the one line the other formats print.
    struct ResultProperties: Encodable {
        var history: CauseHistory
        var historySummary: String
    }

    struct Tool: Encodable { var driver: Driver }

    struct Driver: Encodable {
        var name: String
        var informationUri: String?
        var version: String
        var semanticVersion: String?
        var rules: [ReportingDescriptor]
    }

    struct Message: Encodable {
        var text: String
        var markdown: String?
    }

    struct ReportingDescriptor: Encodable {
        var id: String
        var name: String?
        var shortDescription: Message
        var fullDescription: Message
        var help: Message
        var helpUri: String?
        var defaultConfiguration: Configuration
        var properties: Properties
    }

    struct Configuration: Encodable { var level: String }

    struct Properties: Encodable {
        var category: String
        var tags: [String]
    }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Message
        var locations: [Location]?
        var occurrenceCount: Int?
        var partialFingerprints: [String: String]
        var properties: ResultProperties?
    }

    struct Location: Encodable { var physicalLocation: PhysicalLocation }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region?
    }

    struct ArtifactLocation: Encodable {
        var uri: String
        var uriBaseId: String?
    }

    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int?
    }

    // MARK: Rendering

    public func render(_ input: Diagnosis) -> String {
        let context = ReportContext(input, redactor: redactor, workspaceRoot: workspaceRoot, toolVersion: toolVersion, controls: .escapedByFormat)
        let diagnosis = context.diagnosis
        var rules: [ReportingDescriptor] = []
        var ruleIndex: [String: Int] = [:]
        var results: [Result] = []
        var usesSourceRoot = false

        // One result per distinct finding and place (`ReportContext.annotated`).
        for f in context.annotated {
            let index: Int
            if let known = ruleIndex[f.rule] {
                index = known
            } else {
                index = rules.count
                ruleIndex[f.rule] = index
                rules.append(descriptor(f))
            }
            var location: Location?
            if let loc = f.location, let artifact = artifactLocation(loc.file) {
                let region = loc.line.flatMap { $0 > 0 ? Region(startLine: $0, startColumn: loc.column.flatMap { $0 > 0 ? $0 : nil }) : nil }
                location = Location(physicalLocation: PhysicalLocation(artifactLocation: artifact, region: region))
            } else if let first = f.occurrences.first {
                // No source file: the evidence is the log line. GitHub code scanning rejects a whole file
                // when one result has no location (github/codeql-action#1738), so the log stands in.
                let path = diagnosis.inputs.indices.contains(first.input) ? diagnosis.inputs[first.input].path : "-"
                let artifact = path == "-" ? ArtifactLocation(uri: "stdin", uriBaseId: nil) : artifactLocation(path)
                location = artifact.map {
                    Location(physicalLocation: PhysicalLocation(artifactLocation: $0, region: first.line > 0 ? Region(startLine: first.line) : nil))
                }
            }
            if let base = location?.physicalLocation.artifactLocation.uriBaseId, base == SARIFReport.sourceRootID { usesSourceRoot = true }
            let locations = location.map { [$0] }
            let message = f.message
            results.append(Result(
                ruleId: f.rule,
                ruleIndex: index,
                level: SARIFReport.level(f.severity),
                message: Message(text: message.isEmpty ? f.title : message),
                locations: locations,
                occurrenceCount: f.count > 1 ? f.count : nil,
                // Code scanning matches a result across runs by this; the rule and message identify a
                // finding, its file and line are in the location.
                partialFingerprints: ["xcmedicFinding/v1": SARIFReport.fingerprint(f.rule + "\u{0}" + message)],
                properties: f.history.map { ResultProperties(history: $0, historySummary: $0.text) }
            ))
        }
        var baseIDs: [String: ArtifactLocation]?
        if usesSourceRoot, let root = workspaceRoot {
            baseIDs = [SARIFReport.sourceRootID: ArtifactLocation(uri: URL(fileURLWithPath: root, isDirectory: true).absoluteString, uriBaseId: nil)]
        }
        let log = Log(runs: [Run(
            tool: Tool(driver: Driver(name: ToolInfo.name, informationUri: informationURI, version: toolVersion,
                                      semanticVersion: SARIFReport.isSemanticVersion(toolVersion) ? toolVersion : nil, rules: rules)),
            originalUriBaseIds: baseIDs,
            results: results,
            properties: diagnosis.history.map { RunProperties(history: $0) }
        )])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = (try? encoder.encode(log)) ?? Data("{}".utf8)
        return TerminalSafe.escapeJSONControls(String(decoding: data, as: UTF8.self)) + "\n"
    }

    private func descriptor(_ f: Finding) -> ReportingDescriptor {
        var help = [f.explanation]
        var markdown = [f.explanation]
        for fix in f.fixes {
            let summary = fix.summary
            help.append("Fix: \(summary)")
            markdown.append("**Fix**: \(Markdown.escape(summary))")
            if !fix.commands.isEmpty {
                let commands = fix.commands
                help.append(contentsOf: commands.map { "  $ \($0)" })
                markdown.append(Markdown.fence(commands.joined(separator: "\n"), info: "sh"))
            }
            if let snippet = fix.snippet {
                help.append(snippet)
                markdown.append(Markdown.fence(snippet, info: ""))
            }
            if let docs = fix.docs {
                help.append("  \(docs)")
                markdown.append("<\(Markdown.escapeURL(docs))>")
            }
        }
        let helpURI = (f.docs + f.fixes.compactMap(\.docs)).first { SARIFReport.isAbsoluteURI($0) }
        return ReportingDescriptor(
            id: f.rule,
            name: SARIFReport.pascalCase(f.rule),
            shortDescription: Message(text: f.title),
            fullDescription: Message(text: f.explanation),
            help: Message(text: help.joined(separator: "\n"), markdown: markdown.joined(separator: "\n\n")),
            helpUri: helpURI,
            defaultConfiguration: Configuration(level: SARIFReport.level(f.severity)),
            properties: Properties(category: f.category, tags: [f.category, f.role.rawValue])
        )
    }

    /// A log's file path as a SARIF artifact location.
    func artifactLocation(_ path: String) -> ArtifactLocation? {
        guard !path.isEmpty else { return nil }
        let relative = relativePath(path, to: workspaceRoot)
        if relative != path || !path.hasPrefix("/") {
            // A relative path: a URI reference resolved against the source root.
            guard let encoded = relative.addingPercentEncoding(withAllowedCharacters: SARIFReport.pathAllowed) else { return nil }
            return ArtifactLocation(uri: encoded, uriBaseId: SARIFReport.sourceRootID)
        }
        return ArtifactLocation(uri: URL(fileURLWithPath: path).absoluteString, uriBaseId: nil)
    }

    /// RFC 3986 path characters (`pchar` and `/`), minus `:` so a first segment never reads as a scheme.
    static let pathAllowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=@/")

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    static func isAbsoluteURI(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else { return false }
        return true
    }

    static func isSemanticVersion(_ v: String) -> Bool {
        v.range(of: #"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$"#, options: .regularExpression) != nil
    }

    /// `macro-not-trusted` → `MacroNotTrusted` (SARIF's `name` is an identifier-like rule name).
    static func pascalCase(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// FNV-1a 64-bit, hex: stable across runs and platforms (Swift's `Hasher` is seeded per process).
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
