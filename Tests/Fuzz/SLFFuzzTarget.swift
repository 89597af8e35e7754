// libFuzzer target: arbitrary bytes after an `SLF0` header through the activity-log decoder, then the
// rendered text through the scanner. Built by Tests/Fuzz/run.sh, not by `swift build`.
import Foundation
import XCMedicKit

nonisolated(unsafe) private var ruleSet: RuleSet?

@_cdecl("LLVMFuzzerTestOneInput")
public func slfFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if ruleSet == nil { ruleSet = try! RuleSet.builtin() }
    let bytes = Array("SLF0".utf8) + Array(UnsafeBufferPointer(start: data, count: size))
    // Decoding ends in lines or in an SLFError; anything else (a crash, a hang) is a finding.
    do {
        try SLFDecoder(source: ByteSource(name: "fuzz", bytes: bytes)).forEach { _ in }
    } catch is SLFError {
    } catch {
        fatalError("unexpected error \(error)")
    }
    let scanner = Scanner(ruleSet: ruleSet!)
    do {
        try scanner.scan(LogInput.activityLogText(ByteSource(name: "fuzz", bytes: bytes)))
    } catch is InputError {
    } catch {
        fatalError("unexpected error \(error)")
    }
    _ = scanner.finish()
    return 0
}
