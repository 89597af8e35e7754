import ArgumentParser
import Foundation
import XCMedicKit

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "What changed between two revisions: commits, files by area, dependency pins, toolchain and CI.",
        discussion: "With --from last-good, the range starts at refs/xcmedic/last-good (see 'xcmedic mark-good')."
    )

    @Option(help: "The older revision ('last-good' reads refs/xcmedic/last-good).")
    var from: String = LastGood.name

    @Option(help: "The newer revision.")
    var to: String = "HEAD"

    @Option(help: "Output format: text or json.")
    var format: BisectFormat = .text

    func run() throws {
        let git = Git(directory: FileManager.default.currentDirectoryPath)
        guard git.isWorkTree else { throw CLIError("\(FileManager.default.currentDirectoryPath) is not inside a git work tree") }
        do {
            let fromCommit = try LastGood.resolve(from, git: git)
            let toCommit = try LastGood.resolve(to, git: git)
            let summary = try ChangeSummary.between(fromCommit, and: toCommit, git: git)
            let text = format == .json ? summary.renderJSON() : summary.renderText()
            FileHandle.standardOutput.write(Data(text.utf8))
        } catch let error as BisectError {
            throw CLIError(error.description)
        } catch let error as GitError {
            throw CLIError(error.description)
        }
    }
}
