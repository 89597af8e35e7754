/// One line of a build log that a structured reader decoded, with what it knows about it.
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
}
