import ArgumentParser
import Foundation
import XCMedicKit

extension ReportFormat: ExpressibleByArgument {}
extension FailThreshold: ExpressibleByArgument {}

enum ColorChoice: String, CaseIterable, ExpressibleByArgument {
    case auto, always, never
}

struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Diagnose a build log: name each failure, its root cause and the fix.",
        discussion: """
        Reads each PATH in turn (plain text or .gz); with no PATH, or '-', reads standard input. \
        Exit status: 0 when no finding reaches --fail-on, 1 when one does, 2 on a usage or input error.
        """
    )

    @Argument(help: "Log files to scan ('-' for standard input).")
    var paths: [String] = []

    @Option(help: "Output format: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: ReportFormat = .auto

    @Option(name: .customLong("fail-on"), help: "Lowest severity that makes the exit status 1: error, warning or never.")
    var failOn: FailThreshold = .error

    @Option(name: .customLong("rules"), help: "A YAML rules file to add (repeatable); its rules win over built-in ones with the same id.")
    var ruleFiles: [String] = []

    @Flag(name: .customLong("no-config"), help: "Do not read .xcmedic.yml from the repository root.")
    var noConfig = false

    @Option(help: "Colour: auto (only on a terminal, and not with NO_COLOR), always or never.")
    var color: ColorChoice = .auto

    @Flag(name: .customLong("no-redact"), help: "Show secrets (tokens, passwords, keys) in the report instead of [REDACTED].")
    var noRedact = false

    func run() throws {
        let rules = try Catalog.rules(userFiles: ruleFiles, autoConfig: !noConfig)
        let scanner = Scanner(ruleSet: try RuleSet(rules: rules))
        for path in paths.isEmpty ? ["-"] : paths {
            try scanner.scan(path: path)
        }
        let diagnosis = scanner.finish()
        let useColor: Bool
        switch color {
        case .always: useColor = true
        case .never: useColor = false
        case .auto: useColor = isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
        }
        let text = Report.render(diagnosis, format: format, color: useColor, redactor: noRedact ? .off : .standard)
        FileHandle.standardOutput.write(Data(text.utf8))
        if failOn.isMet(by: diagnosis) { throw ExitCode(1) }
    }
}
