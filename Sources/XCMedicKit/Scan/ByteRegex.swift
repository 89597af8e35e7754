import Foundation

/// A backtracking matcher over a line's UTF-8 bytes for the part of ICU's regular-expression syntax the
/// catalog uses, giving the same first match and captures as `NSRegularExpression` without bridging the
/// line to UTF-16, allocating a result object or reading the clock per match (issue 17).
///
/// Exactness comes first: a pattern with syntax outside the subset (lookbehind, possessive or atomic
/// forms, Unicode properties, back-references, case folding, a capture inside a lookahead, a loop that
/// can repeat an empty match) does not compile here and stays with ICU; so does a line where `\w`,
/// `\d`, `\s` or `\b` would have to classify a non-ASCII character (`Outcome.unsupported`), because
/// ICU's Unicode tables decide those. Literal text and character classes compare code points exactly,
/// `.` excludes ICU's line terminators, `^`/`$` are ICU's defaults (no multi-line mode).
final class ByteRegex: Sendable {
    enum Outcome: Equatable {
        /// Start and end byte offsets of each group (index 0 is the whole match); -1 when unmatched.
        case matched([Int])
        case noMatch
        case timedOut
        /// The line needs a Unicode classification this matcher leaves to ICU.
        case unsupported
    }

    /// Number of capture groups, group 0 (the whole match) included.
    let groupCount: Int
    /// Named groups and their numbers, in the pattern's order.
    let groupNames: [(name: String, group: Int)]
    private let program: Program
    /// Sub-programs of lookaheads.
    private let lookaheads: [Program]
    private let sets: [ScalarSet]
    /// Bytes a match can start with (when `anchored` is false and the pattern cannot match empty), at
    /// the line's first byte and after it (where no branch that opens with `^` can match).
    private let firstBytes: [Bool]?
    private let laterBytes: [Bool]?
    private let anchored: Bool
    /// Text every match contains (longest first): a line without one of them cannot match, which
    /// settles most tries with a `memmem` instead of a run.
    let required: [[UInt8]]
    /// Literal text every match has at a fixed byte offset from its start (`ending ` one byte into
    /// `[Ss]ending `): starts are then found with a byte search for it instead of trying each start byte.
    private let leading: (offset: Int, bytes: [UInt8])?

    /// Compiles `pattern`, or nil when it uses syntax this matcher leaves to ICU.
    init?(_ pattern: String) {
        var parser = Parser(Array(pattern.unicodeScalars))
        guard let node = parser.parse(), parser.valid else { return nil }
        var compiler = Compiler()
        guard compiler.validate(node) else { return nil }
        var main = compiler.compile(node, wrapped: true)
        main.append(Instruction(.match))
        program = Program(main, literals: compiler.literals, sets: compiler.sets)
        lookaheads = compiler.lookaheadBodies.map { Program($0, literals: compiler.literals, sets: compiler.sets) }
        sets = compiler.sets
        groupCount = parser.groupCount + 1
        groupNames = parser.groupNames.map { (name: $0.0, group: $0.1) }
        anchored = node.startsAnchored
        var first = node.firstBytes(sets: compiler.sets)
        var later = node.firstBytes(sets: compiler.sets, atStart: false)
        for b in 0x80..<0xC0 { first.bytes[b] = false; later.bytes[b] = false } // a match starts on a whole character
        firstBytes = first.nullable ? nil : first.bytes
        laterBytes = later.nullable ? nil : later.bytes
        required = Array(node.requiredLiterals().map { Array(String(String.UnicodeScalarView($0)).utf8) }
            .sorted { $0.count > $1.count }.prefix(3))
        leading = anchored ? nil : node.leadingLiteral().map { (offset: $0.offset, bytes: Array(String(String.UnicodeScalarView($0.literal)).utf8)) }
    }

    // MARK: - Running

    /// The leftmost match in `text` (ICU's first match), its groups as byte offsets.
    func firstMatch(_ text: String, budgetNanoseconds: UInt64) -> Outcome {
        var text = text
        return text.withUTF8 { firstMatch($0, budgetNanoseconds: budgetNanoseconds) }
    }

    func firstMatch(_ bytes: UnsafeBufferPointer<UInt8>, budgetNanoseconds: UInt64) -> Outcome {
        for literal in required {
            let found = literal.withUnsafeBufferPointer { needle in
                guard let base = bytes.baseAddress else { return false }
                return Bytes.contains(base, count: bytes.count, needle)
            }
            if !found { return .noMatch }
        }
        var vm = Machine(regex: self, bytes: bytes, budget: budgetNanoseconds)
        let n = bytes.count
        var start = 0
        while start <= n {
            if let leading, let base = bytes.baseAddress {
                // Only where the leading literal stands can a match start.
                let at = leading.bytes.withUnsafeBufferPointer { Bytes.firstIndex(of: $0, in: base, count: n, from: start + leading.offset) }
                guard let at else { return .noMatch }
                start = at - leading.offset
            } else if start < n, let starts = start == 0 ? firstBytes : laterBytes {
                // Skip to the next byte a match can start with.
                if start == 0, !starts[Int(bytes[0])] { start = 1 }
                if start > 0, let laterBytes { while start < n, !laterBytes[Int(bytes[start])] { start += 1 } }
                if start == n { return .noMatch }
            }
            switch vm.run(program, at: start) {
            case .matched: return .matched(vm.slots)
            case .failed: break
            case .timedOut: return .timedOut
            case .unsupported: return .unsupported
            }
            if anchored { return .noMatch }
            start += 1
            while start < n, bytes[start] & 0xC0 == 0x80 { start += 1 } // next code point
        }
        return .noMatch
    }

    fileprivate struct Instruction {
        enum Op: UInt8 {
            case bytes, any, set, bol, eol, wordBoundary, notWordBoundary, split, jump, save, lookahead, negativeLookahead, match
            /// A lazy loop over one character (`.*?`, `[^:]+?`): `a` is where the match goes on, `b` the
            /// loop's body (an `any` or `set`), `c` the table of bytes the going-on can start with.
            case lazyScan
        }
        var op: Op
        var a: Int32 = 0
        var b: Int32 = 0
        var c: Int32 = 0
        init(_ op: Op, _ a: Int = 0, _ b: Int = 0) {
            self.op = op
            self.a = Int32(a)
            self.b = Int32(b)
        }
    }

    /// Code and literal bytes in memory of their own, read by pointer in the hot loop (no bounds or
    /// reference-count work per step).
    fileprivate final class Program: @unchecked Sendable { // immutable after init
        let code: UnsafeMutableBufferPointer<Instruction>
        let literals: UnsafeMutableBufferPointer<UInt8>
        /// 256 entries for each `lazyScan`: 1 where the match after the loop can start with that byte.
        let scanTables: UnsafeMutableBufferPointer<UInt8>
        init(_ code: [Instruction], literals: [UInt8], sets: [ScalarSet]) {
            var code = code
            var tables: [UInt8] = []
            Program.addLazyScans(&code, literals: literals, sets: sets, tables: &tables)
            self.code = .allocate(capacity: code.count)
            _ = self.code.initialize(from: code)
            self.literals = .allocate(capacity: max(literals.count, 1))
            _ = self.literals.initialize(from: literals)
            scanTables = .allocate(capacity: max(tables.count, 1))
            _ = scanTables.initialize(from: tables)
        }
        deinit {
            code.deallocate()
            literals.deallocate()
            scanTables.deallocate()
        }

        /// A lazy loop over one character tries what follows it at every position, one character at a
        /// time, each try a split, a few steps and a backtrack. Where every way on opens with a byte
        /// from a known set, the positions whose byte is not in it cannot match, so `lazyScan` walks over
        /// them (checking the loop's character) and tries the rest in the same order.
        static func addLazyScans(_ code: inout [Instruction], literals: [UInt8], sets: [ScalarSet], tables: inout [UInt8]) {
            for loop in code.indices where code[loop].op == .split && loop + 2 < code.count {
                let body = loop + 1
                let exit = Int(code[loop].a)
                guard code[loop].b == Int32(body), code[body].op == .any || code[body].op == .set,
                      code[body + 1].op == .jump, code[body + 1].a == Int32(loop), exit == body + 2,
                      let first = firstBytes(of: code, from: exit, literals: literals, sets: sets) else { continue }
                code[loop] = Instruction(.lazyScan, exit, body)
                code[loop].c = Int32(tables.count / 256)
                tables.append(contentsOf: first.map { $0 ? 1 : 0 })
            }
        }

        /// Bytes every match from `pc` on starts with, or nil when that is not known here (it can match
        /// the empty string, looks around, or starts with any character).
        static func firstBytes(of code: [Instruction], from pc: Int, literals: [UInt8], sets: [ScalarSet]) -> [Bool]? {
            var table = [Bool](repeating: false, count: 256)
            var seen = Set<Int>()
            var pending = [pc]
            while let at = pending.popLast() {
                guard seen.insert(at).inserted else { continue }
                let ins = code[at]
                switch ins.op {
                case .save: pending.append(at + 1)
                case .jump: pending.append(Int(ins.a))
                case .split: pending.append(Int(ins.a)); pending.append(Int(ins.b))
                case .bytes:
                    guard ins.b > 0 else { return nil }
                    table[Int(literals[Int(ins.a)])] = true
                case .set:
                    let set = sets[Int(ins.a)]
                    for c in 0..<128 where set.contains(UInt32(c)) == true { table[c] = true }
                    for c in 0x80..<256 { table[c] = true } // a character beyond ASCII: decided by the loop itself
                case .any, .bol, .eol, .wordBoundary, .notWordBoundary, .lookahead, .negativeLookahead, .match, .lazyScan:
                    return nil
                }
            }
            return table
        }
    }

    fileprivate enum RunResult { case matched, failed, timedOut, unsupported }

    /// One match attempt's state: the backtracking stack and the group slots, reused across start positions.
    private struct Machine {
        let regex: ByteRegex
        let bytes: UnsafeBufferPointer<UInt8>
        let budget: UInt64
        var slots: [Int]
        /// Pending alternatives: (pc, position), or a slot to restore: (-1 - slot, old value).
        var stack: [(Int, Int)] = []
        var steps = 0
        var clockStart: UInt64 = 0

        init(regex: ByteRegex, bytes: UnsafeBufferPointer<UInt8>, budget: UInt64) {
            self.regex = regex
            self.bytes = bytes
            self.budget = budget
            slots = [Int](repeating: -1, count: regex.groupCount * 2)
            stack.reserveCapacity(64)
        }

        /// The time budget is checked every 65,536 steps, so a match that ends quickly never reads the clock.
        mutating func outOfTime() -> Bool {
            let now = DispatchTime.now().uptimeNanoseconds
            if clockStart == 0 { clockStart = now; return false }
            return now - clockStart > budget
        }

        mutating func run(_ program: Program, at start: Int) -> RunResult {
            let base = stack.count
            var pc = 0
            var pos = start
            let n = bytes.count
            let code = program.code
            let literals = program.literals
            let sets = regex.sets
            while true {
                steps &+= 1
                if steps & 0xFFFF == 0, outOfTime() { stack.removeSubrange(base...); return .timedOut }
                let ins = code[pc]
                var ok = true
                switch ins.op {
                case .bytes:
                    let length = Int(ins.b)
                    if pos + length <= n {
                        let offset = Int(ins.a)
                        var k = 0
                        while k < length, bytes[pos + k] == literals[offset + k] { k += 1 }
                        ok = k == length
                    } else {
                        ok = false
                    }
                    if ok { pos += length; pc += 1 }
                case .any:
                    if pos < n {
                        let (scalar, length) = ByteRegex.decode(bytes, at: pos)
                        ok = !ByteRegex.isLineTerminator(scalar)
                        if ok { pos += length; pc += 1 }
                    } else {
                        ok = false
                    }
                case .set:
                    if pos < n {
                        let (scalar, length) = ByteRegex.decode(bytes, at: pos)
                        switch sets[Int(ins.a)].contains(scalar) {
                        case true?: pos += length; pc += 1
                        case false?: ok = false
                        case nil: stack.removeSubrange(base...); return .unsupported
                        }
                    } else {
                        ok = false
                    }
                case .bol:
                    ok = pos == 0
                    if ok { pc += 1 }
                case .eol:
                    ok = ByteRegex.isEnd(bytes, at: pos)
                    if ok { pc += 1 }
                case .wordBoundary, .notWordBoundary:
                    guard let boundary = ByteRegex.isWordBoundary(bytes, at: pos) else { stack.removeSubrange(base...); return .unsupported }
                    ok = boundary == (ins.op == .wordBoundary)
                    if ok { pc += 1 }
                case .split:
                    stack.append((Int(ins.b), pos))
                    pc = Int(ins.a)
                case .jump:
                    pc = Int(ins.a)
                case .lazyScan:
                    // Walk over the characters where what follows cannot start, each one the loop's
                    // body must take, then try what follows (its alternative: one more character).
                    let table = program.scanTables.baseAddress! + Int(ins.c) * 256
                    let body = code[Int(ins.b)]
                    var q = pos
                    while q < n, table[Int(bytes[q])] == 0 {
                        let (scalar, length) = ByteRegex.decode(bytes, at: q)
                        if body.op == .any {
                            ok = !ByteRegex.isLineTerminator(scalar)
                        } else {
                            guard let inSet = sets[Int(body.a)].contains(scalar) else { stack.removeSubrange(base...); return .unsupported }
                            ok = inSet
                        }
                        if !ok { break }
                        q += length
                    }
                    if ok, q < n {
                        stack.append((Int(ins.b), q))
                        pos = q
                        pc = Int(ins.a)
                    } else {
                        ok = false
                    }
                case .save:
                    let slot = Int(ins.a)
                    stack.append((-1 - slot, slots[slot]))
                    slots[slot] = pos
                    pc += 1
                case .lookahead, .negativeLookahead:
                    // Atomic, like ICU's: the body's own alternatives are dropped once it has matched.
                    let saved = stack.count
                    let result = run(regex.lookaheads[Int(ins.a)], at: pos)
                    stack.removeSubrange(saved...)
                    switch result {
                    case .matched: ok = ins.op == .lookahead
                    case .failed: ok = ins.op == .negativeLookahead
                    case .timedOut, .unsupported: stack.removeSubrange(base...); return result
                    }
                    if ok { pc += 1 }
                case .match:
                    stack.removeSubrange(base...)
                    return .matched
                }
                if ok { continue }
                // Backtrack: restore slots until an alternative is found.
                while true {
                    guard stack.count > base else { return .failed }
                    let (target, value) = stack.removeLast()
                    if target < 0 {
                        slots[-1 - target] = value
                    } else {
                        pc = target
                        pos = value
                        break
                    }
                }
            }
        }
    }

    // MARK: - Characters

    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let b0 = UInt32(bytes[i])
        if b0 < 0x80 { return (b0, 1) }
        let n = bytes.count
        if b0 < 0xE0, i + 1 < n { return ((b0 & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F), 2) }
        if b0 < 0xF0, i + 2 < n { return ((b0 & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F), 3) }
        if i + 3 < n {
            return ((b0 & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6 | UInt32(bytes[i + 3] & 0x3F), 4)
        }
        return (0xFFFD, 1) // not reached on a String's (valid) UTF-8
    }

    /// ICU's line terminators: LF, VT, FF, CR, NEL, LS, PS.
    static func isLineTerminator(_ c: UInt32) -> Bool {
        (c >= 0x0A && c <= 0x0D) || c == 0x85 || c == 0x2028 || c == 0x2029
    }

    /// `$` without multi-line mode: the end, or before one line terminator (or CR LF) that ends the input.
    static func isEnd(_ bytes: UnsafeBufferPointer<UInt8>, at pos: Int) -> Bool {
        let n = bytes.count
        if pos == n { return true }
        let (c, length) = decode(bytes, at: pos)
        if pos + length == n { return isLineTerminator(c) }
        return c == 0x0D && pos + 2 == n && bytes[pos + 1] == 0x0A
    }

    /// `\b` for ASCII neighbours; nil when a neighbour is not ASCII (ICU's Unicode word set decides).
    static func isWordBoundary(_ bytes: UnsafeBufferPointer<UInt8>, at pos: Int) -> Bool? {
        var after = false
        if pos < bytes.count {
            let b = bytes[pos]
            guard b < 0x80 else { return nil }
            after = isWordByte(b)
        }
        var before = false
        if pos > 0 {
            let b = bytes[pos - 1]
            guard b < 0x80 else { return nil }
            before = isWordByte(b)
        }
        return after != before
    }

    static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }

    /// A character class: exact code-point ranges plus `\d`, `\w`, `\s` (and their negations), which
    /// are decided here for ASCII only.
    fileprivate struct ScalarSet: Sendable {
        var ascii: (UInt64, UInt64) = (0, 0)
        var ranges: [ClosedRange<UInt32>] = []
        /// The class holds a Unicode-wide escape (`\d`, `\W`, ...), so a non-ASCII character outside
        /// `ranges` is undecided here.
        var hasUnicodeClass = false
        var negated = false

        mutating func insertASCII(_ b: UInt32) {
            if b < 64 { ascii.0 |= 1 << UInt64(b) } else { ascii.1 |= 1 << UInt64(b - 64) }
        }

        mutating func insert(_ range: ClosedRange<UInt32>) {
            if range.lowerBound < 128 { for c in range.lowerBound...min(range.upperBound, 127) { insertASCII(c) } }
            if range.upperBound >= 128 { ranges.append(max(range.lowerBound, 128)...range.upperBound) }
        }

        /// `\d`, `\w`, `\s` (negated: `\D`, `\W`, `\S`) over ASCII.
        mutating func insertClass(_ kind: Unicode.Scalar, negated classNegated: Bool) {
            hasUnicodeClass = true
            for c in UInt32(0)..<128 where ScalarSet.asciiClass(kind, c) != classNegated { insertASCII(c) }
        }

        static func asciiClass(_ kind: Unicode.Scalar, _ c: UInt32) -> Bool {
            switch kind {
            case "d": return c >= 0x30 && c <= 0x39
            case "w": return c < 128 && ByteRegex.isWordByte(UInt8(c))
            default: return c == 0x20 || (c >= 0x09 && c <= 0x0D) // "s"
            }
        }

        @inline(__always)
        func contains(_ c: UInt32) -> Bool? {
            if c < 128 {
                let bit = c < 64 ? (ascii.0 >> UInt64(c)) & 1 : (ascii.1 >> UInt64(c - 64)) & 1
                return (bit == 1) != negated
            }
            for range in ranges where range.contains(c) { return !negated }
            if hasUnicodeClass { return nil }
            return negated
        }
    }

    // MARK: - Syntax

    fileprivate indirect enum Node {
        case empty
        case literal([Unicode.Scalar])
        case any
        case set(ScalarSet)
        case bol, eol, wordBoundary, notWordBoundary
        case group(Node, capture: Int?)
        case concat([Node])
        case alternation([Node])
        case repetition(Node, min: Int, max: Int?, greedy: Bool)
        case lookahead(Node, negated: Bool)

        var canBeEmpty: Bool {
            switch self {
            case .empty, .bol, .eol, .wordBoundary, .notWordBoundary, .lookahead: return true
            case .literal(let s): return s.isEmpty
            case .any, .set: return false
            case .group(let n, _): return n.canBeEmpty
            case .concat(let ns): return ns.allSatisfy(\.canBeEmpty)
            case .alternation(let ns): return ns.contains(where: \.canBeEmpty)
            case .repetition(let n, let min, _, _): return min == 0 || n.canBeEmpty
            }
        }

        /// Literal runs that every match of this node contains.
        func requiredLiterals() -> [[Unicode.Scalar]] {
            switch self {
            case .literal(let s): return s.isEmpty ? [] : [s]
            case .group(let n, _): return n.requiredLiterals()
            case .concat(let ns): return ns.flatMap { $0.requiredLiterals() }
            case .repetition(let n, let min, _, _): return min >= 1 ? n.requiredLiterals() : []
            default: return []
            }
        }

        var hasCapture: Bool {
            switch self {
            case .group(let n, let capture): return capture != nil || n.hasCapture
            case .concat(let ns), .alternation(let ns): return ns.contains(where: \.hasCapture)
            case .repetition(let n, _, _, _), .lookahead(let n, _): return n.hasCapture
            default: return false
            }
        }

        /// A literal of at least three bytes that every match has at a fixed byte offset from its start: what
        /// comes before it matches exactly one ASCII byte per item (`[Ss]ending ` gives `ending ` at 1). Items
        /// that could match a wider character (`\w`, `.`, a class with non-ASCII members) end the search.
        func leadingLiteral() -> (offset: Int, literal: [Unicode.Scalar])? {
            var atoms: [Node] = []
            func flatten(_ node: Node) {
                switch node {
                case .concat(let ns): ns.forEach(flatten)
                case .group(let n, _): flatten(n)
                default: atoms.append(node)
                }
            }
            flatten(self)
            var offset = 0
            for atom in atoms {
                switch atom {
                case .literal(let s):
                    let width = s.reduce(0) { $0 + String($1).utf8.count }
                    if width >= 3 { return (offset, s) }
                    guard s.allSatisfy(\.isASCII) else { return nil }
                    offset += width
                case .set(let set) where !set.negated && set.ranges.isEmpty && !set.hasUnicodeClass:
                    offset += 1
                default:
                    return nil
                }
            }
            return nil
        }

        var startsAnchored: Bool {
            switch self {
            case .bol: return true
            case .group(let n, _): return n.startsAnchored
            case .concat(let ns): return ns.first?.startsAnchored ?? false
            case .alternation(let ns): return !ns.isEmpty && ns.allSatisfy(\.startsAnchored)
            default: return false
            }
        }

        /// The bytes a match of this node can start with, and whether it can match empty (then the
        /// bytes of what follows count too). Assertions other than `^` give up (all bytes). With
        /// `atStart` false the match starts after the line's first byte, where `^` cannot hold: a
        /// branch that begins with it adds nothing (`(?:^|\s)error` then starts only with a space).
        func firstBytes(sets: [ScalarSet], atStart: Bool = true) -> (bytes: [Bool], nullable: Bool) {
            let all = [Bool](repeating: true, count: 256)
            var none = [Bool](repeating: false, count: 256)
            switch self {
            case .empty: return (none, true)
            case .bol: return (none, atStart)
            case .eol, .wordBoundary, .notWordBoundary, .lookahead: return (all, true)
            case .literal(let s):
                guard let first = s.first else { return (none, true) }
                none[Int(String(first).utf8.first!)] = true
                return (none, false)
            case .any: return (all, false)
            case .set(let set):
                guard !set.negated else { return (all, false) }
                for b in 0..<128 where set.contains(UInt32(b)) == true { none[b] = true }
                if !set.ranges.isEmpty || set.hasUnicodeClass { for b in 0xC0..<256 { none[b] = true } }
                return (none, false)
            case .group(let n, _): return n.firstBytes(sets: sets, atStart: atStart)
            case .repetition(let n, let min, _, _):
                let inner = n.firstBytes(sets: sets, atStart: atStart)
                return (inner.bytes, inner.nullable || min == 0)
            case .alternation(let ns):
                var nullable = false
                for n in ns {
                    let inner = n.firstBytes(sets: sets, atStart: atStart)
                    for b in 0..<256 where inner.bytes[b] { none[b] = true }
                    nullable = nullable || inner.nullable
                }
                return (none, nullable)
            case .concat(let ns):
                for n in ns {
                    let inner = n.firstBytes(sets: sets, atStart: atStart)
                    for b in 0..<256 where inner.bytes[b] { none[b] = true }
                    if !inner.nullable { return (none, false) }
                }
                return (none, true)
            }
        }
    }

    private struct Parser {
        let s: [Unicode.Scalar]
        var i = 0
        var valid = true
        var groupCount = 0
        var groupNames: [(String, Int)] = []

        init(_ s: [Unicode.Scalar]) { self.s = s }

        var atEnd: Bool { i >= s.count }
        func peek(_ k: Int = 0) -> Unicode.Scalar? { i + k < s.count ? s[i + k] : nil }

        mutating func parse() -> Node? {
            let node = parseAlternation()
            if !atEnd { valid = false } // an unbalanced `)`
            return valid ? node : nil
        }

        mutating func parseAlternation() -> Node {
            var branches = [parseConcat()]
            while peek() == "|" {
                i += 1
                branches.append(parseConcat())
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        mutating func parseConcat() -> Node {
            var items: [Node] = []
            while valid, let c = peek(), c != "|", c != ")" {
                guard let atom = parseAtom() else { valid = false; break }
                items.append(parseQuantifier(atom))
            }
            // Adjacent literals become one run of bytes.
            var merged: [Node] = []
            for item in items {
                if case .literal(let b) = item, case .literal(let a)? = merged.last {
                    merged[merged.count - 1] = .literal(a + b)
                } else {
                    merged.append(item)
                }
            }
            return merged.isEmpty ? .empty : merged.count == 1 ? merged[0] : .concat(merged)
        }

        mutating func parseQuantifier(_ atom: Node) -> Node {
            guard let c = peek() else { return atom }
            var min = 0
            var max: Int?
            switch c {
            case "*": i += 1
            case "+": i += 1; min = 1
            case "?": i += 1; max = 1
            case "{":
                guard let (lo, hi, length) = braces() else { valid = false; return atom }
                i += length
                min = lo
                max = hi
            default: return atom
            }
            switch atom { // a quantified assertion: left to ICU
            case .bol, .eol, .wordBoundary, .notWordBoundary, .lookahead: valid = false
            default: break
            }
            var greedy = true
            if peek() == "?" { greedy = false; i += 1 } else if peek() == "+" { valid = false } // possessive
            // A literal run repeats only its last character.
            if case .literal(let run) = atom, run.count > 1 {
                return .concat([.literal(Array(run.dropLast())), .repetition(.literal([run.last!]), min: min, max: max, greedy: greedy)])
            }
            return .repetition(atom, min: min, max: max, greedy: greedy)
        }

        /// `{n}`, `{n,}`, `{n,m}`: (n, m, characters consumed).
        func braces() -> (Int, Int?, Int)? {
            var k = i + 1
            func number() -> Int? {
                var value = 0
                var digits = 0
                while k < s.count, ("0"..."9").contains(s[k]) {
                    value = value * 10 + Int(s[k].value - 48)
                    digits += 1
                    k += 1
                }
                return digits > 0 && value <= 1000 ? value : nil
            }
            guard let lo = number() else { return nil }
            var hi: Int? = lo
            if k < s.count, s[k] == "," {
                k += 1
                hi = k < s.count && s[k] == "}" ? nil : number()
                if hi == nil, !(k < s.count && s[k] == "}") { return nil }
            }
            guard k < s.count, s[k] == "}", hi.map({ $0 >= lo }) ?? true else { return nil }
            return (lo, hi, k + 1 - i)
        }

        mutating func parseAtom() -> Node? {
            guard let c = peek() else { return nil }
            i += 1
            switch c {
            case ".": return .any
            case "^": return .bol
            case "$": return .eol
            case "[": return parseClass()
            case "(": return parseGroup()
            case "\\": return parseEscape()
            case "*", "+", "?", "{", ")", "]", "}": return nil // ICU rejects or reads these differently
            default: return .literal([c])
            }
        }

        mutating func parseGroup() -> Node? {
            var capture: Int?
            var look: Bool?
            if peek() == "?" {
                switch (peek(1), peek(2)) {
                case (":", _): i += 2
                case ("=", _): i += 2; look = false
                case ("!", _): i += 2; look = true
                case ("<", let n?) where n != "=" && n != "!":
                    i += 2
                    var name = ""
                    while let ch = peek(), ch != ">" { name.unicodeScalars.append(ch); i += 1 }
                    guard peek() == ">" else { return nil }
                    i += 1
                    groupCount += 1
                    capture = groupCount
                    groupNames.append((name, groupCount))
                default: return nil // lookbehind, atomic, inline flags, comments
                }
            } else {
                groupCount += 1
                capture = groupCount
            }
            let body = parseAlternation()
            guard valid, peek() == ")" else { return nil }
            i += 1
            if let negated = look { return .lookahead(body, negated: negated) }
            return .group(body, capture: capture)
        }

        /// An escape outside a class: a literal, a class escape or `\b`/`\B`.
        mutating func parseEscape() -> Node? {
            guard let c = peek() else { return nil }
            switch c {
            case "b": i += 1; return .wordBoundary
            case "B": i += 1; return .notWordBoundary
            case "d", "w", "s", "D", "W", "S":
                i += 1
                var set = ScalarSet()
                let lower = Unicode.Scalar(String(c).lowercased())!
                set.insertClass(lower, negated: false)
                set.negated = lower != c
                return .set(set)
            default:
                guard let scalar = escapedScalar() else { return nil }
                return .literal([scalar])
            }
        }

        /// The character an escape stands for (`\.`, `\t`, `\u2026`, `\x{1F6AB}`), or nil for any other escape.
        mutating func escapedScalar() -> Unicode.Scalar? {
            guard let c = peek() else { return nil }
            i += 1
            switch c {
            case "t": return "\t"
            case "n": return "\n"
            case "r": return "\r"
            case "f": return "\u{0C}"
            case "a": return "\u{07}"
            case "e": return "\u{1B}"
            case "u": return hex(count: 4)
            case "x":
                if peek() == "{" {
                    i += 1
                    var digits = ""
                    while let h = peek(), h != "}" { digits.unicodeScalars.append(h); i += 1 }
                    guard peek() == "}", !digits.isEmpty, digits.count <= 6, let v = UInt32(digits, radix: 16) else { return nil }
                    i += 1
                    return Unicode.Scalar(v)
                }
                return hex(count: 2)
            default:
                // ICU: a backslash before anything but a letter or digit quotes it.
                if c.properties.isAlphabetic || c.properties.numericType != nil || c.value > 127 { return nil }
                return c
            }
        }

        mutating func hex(count: Int) -> Unicode.Scalar? {
            guard i + count <= s.count else { return nil }
            let digits = String(String.UnicodeScalarView(s[i..<(i + count)]))
            guard let v = UInt32(digits, radix: 16) else { return nil }
            i += count
            return Unicode.Scalar(v)
        }

        mutating func parseClass() -> Node? {
            var set = ScalarSet()
            if peek() == "^" { set.negated = true; i += 1 }
            guard peek() != "]" else { return nil } // `[]` and `[^]`: ICU's reading differs
            while let c = peek(), c != "]" {
                var low: Unicode.Scalar
                switch c {
                case "[", "&": return nil // nested sets, intersections, POSIX names
                case "\\":
                    i += 1
                    guard let e = peek() else { return nil }
                    if ["d", "w", "s", "D", "W", "S"].contains(e) {
                        i += 1
                        let lower = Unicode.Scalar(String(e).lowercased())!
                        set.insertClass(lower, negated: lower != e)
                        // `[\w-]` is a dash; `[\w-x]` is read by ICU in ways not copied here.
                        if peek() == "-", peek(1) != "]" { return nil }
                        continue
                    }
                    guard let scalar = escapedScalar() else { return nil }
                    low = scalar
                default:
                    i += 1
                    low = c
                }
                // A range `a-z` (a `-` before `]` is itself).
                if peek() == "-", let next = peek(1), next != "]" {
                    i += 1
                    var high: Unicode.Scalar
                    if next == "\\" {
                        i += 1
                        guard let scalar = escapedScalar() else { return nil }
                        high = scalar
                    } else if next == "[" {
                        return nil
                    } else {
                        i += 1
                        high = next
                    }
                    guard low.value <= high.value else { return nil }
                    set.insert(low.value...high.value)
                } else {
                    set.insert(low.value...low.value)
                }
            }
            guard peek() == "]" else { return nil }
            i += 1
            return .set(set)
        }
    }

    private struct Compiler {
        var literals: [UInt8] = []
        var sets: [ScalarSet] = []
        var lookaheadBodies: [[Instruction]] = []

        /// Left to ICU: a loop that can repeat an empty match (it would never end here) and a capture
        /// inside a lookahead (ICU keeps it, this matcher would not).
        func validate(_ node: Node) -> Bool {
            switch node {
            case .repetition(let n, _, let max, _):
                if max == nil, n.canBeEmpty { return false }
                return validate(n)
            case .lookahead(let n, _): return !n.hasCapture && validate(n)
            case .group(let n, _): return validate(n)
            case .concat(let ns), .alternation(let ns): return ns.allSatisfy(validate)
            default: return true
            }
        }

        mutating func compile(_ node: Node, wrapped: Bool) -> [Instruction] {
            var code: [Instruction] = []
            if wrapped { code.append(Instruction(.save, 0)) }
            emit(node, into: &code)
            if wrapped { code.append(Instruction(.save, 1)) }
            return code
        }

        mutating func emit(_ node: Node, into code: inout [Instruction]) {
            switch node {
            case .empty: break
            case .literal(let scalars):
                var bytes: [UInt8] = []
                for scalar in scalars { bytes.append(contentsOf: Array(String(scalar).utf8)) }
                code.append(Instruction(.bytes, literals.count, bytes.count))
                literals.append(contentsOf: bytes)
            case .any: code.append(Instruction(.any))
            case .set(let set):
                code.append(Instruction(.set, sets.count))
                sets.append(set)
            case .bol: code.append(Instruction(.bol))
            case .eol: code.append(Instruction(.eol))
            case .wordBoundary: code.append(Instruction(.wordBoundary))
            case .notWordBoundary: code.append(Instruction(.notWordBoundary))
            case .group(let body, let capture):
                if let capture { code.append(Instruction(.save, capture * 2)) }
                emit(body, into: &code)
                if let capture { code.append(Instruction(.save, capture * 2 + 1)) }
            case .concat(let nodes):
                for n in nodes { emit(n, into: &code) }
            case .alternation(let branches):
                var jumps: [Int] = []
                for (k, branch) in branches.enumerated() {
                    if k < branches.count - 1 {
                        let split = code.count
                        code.append(Instruction(.split))
                        code[split].a = Int32(code.count)
                        emit(branch, into: &code)
                        jumps.append(code.count)
                        code.append(Instruction(.jump))
                        code[split].b = Int32(code.count)
                    } else {
                        emit(branch, into: &code)
                    }
                }
                for j in jumps { code[j].a = Int32(code.count) }
            case .repetition(let body, let min, let max, let greedy):
                for _ in 0..<min { emit(body, into: &code) }
                if let max {
                    // Each optional copy: split to the body or past it; a failed copy skips the rest.
                    var exits: [Int] = []
                    for _ in min..<max {
                        exits.append(code.count)
                        code.append(Instruction(.split))
                        let bodyStart = code.count
                        emit(body, into: &code)
                        code[exits.last!].a = Int32(bodyStart)
                    }
                    for e in exits { setSplit(&code[e], body: Int(code[e].a), exit: code.count, greedy: greedy) }
                } else {
                    let loop = code.count
                    code.append(Instruction(.split))
                    emit(body, into: &code)
                    code.append(Instruction(.jump, loop))
                    setSplit(&code[loop], body: loop + 1, exit: code.count, greedy: greedy)
                }
            case .lookahead(let body, let negated):
                var sub: [Instruction] = []
                emit(body, into: &sub)
                sub.append(Instruction(.match))
                code.append(Instruction(negated ? .negativeLookahead : .lookahead, lookaheadBodies.count))
                lookaheadBodies.append(sub)
            }
        }

        func setSplit(_ ins: inout Instruction, body: Int, exit: Int, greedy: Bool) {
            ins.a = Int32(greedy ? body : exit)
            ins.b = Int32(greedy ? exit : body)
        }
    }
}
