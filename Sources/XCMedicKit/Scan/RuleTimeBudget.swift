import Foundation

/// The time a scan lets the rules of the user's own files (`.xcmedic.yml`, `--rules`) take.
///
/// Built-in rules are checked when they are written; a user's rule is data from the repository and may
/// be slow. A user rule whose regex is stopped `maxTimeouts` times is switched off for the rest of the
/// scan, and so is the costliest user rule whenever the user rules together have taken more than the
/// rest of the scan plus `graceNanos`: a hostile rules file can at most double a scan's time (plus the
/// grace), whatever the log's size.
struct RuleTimeBudget {
    static let maxTimeouts = 3
    static let graceNanos: UInt64 = 500_000_000

    /// Why a rule was switched off.
    enum Reason: Equatable {
        case timedOut(Int)
        case overBudget(spentNanos: UInt64, restNanos: UInt64)
    }

    private(set) var isOff: [Bool]
    private var timeouts: [Int]
    private var spent: [UInt64]
    private var userSpent: UInt64 = 0
    private var started: UInt64?

    init(ruleCount: Int) {
        isOff = Array(repeating: false, count: ruleCount)
        timeouts = Array(repeating: 0, count: ruleCount)
        spent = Array(repeating: 0, count: ruleCount)
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// The scan's clock starts with its first input.
    mutating func start() {
        if started == nil { started = RuleTimeBudget.now() }
    }

    /// Counts one run of user rule `rule` (`nanos` long) and returns the rules to switch off now.
    mutating func account(rule: Int, nanos: UInt64, timedOut: Bool, now: UInt64) -> [(rule: Int, reason: Reason)] {
        spent[rule] += nanos
        userSpent += nanos
        var off: [(Int, Reason)] = []
        if timedOut {
            timeouts[rule] += 1
            if timeouts[rule] >= RuleTimeBudget.maxTimeouts, !isOff[rule] {
                isOff[rule] = true
                off.append((rule, .timedOut(timeouts[rule])))
            }
        }
        let elapsed = now - (started ?? now)
        let rest = elapsed > userSpent ? elapsed - userSpent : 0
        if userSpent > rest + RuleTimeBudget.graceNanos,
           let costliest = spent.indices.filter({ !isOff[$0] && spent[$0] > 0 }).max(by: { spent[$0] < spent[$1] }) {
            isOff[costliest] = true
            off.append((costliest, .overBudget(spentNanos: spent[costliest], restNanos: rest)))
        }
        return off
    }
}
