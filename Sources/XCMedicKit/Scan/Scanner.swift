import Foundation

/// The one-pass streaming scan: chunks of lines in, findings out.
///
/// Per chunk the prefilter walks the bytes looking for any rule's literal; a line without one costs
/// only that walk. A line with one is decoded, stripped of CI and formatter prefixes, and tried
/// against the regexes of the rules whose literal it holds, in priority order; the first rule that
/// matches claims it. Error-looking lines no rule claims become `unrecognized` findings.
public final class Scanner {
    public let ruleSet: RuleSet
    /// Bytes read at a time; memory use is about this plus the longest line kept (`LogReader.maxLineBytes`).
    public var chunkBytes = LogReader.defaultChunkBytes
    private var collector = FindingCollector()
    private var testReader = TestRunReader()
    private var invocationReaders: [InvocationReader] = []
    private var inputs: [Diagnosis.Input] = []
    private var open: OpenBlock?
    private var present: [Int] = []
    /// Set when a line handled the line after it too (a level word alone and its message): the end and number of
    /// the last line handled, where the chunk's walk goes on.
    private var handledThrough: (end: Int, line: Int)?
    /// The end of the previous chunk (whole lines), so a failed step can be read back across chunks.
    private var previousTail: [UInt8] = []
    static let keptTailBytes = 64 * 1024
    /// The chunk and line being matched, for reading back the lines before it.
    private var currentBase: UnsafePointer<UInt8>?
    private var currentLineStart = 0
    private var currentLineEnd = 0
    private var currentChunkEnd = 0
    private var currentLineNumber = 0
    /// The lines last made into a `LogLine` (chunk, start, end), newest first: the lines below an error
    /// are read to see whether they continue its message, then as its block, then for their own
    /// literals, and are built once.
    private var recentLines: [(base: UnsafePointer<UInt8>, start: Int, end: Int, line: LogLine)] = []
    private static let recentLineCount = 4
    /// Line number of the last error-severity root cause in the current input (0: none yet).
    private var lastCauseLine = 0
    /// Line number of the last error no rule recognised in the current input (0: none yet).
    private var lastUnrecognizedLine = 0
    /// How many errors no rule knows were looked up for the GitHub Actions step they were printed in (`githubStep`).
    private var actionLookups = 0
    static let maxActionLookups = 20
    /// Sentences that say something failed, on lines nothing else claimed (`ScanMarkers.failureStatement`):
    /// the log's verdict when it has no error and no success (`readStatementsIfNoVerdict`).
    private var statements: [(line: LogLine, following: [String], lineNumber: Int, input: Int)] = []
    /// Findings of last-resort rules recorded as warnings from lines with no level of their own (`record`).
    private var lastResortEvidence: Set<Int> = []
    private static let maxStatements = 3
    /// The time the user's own rules may take; the ones switched off.
    private var budget: RuleTimeBudget
    /// What a structured reader said of each line of the current chunk (line-level entry only).
    private var structured: StructuredChunk?

    /// The lines of a chunk the line-level entry built, with their kind, level, location and step.
    private struct StructuredChunk {
        var firstLine: Int
        var lines: [StructuredLine]

        /// The record of a line (its text replaced by nothing: the chunk's bytes hold it).
        func line(_ number: Int) -> StructuredLine? {
            let i = number - firstLine
            return i >= 0 && i < lines.count ? lines[i] : nil
        }
    }

    /// The lines after a match that still belong to it.
    private struct OpenBlock {
        var finding: Int
        var keepExcerpt: Bool
        var rule: CompiledRule?
        var remaining: Int
        /// The line before was blank: a list pasted with a blank line between its items goes on over one blank line, not two.
        var blankBefore = false
    }

    public init(ruleSet: RuleSet) {
        self.ruleSet = ruleSet
        budget = RuleTimeBudget(ruleCount: ruleSet.compiled.count)
    }

    /// Scans one input to its end. `rawObserver` sees every byte as read (pipe mode).
    public func scan(_ source: ByteSource, rawObserver: ((UnsafeRawBufferPointer) -> Void)? = nil) throws {
        let reader = LogReader(source: source, chunkBytes: chunkBytes)
        reader.rawObserver = rawObserver
        budget.start()
        let inputIndex = inputs.count
        var detector = DialectDetector()
        open = nil
        previousTail = []
        lastCauseLine = 0
        lastUnrecognizedLine = 0
        actionLookups = 0
        invocationReaders.append(InvocationReader())
        try reader.forEachChunk { chunk in
            if detector.wantsMore { detector.observe(chunk.bytes) }
            process(chunk, input: inputIndex)
            keepTail(chunk)
        }
        open = nil
        currentBase = nil
        inputs.append(Diagnosis.Input(path: source.name, bytes: reader.bytesRead, lines: reader.lineCount, dialect: detector.dialect,
                                      lastLines: lastLines()))
        previousTail = []
    }

    public func scan(path: String, rawObserver: ((UnsafeRawBufferPointer) -> Void)? = nil) throws {
        switch try LogInput.reader(path) {
        case .text(let source): try scan(source, rawObserver: rawObserver)
        case .lines(let lines): try scan(lines: lines, rawObserver: rawObserver)
        }
    }

    /// The line-level entry: scans lines a structured reader decoded (an activity log, a result bundle),
    /// taking each message's level and source location from the record and each line's step from its
    /// section, instead of parsing them out of rendered text. The lines go through the same judge as
    /// text does, a chunk at a time, so memory stays bounded by the chunk size. `rawObserver` sees the
    /// lines' text (pipe mode).
    public func scan(lines source: LineSource, rawObserver: ((UnsafeRawBufferPointer) -> Void)? = nil) throws {
        budget.start()
        let inputIndex = inputs.count
        open = nil
        previousTail = []
        lastCauseLine = 0
        lastUnrecognizedLine = 0
        actionLookups = 0
        invocationReaders.append(InvocationReader())
        var bytes: [UInt8] = []
        bytes.reserveCapacity(chunkBytes + 4096)
        var records: [StructuredLine] = []
        var firstLine = 1
        var total = 0
        func flush() {
            guard !records.isEmpty else { return }
            let count = bytes.count
            bytes.append(contentsOf: [0, 0, 0, 0, 0, 0, 0, 0]) // the prefilter reads up to 8 bytes past a chunk
            structured = StructuredChunk(firstLine: firstLine, lines: records)
            bytes.withUnsafeBufferPointer { all in
                let chunk = LogChunk(bytes: UnsafeBufferPointer(rebasing: all[0..<count]), firstLine: firstLine, continuesLine: false)
                rawObserver?(UnsafeRawBufferPointer(chunk.bytes))
                process(chunk, input: inputIndex)
                keepTail(chunk)
            }
            total += count
            firstLine += records.count
            bytes.removeAll(keepingCapacity: true)
            records.removeAll(keepingCapacity: true)
        }
        defer {
            structured = nil
            open = nil
            currentBase = nil
            previousTail = []
        }
        while let line = try source.next() {
            // One record per physical line: a message's later lines are text of the same step.
            var first = true
            for part in line.text.split(separator: "\n", omittingEmptySubsequences: false) {
                let text = part.last == "\r" ? part.dropLast() : part
                bytes.append(contentsOf: text.prefix(LogReader.maxLineBytes).utf8)
                bytes.append(0x0A)
                var record = first ? line : StructuredLine.output("", step: line.step)
                record.text = ""
                records.append(record)
                first = false
            }
            if bytes.count >= chunkBytes { flush() }
        }
        flush()
        inputs.append(Diagnosis.Input(path: source.name, bytes: total, lines: firstLine - 1, dialect: "xcode-record", lastLines: lastLines()))
    }

    public func scan(text: String, name: String = "-") throws {
        try scan(ByteSource(name: name, bytes: Array(text.utf8)))
    }

    public func finish() -> Diagnosis {
        collector.placeOutsideBuild(xcodeBuildShown: collector.findings.contains(where: Scanner.isXcodeBuildWrapper))
        explainFailedCommandsList()
        readStatementsIfNoVerdict()
        collector.classifyUnrecognized()
        collector.sawTests = testReader.sawTests
        var diagnosis = collector.diagnosis(inputs: inputs)
        let crashed = diagnosis.findings.contains { $0.category == FindingCategory.testRunnerCrash && $0.severity == .error }
        diagnosis.tests = testReader.finish(crashed: crashed)
        diagnosis.invocations = invocationReaders.map { $0.finish(testTargets: diagnosis.tests.bundles) }
        diagnosis.fillFixes()
        return diagnosis
    }

    /// The last meaningful lines of the input just read, oldest first, from the tail kept of its last chunk (not the
    /// commands a step ran, banners or separators: what it printed).
    private func lastLines() -> [String] {
        var lines: [String] = []
        var tail = previousTail
        if let last = tail.last, last != 0x0A { tail.append(0x0A) } // a log's last line without a newline
        tail.withUnsafeBufferPointer { tail in
            guard let base = tail.baseAddress, tail.count > 0 else { return }
            PrecedingLines(base: base, before: tail.count, previous: []).walk(maxLines: 400) { line in
                if !FailedStep.isNoise(line.text) { lines.append(FindingCollector.clip(line.raw)) }
                return lines.count < Diagnosis.maxEndLines
            }
        }
        return lines.reversed()
    }

    /// Keeps the last whole lines of a chunk (up to `keptTailBytes`) for reading back across chunks.
    private func keepTail(_ chunk: LogChunk) {
        guard let base = chunk.bytes.baseAddress, chunk.bytes.count > 0 else { return }
        let count = chunk.bytes.count
        var from = max(0, count - Scanner.keptTailBytes)
        if from > 0 {
            guard let lf = memchr(base + from, 0x0A, count - from) else { previousTail = []; return }
            from = UnsafeRawPointer(lf) - UnsafeRawPointer(base) + 1
        }
        if count - from + previousTail.count <= Scanner.keptTailBytes, from == 0 {
            previousTail.append(contentsOf: chunk.bytes) // small chunks: keep the earlier ones too
            if previousTail.count > Scanner.keptTailBytes { previousTail.removeFirst(previousTail.count - Scanner.keptTailBytes) }
        } else {
            previousTail = Array(UnsafeBufferPointer(start: base + from, count: count - from))
        }
    }

    // MARK: - Chunks and lines

    private func process(_ chunk: LogChunk, input: Int) {
        guard let base = chunk.bytes.baseAddress, chunk.bytes.count > 0 else { return }
        let end = chunk.bytes.count
        currentChunkEnd = end
        recentLines.removeAll(keepingCapacity: true) // the reader reuses its buffer
        var pos = 0
        var lineNumber = chunk.firstLine
        var counted = 0
        let prefilter = ruleSet.prefilter

        while pos < end {
            if open != nil {
                let lineEnd = Scanner.lineEnd(base, from: pos, end: end)
                let blockRule = open?.rule
                if continueBlock(base, lineStart: pos, lineEnd: lineEnd, end: end, lineNumber: lineNumber) {
                    // A rule's block (a symbol list, failed commands) may hold a line another rule names:
                    // it still gets its own finding. Compiler context (box, notes, carets) never does.
                    if let blockRule {
                        processLine(base, from: pos, to: lineEnd, lineNumber: lineNumber, input: input, skipping: blockRule)
                    }
                    pos = lineEnd + 1
                    lineNumber += 1
                    counted = pos
                    continue
                }
                open = nil
            }
            guard let hit = prefilter.firstHit(base, from: pos, to: end, paddedEnd: true) else { break }
            let lineStart = Scanner.lineStart(base, before: hit.position, notBefore: pos)
            lineNumber += Scanner.countNewlines(base, from: counted, to: lineStart)
            counted = lineStart
            var lineEnd = Scanner.lineEnd(base, from: hit.position, end: end)
            processLine(base, from: lineStart, to: lineEnd, lineNumber: lineNumber, input: input)
            if let (through, number) = handledThrough {
                handledThrough = nil
                lineEnd = through
                lineNumber = number
            }
            pos = lineEnd + 1
            if lineEnd < end {
                lineNumber += 1
                counted = pos
            } else {
                counted = end
            }
        }
    }

    private func processLine(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, lineNumber: Int, input: Int,
                             skipping blockRule: CompiledRule? = nil, levelAbove: Bool = false) {
        present.removeAll(keepingCapacity: true)
        ruleSet.prefilter.literalsPresent(base, from: start, to: end, into: &present)
        if present.isEmpty {
            // (Found by a level word's literal, which ends past the line's bytes. A block's own lines are walked by the
            // block, which does not skip the line after one.)
            guard levelAbove else {
                if blockRule == nil { levelWordAlone(base, from: start, to: end, lineNumber: lineNumber, input: input) }
                return
            }
        }
        // Most lines of a test log are a test's own start or pass line, which no rule wants: read without a
        // LogLine when nothing else is on it and it has no prefix to take off.
        if structured == nil, !levelAbove, present.allSatisfy({ ruleSet.roles[$0].contains(.testOnly) }) {
            if let test = Scanner.swiftTestingResult(base, from: start, to: end) {
                // (Read without its glyph, as `LogLine` gives it: the test's line is then all ASCII.)
                testReader.observe(Scanner.decode(base, from: test, to: end), line: lineNumber, input: input)
                return
            }
            let raw = Scanner.decode(base, from: start, to: end)
            if raw.hasPrefix("Test Case '") || raw.hasPrefix("Test case '") {
                testReader.observe(raw, line: lineNumber, input: input)
                return
            }
        }
        var line = logLine(base, from: start, to: end, number: lineNumber)
        if levelAbove { line.prefixLevel = .error } // (`levelWordAlone` took only a line with no level or header)
        currentBase = base
        currentLineStart = start
        currentLineEnd = end
        // Test results and the invocation are read from a line whatever else it is (a fastlane table row looks
        // like a box line); they claim nothing.
        if present.contains(where: { ruleSet.roles[$0].contains(.test) }) { testReader.observe(line.text, line: lineNumber, input: input) }
        if blockRule == nil, present.contains(where: { ruleSet.roles[$0].contains(.invocation) }) {
            invocationReaders[input].observe(line.text, following: { self.followingTexts(max: 200) })
        }
        // Box lines repeat the header above them; one with a diagnostic but no header in the log
        // (`swift build 2>&1 | tail`) is the message itself. A table's title row is not a box line. A note is
        // context, never a finding.
        if line.isBoxLine && !line.boxed && !line.isTableTitle { return }
        if line.level == .note && (line.header != nil || line.boxed) { return }
        currentBase = base
        currentLineStart = start
        currentLineEnd = end
        currentLineNumber = lineNumber

        var candidates: [Int] = []
        var roles: RuleSet.Roles = []
        for literal in present {
            candidates.append(contentsOf: ruleSet.rulesByLiteral[literal])
            roles.formUnion(ruleSet.roles[literal])
        }
        let errorMarker = roles.contains(.error), successMarker = roles.contains(.success), statementMarker = roles.contains(.statement)

        candidates.sort()
        var previous = -1
        // A wrapper's reading of the line (`The operation couldn’t be completed.`) gives way to a rule that names a
        // cause on the same line (`Main.storyboard: error: The document could not be opened. The operation …`);
        // not to a catch-all, which names less.
        var wrapper: (CompiledRule, [String: String])?
        // A cause of the last resort (a warning that explains a failure only when something else proves one) leaves the
        // line's wrapper standing: Carthage's `Task failed with exit code 65:` is both its reason and the failure's evidence.
        var lastResortCause = false
        var lastResortIndex: Int? // its finding (none past the findings' limit)
        for r in candidates where r != previous {
            previous = r
            let compiled = ruleSet.compiled[r]
            if compiled === blockRule { return } // the block's own lines belong to its finding
            if budget.isOff[r] { continue }
            if lastResortCause, compiled.rule.role != .symptom { continue }
            if wrapper != nil, compiled.rule.role != .cause || compiled.rule.catchAll { continue }
            switch match(r, line, lineNumber: lineNumber, input: input) {
            case .matched(let captures) where compiled.rule.role == .symptom && lastResortCause:
                if let cause = lastResortIndex { collector.readOffStatus.insert(cause) }
                record(compiled, captures: captures, line: line, lineNumber: lineNumber, input: input)
                return
            case .matched(let captures) where compiled.rule.role == .symptom && wrapper == nil:
                wrapper = (compiled, captures)
            case .matched(let captures) where compiled.rule.role == .cause && compiled.rule.lastResort && compiled.rule.severity == .warning:
                let cause = record(compiled, captures: captures, line: line, lineNumber: lineNumber, input: input)
                guard let (symptom, symptomCaptures) = wrapper else {
                    lastResortCause = true
                    lastResortIndex = cause
                    continue
                }
                if let cause { collector.readOffStatus.insert(cause) }
                record(symptom, captures: symptomCaptures, line: line, lineNumber: lineNumber, input: input)
                return
            case .matched(let captures):
                // A message a terminal or a paste cut (`error: reference to var 'stderr'` / `  is not
                // concurrency-safe …`) is named by what it says whole, not by the rule for any error.
                if compiled.rule.catchAll, line.header != nil,
                   matchContinued(line, indented: false, lineNumber: lineNumber, input: input, skipping: compiled) { return }
                // Expo's and React Native's xcpretty print the location alone (`❌  (ios/App.swift:795:13)`) and the
                // compiler's message under the caret of the code frame below it: that message names the failure.
                if compiled.rule.catchAll, let file = captures["file"], let row = captures["line"], captures["message"]?.first == "(",
                   let message = codeFrameMessage() {
                    let column = captures["column"].map { ":\($0)" } ?? ""
                    let whole = LogLine(raw: "\(file):\(row)\(column): error: \(message)")
                    if matchMessage(whole, lineNumber: lineNumber, input: input, skipping: compiled) { return }
                }
                record(compiled, captures: captures, line: line, lineNumber: lineNumber, input: input)
                return
            case .timedOut:
                recordTimeout(compiled.rule, line: line, lineNumber: lineNumber, input: input)
            case .noMatch:
                continue
            }
        }
        if lastResortCause { return }
        if let (compiled, captures) = wrapper {
            record(compiled, captures: captures, line: line, lineNumber: lineNumber, input: input)
            return
        }
        // A line that says a run passed is never an error, whatever glyph it has (Swift Testing marks a
        // passing run with known issues with ✘).
        // A message pasted alone and wrapped mid-sentence (`Non-sendable type 'X' returned by implicitly asynchronous`
        // / ` call to nonisolated function cannot cross actor boundary`) is tried whole.
        // (Pasted without indentation too, when the next line opens with a lower-case word: `Main actor-isolated
        // conformance of 'X' to 'Decodable'` / `cannot satisfy conformance requirement for a 'Sendable' type parameter`;
        // or with a quoted name, where a narrow terminal broke the line before it: `Provisioning profile "P" has app ID` /
        // `"com.a.b.keyboard", which does not match the bundle ID` / `"com.a.b".`)
        if line.level == nil, Scanner.endsMidSentence(line.text),
           matchContinued(line, indented: true, lineNumber: lineNumber, input: input, skipping: blockRule)
            || matchContinued(line, indented: false, lowerCase: true, lineNumber: lineNumber, input: input, skipping: blockRule) { return }
        // The literal may be on the wrapped part: the line before is then the message's start. (Unindented too, when the
        // part opens with a quoted name, and with the next line when that one opens with a word or a quoted name too.)
        let indentedPart = line.level == nil && Scanner.continuesMessage(line.raw)
        let quotedPart = line.level == nil && !indentedPart && Scanner.opensWithQuotedName(line.text)
            && Scanner.continuesMessage(line, indented: false)
        if indentedPart || quotedPart, let start = previousLine(), start.level == nil,
           start.header == nil, start.text.last?.isLetter == true,
           matchWrapped(start, following: [structured == nil ? line : LogLine(raw: line.raw)]
                            + (quotedPart ? followingLines(max: 1, while: { Scanner.opensWithWordOrQuotedName($0.text) && Scanner.continuesMessage($0, indented: false) }) : []),
                        lineNumber: lineNumber - 1, input: input, skipping: blockRule) { return }
        if successMarker, ScanMarkers.success.matches(line.text) {
            collector.sawSuccess = true
            if ScanMarkers.finalSuccess.matches(line.text) { collector.lastSuccess[input] = lineNumber }
            if collector.delivered[input] == nil, ScanMarkers.delivered.matches(line.text) { collector.delivered[input] = lineNumber }
        } else if line.level == .error || (errorMarker && line.level != .warning && ScanMarkers.errorLike.matches(line.text)) {
            // The lines after it, read once: a wrapped message's rest, or context for its excerpt.
            let following = followingLines(max: 3)
            if matchWrapped(line, following: Array(following.prefix(2)), lineNumber: lineNumber, input: input, skipping: blockRule) { return }
            recordUnrecognized(line, following: following.map(\.raw), lineNumber: lineNumber, input: input)
        } else if statementMarker, statements.count < Scanner.maxStatements, line.level != .warning, line.level != .note,
                  !statements.contains(where: { $0.input == input && lineNumber > $0.lineNumber && lineNumber <= $0.lineNumber + $0.following.count }),
                  ScanMarkers.failureStatement.matches(line.text), !line.text.contains("this is an error in "),
                  !ScanMarkers.retrying.matches(line.text) {
            // (A line the statement above already quotes as its continuation is not a statement of its own.)
            // (`…; this is an error in the Swift 6 language mode` is Swift 5 mode's warning, pasted without its level; a line
            // that says it tries again, fastlane's `Command timed out after 192 seconds on try 6 of 11, trying again …`, is not
            // the run's end.)
            statements.append((line, followingLines(max: 2).prefix { Scanner.continuesMessage($0, indented: true) }.map(\.raw), lineNumber, input))
        }
    }

    /// A level word alone on its line (`Error`, as Xcode's issue navigator and Xcode Cloud's log view copy an issue):
    /// the first line below it that is not blank (within two) is its message, read as an error line, unless that line
    /// has a level or a compiler header of its own.
    private func levelWordAlone(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, lineNumber: Int, input: Int) {
        guard structured == nil, end - start <= 64, end < currentChunkEnd,
              ["Error", "error", "ERROR"].contains(LogLine(raw: Scanner.decode(base, from: start, to: end)).text) else { return }
        var next = end + 1, number = lineNumber + 1, blanks = 0
        while next < currentChunkEnd {
            let nextEnd = Scanner.lineEnd(base, from: next, end: currentChunkEnd)
            if Scanner.isBlank(base, from: next, to: nextEnd) {
                blanks += 1
                guard blanks <= 2, nextEnd < currentChunkEnd else { return }
                next = nextEnd + 1
                number += 1
                continue
            }
            // (Built through the cache, so `processLine` reads the same `LogLine` again.)
            let message = logLine(base, from: next, to: nextEnd, number: number)
            guard message.level == nil, message.header == nil, !message.text.isEmpty else { return }
            processLine(base, from: next, to: nextEnd, lineNumber: number, input: input, levelAbove: true)
            handledThrough = (nextEnd, number)
            return
        }
    }

    /// A log with no error line and no mark of success (a message pasted alone, a log cut before its end)
    /// is not a green build when a line in it says something failed: the first such sentences become
    /// errors no rule names (their words may still point at a category, `classifyUnrecognized`), and so do
    /// the NSError dumps no rule names (`FindingCollector.raiseLastResortWarnings`).
    ///
    /// A log whose only errors are wrappers (fastlane's lane context, an exit status) says it failed but not why:
    /// its failure sentences are read too (`Operation timed out - SSL_connect` above fastlane's summary).
    private func readStatementsIfNoVerdict() {
        guard !collector.sawSuccess, !collector.findings.contains(where: { $0.severity == .error && $0.role != .symptom }) else { return }
        if !collector.findings.contains(where: { $0.severity == .error }) { collector.raiseLastResortWarnings(lastResortEvidence) }
        guard !statements.isEmpty else { return }
        for statement in statements {
            let occurrence = Occurrence(line: statement.lineNumber, input: statement.input, location: statement.line.header?.location)
            guard let (index, first) = collector.add(
                rule: nil, captures: [:], message: statement.line.header?.message ?? statement.line.text, severity: .error,
                occurrence: occurrence, excerptLine: statement.line.raw, errorInSwift6: false
            ), first else { continue }
            for next in statement.following { collector.appendExcerpt(index, next) }
            collector.describeStatement(index)
        }
        statements = []
    }

    /// The line at `base[start..<end]`, built once however many times it is asked for in a row.
    private func logLine(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, number: Int) -> LogLine {
        if let hit = recentLines.first(where: { $0.base == base && $0.start == start && $0.end == end }) { return hit.line }
        let line = logLine(Scanner.decode(base, from: start, to: end), number: number)
        if recentLines.count == Scanner.recentLineCount { recentLines.removeLast() }
        recentLines.insert((base, start, end, line), at: 0)
        return line
    }

    /// The line at `base[start..<end]` read from its text alone (a structured reader's record aside).
    private func textLine(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> LogLine {
        // Without a structured reader a line is its text: the same `LogLine` as `logLine` builds.
        guard structured == nil else { return LogLine(raw: Scanner.decode(base, from: start, to: end)) }
        return logLine(base, from: start, to: end, number: 0)
    }

    /// The line as the judge sees it: from its text, or for a structured reader's message, with the
    /// level and location of its record.
    private func logLine(_ raw: String, number: Int) -> LogLine {
        guard let record = structured?.line(number), record.kind == .message else { return LogLine(raw: raw) }
        return LogLine(message: raw, level: record.level, location: record.location)
    }

    /// The rules tried on the line joined with the (up to two) lines below that go on with its message
    /// (`continuesMessage`); false when none does or no rule names the whole.
    private func matchContinued(_ line: LogLine, indented: Bool, lowerCase: Bool = false, lineNumber: Int, input: Int,
                                skipping rule: CompiledRule?) -> Bool {
        // Unindented, a line that holds a literal of this line's own candidates is a message of its own, not the rest
        // of this one (`boom aaa` / `boom aaa`).
        let literals = lowerCase ? present.map { ruleSet.prefilter.literals[$0] } : []
        let continued = followingLines(max: 2, while: { next in
            Scanner.continuesMessage(next, indented: indented)
                && (!lowerCase || Scanner.opensWithWordOrQuotedName(next.text))
                && !literals.contains { Bytes.contains(next.raw, $0) }
        })
        return !continued.isEmpty && matchWrapped(line, following: Array(continued), lineNumber: lineNumber, input: input, skipping: rule)
    }

    /// An error line no rule knows may be the first part of a message a terminal or a paste wrapped
    /// (`…cannot be opened because it is in a future` / `Xcode project file format (77).`, a header
    /// whose message is on the next line): the rules are tried once more on it joined with the lines
    /// that continue it.
    private func matchWrapped(_ line: LogLine, following parts: [LogLine], lineNumber: Int, input: Int, skipping blockRule: CompiledRule?) -> Bool {
        guard !parts.isEmpty else { return false }
        let joined = ([line.raw] + parts.map(\.text)).joined(separator: " ")
        // A following line that is a whole message of its own is its own finding, not a continuation.
        return matchMessage(LogLine(raw: joined), lineNumber: lineNumber, input: input, skipping: blockRule, catchAll: true) { r in
            parts.contains { if case .matched = self.match(r, $0, lineNumber: lineNumber, input: input) { return true } else { return false } }
        }
    }

    /// The rules that name a cause (not `skipping`, not the catch-all unless `catchAll`, not one `passes` over), tried on
    /// a message the scanner put together; the first that matches records it.
    private func matchMessage(_ whole: LogLine, lineNumber: Int, input: Int, skipping skipped: CompiledRule?, catchAll: Bool = false,
                              passes: (Int) -> Bool = { _ in false }) -> Bool {
        var literals: [Int] = []
        Array(whole.raw.utf8).withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            ruleSet.prefilter.literalsPresent(base, from: 0, to: buffer.count, into: &literals)
        }
        var candidates = Set<Int>()
        for literal in literals { candidates.formUnion(ruleSet.rulesByLiteral[literal]) }
        for r in candidates.sorted() {
            let compiled = ruleSet.compiled[r]
            guard compiled !== skipped, catchAll || !compiled.rule.catchAll, compiled.rule.role == .cause, !budget.isOff[r] else { continue }
            if passes(r) { continue }
            if case .matched(let captures) = match(r, whole, lineNumber: lineNumber, input: input) {
                record(compiled, captures: captures, line: whole, lineNumber: lineNumber, input: input)
                return true
            }
        }
        return false
    }

    /// The message under the caret of a code frame that follows the current line within a few lines
    /// (`  795 |     scanner.setPreviewLayer(layer: previewLayer)` / `      |             ^ call to actor-isolated …`).
    private func codeFrameMessage() -> String? {
        guard let base = currentBase else { return nil }
        var start = currentLineEnd + 1
        var read = 0
        while read < 8, start < currentChunkEnd {
            let end = Scanner.lineEnd(base, from: start, end: currentChunkEnd)
            let raw = Scanner.decode(base, from: start, to: end)
            start = end + 1
            read += 1
            let trimmed = raw.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty { continue }
            // A frame line: `> 795 |  code`, `  793 |  code`, `      |   ^ message`; anything else ends the frame.
            guard let bar = trimmed.firstIndex(of: "|"),
                  trimmed[..<bar].allSatisfy({ $0 == ">" || $0 == " " || $0.isNumber }) else { return nil }
            let after = trimmed[trimmed.index(after: bar)...].drop { $0 == " " || $0 == "\t" }
            guard after.first == "^" else { continue }
            let message = after.drop { $0 == "^" || $0 == "~" }.drop { $0 == " " }
            return message.isEmpty ? nil : String(message)
        }
        return nil
    }

    /// Records the rule's finding for the line; returns its index (nil past the findings' limit).
    @discardableResult
    private func record(_ compiled: CompiledRule, captures raw: [String: String], line: LogLine, lineNumber: Int, input: Int) -> Int? {
        let rule = compiled.rule
        var captures = raw
        var location = line.header?.location
        if let file = captures.removeValue(forKey: "file") {
            location = SourceLocation(file: file, line: captures.removeValue(forKey: "line").flatMap { Int($0) },
                                      column: captures.removeValue(forKey: "column").flatMap { Int($0) })
        }
        // `<unknown>:0:`, `<EXPR>:0:` (swift-corelibs-xctest, a result bundle's failure without a file) name no file.
        if let file = location?.file, file.hasPrefix("<") { location = nil }
        var severity = rule.severity
        // A warning stays a warning, also the Swift 5 mode form of a Swift 6 error pasted without `warning:`
        // (with warnings treated as errors the compiler prints it after `error:`, and then it is one).
        if severity == .error, line.level == .warning || (line.level == nil && Scanner.isSwift6Error(line.text)) { severity = .warning }
        // A wrapper that is only a warning by itself (an NSError of no known domain) is an error when
        // its line says so (`[  ERROR ]`, `error:`): the line must not be lost. A notice (`notice: true`) is
        // printed in its tool's error style and stays what it is.
        if severity == .warning, rule.role == .symptom, !rule.notice, line.level == .error || ScanMarkers.errorLike.matches(line.text) { severity = .error }
        let occurrence = Occurrence(line: lineNumber, input: input, location: location)
        guard let (index, first) = collector.add(
            rule: rule, fixes: compiled.renderedFixes(captures), captures: captures,
            message: rule.message.map { Scanner.tidied(Scanner.render($0, captures, names: compiled.captureNames)) } ?? line.header?.message ?? line.text,
            severity: severity,
            occurrence: occurrence, excerptLine: line.raw, errorInSwift6: Scanner.isSwift6Error(line.text)
        ) else { return nil }
        if rule.failedStep {
            explainStep(kind: captures["step"] ?? "", rule: rule, finding: index, first: first, line: line, lineNumber: lineNumber, input: input)
        }
        // The first occurrences are read for an Xcode build around them (each reads back up to 40 lines): a log of a
        // hundred thousand of them costs no more than eight.
        if collector.findings[index].categoryOutsideBuild != nil, collector.findings[index].count <= 8, showsXcodeBuild(line) {
            collector.keepCategory(index)
        }
        if first, rule.id == Scanner.failureCountRuleID { collectListAbove(finding: index) }
        if rule.role == .cause, severity == .error { lastCauseLine = lineNumber }
        // Evidence for a log with no verdict: a last-resort warning on a line that is not itself a note or a warning
        // (also not one that quotes the NSError after a tool's `note: `, as CocoaPods' `- NOTE  | xcodebuild:  note: …`).
        if rule.lastResort, rule.role != .cause, severity == .warning, line.level == nil, lastResortEvidence.count < 100,
           !line.text.contains("note: "), !line.text.contains("warning: ") { lastResortEvidence.insert(index) }
        if rule.continuation != nil || line.header != nil {
            open = OpenBlock(finding: index, keepExcerpt: first, rule: rule.continuation == nil ? nil : compiled,
                             remaining: rule.continuation?.maxLines ?? 16)
        }
        return index
    }

    // MARK: - Failed steps

    /// A finding of xcodebuild's own wrappers shows an Xcode build (`category_outside_build`): its banners
    /// (`** BUILD FAILED **`, the failed-commands list, `(1 failure)`) or a failed step of one of its kinds
    /// (`Command PhaseScriptExecution failed …`, Xcode 9's `Command /bin/sh failed with exit code 127`).
    static func isXcodeBuildWrapper(_ finding: Finding) -> Bool {
        if xcodeBannerRuleIDs.contains(finding.rule) { return true }
        guard let step = finding.captures["step"] else { return false }
        return FailedStep.startNames.contains(step) || step.hasPrefix("/")
    }

    static let xcodeBannerRuleIDs: Set<String> = [
        "build-action-failed", "build-commands-failed", "command-failed-without-output", "build-failed-without-errors",
        failureCountRuleID,
    ]

    /// Whether the line, or one of the lines its step printed before it, shows an Xcode build: a path into
    /// Xcode's build folders (a Run Script phase's `…/DerivedData/…/Script-1A2B.sh`, a scheme action's
    /// `SchemeScriptAction-x.sh`) or a build step's start line (`PhaseScriptExecution …`, `▸ Running script '…'`).
    private func showsXcodeBuild(_ line: LogLine) -> Bool {
        func inBuildFolder(_ text: String) -> Bool {
            text.contains("/DerivedData/") || text.contains(".noindex/") || text.contains("SchemeScriptAction-")
                || (text.contains("/Script-") && text.contains(".sh"))
        }
        if inBuildFolder(line.raw) { return true }
        guard let base = currentBase else { return false }
        var shown = false
        PrecedingLines(base: base, before: currentLineStart, previous: previousTail).walk(maxLines: 40) { previous in
            if inBuildFolder(previous.raw) { shown = true; return false }
            let indented = previous.raw.first == " " || previous.raw.first == "\t"
            if !indented, FailedStep.parseStart(previous.text) != nil {
                shown = !previous.text.hasPrefix("--- Step: ") // xcodebuild's step, not fastlane's action banner
                return false // the step this line belongs to
            }
            return true
        }
        return shown
    }

    static let failedStepRuleID = "failed-step"
    static let failureCountRuleID = "failure-count"

    /// xcodebuild's `(1 failure)` closes its list of failed commands; a log cut after the list's header (a CI page
    /// that folded it, a pasted tail) still shows the indented commands just above the count. They are collected
    /// as the list's would be, and name the failed steps when nothing names a cause (`explainFailedCommandsList`).
    private func collectListAbove(finding: Int) {
        guard let base = currentBase else { return }
        var commands: [String] = []
        PrecedingLines(base: base, before: currentLineStart, previous: previousTail).walk(maxLines: 50) { previous in
            // A list entry is indented (also after a CI's timestamp, which `text` has dropped) and names a step.
            guard previous.raw.first == "\t" || previous.raw.first == " " || previous.raw != previous.text else { return false }
            let kind = FailedStep.listKind(previous.text)
            guard FailedStep.startNames.contains(kind) || kind.contains(" ") else { return false }
            commands.append(previous.raw)
            return true
        }
        for command in commands.reversed() { collector.collect(finding, name: "command", value: command) }
    }

    /// A rule's line closed a failed step (`Command PhaseScriptExecution failed …`, a CI script that
    /// exited non-zero). When no root cause was named inside the step, the last lines it printed are
    /// the explanation: a wrapper becomes a cause finding for the step, and a cause rule's excerpt
    /// gets those lines.
    private func explainStep(kind: String, rule: Rule, finding: Int, first: Bool, line: LogLine, lineNumber: Int, input: Int) {
        guard let base = currentBase else { return }
        var printed: [String] = [] // newest first
        var title: String?
        var walked = 0
        var foundStart = false
        var printedFrom = 0 // how far up the oldest of the lines kept in `printed` stands
        var bannerKind: String?
        let ownStep = structured?.line(lineNumber)?.step
        PrecedingLines(base: base, before: currentLineStart, previous: previousTail).walk(maxLines: 400) { previous in
            walked += 1
            // A structured reader says where its step starts: its title line, or a line of another step.
            if let record = structured?.line(lineNumber - walked), let ownStep {
                if record.kind == .stepTitle || record.step != ownStep {
                    title = FailedStep.parseStart(ownStep)?.title ?? ownStep
                    foundStart = true
                    if record.step != ownStep { walked -= 1 }
                    return false
                }
            }
            let indented = previous.raw.first == " " || previous.raw.first == "\t"
            if !indented, let start = FailedStep.parseStart(previous.text) {
                title = start.title
                // fastlane runs its actions one after another, so the banner above a bare exit status
                // (`Shell command exited with exit status 36 instead of 0.`) names the action that failed, when it
                // is one that does one thing (`unlock_keychain`); an action that runs many commands and goes on
                // after one fails (`upload_symbols_to_crashlytics`) says nothing by its name.
                if previous.text.hasPrefix("--- Step: "), FailedStep.fastlaneActions[start.kind] != nil { bannerKind = start.kind }
                foundStart = true
                return false
            }
            if previous.text.hasPrefix("Command "), previous.text.contains(" failed") { return false } // the step before
            if printed.count < 8, !FailedStep.isNoise(previous.text) {
                printed.append(previous.raw)
                printedFrom = walked
            }
            return true
        }
        let windowStart = lineNumber - walked
        let kind = kind.isEmpty ? bannerKind ?? "" : kind
        let category = FailedStep.category(ofKind: kind)
        let script = category == "phase-script-failed" || category == "xcode-cloud-script"
        // A step closed by a warning (a script that printed errors but exited 0) is a failure only
        // through an error line it printed.
        if rule.severity != .error, !printed.contains(where: { ScanMarkers.errorLike.matches(LogLine(raw: $0).text) || LogLine(raw: $0).level == .error }) { return }
        // A compile, link or sign step is explained by any cause before it (its errors may stand in
        // another block); a script only by a cause inside its own output: since its start line, or when
        // the log does not show where it started (a pasted tail), among the last lines it printed. A step
        // of no known kind (a CI service's exit status) only when nothing before it is an error at all.
        let ownOutputStart = foundStart ? windowStart : lineNumber - printedFrom
        if lastCauseLine > 0, script ? lastCauseLine >= ownOutputStart : true { return }
        if category == FindingCategory.buildFailed, lastUnrecognizedLine > 0 { return }
        if !script, !foundStart, printed.isEmpty { return }
        if rule.severity != .error, printed.isEmpty { return } // a warning with nothing printed explains nothing
        let lines = Array(printed.reversed())
        if rule.role == .cause {
            if first { collector.prependExcerpt(finding, lines) }
            return
        }
        let step = FailedStep(kind: kind, title: title, startLine: foundStart ? windowStart : nil, lines: lines)
        recordFailedStep(step, wrapperLine: line.raw, lineNumber: lineNumber, input: input)
    }

    private func recordFailedStep(_ step: FailedStep, wrapperLine: String, lineNumber: Int, input: Int) {
        let name = step.kind.isEmpty ? "A step" : step.title.map { "\(step.kind) \($0)" } ?? step.kind
        let telling = FailedStep.mostTelling(step.lines.map { LogLine(raw: $0).text })
        let message = telling.map { "\(name) failed: \($0)" } ?? "\(name) failed without printing why"
        let rule = FailedStep.rule(for: step)
        guard let (index, first) = collector.add(
            rule: rule, fixes: rule.fixes, captures: ["step": step.kind, "title": step.title ?? ""], message: message,
            severity: .error, occurrence: Occurrence(line: lineNumber, input: input, location: nil),
            excerptLine: wrapperLine, errorInSwift6: false
        ) else { return }
        if first { collector.prependExcerpt(index, step.lines) }
        if rule.role == .cause { lastCauseLine = lineNumber } else { lastUnrecognizedLine = lineNumber }
    }

    /// A log that names failed commands (`The following build commands failed:`) but no root cause
    /// anywhere (a pasted tail, a formatter that dropped the errors) gets one cause per failed step.
    /// So does a wrapper that names a step of a known kind when it is all the log shows of the failure
    /// (`[   +2 ms] Command CodeSign failed with a nonzero exit code` in `flutter run -v`): the step's kind is
    /// what is known of the cause.
    private func explainFailedCommandsList() {
        let findings = collector.findings
        guard !findings.contains(where: { $0.role == .cause && $0.severity == .error }) else { return }
        if !findings.contains(where: { $0.rule == "build-commands-failed" }) {
            for finding in findings where finding.rule == "command-failed-nonzero-exit" && finding.severity == .error {
                guard let kind = finding.captures["step"], FailedStep.kinds[kind] != nil else { continue }
                recordUnshownStep(FailedStep(kind: kind, title: nil, startLine: nil, lines: []), of: finding,
                                  excerptLine: finding.excerpt.last ?? "")
            }
        }
        let lists = findings.contains(where: { $0.rule == "build-commands-failed" }) ? "build-commands-failed" : Scanner.failureCountRuleID
        for finding in findings where finding.rule == lists {
            for command in finding.collected["command"] ?? [] {
                let text = LogLine(raw: command).text
                let kind = FailedStep.listKind(text)
                guard !kind.isEmpty, !FailedStep.isOpaque(text) else { continue }
                let title = kind.contains(" ") ? FailedStep.quotedTitle(text.dropFirst(kind.count))
                    : FailedStep.title(kind: kind, arguments: text.dropFirst(kind.count))
                recordUnshownStep(FailedStep(kind: kind, title: title, startLine: nil, lines: []), of: finding, excerptLine: command)
            }
        }
    }

    /// A cause for a failed step the log names but whose output it does not show, at the line of the finding that names it.
    private func recordUnshownStep(_ step: FailedStep, of finding: Finding, excerptLine: String) {
        let name = step.title.map { "\(step.kind) \($0)" } ?? step.kind
        let rule = FailedStep.rule(for: step)
        _ = collector.add(rule: rule, fixes: rule.fixes, captures: ["step": step.kind, "title": step.title ?? ""],
                          message: "\(name) failed; the log does not show what it printed", severity: .error,
                          occurrence: finding.occurrences.first ?? Occurrence(line: 0, input: 0, location: nil),
                          excerptLine: excerptLine, errorInSwift6: false)
    }

    /// Rule `r` on `line`; a user rule's time is counted, and the rules that go over their budget are
    /// switched off and reported.
    private func match(_ r: Int, _ line: LogLine, lineNumber: Int, input: Int) -> CompiledRegex.CaptureOutcome {
        let compiled = ruleSet.compiled[r]
        guard compiled.isUserRule else { return compiled.match(line) }
        let start = RuleTimeBudget.now()
        let outcome = compiled.match(line)
        let end = RuleTimeBudget.now()
        var timedOut = false
        if case .timedOut = outcome { timedOut = true }
        for (off, reason) in budget.account(rule: r, nanos: end - start, timedOut: timedOut, now: end) {
            recordSwitchedOff(ruleSet.compiled[off].rule, reason: reason, line: line, lineNumber: lineNumber, input: input)
        }
        return outcome
    }

    /// A user rule switched off for the rest of the scan: one warning that names it and its file.
    private func recordSwitchedOff(_ rule: Rule, reason: RuleTimeBudget.Reason, line: LogLine, lineNumber: Int, input: Int) {
        let why: String
        switch reason {
        case .timedOut(let count):
            why = "its regular expression was stopped \(count) times after \(CompiledRegex.matchBudget / 1_000_000) ms on a line"
        case .overBudget(let spent, let rest):
            why = "the rules of your files had taken \(spent / 1_000_000) ms against \(rest / 1_000_000) ms for the rest of the scan"
        }
        let offRule = Rule(
            id: "rule-switched-off", title: "A rule of yours was switched off because it was too slow", category: FindingCategory.xcmedic,
            severity: .warning, role: .cause, patterns: [],
            explanation: "Rule '\(rule.id)' from \(rule.origin) was switched off for the rest of the scan: \(why). Lines after it "
                + "were not checked against it. A user rule may take at most as long as the rest of the scan (plus "
                + "\(RuleTimeBudget.graceNanos / 1_000_000) ms), and may be stopped \(RuleTimeBudget.maxTimeouts - 1) times; its pattern "
                + "probably backtracks: rewrite it without nested or overlapping repetition.",
            fixes: [Fix(summary: "Rewrite the pattern of rule '\(rule.id)' in \(rule.origin), then check it with: xcmedic rules --check \(rule.origin)")],
            matches: [], nonMatches: [], origin: "xcmedic"
        )
        _ = collector.add(rule: offRule, fixes: offRule.fixes, captures: ["rule": rule.id, "origin": rule.origin],
                          message: "Rule '\(rule.id)' from \(rule.origin) was switched off at log line \(lineNumber): \(why)",
                          severity: .warning, occurrence: Occurrence(line: lineNumber, input: input, location: nil),
                          excerptLine: line.raw, errorInSwift6: false)
    }

    /// A rule whose regex had to be stopped on a line is reported, never silently dropped.
    private func recordTimeout(_ rule: Rule, line: LogLine, lineNumber: Int, input: Int) {
        let budget = CompiledRegex.matchBudget / 1_000_000
        let timeoutRule = Rule(
            id: "rule-timed-out", title: "A rule took too long on a line and was stopped", category: FindingCategory.xcmedic,
            severity: .warning, role: .symptom, patterns: [],
            explanation: "The regular expression of rule '\(rule.id)' (\(rule.origin)) ran for more than \(budget) ms on one line "
                + "and was stopped, so that line was not checked against it. The pattern probably backtracks catastrophically: "
                + "rewrite it without nested or overlapping repetition.",
            fixes: [Fix(summary: "Rewrite the pattern of rule '\(rule.id)', then check it with: xcmedic rules --check FILE")],
            matches: [], nonMatches: [], origin: "xcmedic"
        )
        _ = collector.add(rule: timeoutRule, fixes: timeoutRule.fixes, captures: ["rule": rule.id],
                          message: "Rule '\(rule.id)' was stopped after \(budget) ms on this line",
                          severity: .warning, occurrence: Occurrence(line: lineNumber, input: input, location: nil),
                          excerptLine: line.raw, errorInSwift6: false)
    }

    private func recordUnrecognized(_ line: LogLine, following: [String], lineNumber: Int, input: Int) {
        var message = line.header?.message ?? line.text
        if Scanner.isBlank(message) { // the message is on the lines below
            message = following.map { LogLine(raw: $0).text }.joined(separator: " ")
        }
        let occurrence = Occurrence(line: lineNumber, input: input, location: line.header?.location)
        lastUnrecognizedLine = lineNumber
        guard let (index, first) = collector.add(
            rule: nil, captures: [:], message: message, severity: .error,
            occurrence: occurrence, excerptLine: line.raw, errorInSwift6: false
        ) else { return }
        if line.header != nil {
            open = OpenBlock(finding: index, keepExcerpt: first, rule: nil, remaining: 16)
        }
        // An error no rule knows often goes on below (`Reason: …`, a message wrapped by the terminal or
        // by a paste, a header whose message is on the next line): those lines go into its excerpt,
        // for the reader and for the last-resort classifier. They are still scanned on their own.
        if first, line.header == nil || line.header.map({ Scanner.isBlank($0.message) }) == true {
            for next in following { collector.appendExcerpt(index, next) }
        }
        // An error printed by a GitHub Action (a `uses:` step) that no rule names is the action failing: the
        // step it stands in is kept with it, for the last-resort classifier and the reader.
        if first, actionLookups < Scanner.maxActionLookups, let base = currentBase {
            actionLookups += 1
            var action: String?
            PrecedingLines(base: base, before: currentLineStart, previous: previousTail).walk(maxLines: Scanner.actionStepLookback) { step in
                guard let found = Scanner.githubStep(step.text) else { return true }
                if case .action(let name) = found { action = name }
                return false
            }
            if let action { collector.collect(index, name: Scanner.actionKey, value: action) }
        }
    }

    /// How far back an error looks for the step that printed it, and the name its action is kept under.
    static let actionStepLookback = 400
    static let actionKey = "action"

    /// A GitHub Actions step's first line, `Run …` (`##[group]Run …` in a downloaded log, timestamps off): an action
    /// (`owner/repo@ref`, `owner/repo/path@ref`) for a `uses:` step, a script for a `run:` step.
    enum GitHubStep: Equatable { case action(String), script }

    static func githubStep(_ text: String) -> GitHubStep? {
        var rest = Substring(text)
        if rest.hasPrefix("##[group]") { rest = rest.dropFirst(9) }
        guard rest.hasPrefix("Run ") else { return nil }
        let name = rest.dropFirst(4).trimmingCharacters(in: .whitespaces)
        guard let at = name.firstIndex(of: "@"), !name.contains(" ") else { return .script }
        let parts = name[..<at].split(separator: "/", omittingEmptySubsequences: false)
        let ref = name[name.index(after: at)...]
        let isWord: (Substring) -> Bool = { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) } }
        guard parts.count >= 2, parts.allSatisfy(isWord), !ref.isEmpty, ref.allSatisfy({ $0.isLetter || $0.isNumber || "-_./".contains($0) })
        else { return .script }
        return .action(name)
    }

    /// Nothing but white space (`CharacterSet.whitespaces`): what `trimmingCharacters(in: .whitespaces).isEmpty`
    /// says, without Foundation's copy of every message of an error no rule knows.
    static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { CharacterSet.whitespaces.contains($0) }
    }

    /// The line before the current one (in this chunk or the end of the previous one), if there is one.
    private func previousLine() -> LogLine? {
        guard let base = currentBase else { return nil }
        var found: LogLine?
        PrecedingLines(base: base, before: currentLineStart, previous: previousTail).walk(maxLines: 1) { found = $0; return false }
        return found
    }

    /// The lines after the current one in this chunk, prefixes off, whatever they say.
    private func followingTexts(max: Int) -> [String] {
        guard let base = currentBase else { return [] }
        var lines: [String] = []
        var start = currentLineEnd + 1
        while lines.count < max, start < currentChunkEnd {
            let end = Scanner.lineEnd(base, from: start, end: currentChunkEnd)
            lines.append(textLine(base, from: start, to: end).text)
            start = end + 1
        }
        return lines
    }

    /// Up to `max` lines after the current one, in this chunk, until a blank line or a line that is a
    /// diagnostic of its own, or one `keep` refuses; each as `LogLine(raw:)` reads it (a structured
    /// reader's record aside).
    private func followingLines(max: Int, while keep: (LogLine) -> Bool = { _ in true }) -> [LogLine] {
        guard let base = currentBase else { return [] }
        var lines: [LogLine] = []
        var start = currentLineEnd + 1
        var number = currentLineNumber
        let step = structured?.line(number)?.step
        while lines.count < max, start < currentChunkEnd {
            number += 1
            // A record's message is whole: only the text its own step printed after it can continue it.
            if let structured, let record = structured.line(number), record.kind != .output || record.step != step { break }
            let end = Scanner.lineEnd(base, from: start, end: currentChunkEnd)
            let line = textLine(base, from: start, to: end)
            if line.text.isEmpty || line.level != nil || line.header != nil || !keep(line) { break }
            lines.append(line)
            start = end + 1
        }
        return lines
    }

    /// Whether the line belongs to the open block; if so it is taken into the finding.
    private func continueBlock(_ base: UnsafePointer<UInt8>, lineStart: Int, lineEnd: Int, end: Int, lineNumber: Int) -> Bool {
        guard var block = open, block.remaining > 0 else { return false }
        // A list (failed commands, missing symbols) pasted from a page that shows each line as a paragraph has a
        // blank line between its items: one blank line does not end it when an item of the list follows it.
        if let compiled = block.rule, let collect = compiled.collect, !block.blankBefore, lineEnd + 1 < end,
           Scanner.isBlank(base, from: lineStart, to: lineEnd) {
            let next = logLine(base, from: lineEnd + 1, to: Scanner.lineEnd(base, from: lineEnd + 1, end: end), number: lineNumber + 1)
            if compiled.continuation?.matches(next.text) == true, collect.captures(in: next.text) != nil {
                block.blankBefore = true
                open = block
                return true
            }
        }
        guard lineEnd > lineStart else { return false }
        // A compiler's context in the plain shape (a caret line, or a source line above one) is told from its
        // bytes: most lines of an error-dense log are these, and need no `LogLine` (issue 17).
        if block.rule == nil, Scanner.isCaretLine(base, from: lineStart, to: lineEnd)
            || (lineEnd + 1 < end && !Scanner.hasColonDigit(base, from: lineStart, to: lineEnd)
                && Scanner.isCaretLine(base, from: lineEnd + 1, to: Scanner.lineEnd(base, from: lineEnd + 1, end: end))) {
            if block.keepExcerpt { collector.appendExcerpt(block.finding, Scanner.decode(base, from: lineStart, to: lineEnd)) }
            block.remaining -= 1
            open = block
            return true
        }
        let line = logLine(base, from: lineStart, to: lineEnd, number: lineNumber)
        let belongs: Bool
        if let compiled = block.rule {
            if budget.isOff[compiled.index] { return false }
            let start = compiled.isUserRule ? RuleTimeBudget.now() : 0
            belongs = compiled.continuation?.matches(line.text) ?? false
            if belongs, let collect = compiled.collect, let values = collect.captures(in: line.text) {
                for (name, value) in values { collector.collect(block.finding, name: name, value: value) }
            }
            if compiled.isUserRule {
                let now = RuleTimeBudget.now()
                let lineNumber = collector.findings[block.finding].occurrences.last?.line ?? 0
                for (off, reason) in budget.account(rule: compiled.index, nanos: now - start, timedOut: false, now: now) {
                    recordSwitchedOff(ruleSet.compiled[off].rule, reason: reason, line: line, lineNumber: lineNumber,
                                      input: collector.findings[block.finding].occurrences.last?.input ?? 0)
                }
            }
        } else {
            belongs = Scanner.isDiagnosticContext(line) || {
                // A source line belongs when a caret line follows it.
                guard lineEnd + 1 < end, line.header == nil else { return false }
                let nextEnd = Scanner.lineEnd(base, from: lineEnd + 1, end: end)
                return Scanner.isCaretLine(Scanner.decode(base, from: lineEnd + 1, to: nextEnd))
            }()
        }
        guard belongs else { return false }
        if block.keepExcerpt { collector.appendExcerpt(block.finding, line.raw) }
        block.remaining -= 1
        block.blankBefore = false
        open = block
        return true
    }

    /// Nothing but spaces, tabs and a carriage return.
    static func isBlank(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var i = start
        while i < end {
            let b = base[i]
            guard b == 32 || b == 9 || b == 13 else { return false }
            i += 1
        }
        return true
    }

    /// A lower-case word, a quoted name (`opensWithQuotedName`), or a parenthesis opening a lower-case word.
    static func opensWithWordOrQuotedName(_ text: String) -> Bool {
        var scalars = text.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return false }
        // A parenthesis the terminal moved to the next line (`…not supported by the compiler` / `(the SDK is built with …`).
        if first == "(", let second = scalars.next() { return ("a"..."z").contains(second) }
        return ("a"..."z").contains(first) || opensWithQuotedName(text)
    }

    /// A quoted name (`"com.a.b",`, `‘Foo’`): a quote, then a letter, a digit, `_` or `.`.
    static func opensWithQuotedName(_ text: String) -> Bool {
        var scalars = text.unicodeScalars.makeIterator()
        guard let first = scalars.next(), first == "\"" || first == "'" || first == "\u{201C}" || first == "\u{2018}",
              let second = scalars.next() else { return false }
        return second.properties.isAlphabetic || ("0"..."9").contains(second) || second == "_" || second == "."
    }

    /// A line a paste or a terminal may have cut mid-sentence: it ends with a letter, or with the closing quote
    /// of a name (`… to 'Decodable'`).
    static func endsMidSentence(_ text: String) -> Bool {
        guard let last = text.last else { return false }
        if last.isLetter { return true }
        guard last == "'" || last == "\u{2019}" || last == "`" else { return false }
        return text.dropLast().last?.isLetter == true || text.dropLast().last?.isNumber == true
    }

    /// A line that goes on with a sentence, not source code, a box or a caret line: indented and starting with a
    /// lower-case word, or (after a compiler header, `indented: false`) any line that is not diagnostic context.
    static func continuesMessage(_ raw: String, indented: Bool = true) -> Bool {
        if indented, raw.first != " ", raw.first != "\t" { return false }
        return continuesMessage(LogLine(raw: raw), indented: indented)
    }

    /// `continuesMessage` of a line already built from its text (`LogLine(raw:)`).
    static func continuesMessage(_ line: LogLine, indented: Bool = true) -> Bool {
        if indented, line.raw.first != " ", line.raw.first != "\t" { return false }
        guard !isDiagnosticContext(line), line.header == nil, line.level == nil else { return false }
        guard let first = line.text.unicodeScalars.first else { return false }
        return indented ? ("a"..."z").contains(first) : !isSourceLine(line.text)
    }

    /// ` 44 |  code` (a Swift 6 box's source line) or `let w = Widget()` under a header: code, not words.
    static func isSourceLine(_ text: String) -> Bool {
        // A line longer than a rule's subject (`CompiledRegex.maxSubjectUTF16`) is read whole, as before.
        guard text.utf8.count <= CompiledRegex.maxSubjectUTF16 else {
            return text.range(of: sourceLine.pattern, options: .regularExpression) != nil
        }
        return sourceLine.matches(text)
    }

    /// Compiled once: `String.range(of:options: .regularExpression)` looks its regex up in Foundation's
    /// cache on every call, which cost an eighth of the scan of an error-dense log.
    private static let sourceLine = try! CompiledRegex(
        #"^\d+ \||[{};=]\s*$|^(?:let|var|func|if|guard|return|import|class|struct|self)\b"#
    )

    static func isDiagnosticContext(_ line: LogLine) -> Bool {
        line.isBoxLine || line.header?.level == .note || isCaretLine(line.raw)
    }

    /// `isCaretLine` on a line's bytes.
    static func isCaretLine(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var sawCaret = false
        for i in start..<end {
            switch base[i] {
            case 0x5E: sawCaret = true
            case 0x7E, 0x20, 0x09: continue
            default: return false
            }
        }
        return sawCaret
    }

    /// Swift Testing's result line as `swift test` prints it, on its bytes: a glyph (a non-ASCII character),
    /// a space, `Test …`, ending in no letter (`✔ Test f() passed after 0.1 seconds.`), so no other reading
    /// of the line (a message wrapped onto the next) applies. The offset of `Test`, or nil.
    static func swiftTestingResult(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int? {
        guard end - start > 8, base[start] >= 0xC0, !isLetter(base[end - 1]) else { return nil }
        var i = start + 1
        while i < end, i - start <= 4, base[i] & 0xC0 == 0x80 { i += 1 } // the glyph's other bytes
        guard i < end, base[i] == 0x20 else { return nil }
        i += 1
        let word: StaticString = "Test "
        guard end - i > word.utf8CodeUnitCount, memcmp(base + i, word.utf8Start, word.utf8CodeUnitCount) == 0 else { return nil }
        return i
    }

    @inline(__always) private static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    /// Whether a `:` followed by a digit is in the line: without one it has no `file:line:` header.
    static func hasColonDigit(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var i = start
        while i + 1 < end {
            if base[i] == 0x3A, base[i + 1] >= 0x30, base[i + 1] <= 0x39 { return true }
            i += 1
        }
        return false
    }

    static func isCaretLine(_ text: String) -> Bool {
        var sawCaret = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "^": sawCaret = true
            case "~", " ", "\t": continue
            default: return false
            }
        }
        return sawCaret
    }

    /// The Swift 6.0+ suffix, or Swift 5.10's shorter `; this is an error in Swift 6`.
    private static let swift6Suffixes = ["; this is an error in the Swift 6 language mode", "; this is an error in Swift 6"].map { Array($0.utf8) }

    /// The line carries the suffix of a Swift 5-mode warning that Swift 6 makes an error (6.x and 5.10 wordings).
    static func isSwift6Error(_ text: String) -> Bool {
        swift6Suffixes.contains { Bytes.contains(text, $0) }
    }

    /// A message whose last placeholders had nothing to say (a wrapped line left them empty) does not end in
    /// `: :` or `, `: `CocoaPods could not download from its CDN: : ` → `CocoaPods could not download from its CDN`.
    static func tidied(_ message: String) -> String {
        var end = message.endIndex
        while end > message.startIndex, let last = message[..<end].last, last == " " || last == ":" || last == "," {
            end = message.index(before: end)
        }
        return end == message.endIndex ? message : String(message[..<end])
    }

    /// `{name}` in a rule's text becomes the capture's value; a placeholder for a capture the match left empty
    /// disappears, with the quotes or parentheses around it and the second of two spaces it leaves. Other braces
    /// (code in snippets) stay as written.
    static func render(_ template: String, _ captures: [String: String], names: Set<String> = []) -> String {
        let t = Array(template.utf8)
        guard t.contains(UInt8(ascii: "{")) else { return template }
        var out: [UInt8] = []
        out.reserveCapacity(t.count + 64)
        var i = 0
        // One pass: a capture's value is put in as it is, never read again for placeholders.
        while i < t.count {
            guard t[i] == UInt8(ascii: "{"), let close = t[(i + 1)...].firstIndex(of: UInt8(ascii: "}")) else {
                out.append(t[i])
                i += 1
                continue
            }
            let key = String(decoding: t[(i + 1)..<close], as: UTF8.self)
            // `{suite:slashes}`: a dotted name as a path (`Module.Suite` -> `Module/Suite` for -only-testing).
            let slashes = key.hasSuffix(":slashes")
            let name = slashes ? String(key.dropLast(8)) : key
            if let value = captures[name] {
                out.append(contentsOf: slashes ? value.utf8.map { $0 == UInt8(ascii: ".") ? UInt8(ascii: "/") : $0 } : Array(value.utf8))
                i = close + 1
            } else if names.contains(name) {
                // A placeholder for a capture the match left empty disappears, with the quotes around it and
                // one of the spaces it leaves doubled: `Package '{package}' needs` -> `Package needs`.
                i = close + 1
                if let quote = out.last, quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "`"),
                   i < t.count, t[i] == quote {
                    out.removeLast()
                    i += 1
                } else if out.last == UInt8(ascii: "("), i < t.count, t[i] == UInt8(ascii: ")") {
                    // `compiler ({current})` -> `compiler`: the parentheses and the space before them go too.
                    out.removeLast()
                    i += 1
                    if out.last == UInt8(ascii: " ") { out.removeLast() }
                }
                if out.last == UInt8(ascii: " "), i < t.count, t[i] == UInt8(ascii: " ") { i += 1 }
            } else {
                out.append(t[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Byte helpers

    /// Longest part of one line that is decoded for matching.
    static let maxDecodedLine = 64 * 1024

    static func decode(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: base + from, count: min(to - from, maxDecodedLine)), as: UTF8.self)
    }

    static func lineEnd(_ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int {
        guard from < end, let hit = memchr(base + from, 0x0A, end - from) else { return end }
        return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
    }

    static func lineStart(_ base: UnsafePointer<UInt8>, before position: Int, notBefore floor: Int) -> Int {
        guard position > floor, let lf = Bytes.lastIndex(of: 0x0A, in: base, from: floor, to: position) else { return floor }
        return lf + 1
    }

    static func countNewlines(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        var count = 0
        var p = from
        while p < to, let hit = memchr(base + p, 0x0A, to - p) {
            count += 1
            p = UnsafeRawPointer(hit) - UnsafeRawPointer(base) + 1
        }
        return count
    }
}
