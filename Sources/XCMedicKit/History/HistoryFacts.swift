import Foundation

/// A recorded build as reports name it.
public struct BuildRef: Sendable, Equatable, Codable {
    /// `#812`, the id, or `local`.
    public var label: String
    public var commit: String
    public var branch: String
    public var time: Date
    public var url: String

    public init(label: String, commit: String, branch: String, time: Date, url: String = "") {
        self.label = label
        self.commit = commit
        self.branch = branch
        self.time = time
        self.url = url
    }

    /// `#812 (abc1234 on main, 2026-11-20)`.
    public var text: String {
        var about: [String] = []
        if !commit.isEmpty { about.append(String(commit.prefix(7)) + (branch.isEmpty ? "" : " on \(branch)")) } else if !branch.isEmpty { about.append(branch) }
        about.append(HistoryDates.day(time))
        return "\(label) (\(about.joined(separator: ", ")))"
    }

    /// The same build with `transform` applied to every text (a report's redaction and escaping).
    public func mapText(_ transform: (String) -> String) -> BuildRef {
        BuildRef(label: transform(label), commit: transform(commit), branch: transform(branch), time: time, url: transform(url))
    }
}

/// A test that failed and passed on one commit.
public struct FlakyEvidence: Sendable, Equatable, Codable {
    public var test: String
    public var commit: String
    /// Builds on that commit where the test failed, and builds on it that passed.
    public var failed: Int
    public var passed: Int

    public init(test: String, commit: String, failed: Int, passed: Int) {
        self.test = test
        self.commit = commit
        self.failed = failed
        self.passed = passed
    }

    public var text: String {
        "flaky: \(test) failed in \(failed) and passed in \(passed) build\(failed + passed == 2 ? "" : "s") of \(String(commit.prefix(7)))"
    }

    /// For a passing build: `failed in 2 earlier builds of this commit and passed now` (after the test's name).
    public var passedNowText: String {
        "failed in \(failed) earlier build\(failed == 1 ? "" : "s") of this commit and passed now"
    }

    public func mapText(_ transform: (String) -> String) -> FlakyEvidence {
        FlakyEvidence(test: transform(test), commit: transform(commit), failed: failed, passed: passed)
    }
}

/// What the history store knows about one cause of this build (`scan --record`).
public struct CauseHistory: Sendable, Equatable, Codable {
    public var fingerprint: String
    /// The earliest recorded build of this repository with this cause (this build when it is new).
    public var firstSeen: BuildRef
    /// Seen in an earlier build.
    public var recurring: Bool
    /// No build on this branch since its last passing build (or ever, without one) had it.
    public var newInThisBuild: Bool
    /// Of the last `recentBuilds` builds on this branch (this one included), how many had it.
    public var buildsWithCause: Int
    public var recentBuilds: Int
    public var branch: String
    /// A test that has failed and passed on one commit.
    public var flaky: FlakyEvidence?

    public init(fingerprint: String, firstSeen: BuildRef, recurring: Bool, newInThisBuild: Bool, buildsWithCause: Int,
                recentBuilds: Int, branch: String, flaky: FlakyEvidence? = nil) {
        self.fingerprint = fingerprint
        self.firstSeen = firstSeen
        self.recurring = recurring
        self.newInThisBuild = newInThisBuild
        self.buildsWithCause = buildsWithCause
        self.recentBuilds = recentBuilds
        self.branch = branch
        self.flaky = flaky
    }

    /// One line every report format shows.
    public var text: String {
        var parts: [String] = []
        if newInThisBuild { parts.append("new in this build") }
        parts.append(recurring ? "recurring since \(firstSeen.text)" : "first seen in this build")
        parts.append(recentText)
        if let flaky { parts.append(flaky.text) }
        return parts.joined(separator: " · ")
    }

    /// `in 3 of the last 20 builds on main`.
    public var recentText: String {
        "in \(buildsWithCause) of the last \(recentBuilds) build\(recentBuilds == 1 ? "" : "s")\(branch.isEmpty ? "" : " on \(branch)")"
    }

    public func mapText(_ transform: (String) -> String) -> CauseHistory {
        var h = self
        h.firstSeen = firstSeen.mapText(transform)
        h.branch = transform(branch)
        h.flaky = flaky?.mapText(transform)
        return h
    }
}

/// What the history store says about the build as a whole.
public struct BuildHistory: Sendable, Equatable, Codable {
    /// This build as recorded.
    public var build: BuildRef
    /// The store, as it may be shown (no credentials).
    public var store: String
    /// Tests that failed earlier on this commit and did not fail in this build, which passed.
    public var passedAfterFailing: [FlakyEvidence]

    public init(build: BuildRef, store: String, passedAfterFailing: [FlakyEvidence] = []) {
        self.build = build
        self.store = store
        self.passedAfterFailing = passedAfterFailing
    }

    public var text: String { "recorded as build \(build.text) in \(store)" }

    public func mapText(_ transform: (String) -> String) -> BuildHistory {
        BuildHistory(build: build.mapText(transform), store: transform(store), passedAfterFailing: passedAfterFailing.map { $0.mapText(transform) })
    }
}

public enum HistoryDates {
    /// `2026-11-20` in UTC.
    public static func day(_ date: Date) -> String {
        String(iso(date).prefix(10))
    }

    /// `2026-11-20T14:03:00Z`.
    public static func iso(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: date)
    }

    /// `2026-11-20`, `2026-11-20T14:03:00Z` (or with an offset); nil for anything else.
    public static func parse(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        if let d = f.date(from: text) { return d }
        f.formatOptions = [.withFullDate]
        f.timeZone = TimeZone(identifier: "UTC")
        return text.count == 10 ? f.date(from: text) : nil
    }

    /// `30d`, `12h`, `2w`, `45m` → seconds; nil for anything else.
    public static func duration(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let n = Double(text.dropLast()), n >= 0 else { return nil }
        switch unit {
        case "m": return n * 60
        case "h": return n * 3600
        case "d": return n * 86_400
        case "w": return n * 7 * 86_400
        default: return nil
        }
    }
}
