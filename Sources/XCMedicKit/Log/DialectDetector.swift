import Foundation

/// Names the kind of log from its first lines: the tool that printed it and the CI wrappers around it.
/// Decided from content only, never from the platform xcmedic runs on.
struct DialectDetector {
    private var linesSeen = 0
    private var scores: [String: Int] = [:]
    private var wrappers: [String: Int] = [:]
    static let sampleLines = 1000

    var wantsMore: Bool { linesSeen < DialectDetector.sampleLines }

    private static let xcodeCloudMarks: [[UInt8]] = [Array("/Volumes/workspace/".utf8), Array("CI_XCODE_CLOUD".utf8)]

    mutating func observe(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < bytes.count, linesSeen < DialectDetector.sampleLines {
            let end = Scanner.lineEnd(base, from: start, end: bytes.count)
            let length = min(end - start, 256)
            // Checked on bytes over the whole line: the path may sit deep in a long command line.
            for mark in DialectDetector.xcodeCloudMarks where mark.withUnsafeBufferPointer({ Bytes.contains(base + start, count: end - start, $0) }) {
                wrappers["xcode-cloud", default: 0] += 1
            }
            observe(line: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(start + length)]), as: UTF8.self))
            start = end + 1
        }
    }

    mutating func observe(line raw: String) {
        linesSeen += 1
        if raw.isEmpty { return }
        var glyph: LineLevel?
        let text = LogLine.strip(raw, glyph: &glyph)
        if raw.hasPrefix("##[") || DialectDetector.startsWithISOTimestamp(raw) { wrappers["github-actions", default: 0] += 1 }
        if raw.hasPrefix("["), raw.utf8.count > 11, raw.utf8.dropFirst(9).starts(with: "]: ".utf8) { wrappers["fastlane", default: 0] += 1 }

        for (prefix, dialect) in DialectDetector.prefixSignals where text.hasPrefix(prefix) {
            scores[dialect, default: 0] += 1
        }
        let trimmed = raw.drop(while: { $0 == " " })
        if trimmed.hasPrefix("▸ ") || trimmed.hasPrefix("✓ ") || trimmed.hasPrefix("✗ ") { scores["xcpretty", default: 0] += 2 }
        if trimmed.hasPrefix("✔ ") || trimmed.hasPrefix("✖ ") || trimmed.hasPrefix("❌ ") || trimmed.hasPrefix("⚠️ ") {
            scores["xcbeautify", default: 0] += 2
        }
        if text.hasPrefix("["), let close = text.firstIndex(of: "]"), text[close...].hasPrefix("] ") {
            let rest = text[text.index(after: close)...].dropFirst()
            if rest.hasPrefix("Compiling") || rest.hasPrefix("Linking") || rest.hasPrefix("Processing") || rest.hasPrefix("Copying")
                || rest.hasPrefix("Running script") || rest.hasPrefix("Signing") || rest.hasPrefix("Touching") {
                scores["xcbeautify", default: 0] += 2
            }
            if text.dropFirst().first?.isNumber == true, rest.hasPrefix("Compiling") || rest.hasPrefix("Write") || rest.hasPrefix("Emitting")
                || rest.hasPrefix("Build") || rest.hasPrefix("Linking") || rest.hasPrefix("Planning") {
                scores["swiftpm", default: 0] += 2
            }
        }
    }

    private static let prefixSignals: [(String, String)] = [
        ("Command line invocation:", "xcodebuild"), ("CompileSwift ", "xcodebuild"), ("CompileC ", "xcodebuild"),
        ("SwiftCompile ", "xcodebuild"), ("SwiftDriver ", "xcodebuild"), ("Ld ", "xcodebuild"), ("CodeSign ", "xcodebuild"),
        ("ProcessInfoPlistFile ", "xcodebuild"), ("** BUILD ", "xcodebuild"), ("** TEST ", "xcodebuild"), ("** ARCHIVE ", "xcodebuild"),
        ("Build settings from command line:", "xcodebuild"), ("Resolve Package Graph", "xcodebuild"), ("PhaseScriptExecution ", "xcodebuild"),
        ("Test Case '-[", "xcodebuild"), ("User defaults from command line:", "xcodebuild"), ("Prepare packages", "xcodebuild"),
        ("Building for debugging", "swiftpm"), ("Building for production", "swiftpm"), ("Build complete!", "swiftpm"),
        ("Compiling plugin", "swiftpm"), ("Fetching https://", "swiftpm"), ("Computing version for", "swiftpm"),
        ("Test Suite 'All tests' started", "swiftpm"),
    ]

    static func startsWithISOTimestamp(_ s: String) -> Bool {
        let u = Array(s.utf8.prefix(20))
        guard u.count == 20 else { return false }
        return u[4] == 45 && u[7] == 45 && u[10] == 84 && u[13] == 58 && u[16] == 58
    }

    /// `wrapper+...+tool`, e.g. `github-actions+xcodebuild`, `fastlane+xcbeautify`, `swiftpm`; `unknown` when nothing is recognised.
    var dialect: String {
        let base = scores.max { a, b in a.value == b.value ? a.key > b.key : a.value < b.value }?.key ?? "unknown"
        let outer = ["github-actions", "xcode-cloud", "fastlane"].filter { (wrappers[$0] ?? 0) > 0 }
        return (outer + [base]).joined(separator: "+")
    }
}
