import ArgumentParser
import Foundation
import XCMedicKit

/// `xcmedic history …` is `xcmedic-history …`: the history store (SQLite, PostgreSQL, SwiftNIO) lives in
/// that executable, so this one links none of it and a scan pays nothing for it. `XCMedic.main` hands
/// over before parsing; this command is here for `--help` and shell completion.
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        // Named here: a name derived from the type costs every xcmedic start a conformance scan (~1.1 M instructions).
        commandName: "history",
        abstract: HistoryTool.abstract,
        discussion: HistoryTool.storeHelp + """
         Subcommands: top, new, flaky, show, prune ('xcmedic history --help'; docs/history.md). Runs xcmedic-history, \
        installed with xcmedic ($XCMEDIC_HISTORY_TOOL, else beside this executable, else on PATH).
        """
    )

    @Argument(parsing: .captureForPassthrough, help: "The subcommand and its options.")
    var arguments: [String] = []

    func run() throws {
        History.handOver(arguments)
    }

    /// Becomes `xcmedic-history ARGUMENTS`; when it cannot be found or started, one line and exit 2.
    static func handOver(_ arguments: [String]) -> Never {
        XCMedic.fail("history: \(HistoryTool.replaceProcess(arguments: arguments))")
    }
}
