import ArgumentParser
import Foundation
import XCMedicKit

struct MarkGood: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark-good",
        abstract: "Record a green revision in refs/xcmedic/last-good (for 'bisect --good last-good' and 'diff').",
        discussion: """
        Run it in CI after a green build, then push the ref: git push origin +refs/xcmedic/last-good:refs/xcmedic/last-good. \
        Developers fetch it with: git fetch origin '+refs/xcmedic/last-good:refs/xcmedic/last-good'.
        """
    )

    @Argument(help: "The revision that built green.")
    var revision: String = "HEAD"

    func run() throws {
        let git = Git(directory: FileManager.default.currentDirectoryPath)
        guard git.isWorkTree else { throw CLIError("\(FileManager.default.currentDirectoryPath) is not inside a git work tree") }
        do {
            let previous = git.commit(LastGood.ref)
            let commit = try LastGood.mark(revision, git: git)
            let info = try git.commitInfo(commit)
            var text = "\(LastGood.ref) → \(info.short) \(info.subject)"
            if let previous, previous != commit { text += " (was \(previous.prefix(10)))" }
            print(text)
        } catch let error as BisectError {
            throw CLIError(error.description)
        } catch let error as GitError {
            throw CLIError(error.description)
        }
    }
}
