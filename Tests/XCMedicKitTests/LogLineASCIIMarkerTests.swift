import XCTest
@testable import XCMedicKit

/// xcbeautify with colours turned off marks errors with `[x] ` instead of `❌ `; rules must see the
/// same text either way.
final class LogLineASCIIMarkerTests: XCTestCase {
    func testASCIIErrorMarkerIsStrippedLikeTheGlyph() {
        // cpisciotta/xcbeautify TerminalRendererTests (ldError, compileError), uncoloured output.
        let ascii = LogLine(raw: "[x] ld: library not found for -lPods-Yammer")
        let glyph = LogLine(raw: "❌ ld: library not found for -lPods-Yammer")
        XCTAssertEqual(ascii.text, "ld: library not found for -lPods-Yammer")
        XCTAssertEqual(ascii.text, glyph.text)
        XCTAssertEqual(ascii.glyphLevel, .error)
    }

    func testASCIIMarkedCompileErrorHasALocation() {
        let line = LogLine(raw: "[x] /path/file.swift:64:69: cannot find 'input' in scope")
        XCTAssertEqual(line.header?.location, SourceLocation(file: "/path/file.swift", line: 64, column: 69))
        XCTAssertEqual(line.header?.level, .error)
    }

    func testCocoaPodsMarkerIsKept() {
        // CocoaPods prints its errors as `[!] ...`; that prefix is part of what rules match.
        let line = LogLine(raw: "[!] The sandbox is not in sync with the Podfile.lock. Run 'pod install' or update your CocoaPods installation.")
        XCTAssertTrue(line.text.hasPrefix("[!] "))
    }
}
