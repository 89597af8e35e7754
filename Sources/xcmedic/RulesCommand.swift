import ArgumentParser
import Foundation
import XCMedicKit

enum ListFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json
}

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the rules xcmedic knows or their categories, print the prefilter literals, or check a rules file."
    )

    @Option(help: "text or json.")
    var format: ListFormat = .text

    @Flag(help: "Print the literal texts the prefilter looks for, one per line.")
    var literals = false

    @Flag(help: "List the known categories, each with a one-line description.")
    var categories = false

    @Option(name: .customLong("check"), help: "Validate a YAML rules file and run its examples.")
    var checkFile: String?

    @Option(name: .customLong("rules"), help: "A YAML rules file to add (repeatable).")
    var ruleFiles: [String] = []

    @Flag(name: .customLong("no-config"), help: "Do not read .xcmedic.yml from the repository root.")
    var noConfig = false

    func run() throws {
        if let checkFile {
            let rules = try RuleLoader.load(file: checkFile)
            for warning in try FindingCategory.warnings(for: rules) { print("\(checkFile): warning: \(warning)") }
            // The examples run as a scan would run them: the file's rules first, then the built-in ones they do
            // not replace (a code frame's message reaches a rule through the catch-all that reads its location).
            let catalog = try RuleSet(rules: try Catalog.rules(userFiles: [checkFile], autoConfig: false))
            let failures = RuleExamples.check(rules, catalog: catalog)
            for failure in failures { print(TerminalSafe.visible("\(checkFile): \(failure)")) }
            if !failures.isEmpty { throw ExitCode(1) }
            print("\(checkFile): \(rules.count) rule\(rules.count == 1 ? "" : "s"), \(rules.reduce(0) { $0 + $1.matches.count + $1.nonMatches.count }) examples, all pass")
            return
        }
        if categories {
            print(try CategoryDocument.render(FindingCategory.known(), format: format), terminator: "")
            return
        }
        let rules = try Catalog.rules(userFiles: ruleFiles, autoConfig: !noConfig)
        if literals {
            for literal in try RuleSet(rules: rules).literals { print(literal) }
            return
        }
        switch format {
        case .json: print(TerminalSafe.escapeJSONControls(RuleDocument.json(rules)), terminator: "")
        case .text: print(TerminalSafe.visible(RuleDocument.table(rules, width: TerminalText.width())), terminator: "")
        }
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print one rule in full: what it matches, why it happens, how to fix it.")

    @Argument(help: "The rule id, as 'xcmedic rules' lists it.", completion: .custom { _, _, prefix in Explain.ruleIDs(startingWith: prefix) })
    var id: String

    /// Shell completion of `explain`: the built-in rule ids and those of the repository's .xcmedic.yml.
    static func ruleIDs(startingWith prefix: String) -> [String] {
        let rules = (try? Catalog.rules(userFiles: [])) ?? []
        return rules.map(\.id).filter { $0.hasPrefix(prefix) }
    }

    @Option(name: .customLong("rules"), help: "A YAML rules file to add (repeatable).")
    var ruleFiles: [String] = []

    func run() throws {
        let rules = try Catalog.rules(userFiles: ruleFiles)
        guard let rule = rules.first(where: { $0.id == id }) else {
            let hint = Catalog.nearestID(to: id, in: rules).map { "; did you mean '\($0)'?" } ?? "; 'xcmedic rules' lists them"
            throw CLIError("no rule '\(id)'\(hint)")
        }
        print(TerminalSafe.visible(RuleDocument.explain(rule, width: TerminalText.width())), terminator: "") // a rules file's texts may carry escapes
    }
}

/// `xcmedic rules --categories`.
enum CategoryDocument {
    static func render(_ categories: [(name: String, description: String)], format: ListFormat) -> String {
        switch format {
        case .json:
            struct Entry: Encodable { var name: String; var description: String }
            struct Doc: Encodable { var version: Int; var count: Int; var categories: [Entry] }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let doc = Doc(version: 1, count: categories.count, categories: categories.map { Entry(name: $0.name, description: $0.description) })
            return String(decoding: (try? encoder.encode(doc)) ?? Data(), as: UTF8.self) + "\n"
        case .text:
            let width = categories.map(\.name.count).max() ?? 0
            return categories.map { $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.description + "\n" }.joined()
                + "\(categories.count) categories\n"
        }
    }
}
