import Foundation

/// Decodes an `.xcactivitylog` (SLF, after decompression) into the lines the build printed, in
/// order: each step's title, the text it printed, then the messages Xcode recorded for it with
/// their level and source location.
///
/// Field orders follow XCLogParser's reading of IDEFoundation's classes (docs "Xcactivitylog
/// Format"), with the variants of SLF 10 (Xcode 10-15.2), 11 (15.3+: section attachments), 12
/// (26.2+: an integer before the subtitle) and Xcode 27 (an integer before the text), plus the
/// command-line logs that carry one more integer per section.
///
/// Sections nest; the decoder keeps an explicit stack of the open ones and streams a step's text
/// line by line, so memory is bounded by the nesting depth and the longest line, not by the log.
public final class SLFDecoder {
    public static let maxLineBytes = 1 << 20
    static let maxDepth = 256
    static let maxTitleBytes = 64 * 1024
    /// Notes kept under one message; more are read and dropped.
    static let maxSubMessages = 256

    private let tokenizer: SLFTokenizer
    private var started = false
    private var version: UInt64 = 0
    private var commandLineLog = false
    private var stack: [Section] = []
    private var pending: [StructuredLine] = []
    private var pendingIndex = 0
    private var lineBytes: [UInt8] = []

    private enum SectionClass {
        case plain, unitTest, console
    }

    private enum Phase {
        case subsections(remaining: Int)
        case text(remaining: Int)
        case messages(remaining: Int)
    }

    private struct Section {
        var kind: SectionClass
        var title: String
        var phase: Phase
    }

    /// Decodes the source's bytes, which must start with `SLF0`.
    public init(source: ByteSource) {
        tokenizer = SLFTokenizer(source: source)
    }

    /// Byte offset in the decompressed SLF reached so far.
    public var offset: Int { tokenizer.offset }

    /// The next line, or nil after the log's last section.
    public func next() throws -> StructuredLine? {
        while pendingIndex == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            if !started {
                try start()
                continue
            }
            guard !stack.isEmpty else { return nil }
            try advance()
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    /// Calls `body` with every line, in order.
    public func forEach(_ body: (StructuredLine) throws -> Void) throws {
        while let line = try next() { try body(line) }
    }

    // MARK: - Sections

    private func start() throws {
        started = true
        try tokenizer.readHeader()
        guard case .int(let version)? = try tokenizer.next() else { throw tokenizer.fail("no format version after SLF0") }
        self.version = version
        var token = try tokenizer.next()
        if case .int? = token {
            commandLineLog = true
            token = try tokenizer.next()
        }
        try openSection(token)
    }

    /// Reads a section's fields up to its subsections and pushes it; its title is the first line it gives.
    private func openSection(_ token: SLFToken?) throws {
        guard stack.count < SLFDecoder.maxDepth else { throw tokenizer.fail("sections nested deeper than \(SLFDecoder.maxDepth)") }
        guard case .instance(let className)? = token else { throw unexpected(token, "a section") }
        let kind: SectionClass
        switch className {
        case "IDEActivityLogSection", "IDECommandLineBuildLog", "IDEActivityLogMajorGroupSection",
             "IDEActivityLogCommandInvocationSection":
            kind = .plain
        case "IDEActivityLogUnitTestSection": kind = .unitTest
        case "DBGConsoleLog": kind = .console
        default: throw tokenizer.fail("unknown section class \(className)")
        }
        _ = try int("sectionType")
        try skipString("domainType")
        let title = try string("title")
        try skipString("signature")
        try double("timeStartedRecording")
        try double("timeStoppedRecording")
        let count = try arrayCount("subSections")
        let step = stack.first == nil ? nil : title
        if !title.isEmpty {
            pending.append(StructuredLine(kind: .stepTitle, text: title, step: step ?? title))
        }
        stack.append(Section(kind: kind, title: title, phase: .subsections(remaining: count)))
    }

    private func advance() throws {
        let top = stack.count - 1
        switch stack[top].phase {
        case .subsections(let remaining) where remaining > 0:
            stack[top].phase = .subsections(remaining: remaining - 1)
            try openSection(try tokenizer.next())
        case .subsections:
            var token = try tokenizer.next()
            if case .int? = token { token = try tokenizer.next() } // Xcode 27: an integer before the text
            switch token {
            case .string(let length)?: stack[top].phase = .text(remaining: length)
            case .null?: stack[top].phase = .messages(remaining: try arrayCount("messages"))
            default: throw unexpected(token, "a section's text")
            }
        case .text(var remaining):
            if remaining > 0 {
                try tokenizer.readLine(remaining: &remaining, limit: SLFDecoder.maxLineBytes, into: &lineBytes)
                if lineBytes.last == 0x0D { lineBytes.removeLast() }
                stack[top].phase = .text(remaining: remaining)
                if !lineBytes.isEmpty || remaining > 0 {
                    pending.append(StructuredLine(kind: .output, text: String(decoding: lineBytes, as: UTF8.self), step: stepTitle))
                }
            } else {
                stack[top].phase = .messages(remaining: try arrayCount("messages"))
            }
        case .messages(let remaining) where remaining > 0:
            stack[top].phase = .messages(remaining: remaining - 1)
            let message = try readMessage(try tokenizer.next(), depth: 0)
            emit(message, step: stepTitle)
        case .messages:
            try closeSection(stack[top].kind)
            stack.removeLast()
        }
    }

    /// The step a line belongs to: the innermost section with a title.
    private var stepTitle: String? {
        stack.last(where: { !$0.title.isEmpty })?.title
    }

    /// Reads the fields after a section's messages.
    private func closeSection(_ kind: SectionClass) throws {
        _ = try int("wasCancelled")
        _ = try int("isQuiet")
        _ = try int("wasFetchedFromCache")
        var token = try tokenizer.next()
        var unknownRead = false
        if case .int? = token { // SLF 12 (Xcode 26.2+): an integer before the subtitle
            unknownRead = true
            token = try tokenizer.next()
        }
        try skipString(token, "subtitle")
        _ = try readLocation(try tokenizer.next())
        try skipString("commandDetailDesc")
        try skipString("uniqueIdentifier")
        try skipString("localizedResultString")
        try skipString("xcbuildSignature")
        if version >= 11 { try skipAttachments() }
        if commandLineLog && !unknownRead { _ = try int("the command-line log's integer") }
        switch kind {
        case .plain: break
        case .unitTest:
            // testsPassedString, durationString, summaryString, suiteName, testName, performanceTestOutputString
            for _ in 0..<6 { try skipString("a unit test section's strings") }
        case .console:
            let count = try arrayCount("logConsoleItems")
            for _ in 0..<count {
                let token = try tokenizer.next()
                if case .null? = token { continue }
                guard case .instance("IDEConsoleItem")? = token else { throw unexpected(token, "an IDEConsoleItem") }
                _ = try int("adaptorType")
                let content = try string("content")
                _ = try int("kind")
                try double("timestamp")
                for line in content.split(separator: "\n", omittingEmptySubsequences: false) {
                    pending.append(StructuredLine(kind: .output, text: String(line), step: stepTitle))
                }
            }
        }
    }

    private func skipAttachments() throws {
        let count = try arrayCount("attachments")
        for _ in 0..<count {
            let token = try tokenizer.next()
            guard case .instance(let name)? = token, name.hasSuffix("IDEActivityLogSectionAttachment") else {
                throw unexpected(token, "a section attachment")
            }
            try skipString("identifier")
            _ = try int("majorVersion")
            _ = try int("minorVersion")
            switch try tokenizer.next() {
            case .json(let length)?, .string(let length)?: try tokenizer.skip(length)
            case .null?: break
            case let other: throw unexpected(other, "an attachment's JSON")
            }
        }
    }

    // MARK: - Messages

    private struct Message {
        var title: String
        var level: LineLevel?
        var location: SourceLocation?
        var notes: [Message]
    }

    private func readMessage(_ token: SLFToken?, depth: Int) throws -> Message {
        guard depth < 32 else { throw tokenizer.fail("messages nested deeper than 32") }
        guard case .instance(let className)? = token else { throw unexpected(token, "a message") }
        switch className {
        case "IDEActivityLogMessage", "IDEClangDiagnosticActivityLogMessage", "IDEDiagnosticActivityLogMessage",
             "IDEActivityLogAnalyzerResultMessage", "IDEActivityLogAnalyzerEventStepMessage",
             "IDEActivityLogAnalyzerControlFlowStepMessage", "IDEActivityLogActionMessage":
            break
        default: throw tokenizer.fail("unknown message class \(className)")
        }
        var title = try string("title")
        try skipString("shortTitle")
        switch try tokenizer.next() { // timeEmitted
        case .int?, .double?: break
        case let other: throw unexpected(other, "a message's time")
        }
        _ = try int("rangeEndInSectionText")
        _ = try int("rangeStartInSectionText")
        var notes: [Message] = []
        let subCount = try arrayCount("subMessages")
        for _ in 0..<subCount {
            let note = try readMessage(try tokenizer.next(), depth: depth + 1)
            if notes.count < SLFDecoder.maxSubMessages { notes.append(note) }
        }
        let severity = try int("severity")
        let type = try string("type")
        let location = try readLocation(try tokenizer.next())
        try skipString("categoryIdent")
        let secondary = try arrayCount("secondaryLocations")
        for _ in 0..<secondary { _ = try readLocation(try tokenizer.next()) }
        try skipString("additionalDescription")
        switch className {
        case "IDEActivityLogAnalyzerResultMessage":
            try skipString("resultType")
            _ = try int("keyEventIndex")
        case "IDEActivityLogAnalyzerEventStepMessage":
            _ = try int("parentIndex")
            let description = try string("description")
            if !description.isEmpty { title = description }
            _ = try int("callDepth")
        case "IDEActivityLogAnalyzerControlFlowStepMessage":
            _ = try int("parentIndex")
            _ = try readLocation(try tokenizer.next())
            let edges = try arrayCount("edges")
            for _ in 0..<edges {
                let token = try tokenizer.next()
                guard case .instance("IDEActivityLogAnalyzerControlFlowStepEdge")? = token else { throw unexpected(token, "a control-flow edge") }
                _ = try readLocation(try tokenizer.next())
                _ = try readLocation(try tokenizer.next())
            }
        case "IDEActivityLogActionMessage":
            try skipString("action")
        default: break
        }
        return Message(title: title, level: SLFDecoder.level(severity: severity, type: type), location: location, notes: notes)
    }

    /// Xcode's severity (0 note, 1 warning, 2 error), read together with the message's type name.
    static func level(severity: UInt64, type: String) -> LineLevel {
        // Byte-wise: "Error"/"error", "Warning"/"warning", "Note"/"Notice".
        if Bytes.contains(type, SLFDecoder.error) { return .error }
        if Bytes.contains(type, SLFDecoder.warning) { return .warning }
        if Bytes.contains(type, SLFDecoder.note) { return .note }
        switch severity {
        case 2...: return .error
        case 1: return .warning
        default: return .note
        }
    }

    private static let error = Array("rror".utf8)
    private static let warning = Array("arning".utf8)
    private static let note = Array("ot".utf8)

    private func emit(_ message: Message, step: String?) {
        pending.append(StructuredLine(kind: .message, text: message.title, location: message.location, level: message.level, step: step))
        for note in message.notes { emit(note, step: step) }
    }

    // MARK: - Locations

    private func readLocation(_ token: SLFToken?) throws -> SourceLocation? {
        if case .null? = token { return nil }
        guard case .instance(let className)? = token else { throw unexpected(token, "a document location") }
        let url = try string("documentURLString")
        try double("timestamp")
        var line: Int?
        var column: Int?
        switch className {
        case "DVTTextDocumentLocation":
            line = SLFDecoder.oneBased(try int("startingLineNumber"))
            column = SLFDecoder.oneBased(try int("startingColumnNumber"))
            // endingLineNumber, endingColumnNumber, characterRangeEnd, characterRangeStart, locationEncoding
            for _ in 0..<5 { _ = try int("a text location's range") }
        case "DVTDocumentLocation", "Xcode3ProjectDocumentLocation", "IDELogDocumentLocation":
            break
        case "DVTMemberDocumentLocation":
            try skipString("member")
        case "IBDocumentMemberLocation":
            let member = try tokenizer.next()
            guard case .instance("IBMemberID")? = member else { throw unexpected(member, "an IBMemberID") }
            try skipString("memberIdentifier")
            let search = try tokenizer.next()
            guard case .null? = search else { throw unexpected(search, "an IBAttributeSearchLocation") }
        default:
            throw tokenizer.fail("unknown document location class \(className)")
        }
        let path = SLFDecoder.path(fromDocumentURL: url)
        guard !path.isEmpty else { return nil }
        return SourceLocation(file: path, line: line, column: column)
    }

    /// Xcode counts lines and columns from zero; UInt64.max means none.
    static func oneBased(_ value: UInt64) -> Int? {
        value < UInt64(Int32.max) ? Int(value) + 1 : nil
    }

    /// `file:///Users/me/App/My%20View.swift` -> `/Users/me/App/My View.swift`; other strings as they are.
    static func path(fromDocumentURL url: String) -> String {
        guard url.hasPrefix("file://") else { return url }
        var rest = url.dropFirst("file://".count)
        if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
        let path = String(rest)
        return path.utf8.contains(UInt8(ascii: "%")) ? path.removingPercentEncoding ?? path : path
    }

    // MARK: - Fields

    private func unexpected(_ token: SLFToken?, _ wanted: String) -> SLFError {
        guard let token else { return tokenizer.fail("the log ends where \(wanted) should be") }
        return tokenizer.fail("expected \(wanted), found \(SLFDecoder.describe(token))")
    }

    static func describe(_ token: SLFToken) -> String {
        switch token {
        case .int(let value): return "the integer \(value)"
        case .double: return "a double"
        case .null: return "a null"
        case .string(let length): return "a string of \(length) bytes"
        case .json: return "JSON"
        case .instance(let name): return "an instance of \(name)"
        case .array(let count): return "an array of \(count)"
        }
    }

    private func int(_ field: String) throws -> UInt64 {
        let token = try tokenizer.next()
        guard case .int(let value)? = token else { throw unexpected(token, "an integer (\(field))") }
        return value
    }

    private func double(_ field: String) throws {
        let token = try tokenizer.next()
        guard case .double? = token else { throw unexpected(token, "a double (\(field))") }
    }

    private func string(_ field: String) throws -> String {
        let token = try tokenizer.next()
        switch token {
        case .string(let length)?:
            return try tokenizer.readString(length, limit: SLFDecoder.maxTitleBytes)
        case .null?: return ""
        default: throw unexpected(token, "a string (\(field))")
        }
    }

    private func skipString(_ field: String) throws {
        try skipString(try tokenizer.next(), field)
    }

    private func skipString(_ token: SLFToken?, _ field: String) throws {
        switch token {
        case .string(let length)?: try tokenizer.skip(length)
        case .null?: break
        default: throw unexpected(token, "a string (\(field))")
        }
    }

    /// An array's element count; null is an empty array.
    private func arrayCount(_ field: String) throws -> Int {
        let token = try tokenizer.next()
        switch token {
        case .array(let count)?: return count
        case .null?: return 0
        default: throw unexpected(token, "an array (\(field))")
        }
    }
}
