/// Renders decoded lines as the console text the byte-level scanner reads: a step's title, its
/// output, and each message as a compiler-style `file:line:col: error: message` line.
final class StructuredLineRenderer {
    private let next: () throws -> StructuredLine?
    private var buffer: [UInt8] = []
    private var index = 0
    private var done = false

    init(next: @escaping () throws -> StructuredLine?) {
        self.next = next
    }

    static func render(_ line: StructuredLine) -> String {
        guard line.kind == .message else { return line.text }
        let header = line.level.map { "\($0.rawValue): " } ?? ""
        guard let location = line.location else { return header + line.text }
        var place = location.file
        if let number = location.line {
            place += ":\(number)"
            if let column = location.column { place += ":\(column)" }
        }
        return "\(place): \(header)\(line.text)"
    }

    /// `read(2)`-style: fills up to `count` bytes, 0 after the last line.
    func read(into destination: UnsafeMutableRawPointer, count: Int) throws -> Int {
        var written = 0
        while written < count {
            if index == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                index = 0
                guard !done, let line = try next() else { done = true; break }
                buffer.append(contentsOf: StructuredLineRenderer.render(line).utf8)
                buffer.append(0x0A)
            }
            let n = min(count - written, buffer.count - index)
            buffer.withUnsafeBytes { destination.advanced(by: written).copyMemory(from: $0.baseAddress! + index, byteCount: n) }
            index += n
            written += n
        }
        return written
    }
}
