import ArgumentParser
import Foundation
import XCMedicKit

enum ListFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json
}

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the rules xcmedic knows, print the prefilter literals, or check a rules file."
    )

    @Option(help: "text or json.")
    var format: ListFormat = .text

    @Flag(help: "Print the literal texts the prefilter looks for, one per line.")
    var literals = false

    @Option(name: .customLong("check"), help: "Validate a YAML rules file and run its examples.")
    var checkFile: String?

    @Option(name: .customLong("rules"), help: "A YAML rules file to add (repeatable).")
    var ruleFiles: [String] = []

    @Flag(name: .customLong("no-config"), help: "Do not read .xcmedic.yml from the repository root.")
    var noConfig = false

    func run() throws {
        if let checkFile {
            let rules = try RuleLoader.load(file: checkFile)
            let failures = RuleExamples.check(rules)
            for failure in failures { print("\(checkFile): \(failure)") }
            if !failures.isEmpty { throw ExitCode(1) }
            print("\(checkFile): \(rules.count) rule\(rules.count == 1 ? "" : "s"), \(rules.reduce(0) { $0 + $1.matches.count + $1.nonMatches.count }) examples, all pass")
            return
        }
        let rules = try Catalog.rules(userFiles: ruleFiles, autoConfig: !noConfig)
        if literals {
            for literal in try RuleSet(rules: rules).literals { print(literal) }
            return
        }
        switch format {
        case .json: print(RuleDocument.json(rules), terminator: "")
        case .text: print(RuleDocument.table(rules), terminator: "")
        }
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print one rule in full: what it matches, why it happens, how to fix it.")

    @Argument(help: "The rule id, as 'xcmedic rules' lists it.")
    var id: String

    @Option(name: .customLong("rules"), help: "A YAML rules file to add (repeatable).")
    var ruleFiles: [String] = []

    func run() throws {
        let rules = try Catalog.rules(userFiles: ruleFiles)
        guard let rule = rules.first(where: { $0.id == id }) else {
            let hint = Catalog.nearestID(to: id, in: rules).map { "; did you mean '\($0)'?" } ?? "; 'xcmedic rules' lists them"
            throw CLIError("no rule '\(id)'\(hint)")
        }
        print(RuleDocument.explain(rule), terminator: "")
    }
}
