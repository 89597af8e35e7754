import ArgumentParser
import Foundation
import XCMedicKit

/// Prints the text `scan` reads from each input: an activity log decoded, a .gz decompressed.
/// Hidden: for looking at what xcmedic sees and for Benchmarks/slf.sh.
struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the text xcmedic scans from each log (an .xcactivitylog decoded, a .gz decompressed).",
        shouldDisplay: false
    )

    @Argument(help: "Log files or folders ('-' for standard input).")
    var paths: [String] = []

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 8)
        defer { buffer.deallocate() }
        for path in try LogInput.expand(paths.isEmpty ? ["-"] : paths) {
            let source = try LogInput.open(path)
            while true {
                let n = try source.read(into: buffer, count: 1 << 20)
                if n == 0 { break }
                switch FDWriter.writeAll(1, UnsafeRawBufferPointer(start: buffer, count: n)) {
                case .ok: continue
                case .closed: throw ExitCode(Scan.brokenPipeStatus)
                case .failed(let error): throw CLIError("cannot write standard output: \(error)")
                }
            }
        }
    }
}
