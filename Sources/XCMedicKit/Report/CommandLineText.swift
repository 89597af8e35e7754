import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered, complete writes to a file descriptor, telling a closed reader apart from other errors.
public enum FDWriter {
    public enum Outcome: Sendable {
        case ok
        /// The reading end is gone (EPIPE).
        case closed
        case failed(String)
    }

    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Outcome {
        guard var p = bytes.baseAddress else { return .ok }
        var remaining = bytes.count
        while remaining > 0 {
            let n = write(fd, p, remaining)
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                if errno == EPIPE { return .closed }
                return .failed(String(cString: strerror(errno)))
            }
            p += n
            remaining -= n
        }
        return .ok
    }
}

/// What the command-line front ends (`xcmedic`, `xcmedic-history`) print the same way.
public enum CommandLineText {
    /// Exit status when the reader of standard output goes away (`| head`): what a shell reports for a
    /// process SIGPIPE ended (128 + 13), as `tee` and `cat` give.
    public static let brokenPipeStatus: Int32 = 141

    /// ArgumentParser's message on one line: the value list it prints below ("Please provide one of the
    /// following:" and `- value` lines) in full, with the nearest value when one is close to what was typed.
    public static func oneLine(_ message: String) -> String {
        let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let head = lines.first else { return message }
        let values = lines.dropFirst().filter { $0.hasPrefix("- ") }.map { String($0.dropFirst(2)) }
        guard !values.isEmpty else { return lines.joined(separator: " ") }
        var text = head.replacingOccurrences(of: " Please provide one of the following:", with: "")
        text += " Expected one of: \(values.joined(separator: ", "))."
        if let typed = head.range(of: #"The value '([^']*)'"#, options: .regularExpression).map({ String(head[$0].dropFirst(11).dropLast()) }),
           let near = Catalog.nearest(to: typed, in: values) {
            text += " Did you mean '\(near)'?"
        }
        return text
    }
}
