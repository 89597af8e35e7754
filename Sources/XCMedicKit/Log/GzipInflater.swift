internal import CZlib
import Foundation

/// Streaming gzip decompression with zlib: one or more concatenated members, in bounded memory.
///
/// A stream that ends before its last member does, or whose data zlib rejects, is an error naming
/// the compressed byte offset where it broke; a partial result is never passed off as the whole.
final class GzipInflater {
    typealias Pull = (UnsafeMutableRawPointer, Int) throws -> Int
    static let inputBytes = 1 << 16

    private let name: String
    private let pull: Pull
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutablePointer<UInt8>
    /// Compressed bytes handed to zlib so far.
    private var fed = 0
    private var inputEnded = false
    private var memberEnded = false
    private var finished = false

    /// `head` holds bytes already read from the start of the stream (the magic number).
    init(name: String, head: [UInt8], pull: @escaping Pull) throws {
        self.name = name
        self.pull = pull
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        input = .allocate(capacity: max(GzipInflater.inputBytes, head.count))
        head.withUnsafeBufferPointer { input.update(from: $0.baseAddress!, count: $0.count) }
        stream.pointee.next_in = input
        stream.pointee.avail_in = UInt32(head.count)
        fed = head.count
        guard czlib_inflate_init_gzip(stream) == Z_OK else {
            stream.deallocate()
            input.deallocate()
            throw InputError(path: name, problem: "cannot start gzip decompression (zlib)")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        input.deallocate()
    }

    /// The compressed offset zlib has reached.
    private var offset: Int { fed - Int(stream.pointee.avail_in) }

    /// Reads up to `count` decompressed bytes; 0 at the end of the last member.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        guard !finished, count > 0 else { return 0 }
        let out = buffer.assumingMemoryBound(to: UInt8.self)
        stream.pointee.next_out = out
        stream.pointee.avail_out = UInt32(min(count, Int(UInt32.max)))
        let wanted = Int(stream.pointee.avail_out)
        while Int(stream.pointee.avail_out) == wanted {
            if stream.pointee.avail_in == 0 && !inputEnded { try refill() }
            if memberEnded {
                // Another member may follow (`cat a.gz b.gz`); NUL padding after the last one is ignored.
                if stream.pointee.avail_in == 0 && inputEnded { finished = true; break }
                if stream.pointee.next_in.pointee != 0x1F {
                    if try restIsPadding() { finished = true; break }
                    throw InputError(path: name, problem: "data after the end of the gzip stream at byte \(offset) is not gzip")
                }
                inflateReset(stream)
                memberEnded = false
            }
            if stream.pointee.avail_in == 0 && inputEnded {
                throw InputError(path: name, problem: "gzip stream is truncated: it ends at byte \(fed) before its last member does")
            }
            let status = inflate(stream, Z_NO_FLUSH)
            switch status {
            case Z_STREAM_END:
                memberEnded = true
            case Z_OK, Z_BUF_ERROR:
                continue
            case Z_MEM_ERROR:
                throw InputError(path: name, problem: "out of memory decompressing gzip")
            default:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
                throw InputError(path: name, problem: "gzip stream is corrupt at byte \(offset): \(reason)")
            }
        }
        return wanted - Int(stream.pointee.avail_out)
    }

    private func refill() throws {
        let n = try pull(input, GzipInflater.inputBytes)
        if n == 0 { inputEnded = true; return }
        stream.pointee.next_in = input
        stream.pointee.avail_in = UInt32(n)
        fed += n
    }

    /// Whether everything left in the stream is NUL bytes (tape-style padding).
    private func restIsPadding() throws -> Bool {
        while true {
            let available = Int(stream.pointee.avail_in)
            for i in 0..<available where stream.pointee.next_in[i] != 0 { return false }
            stream.pointee.avail_in = 0
            if inputEnded { return true }
            try refill()
            if stream.pointee.avail_in == 0 { return true }
        }
    }
}
