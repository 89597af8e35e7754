import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An input the user named that cannot be read. Its description is the one line the CLI prints.
public struct InputError: Error, CustomStringConvertible, Equatable, Sendable {
    public var path: String
    public var problem: String
    public var description: String { "\(path): \(problem)" }

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }
}

/// Bytes of a log: a file, standard input, or either of them gzip-compressed (detected by its magic bytes).
public final class ByteSource {
    public let name: String
    private var fd: Int32
    private let ownsDescriptor: Bool
    private var peeked: [UInt8] = []
    private var peekedOffset = 0
    private var decompressor: Process?

    /// Bytes already in memory (tests, and logs a caller captured itself).
    public init(name: String, bytes: [UInt8]) {
        self.name = name
        fd = -1
        ownsDescriptor = false
        peeked = bytes
        peekedOffset = 0
    }

    /// `path == "-"` reads standard input.
    public init(path: String) throws {
        if path == "-" {
            name = "-"
            fd = 0
            ownsDescriptor = false
        } else {
            name = path
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw InputError(path: path, problem: errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                throw InputError(path: path, problem: "is a directory, not a log file")
            }
            let opened = open(path, O_RDONLY)
            guard opened >= 0 else {
                throw InputError(path: path, problem: errno == EACCES ? "permission denied" : String(cString: strerror(errno)))
            }
            fd = opened
            ownsDescriptor = true
        }
        try startDecompressionIfGzip()
    }

    deinit {
        if fd >= 0 && (ownsDescriptor || decompressor != nil) { close(fd) }
        if let decompressor, decompressor.isRunning { decompressor.terminate() }
    }

    /// Reads up to `count` bytes into `buffer`; 0 at the end of the input.
    public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        if peekedOffset < peeked.count {
            let n = min(count, peeked.count - peekedOffset)
            peeked.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + peekedOffset, byteCount: n) }
            peekedOffset += n
            return n
        }
        if fd < 0 { return 0 }
        while true {
            let n = Glibc_read(fd, buffer, count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw InputError(path: name, problem: "read failed: \(String(cString: strerror(errno)))")
        }
    }

    private func readRaw(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = try bytes.withUnsafeMutableBytes { raw -> Int in
                while true {
                    let r = Glibc_read(fd, raw.baseAddress! + filled, count - filled)
                    if r >= 0 { return r }
                    if errno == EINTR { continue }
                    throw InputError(path: name, problem: "read failed: \(String(cString: strerror(errno)))")
                }
            }
            if n == 0 { break }
            filled += n
        }
        return Array(bytes[0..<filled])
    }

    private func startDecompressionIfGzip() throws {
        let head = try readRaw(2)
        guard head == [0x1f, 0x8b] else {
            peeked = head
            return
        }
        // gzip is on every macOS and Linux; piping through it keeps memory flat without linking zlib.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            throw InputError(path: name, problem: "is gzip-compressed and gzip could not be started")
        }
        let sourceFD = fd
        let owns = ownsDescriptor
        let writer = input.fileHandleForWriting
        let feeder = Thread {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            _ = head.withUnsafeBytes { try? writer.write(contentsOf: Data($0)) }
            while true {
                let n = chunk.withUnsafeMutableBytes { Glibc_read(sourceFD, $0.baseAddress!, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                do { try writer.write(contentsOf: Data(chunk[0..<n])) } catch { break }
            }
            try? writer.close()
            if owns { close(sourceFD) }
        }
        feeder.start()
        fd = dup(output.fileHandleForReading.fileDescriptor)
        decompressor = process
    }
}

@inline(__always)
private func Glibc_read(_ fd: Int32, _ buf: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buf, count)
    #else
    return Darwin.read(fd, buf, count)
    #endif
}
