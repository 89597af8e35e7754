import Foundation
import XCMedicKit

/// Which builds a `history` question is about.
public struct HistoryScope: Sendable, Equatable, Codable {
    /// Builds at or after this time.
    public var since: Date
    /// Empty: every repository (branch) in the store.
    public var repository: String
    public var branch: String

    public init(since: Date, repository: String = "", branch: String = "") {
        self.since = since
        self.repository = repository
        self.branch = branch
    }

    var text: String {
        var parts = ["since \(HistoryDates.iso(since))"]
        if !repository.isEmpty { parts.append("repository \(repository)") }
        if !branch.isEmpty { parts.append("branch \(branch)") }
        return parts.joined(separator: ", ")
    }
}

/// One cause across builds.
public struct CauseSummary: Sendable, Equatable, Codable {
    public var fingerprint: String
    public var rule: String
    public var category: String
    public var title: String
    /// The normalised captures the fingerprint was made of.
    public var subject: String
    /// Builds (in the question's scope) that had it.
    public var builds: Int
    /// First and last time it was recorded, in the whole store (first) and in scope (last).
    public var firstSeen: Date
    public var lastSeen: Date
    /// The build it was first recorded in.
    public var firstBuild: BuildRef?
}

/// `xcmedic history` (top): the causes that broke the most builds.
public struct TopCauses: Sendable, Equatable, Codable {
    public var scope: HistoryScope
    public var builds: Int
    public var failedBuilds: Int
    public var causes: [CauseSummary]
}

/// `xcmedic history new`: causes first recorded after a point.
public struct NewCauses: Sendable, Equatable, Codable {
    /// What the user gave (`v1.2`, `2026-11-01`) and the time it stands for.
    public var since: String
    public var after: Date
    public var repository: String
    public var branch: String
    public var causes: [CauseSummary]
}

/// A test's record of failing and passing.
public struct FlakyTest: Sendable, Equatable, Codable {
    public var repository: String
    public var test: String
    /// Builds where it failed; passing builds of the same branches it could have failed in.
    public var failures: Int
    public var passes: Int
    /// Changes between failing and passing, in time order per branch.
    public var flips: Int
    /// flips / (runs − 1): 0 for a test that stays broken, near 1 for one that alternates.
    public var flipRate: Double
    /// Commits on which it both failed and passed: flaky beyond doubt.
    public var flakyCommits: Int
    public var lastFailed: Date
}

/// `xcmedic history flaky`.
public struct FlakyTests: Sendable, Equatable, Codable {
    public var scope: HistoryScope
    public var tests: [FlakyTest]
}

/// `xcmedic history show`: one cause, build by build.
public struct CauseTimeline: Sendable, Equatable, Codable {
    public struct Entry: Sendable, Equatable, Codable {
        public var build: BuildRef
        public var repository: String
        public var job: String
        public var status: String
    }

    public var cause: CauseSummary
    public var message: String
    /// Newest first, at most the limit asked for; `cause.builds` counts them all.
    public var entries: [Entry]
}

public enum HistoryFormat: String, CaseIterable, Sendable {
    case text, json, markdown
}

/// The answers of `xcmedic history` as text, JSON or Markdown (each a pure function of the answer).
/// Everything in the store was redacted before it was stored; the texts are redacted again on the way out.
public struct HistoryReport: Sendable {
    public var format: HistoryFormat
    public var redactor: Redactor

    public init(format: HistoryFormat, redactor: Redactor = .standard) {
        self.format = format
        self.redactor = redactor
    }

    private func r(_ s: String) -> String { redactor.redact(s) }
    private func cell(_ s: String) -> String { format == .markdown ? Markdown.escape(r(s)) : r(s) }

    public func render(_ top: TopCauses) -> String {
        if format == .json { return json(top) }
        var out = heading("Top causes of failed builds") + "\(top.failedBuilds) of \(top.builds) recorded build\(top.builds == 1 ? "" : "s") failed, \(top.scope.text).\n\n"
        guard !top.causes.isEmpty else { return out + "No cause recorded.\n" }
        out += table(["Builds", "Share", "Cause", "What", "First seen", "Last seen", "Fingerprint"], top.causes.map { c in
            let share = top.builds == 0 ? 0 : Double(c.builds) / Double(top.builds) * 100
            return ["\(c.builds)", String(format: "%.1f%%", share), cell(c.title), cell(c.subject), HistoryDates.day(c.firstSeen),
                    HistoryDates.day(c.lastSeen), c.fingerprint]
        })
        return out
    }

    public func render(_ new: NewCauses) -> String {
        if format == .json { return json(new) }
        var where_ = ""
        if !new.repository.isEmpty { where_ += " in \(new.repository)" }
        if !new.branch.isEmpty { where_ += " on \(new.branch)" }
        var out = heading("New causes since \(r(new.since))") + "Causes first recorded after \(HistoryDates.iso(new.after))\(r(where_)).\n\n"
        guard !new.causes.isEmpty else { return out + "No new cause.\n" }
        out += table(["First seen", "Builds", "Cause", "What", "Fingerprint"], new.causes.map { c in
            [cell(c.firstBuild?.text ?? HistoryDates.day(c.firstSeen)), "\(c.builds)", cell(c.title), cell(c.subject), c.fingerprint]
        })
        return out
    }

    public func render(_ flaky: FlakyTests) -> String {
        if format == .json { return json(flaky) }
        var out = heading("Flaky tests by flip rate") + "Tests that changed between failing and passing, \(flaky.scope.text).\n\n"
        guard !flaky.tests.isEmpty else { return out + "No test changed between failing and passing.\n" }
        out += table(["Flip rate", "Flips", "Failed", "Passed", "Flaky commits", "Test", "Repository", "Last failed"], flaky.tests.map { t in
            [String(format: "%.2f", t.flipRate), "\(t.flips)", "\(t.failures)", "\(t.passes)", "\(t.flakyCommits)", cell(t.test), cell(t.repository),
             HistoryDates.day(t.lastFailed)]
        })
        return out
    }

    public func render(_ timeline: CauseTimeline) -> String {
        if format == .json { return json(timeline) }
        let c = timeline.cause
        var out = heading("\(r(c.title)) (\(c.fingerprint))")
        out += "Rule \(c.rule), \(c.category): \(cell(c.subject))\n"
        if !timeline.message.isEmpty { out += "Last message: \(cell(timeline.message))\n" }
        out += "In \(c.builds) recorded build\(c.builds == 1 ? "" : "s"); first seen \(cell(c.firstBuild?.text ?? HistoryDates.iso(c.firstSeen)))," +
            " last seen \(HistoryDates.iso(c.lastSeen)).\n\n"
        out += table(["When", "Build", "Repository", "Branch", "Commit", "Job", "Status"], timeline.entries.map { e in
            [HistoryDates.iso(e.build.time), cell(e.build.label), cell(e.repository), cell(e.build.branch), String(e.build.commit.prefix(12)),
             cell(e.job), e.status]
        })
        if timeline.entries.count < c.builds { out += "\n\(c.builds - timeline.entries.count) older builds not shown (--limit).\n" }
        return out
    }

    private func heading(_ title: String) -> String {
        format == .markdown ? "## \(title)\n\n" : "\(title)\n\n"
    }

    private func table(_ header: [String], _ rows: [[String]]) -> String {
        if format == .markdown {
            var out = "| " + header.joined(separator: " | ") + " |\n|" + header.map { _ in "---" }.joined(separator: "|") + "|\n"
            // Cells from the store are already escaped (`cell`); the rest are numbers, dates and hex.
            for row in rows { out += "| " + row.joined(separator: " | ") + " |\n" }
            return out
        }
        var widths = header.map(\.count)
        for row in rows { for (i, v) in row.enumerated() { widths[i] = min(60, max(widths[i], v.count)) } }
        func line(_ values: [String]) -> String {
            values.enumerated().map { i, v in
                let clipped = v.count > 60 ? String(v.prefix(59)) + "…" : v
                return i == values.count - 1 ? clipped : clipped.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ") + "\n"
        }
        return line(header) + rows.map(line).joined()
    }

    private func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return r(String(decoding: data, as: UTF8.self)) + "\n"
    }
}
