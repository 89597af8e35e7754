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

    /// A text's UTF-8 written from its own storage (a report of many megabytes is not copied to be written).
    public static func writeAll(_ fd: Int32, _ text: String) -> Outcome {
        var text = text
        return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
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

/// A report written to a file descriptor as it is rendered, in blocks of 64 KiB, so a report of thousands of
/// findings is never held whole (issue 17). After the first failed write the rest is dropped; `finish()`
/// writes what is left and says how it went.
public struct FDTextStream: TextOutputStream {
    public let fd: Int32
    private var buffer = ""
    public private(set) var outcome = FDWriter.Outcome.ok
    static let blockSize = 1 << 16

    public init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(FDTextStream.blockSize + 4096)
    }

    public mutating func write(_ string: String) {
        guard case .ok = outcome else { return }
        if buffer.utf8.count + string.utf8.count <= FDTextStream.blockSize {
            buffer += string
            return
        }
        flush()
        if string.utf8.count > FDTextStream.blockSize {
            if case .ok = outcome { outcome = FDWriter.writeAll(fd, string) }
        } else {
            buffer += string
        }
    }

    private mutating func flush() {
        guard case .ok = outcome, !buffer.isEmpty else { return }
        outcome = FDWriter.writeAll(fd, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered; the outcome of all the writes.
    public mutating func finish() -> FDWriter.Outcome {
        flush()
        return outcome
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
