import Foundation
import XCMedicTestSupport
@testable import XCMedicKit

/// Writes SLF the way Xcode does (format as documented in XCLogParser's "Xcactivitylog Format"),
/// so the tests build every edge case from the documented grammar instead of committing binaries.
struct SLFWriter {
    struct Message {
        var className = "IDEDiagnosticActivityLogMessage"
        var title: String
        var severity = 2
        var type = "Swift Compiler Error"
        /// `file://` URL; nil writes a null location.
        var url: String?
        /// Zero-based, as Xcode writes them.
        var line = 0
        var column = 0
        var notes: [Message] = []
    }

    struct Section {
        var className = "IDEActivityLogSection"
        var title: String
        var text: String?
        var subsections: [Section] = []
        var messages: [Message] = []
    }

    /// 10 (Xcode 10-15.2), 11 (15.3+, attachments), 12 (26.2+, an integer before the subtitle).
    var version = 10
    /// xcodebuild's logs: an integer after the version and one more per section.
    var commandLine = false
    /// Xcode 27: an integer before each section's text.
    var integerBeforeText = false

    private(set) var bytes: [UInt8] = Array("SLF0".utf8)
    private var classes: [String] = []

    static func log(_ root: Section, version: Int = 10, commandLine: Bool = false, integerBeforeText: Bool = false) -> [UInt8] {
        var writer = SLFWriter()
        writer.version = version
        writer.commandLine = commandLine
        writer.integerBeforeText = integerBeforeText
        writer.int(version)
        if commandLine { writer.int(1) }
        writer.section(root)
        return writer.bytes
    }

    mutating func int(_ value: Int) { bytes += Array("\(value)#".utf8) }
    mutating func double(_ value: Double) { bytes += Array(String(format: "%016llx^", value.bitPattern.byteSwapped).utf8) }
    mutating func null() { bytes += Array("-".utf8) }
    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        bytes += Array("\(utf8.count)\"".utf8) + utf8
    }
    mutating func json(_ value: String) {
        let utf8 = Array(value.utf8)
        bytes += Array("\(utf8.count)*".utf8) + utf8
    }
    mutating func array(_ count: Int) { bytes += Array("\(count)(".utf8) }
    mutating func instance(_ className: String) {
        if !classes.contains(className) {
            classes.append(className)
            bytes += Array("\(className.utf8.count)%\(className)".utf8)
        }
        bytes += Array("\(classes.firstIndex(of: className)! + 1)@".utf8)
    }

    mutating func section(_ s: Section) {
        instance(s.className)
        int(0)
        string("Xcode.IDEActivityLogDomainType.BuildLog")
        string(s.title)
        string(s.title)
        double(780_000_000.5)
        double(780_000_010.25)
        if s.subsections.isEmpty { null() } else { array(s.subsections.count); s.subsections.forEach { section($0) } }
        if integerBeforeText { int(0) }
        if let text = s.text { string(text) } else { null() }
        if s.messages.isEmpty { null() } else { array(s.messages.count); s.messages.forEach { message($0) } }
        int(0); int(0); int(0)
        if version >= 12 { int(1) }
        string("")
        null() // location
        string("")
        string("ABCDEF-1234")
        string("Failed")
        string("")
        if version >= 11 {
            array(1)
            instance("IDEFoundation.IDEActivityLogSectionAttachment")
            string("com.apple.dt.ActivityLogSectionAttachment.TaskMetrics")
            int(1); int(0)
            json(#"{"wcStartTime":1,"maxRSS":0,"utime":798,"wcDuration":852,"stime":798}"#)
        }
        if commandLine && version < 12 { int(0) }
        if s.className == "IDEActivityLogUnitTestSection" { for _ in 0..<6 { string("") } }
    }

    mutating func message(_ m: Message) {
        instance(m.className)
        string(m.title)
        string(m.title)
        int(0)
        int(42) // rangeEndInSectionText
        int(0)
        if m.notes.isEmpty { null() } else { array(m.notes.count); m.notes.forEach { message($0) } }
        int(m.severity)
        string(m.type)
        if let url = m.url {
            instance("DVTTextDocumentLocation")
            string(url)
            double(0)
            int(m.line); int(m.column); int(m.line); int(m.column + 4); int(0); int(0); int(0)
        } else {
            null()
        }
        string("com.apple.dt.IDE.diagnostic")
        null()
        string("")
    }
}

enum GzipForTests {
    /// gzip(1) output, to test decompression against the reference implementation.
    static func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        let dir = Scratch.url("slf-gz")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("in")
        try Data(bytes).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-n", "-6", file.path]
        try process.run()
        process.waitUntilExit()
        return Array(try Data(contentsOf: dir.appendingPathComponent("in.gz")))
    }

    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let dir = Scratch.url("slf")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

extension SLFDecoder {
    static func lines(_ bytes: [UInt8]) throws -> [StructuredLine] {
        var lines: [StructuredLine] = []
        try SLFDecoder(source: ByteSource(name: "test.xcactivitylog", bytes: bytes)).forEach { lines.append($0) }
        return lines
    }
}
