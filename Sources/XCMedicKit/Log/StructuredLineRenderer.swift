/// Renders structured lines as the console text a build would have printed (`xcmedic decode`, pipe
/// mode): a step's title, its output, and each message as a compiler-style `file:line:col: level: message`
/// line. The scanner does not read this text: it takes the lines themselves.
final class StructuredLineRenderer {
    private let next: () throws -> StructuredLine?
    private var buffer: [UInt8] = []
    private var index = 0
    private var done = false

    init(next: @escaping () throws -> StructuredLine?) {
        self.next = next
    }

    /// A byte source of the rendered text of `lines`.
    static func text(of lines: LineSource) -> ByteSource {
        let renderer = StructuredLineRenderer(next: lines.next)
        return ByteSource(name: lines.name) { buffer, count in try renderer.read(into: buffer, count: count) }
    }

    static func render(_ line: StructuredLine) -> String {
        guard line.kind == .message else { return line.text }
        let header = line.level.map { "\($0.rawValue): " } ?? ""
        guard let location = line.location else { return header + line.text }
        return "\(location.rendered): \(header)\(line.text)"
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
