import Foundation

/// Static checks that keep a rule's regex from taking exponential time on a long line.
enum RegexSafety {
    /// A reason the pattern risks catastrophic backtracking, or nil. Catches a group that contains an
    /// unbounded quantifier and is itself repeated without bound: `(a+)+`, `(\w*\s?)*`, `(?:x+y?)+`; and
    /// alternatives that can start alike under unbounded repetition: `(a|aa)+$`, `(\w|\d)+x`.
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
        return ambiguousAlternation(in: pattern)
    }
}

extension RegexSafety {
    /// The index after the `]` that closes the class opened at `k`, counting nested classes.
    static func endOfNestedClass(_ chars: [Unicode.Scalar], from k: Int) -> Int {
        var depth = 0
        var j = k
        while j < chars.count {
            if chars[j] == "\\" { j += 2; continue }
            if chars[j] == "[" { depth += 1 } else if chars[j] == "]" { depth -= 1; if depth == 0 { return j + 1 } }
            j += 1
        }
        return chars.count
    }

    /// The characters a piece of a pattern can start with: ASCII as a bitmap, the rest as one flag.
    struct FirstSet: Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var nonASCII = false

        static let all = FirstSet(low: ~0, high: ~0, nonASCII: true)

        mutating func insert(_ c: UInt32) {
            if c < 64 { low |= 1 << UInt64(c) } else if c < 128 { high |= 1 << UInt64(c - 64) } else { nonASCII = true }
        }

        mutating func insert(_ range: ClosedRange<UInt32>) {
            for c in range.lowerBound...min(range.upperBound, 127) { insert(c) }
            if range.upperBound >= 128 { nonASCII = true }
        }

        mutating func formUnion(_ other: FirstSet) {
            low |= other.low
            high |= other.high
            nonASCII = nonASCII || other.nonASCII
        }

        func overlaps(_ other: FirstSet) -> Bool {
            low & other.low != 0 || high & other.high != 0 || (nonASCII && other.nonASCII)
        }

        var inverted: FirstSet { FirstSet(low: ~low, high: ~high, nonASCII: true) }

        static func digits() -> FirstSet { var s = FirstSet(); s.insert(48...57); return s }
        static func word() -> FirstSet {
            var s = digits()
            s.insert(65...90)
            s.insert(97...122)
            s.insert(95)
            s.nonASCII = true
            return s
        }
        static func space() -> FirstSet { var s = FirstSet(); for c: UInt32 in [9, 10, 11, 12, 13, 32] { s.insert(c) }; s.nonASCII = true; return s }
    }

    /// A group whose alternatives can start with the same character and that is repeated without bound,
    /// like `(a|aa)+$` or `(\w|\d)+x`: on a line that almost matches, each character can be taken by either
    /// branch, and the engine tries every way (exponential time). Nil when there is none.
    static func ambiguousAlternation(in pattern: String) -> String? {
        let chars = Array(pattern.unicodeScalars)
        let caseInsensitive = pattern.contains("(?i")
        struct Branch { var first = FirstSet(); var nullable = true }
        struct Frame { var branches: [Branch] = [Branch()]; var lookaround = false; var atomic = false }
        var stack: [Frame] = [Frame()]
        var i = 0

        func literal(_ c: Unicode.Scalar) -> FirstSet {
            var s = FirstSet()
            s.insert(c.value)
            if caseInsensitive, c.properties.isAlphabetic {
                for v in [c.properties.lowercaseMapping, c.properties.uppercaseMapping] { if let u = v.unicodeScalars.first { s.insert(u.value) } }
            }
            return s
        }

        /// The set of an escape at `k` (after the backslash) and where the escape ends; nil for a zero-width one.
        func escape(at k: Int) -> (FirstSet?, Int) {
            guard k < chars.count else { return (FirstSet.all, k) }
            switch chars[k] {
            case "d": return (FirstSet.digits(), k + 1)
            case "D": return (FirstSet.digits().inverted, k + 1)
            case "w": return (FirstSet.word(), k + 1)
            case "W": return (FirstSet.word().inverted, k + 1)
            case "s": return (FirstSet.space(), k + 1)
            case "S": return (FirstSet.space().inverted, k + 1)
            case "b", "B", "A", "z", "Z", "G": return (nil, k + 1)
            case "n": return (literal("\n"), k + 1)
            case "t": return (literal("\t"), k + 1)
            case "r": return (literal("\r"), k + 1)
            case "p", "P", "x", "u", "N", "X", "R", "h", "H", "v", "V", "Q", "1"..."9", "k", "c", "0":
                // Properties, code points, back references and the like: assume they can start with anything.
                var end = k + 1
                if end < chars.count, chars[end] == "{" { while end < chars.count, chars[end] != "}" { end += 1 }; end += 1 }
                return (FirstSet.all, end)
            default: return (literal(chars[k]), k + 1)
            }
        }

        /// A bracket class starting at `k` (on `[`) and where it ends.
        func bracketClass(at k: Int) -> (FirstSet, Int) {
            var j = k + 1
            var negated = false
            if j < chars.count, chars[j] == "^" { negated = true; j += 1 }
            var set = FirstSet()
            var first = true
            var previous: UInt32?
            while j < chars.count, chars[j] != "]" || first {
                first = false
                let c = chars[j]
                if c == "[" { return (FirstSet.all, endOfNestedClass(chars, from: k)) } // nested sets: assume anything
                if c == "\\" {
                    let (s, end) = escape(at: j + 1)
                    if let s { set.formUnion(s) }
                    previous = end == j + 2 ? chars[j + 1].value : nil
                    j = end
                    continue
                }
                if c == "-", let low = previous, j + 1 < chars.count, chars[j + 1] != "]" {
                    let high = chars[j + 1] == "\\" && j + 2 < chars.count ? chars[j + 2].value : chars[j + 1].value
                    if high >= low { set.insert(low...high) }
                    j += chars[j + 1] == "\\" ? 3 : 2
                    previous = nil
                    continue
                }
                set.formUnion(literal(c))
                previous = c.value
                j += 1
            }
            return (negated ? set.inverted : set, j + 1)
        }

        /// Whether an atom ending before `k` is made optional or repeated without bound by what follows.
        func quantifier(at k: Int) -> (optional: Bool, unbounded: Bool, end: Int) {
            guard k < chars.count else { return (false, false, k) }
            var end = k + 1
            var result: (Bool, Bool)
            switch chars[k] {
            case "*": result = (true, true)
            case "+": result = (false, true)
            case "?": result = (true, false)
            case "{":
                var text = ""
                while end < chars.count, chars[end] != "}" { text.unicodeScalars.append(chars[end]); end += 1 }
                end += 1
                let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                result = (parts.first.map { Int($0) == 0 } ?? false, text.hasSuffix(","))
            default: return (false, false, k)
            }
            if end < chars.count, chars[end] == "?" || chars[end] == "+" { end += 1 } // lazy or possessive
            return (result.0, result.1, end)
        }

        func add(_ set: FirstSet, nullable: Bool) {
            var branch = stack[stack.count - 1].branches.removeLast()
            if branch.nullable { branch.first.formUnion(set) }
            branch.nullable = branch.nullable && nullable
            stack[stack.count - 1].branches.append(branch)
        }

        while i < chars.count {
            let c = chars[i]
            var atom: FirstSet?
            var next = i + 1
            switch c {
            case "\\":
                (atom, next) = escape(at: i + 1)
            case "[":
                (atom, next) = bracketClass(at: i)
                atom = atom ?? FirstSet.all
            case ".":
                atom = FirstSet.all
            case "^", "$":
                atom = nil
            case "(":
                var frame = Frame()
                var body = i + 1 // where the group's pattern starts, after `(?:`, `(?<name>`, `(?i:` …
                if i + 2 < chars.count, chars[i + 1] == "?" {
                    let kind = chars[i + 2]
                    if kind == "=" || kind == "!" {
                        frame.lookaround = true
                        body = i + 3
                    } else if kind == "<", i + 3 < chars.count, chars[i + 3] == "=" || chars[i + 3] == "!" {
                        frame.lookaround = true
                        body = i + 4
                    } else if kind == ">" || kind == ":" {
                        frame.atomic = kind == ">" // no backtracking into an atomic group: its alternatives cannot multiply
                        body = i + 3
                    } else if kind == "<" || kind == "'" || kind == "P" {
                        var j = i + 3
                        while j < chars.count, chars[j] != ">" && chars[j] != "'" { j += 1 }
                        body = j + 1
                    } else {
                        // Flags: `(?i)` on its own, or `(?i:…)`.
                        var j = i + 2
                        while j < chars.count, chars[j] != ")" && chars[j] != ":" { j += 1 }
                        if j < chars.count, chars[j] == ")" { i = j + 1; continue }
                        body = j + 1
                    }
                }
                stack.append(frame)
                i = body
                continue
            case "|":
                stack[stack.count - 1].branches.append(Branch())
                i += 1
                continue
            case ")":
                guard stack.count > 1 else { i += 1; continue }
                let frame = stack.removeLast()
                let q = quantifier(at: i + 1)
                let possessive = q.end > i + 1 && chars[q.end - 1] == "+" && q.end - 1 > i + 1
                if q.unbounded, !possessive, !frame.atomic, !frame.lookaround, frame.branches.count > 1 {
                    for a in 0..<frame.branches.count {
                        for b in (a + 1)..<frame.branches.count where frame.branches[a].first.overlaps(frame.branches[b].first) {
                            return "alternatives that can start with the same character under unbounded repetition (like (a|aa)+ or (\\w|\\d)+) can take exponential time; make the alternatives start differently, or the group atomic (?>…) or possessive (…)++"
                        }
                    }
                }
                if !frame.lookaround {
                    var first = FirstSet()
                    var nullable = false
                    for branch in frame.branches {
                        first.formUnion(branch.first)
                        nullable = nullable || branch.nullable
                    }
                    add(first, nullable: nullable || q.optional)
                }
                i = q.end
                continue
            default:
                atom = literal(c)
            }
            if let atom {
                let q = quantifier(at: next)
                add(atom, nullable: q.optional)
                next = q.end
            }
            i = next
        }
        return nil
    }
}
