// libFuzzer target: arbitrary bytes through the line reader and the scanner with the full catalog,
// then every report format. Built by Tests/Fuzz/run.sh, not by `swift build`.
import Foundation
import XCMedicKit

nonisolated(unsafe) private var ruleSet: RuleSet?

@_cdecl("LLVMFuzzerTestOneInput")
public func scanFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if ruleSet == nil { ruleSet = try! RuleSet.builtin() }
    let scanner = Scanner(ruleSet: ruleSet!)
    // Small chunks exercise the line-splitting and carry-over paths on short inputs.
    scanner.chunkBytes = 16 + size % 64
    try! scanner.scan(ByteSource(name: "fuzz", bytes: Array(UnsafeBufferPointer(start: data, count: size))))
    let diagnosis = scanner.finish()
    _ = Report.render(diagnosis, format: .json, color: false, redactor: .standard)
    _ = Report.render(diagnosis, format: .text, color: true, redactor: .standard)
    return 0
}
