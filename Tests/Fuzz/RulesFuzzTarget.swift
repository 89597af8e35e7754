// libFuzzer target: arbitrary bytes as a user rules file. Loading must throw a RuleFileError or
// succeed; a rule that loads must compile and run its examples. Built by Tests/Fuzz/run.sh.
import Foundation
import XCMedicKit

@_cdecl("LLVMFuzzerTestOneInput")
public func rulesFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let yaml = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let rules = try RuleLoader.load(yaml: yaml, origin: "fuzz.yml")
        _ = RuleExamples.check(rules)
    } catch is RuleFileError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    return 0
}
