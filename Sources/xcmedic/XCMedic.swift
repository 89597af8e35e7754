import ArgumentParser
import Foundation
import XCMedicKit

@main
struct XCMedic: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xcmedic",
        abstract: "Gets red iOS and Xcode CI builds green again.",
        discussion: """
        Reads build logs from xcodebuild, xcbeautify, xcpretty, fastlane, swift build/test, GitHub Actions and \
        Xcode Cloud, names each known failure with its root cause and a fix, and never hides an error it does not know.
        """,
        version: "0.1.0",
        subcommands: [Scan.self, Rules.self, Explain.self, CIScriptsCommand.self, FlagsCommand.self,
                      Bisect.self, BisectStep.self, Diff.self, MarkGood.self, History.self, Decode.self, Manual.self],
        defaultSubcommand: nil
    )

    /// Usage and input errors exit 2 with one line on stderr; findings exit 1.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, !first.hasPrefix("-"), !subcommandNames.contains(first) {
            let hint = Catalog.nearest(to: first, in: visibleSubcommandNames).map { "; did you mean '\($0)'?" } ?? ""
            fail("unknown command '\(first)'\(hint) (commands: \(visibleSubcommandNames.joined(separator: ", ")))")
        }
        if arguments.first == "history" || arguments.prefix(2) == ["help", "history"] {
            History.handOver(arguments.first == "help" ? ["help"] + arguments.dropFirst(2) : Array(arguments.dropFirst()))
        }
        do {
            var command = try parseAsRoot(Scan.normaliseRecordArgument(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue)
        } catch let error as InputError {
            fail(error.description)
        } catch let error as RuleFileError {
            fail(error.description)
        } catch let error as CLIError {
            fail(error.message)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            let message = CommandLineText.oneLine(self.message(for: error))
            if !message.isEmpty { fail(message, hint: true) }
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }

    static var subcommandNames: [String] {
        configuration.subcommands.map { $0._commandName } + ["help"]
    }

    static var visibleSubcommandNames: [String] {
        configuration.subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName }
    }

    static func fail(_ message: String, hint: Bool = false) -> Never {
        var line = "xcmedic: \(message)"
        if hint { line += " (see 'xcmedic --help')" }
        FileHandle.standardError.write(Data((line + "\n").utf8))
        Foundation.exit(2)
    }
}

/// A user error the CLI reports on one line with exit code 2.
struct CLIError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
