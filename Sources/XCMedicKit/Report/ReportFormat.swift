import Foundation

/// Output formats of `scan`.
public enum ReportFormat: String, CaseIterable, Sendable {
    /// Text on a terminal; chosen from the environment otherwise.
    case auto
    case text
    case json

    /// The concrete format `auto` stands for in this environment.
    public func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) -> ReportFormat {
        guard self == .auto else { return self }
        return .text
    }
}

/// When a scan exits 1.
public enum FailThreshold: String, CaseIterable, Sendable {
    case error, warning, never

    public func isMet(by diagnosis: Diagnosis) -> Bool {
        switch self {
        case .never: return false
        case .warning: return diagnosis.findings.contains { $0.severity >= .warning }
        case .error: return diagnosis.findings.contains { $0.severity >= .error }
        }
    }
}

public enum Report {
    public static func render(_ diagnosis: Diagnosis, format: ReportFormat, color: Bool, redactor: Redactor) -> String {
        switch format.resolved() {
        case .json: return JSONReport.render(diagnosis, redactor: redactor)
        case .text, .auto: return TerminalReport(color: color, redactor: redactor).render(diagnosis)
        }
    }
}
