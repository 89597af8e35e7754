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

/// Bytes of a log: a file, standard input, or either of them gzip-compressed (detected by its magic
/// bytes and decompressed in-process), or bytes another reader produces (a decoded activity log).
///
/// A file's descriptor is closed as soon as its last byte is read, so a scan of many inputs holds
/// at most one open at a time.
public final class ByteSource {
    public typealias Producer = (UnsafeMutableRawPointer, Int) throws -> Int

    public let name: String
    private var fd: Int32
    private var ownsDescriptor: Bool
    private var peeked: [UInt8] = []
    private var peekedOffset = 0
    private var inflater: GzipInflater?
    private var producer: Producer?

    /// Bytes already in memory (tests, and logs a caller captured itself).
    public init(name: String, bytes: [UInt8]) {
        self.name = name
        fd = -1
        ownsDescriptor = false
        peeked = bytes
        peekedOffset = 0
    }

    /// Bytes a reader produces on demand, `read(2)`-style: up to `count`, 0 at the end.
    public init(name: String, producer: @escaping Producer) {
        self.name = name
        fd = -1
        ownsDescriptor = false
        self.producer = producer
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
        do {
            try startDecompressionIfGzip()
        } catch {
            closeDescriptor()
            throw error
        }
    }

    deinit {
        closeDescriptor()
    }

    private func closeDescriptor() {
        if fd >= 0 && ownsDescriptor { close(fd) }
        fd = -1
    }

    /// Reads up to `count` bytes into `buffer`; 0 at the end of the input.
    public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        if peekedOffset < peeked.count {
            let n = min(count, peeked.count - peekedOffset)
            peeked.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + peekedOffset, byteCount: n) }
            peekedOffset += n
            if peekedOffset == peeked.count { peeked = []; peekedOffset = 0 }
            return n
        }
        return try readUnderlying(into: buffer, count: count)
    }

    /// The first `count` bytes still to be read (fewer at the end of the input), without consuming them.
    public func peek(_ count: Int) throws -> [UInt8] {
        if peekedOffset > 0 {
            peeked.removeFirst(peekedOffset)
            peekedOffset = 0
        }
        while peeked.count < count {
            var more = [UInt8](repeating: 0, count: count - peeked.count)
            let n = try more.withUnsafeMutableBytes { try readUnderlying(into: $0.baseAddress!, count: $0.count) }
            if n == 0 { break }
            peeked.append(contentsOf: more[0..<n])
        }
        return Array(peeked.prefix(count))
    }

    private func readUnderlying(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        if let producer { return try producer(buffer, count) }
        if let inflater { return try inflater.read(into: buffer, count: count) }
        return try readDescriptor(into: buffer, count: count)
    }

    /// Reads the file itself; closes it at its end.
    private func readDescriptor(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        if fd < 0 { return 0 }
        while true {
            let n = Glibc_read(fd, buffer, count)
            if n > 0 { return n }
            if n == 0 { closeDescriptor(); return 0 }
            if errno == EINTR { continue }
            throw InputError(path: name, problem: "read failed: \(String(cString: strerror(errno)))")
        }
    }

    private func readRaw(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = try bytes.withUnsafeMutableBytes { try readDescriptor(into: $0.baseAddress! + filled, count: count - filled) }
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
        inflater = try GzipInflater(name: name, head: head) { [unowned self] buffer, count in
            try self.readDescriptor(into: buffer, count: count)
        }
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
