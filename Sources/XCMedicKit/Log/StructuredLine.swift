/// One line of a build log that a structured reader decoded (an activity log's step title, output or
/// message; a result bundle's issue or test failure), with what the reader knows about it. The
/// scanner takes these as they are (`Scanner.scan(lines:)`): the location and level come from the
/// record, never from parsing the rendered text again.
public struct StructuredLine: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// A step's (section's) title: `Compile Foo.swift`, `Run custom shell script '…'`.
        case stepTitle
        /// A line of the text a step printed.
        case output
        /// A diagnostic Xcode recorded for a step (an issue in Xcode's navigator).
        case message
    }

    public var kind: Kind
    public var text: String
    public var location: SourceLocation?
    public var level: LineLevel?
    /// Title of the step the line belongs to.
    public var step: String?

    public init(kind: Kind, text: String, location: SourceLocation? = nil, level: LineLevel? = nil, step: String? = nil) {
        self.kind = kind
        self.text = text
        self.location = location
        self.level = level
        self.step = step
    }

    /// A line of printed text.
    public static func output(_ text: String, step: String? = nil) -> StructuredLine {
        StructuredLine(kind: .output, text: text, step: step)
    }
}

/// Where structured lines come from, one at a time: the scanner's line-level entry reads any of them
/// the same way (ripgrep's searcher/sink split: each input format is a small reader behind it).
public protocol LineSource: AnyObject {
    /// How reports name the input (its path, `-` for standard input).
    var name: String { get }
    /// The next line, nil after the last. A reader that cannot go on throws an `InputError` naming the input.
    func next() throws -> StructuredLine?
}

/// Lines a reader decoded whole (a result bundle's JSON, read at once).
public final class DecodedLines: LineSource {
    public let name: String
    private let lines: [StructuredLine]
    private var index = 0

    public init(name: String, lines: [StructuredLine]) {
        self.name = name
        self.lines = lines
    }

    public func next() -> StructuredLine? {
        guard index < lines.count else { return nil }
        defer { index += 1 }
        return lines[index]
    }
}
