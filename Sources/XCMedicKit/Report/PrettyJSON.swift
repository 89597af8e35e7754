/// Writes JSON the way `JSONEncoder` with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` does,
/// byte for byte, followed by `TerminalSafe.escapeJSONControls`, for the report's own value types: the
/// encoder builds a tree of boxed values for each of up to 5,000 findings, which was a fifth of an
/// error-dense log's report. The caller gives an object's members in sorted order; `PrettyJSONTests`
/// compares the two writers on every finding of the corpus.
///
/// A value nested in a document written elsewhere starts `depth` levels in: each of its non-empty lines
/// is indented as the document's own would be, with no second pass over its bytes.
struct PrettyJSON {
    private(set) var bytes: [UInt8] = []
    /// One entry per open container: whether it has a member yet.
    private var filled: [Bool] = []
    private let depth: Int

    init(capacity: Int = 1024, depth: Int = 0) {
        self.depth = depth
        bytes.reserveCapacity(capacity)
        for _ in 0..<depth { bytes.append(0x20); bytes.append(0x20) }
    }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// `"key" : ` on a line of its own.
    mutating func key(_ name: String) {
        element()
        string(name)
        bytes.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
    }

    /// Starts the next element of an array.
    mutating func element() {
        if filled[filled.count - 1] { bytes.append(UInt8(ascii: ",")) }
        filled[filled.count - 1] = true
        newline(depth: filled.count)
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Runs that need no escape are copied whole.
            var start = 0
            var i = 0
            while i < utf8.count {
                let byte = utf8[i]
                // DEL, and C1 (U+0080 to U+009F: 0xC2 then 0x80 to 0x9F), are written as `\u00XX` as
                // `TerminalSafe.escapeJSONControls` writes them.
                let c1 = byte == 0xC2 && i + 1 < utf8.count && utf8[i + 1] <= 0x9F
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == 0x5C || byte == 0x7F || c1 else {
                    i += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i]))
                if c1 {
                    unicodeEscape(utf8[i + 1])
                    i += 2
                } else {
                    escape(byte)
                    i += 1
                }
                start = i
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `\u00XX`, lower-case hex digits, as the encoder writes a control character.
    private mutating func unicodeEscape(_ value: UInt8) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(value >> 4)], hex[Int(value & 0xF)]])
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
        case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
        case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0..<0x20, 0x7F: unicodeEscape(byte)
        default: bytes.append(contentsOf: [0x5C, byte]) // `"` and `\`
        }
    }

    mutating func number(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }
    mutating func bool(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    mutating func strings(_ values: [String]) {
        beginArray()
        for value in values { element(); string(value) }
        endArray()
    }

    /// An array of objects, each written by `member` between its braces.
    mutating func objects<T>(_ values: [T], _ member: (inout PrettyJSON, T) -> Void) {
        beginArray()
        for value in values {
            element()
            beginObject()
            member(&self, value)
            endObject()
        }
        endArray()
    }

    /// An object of strings, its keys sorted as the encoder sorts them.
    mutating func stringMap(_ map: [String: String]) {
        beginObject()
        for name in map.keys.sorted() { key(name); string(map[name]!) }
        endObject()
    }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        filled.append(false)
    }

    /// An empty container is written with an empty line inside (`[\n\n]`), as the encoder writes it.
    private mutating func close(_ bracket: UInt8) {
        let hadMembers = filled.removeLast()
        if !hadMembers { bytes.append(0x0A) }
        newline(depth: filled.count)
        bytes.append(bracket)
    }

    private mutating func newline(depth: Int) {
        bytes.append(0x0A)
        for _ in 0..<(depth + self.depth) { bytes.append(0x20); bytes.append(0x20) }
    }
}
