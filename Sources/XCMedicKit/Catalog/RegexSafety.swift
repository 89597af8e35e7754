import Foundation

/// Static checks that keep a rule's regex from taking exponential time on a long line.
enum RegexSafety {
    /// A reason the pattern risks catastrophic backtracking, or nil. Catches a group that contains an
    /// unbounded quantifier and is itself repeated without bound: `(a+)+`, `(\w*\s?)*`, `(?:x+y?)+`.
    static func catastrophicRisk(in pattern: String) -> String? {
        let chars = Array(pattern.unicodeScalars)
        var stack: [Bool] = [] // per open group: holds an unbounded quantifier
        var i = 0
        var inClass = false
        func unboundedQuantifier(at k: Int) -> Bool {
            guard k < chars.count else { return false }
            if chars[k] == "*" || chars[k] == "+" { return true }
            if chars[k] == "{" {
                var j = k + 1
                var text = ""
                while j < chars.count, chars[j] != "}" { text.unicodeScalars.append(chars[j]); j += 1 }
                return text.hasSuffix(",")
            }
            return false
        }
        func possessive(at k: Int) -> Bool { k + 1 < chars.count && chars[k + 1] == "+" }
        while i < chars.count {
            let c = chars[i]
            if c == "\\" { i += 2; continue }
            if inClass { if c == "]" { inClass = false }; i += 1; continue }
            switch c {
            case "[": inClass = true
            case "(":
                let atomic = i + 2 < chars.count && chars[i + 1] == "?" && chars[i + 2] == ">"
                stack.append(false)
                if atomic { stack[stack.count - 1] = false }
            case ")":
                let inner = stack.popLast() ?? false
                if inner && unboundedQuantifier(at: i + 1) && !possessive(at: i + 1) {
                    return "nested unbounded repetition (like (a+)+) can take exponential time; make the inner or outer repetition bounded or possessive"
                }
                if inner, !stack.isEmpty { stack[stack.count - 1] = true }
            default:
                if unboundedQuantifier(at: i), !stack.isEmpty, !possessive(at: i) { stack[stack.count - 1] = true }
            }
            i += 1
        }
        return nil
    }
}
