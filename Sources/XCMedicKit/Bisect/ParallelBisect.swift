import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `xcmedic bisect -j N`: a multi-section search that tests up to N commits at once, each in a
/// `git worktree` checkout xcmedic makes under `.git/xcmedic/worktrees/` and removes at the end, so
/// the user's work tree, index and HEAD are never touched.
///
/// The search works on the commit graph of `good..bad` (first parents only with `--first-parent`):
/// the commits still in question are the ancestors of every commit found bad that are not ancestors
/// of a commit found good. Each round picks N of them that cut that set into N + 1 parts of about
/// the same size (by how many of the set each one contains), so a round divides the range by N + 1
/// where a serial step halves it; the commits next to a skipped one are tested in the next round.
final class ParallelBisect: @unchecked Sendable {
    let options: BisectOptions
    let git: Git
    let folder: BisectStateFolder
    let progress: @Sendable (String) -> Void
    let status: (@Sendable (String) -> Void)?
    var record: RecoveryRecord
    private var worktrees: [String] = []
    private var numbers = 0

    init(options: BisectOptions, git: Git, folder: BisectStateFolder, progress: @escaping @Sendable (String) -> Void,
         status: (@Sendable (String) -> Void)?, record: RecoveryRecord) {
        self.options = options
        self.git = git
        self.folder = folder
        self.progress = progress
        self.status = status
        self.record = record
    }

    // MARK: - The graph

    /// The commits of `good..bad`, oldest first (parents before children), and each one's ancestors
    /// inside the range (itself included) as a bit set.
    struct Graph {
        var hashes: [String]
        var index: [String: Int]
        var ancestors: [[UInt64]]

        init(_ git: Git, good: String, bad: String, firstParent: Bool) throws {
            var args = ["rev-list", "--topo-order", "--reverse", "--parents"]
            if firstParent { args.append("--first-parent") }
            args += [bad, "^" + good]
            let lines = try git.run(args).split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            hashes = lines.map { $0[0] }
            index = Dictionary(uniqueKeysWithValues: hashes.enumerated().map { ($0.element, $0.offset) })
            let words = (hashes.count + 63) / 64
            ancestors = []
            for line in lines {
                var set = [UInt64](repeating: 0, count: words)
                let me = ancestors.count
                set[me / 64] |= 1 << UInt64(me % 64)
                for parent in (firstParent ? Array(line.dropFirst().prefix(1)) : Array(line.dropFirst())) {
                    guard let p = index[parent] else { continue }
                    for w in 0..<words { set[w] |= ancestors[p][w] }
                }
                ancestors.append(set)
            }
        }

        var count: Int { hashes.count }
        var empty: [UInt64] { [UInt64](repeating: 0, count: (count + 63) / 64) }
        func members(_ set: [UInt64]) -> [Int] { (0..<count).filter { set[$0 / 64] & (1 << UInt64($0 % 64)) != 0 } }
        static func size(_ set: [UInt64]) -> Int { set.reduce(0) { $0 + $1.nonzeroBitCount } }
        static func and(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] { zip(a, b).map { $0 & $1 } }
        static func minus(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] { zip(a, b).map { $0 & ~$1 } }
        static func or(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] { zip(a, b).map { $0 | $1 } }
    }

    /// The commits that can still be the first bad one.
    static func remaining(_ graph: Graph, bad: Set<Int>, good: Set<Int>) -> [UInt64] {
        var set = bad.reduce([UInt64](repeating: ~0, count: graph.empty.count)) { Graph.and($0, graph.ancestors[$1]) }
        for g in good { set = Graph.minus(set, graph.ancestors[g]) }
        return set
    }

    /// Up to `jobs` commits to test next: first the untested neighbours (by position in the set) of
    /// the commits skipped last round, then the ones nearest the cuts at k/(jobs+1) of the set.
    static func picks(_ graph: Graph, remaining: [UInt64], untested: [Int], jobs: Int, skippedLastRound: [Int]) -> [Int] {
        let size = Graph.size(remaining)
        let weight = Dictionary(uniqueKeysWithValues: (untested + skippedLastRound).map { ($0, Graph.size(Graph.and(graph.ancestors[$0], remaining))) })
        var chosen: [Int] = []
        for s in skippedLastRound {
            guard let ws = weight[s] else { continue }
            let below = untested.filter { weight[$0]! < ws && !chosen.contains($0) }.max { weight[$0]! < weight[$1]! }
            let above = untested.filter { weight[$0]! > ws && !chosen.contains($0) }.min { weight[$0]! < weight[$1]! }
            for n in [below, above].compactMap({ $0 }) where chosen.count < jobs { chosen.append(n) }
        }
        var k = 1
        while chosen.count < min(jobs, untested.count), k <= jobs + untested.count {
            let target = Double(k * size) / Double(jobs + 1)
            let free = untested.filter { !chosen.contains($0) }
            if let best = free.min(by: { (abs(Double(weight[$0]!) - target), $0) < (abs(Double(weight[$1]!) - target), $1) }) {
                chosen.append(best)
            }
            k += 1
        }
        return chosen
    }

    // MARK: - Running

    func run(good: String, bad: String, config initial: BisectConfig) throws -> BisectResult {
        var config = initial
        defer { removeWorktrees() }
        try Bisector.enter("verify", folder)
        let graph = try Graph(git, good: good, bad: bad, firstParent: options.firstParent)
        guard let badIndex = graph.index[bad] else { throw BisectError.refused("\(bad.prefix(10)) is not in \(good.prefix(10))..\(bad.prefix(10))") }
        try makeWorktrees(min(options.jobs, max(2, graph.count)))

        // 1. Both endpoints at once; the good one is judged once the bad one has given the signature.
        progress("xcmedic: \(worktrees.count) worktrees of xcmedic's own in \(worktreeBase) (your tree is not touched)")
        var jobs: [Job] = [Job(commit: bad, phase: .verifyBad, agree: options.rules.isEmpty)]
        if options.verifyGood { jobs.append(Job(commit: good, phase: .verifyGood, agree: false)) }
        let ends = try runBatch(jobs, config: config, label: options.verifyGood ? "the bad and the good end" : "the bad end")
        config.signature = try Bisector.signature(at: ends[0], bad: bad, options: options, folder: folder, config: config)
        try folder.writeConfig(config)
        progress("xcmedic: the failure to look for: \(config.signature.entries.map(\.description).joined(separator: "; "))")
        if options.verifyGood {
            let goodStep = ends[1].verdict == .good ? ends[1] : rejudge(ends[1], config: config)
            try Bisector.checkGood(goodStep, good: good, options: options, folder: folder) {
                try self.runBatch([Job(commit: good, phase: .verifyGood, agree: false, fresh: true)], config: config, label: "the good revision again")[0]
            }
        }

        // 2. Rounds.
        try Bisector.enter("bisect", folder)
        var badSet: Set<Int> = [badIndex], goodSet: Set<Int> = [], skipped: [Int: String] = [:]
        var skippedLast: [Int] = []
        var rounds = 0
        progress("xcmedic: bisecting \(graph.count) commits, \(options.jobs) at a time (about \(ParallelBisect.roundsEstimate(graph.count, options.jobs)) rounds without skips)")
        while true {
            try Interrupts.check()
            let remaining = ParallelBisect.remaining(graph, bad: badSet, good: goodSet)
            let members = graph.members(remaining)
            let untested = members.filter { !badSet.contains($0) && skipped[$0] == nil }
            if untested.isEmpty { break }
            let picks = ParallelBisect.picks(graph, remaining: remaining, untested: untested, jobs: options.jobs, skippedLastRound: skippedLast)
            rounds += 1
            let estimate = rounds - 1 + max(1, ParallelBisect.roundsEstimate(members.count, options.jobs))
            let steps = try runBatch(picks.map { Job(commit: graph.hashes[$0], phase: .bisect, agree: false) }, config: config,
                                     label: "round \(rounds) of about \(estimate), \(members.count) commits left")
            skippedLast = []
            for (i, step) in zip(picks, steps) {
                switch step.verdict {
                case .good: goodSet.insert(i)
                case .bad: badSet.insert(i)
                case .skip:
                    skipped[i] = step.reason
                    skippedLast.append(i)
                }
            }
        }

        // 3. The report.
        try Bisector.enter("report", folder)
        let remaining = graph.members(ParallelBisect.remaining(graph, bad: badSet, good: goodSet))
        let culpritHash = remaining.count == 1 ? graph.hashes[remaining[0]] : nil
        let steps = folder.steps().sorted { $0.number < $1.number }
        let culprit = try culpritHash.map { try git.commitInfo($0) }
        let candidates = culpritHash == nil ? try remaining.reversed().map { try git.commitInfo(graph.hashes[$0]) } : []
        let atHash = culpritHash ?? bad
        let badStep = steps.first { $0.phase == .verifyBad }!
        let at = steps.last { $0.commit == atHash && $0.verdict == .bad } ?? badStep
        let failure = (StepRunner.diagnosis(of: at, folder: folder, config: config) ?? StepRunner.diagnosis(of: badStep, folder: folder, config: config))
            .map { ParallelBisect.relocate($0, from: record.worktrees, to: git.directory) }
        var changes: ChangeSummary?
        if let culprit, let parent = git.commit("\(culprit.hash)^1") {
            changes = try ChangeSummary.between(parent, and: culprit.hash, git: git)
        }
        try Interrupts.check()
        return BisectResult(
            good: try git.commitInfo(good), bad: try git.commitInfo(bad), signature: config.signature, culprit: culprit,
            candidates: candidates, failure: failure, failureFindings: failure.map { config.signature.matches(in: $0) } ?? [],
            changes: changes, steps: steps, stateFolder: folder.path,
            reproduce: Bisector.reproduce(culprit: culprit?.hash ?? bad, command: options.command), firstParent: options.firstParent,
            rounds: rounds, jobs: options.jobs
        )
    }

    /// The failure as the user's tree would show it: paths in xcmedic's worktrees (gone after the
    /// bisect) point into the repository instead.
    static func relocate(_ diagnosis: Diagnosis, from trees: [String], to root: String) -> Diagnosis {
        func fix(_ text: String) -> String { trees.reduce(text) { $0.replacingOccurrences(of: $1, with: root) } }
        var d = diagnosis
        d.findings = d.findings.map { f in
            var f = f
            f.message = fix(f.message)
            f.excerpt = f.excerpt.map(fix)
            f.occurrences = f.occurrences.map { o in
                var o = o
                if let file = o.location?.file { o.location?.file = fix(file) }
                return o
            }
            return f
        }
        return d
    }

    static func roundsEstimate(_ count: Int, _ jobs: Int) -> Int {
        count <= 1 ? 0 : Int((log(Double(count)) / log(Double(jobs + 1))).rounded(.up))
    }

    struct Job {
        var commit: String
        var phase: StepRecord.Phase
        var agree: Bool
        /// Run it even when the cache has it (the flakiness probe at the good end).
        var fresh = false
    }

    /// Results of the jobs running at once, and the first error a worker met.
    final class Batch: @unchecked Sendable {
        let lock = NSLock()
        var records: [Int: StepRecord] = [:]
        var error: Error?
        var running = 0
        func finish(_ i: Int, _ result: Result<StepRecord, Error>) {
            lock.lock()
            defer { lock.unlock() }
            switch result {
            case .success(let r): records[i] = r
            case .failure(let e): if error == nil { error = e }
            }
            running -= 1
        }
        var left: Int { lock.lock(); defer { lock.unlock() }; return running }
    }

    /// Runs the jobs, each in its worktree, all at once; waits for all; rethrows the first error.
    func runBatch(_ jobs: [Job], config: BisectConfig, label: String) throws -> [StepRecord] {
        let batch = Batch()
        let offset = options.verifyGood ? 2 : 1
        var toRun: [(Int, Job, Int)] = []
        for (i, job) in jobs.enumerated() {
            numbers += 1
            if !job.agree, !job.fresh, let hit = try StepRunner.cached(config: config, folder: folder, phase: job.phase, commit: job.commit, number: numbers) {
                batch.records[i] = hit
                Bisector.reportStep(hit, progress, offset: offset)
            } else {
                toRun.append((i, job, numbers))
            }
        }
        if !toRun.isEmpty {
            let names = toRun.map { "\($0.1.commit.prefix(10)) \(((try? git.line("log", "-1", "--format=%s", $0.1.commit)) ?? ""))" }
            progress("xcmedic: \(label): testing \(toRun.count) at once: " + names.joined(separator: ", "))
        }
        batch.running = toRun.count
        let started = Date()
        for (slot, (i, job, number)) in toRun.enumerated() {
            let tree = worktrees[slot]
            let progress = self.progress
            let folder = self.folder
            let thread = Thread {
                do {
                    let checkout = try Git(directory: tree).result(["checkout", "--quiet", "--detach", "--force", job.commit])
                    guard checkout.ok else { throw GitError(arguments: ["checkout", job.commit], status: checkout.status, message: checkout.stderr) }
                    let record = try StepRunner.run(config: config, folder: folder, phase: job.phase, directory: tree, number: number,
                                                    agree: job.agree, environment: ["XCMEDIC_BISECT_WORKER": String(slot + 1)], fresh: job.fresh)
                    Bisector.reportStep(record, progress, offset: offset)
                    batch.finish(i, .success(record))
                } catch {
                    batch.finish(i, .failure(error))
                }
            }
            thread.start()
        }
        var lastMinute = 0, lastSecond = -1
        while batch.left > 0 {
            usleep(100_000)
            let elapsed = Date().timeIntervalSince(started)
            if let status, Int(elapsed) != lastSecond {
                lastSecond = Int(elapsed)
                status("  \(label): \(batch.left) of \(toRun.count) running, \(Bisector.duration(Double(lastSecond)))")
            } else if status == nil, Int(elapsed) / 60 > lastMinute {
                lastMinute = Int(elapsed) / 60
                progress("xcmedic: \(label): \(batch.left) of \(toRun.count) still running (\(lastMinute)m)")
            }
        }
        if let error = batch.error { throw error }
        return jobs.indices.map { batch.records[$0]! }
    }

    /// A good-end step run before the signature was known, judged again by it.
    func rejudge(_ step: StepRecord, config: BisectConfig) -> StepRecord {
        var step = step
        step.attempts = step.attempts.map { attempt in
            guard let status = attempt.outcome.exitStatus, status != 0 else { return attempt }
            var single = step
            single.attempts = [attempt]
            let diagnosis = StepRunner.diagnosis(of: single, folder: folder, config: config)
            return .init(outcome: StepClassifier.classify(.exited(status), diagnosis: diagnosis, signature: config.signature), log: attempt.log)
        }
        let combined = StepClassifier.combine(step.attempts.map(\.outcome))
        step.verdict = combined.verdict
        step.reason = combined.reason
        return step
    }

    // MARK: - Worktrees

    var worktreeBase: String { (folder.base as NSString).appendingPathComponent("worktrees") }

    func makeWorktrees(_ count: Int) throws {
        let name = (folder.path as NSString).lastPathComponent
        for k in 1...count {
            let path = (worktreeBase as NSString).appendingPathComponent("\(name)-w\(k)")
            // In the record before it exists: a bisect killed while adding it still has it removed.
            record.worktrees.append(path)
            try BisectRecovery.write(record, git)
            try git.run("worktree", "add", "--quiet", "--detach", path, "HEAD")
            worktrees.append(path)
        }
    }

    func removeWorktrees() {
        for tree in worktrees { Worktrees.remove(tree, git) }
        rmdir(worktreeBase)
        worktrees = []
    }
}
