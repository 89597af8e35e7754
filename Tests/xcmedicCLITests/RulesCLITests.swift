import Foundation
import XCTest
import XCMedicTestSupport
@testable import XCMedicKit

/// `xcmedic rules --check` and `--categories`, run as a user would.
final class RulesCLITests: XCTestCase {
    /// Each shipped family is an ordinary rules file that passes on its own.
    func testEveryShippedFamilyFilePassesTheCheck() throws {
        let folder = CLI.repositoryRoot.appendingPathComponent("Catalog")
        let families = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.range(of: #"^\d\d-.*\.yml$"#, options: .regularExpression) != nil }.sorted()
        XCTAssertEqual(families, BuiltinCatalog.families.map(\.file))
        for name in families {
            let r = try CLI.run(["rules", "--check", "Catalog/\(name)"])
            XCTAssertEqual(r.status, 0, "\(name): \(r.stdout)\(r.stderr)")
            XCTAssertFalse(r.stdout.contains("warning"), r.stdout)
            XCTAssertTrue(r.stdout.hasPrefix("Catalog/\(name): ") && r.stdout.hasSuffix(" examples, all pass\n"), r.stdout)
        }
    }

    func testAnUnknownCategoryIsAWarningNotAFailure() throws {
        let dir = Scratch.url("xcmedic-rules")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("team.yml")
        try """
            - id: our-deploy-refused
              title: Deploy refused
              category: our-deploy
              severity: error
              role: cause
              consequence_of: [codesign-certificate]
              patterns: [{literal: 'deploy refused', regex: 'deploy refused'}]
              explanation: Our deploy step refuses to run.
              examples: {match: [{line: 'deploy refused', source: our CI}]}

            """.write(to: file, atomically: true, encoding: .utf8)
        let r = try CLI.run(["rules", "--check", file.path])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, r.stdout)
        XCTAssertEqual(lines.first, "\(file.path): warning: rule 'our-deploy-refused': category 'our-deploy' is not a known category ('xcmedic rules --categories' lists them)")
        XCTAssertTrue(lines.last?.hasSuffix("all pass") ?? false, r.stdout)
    }

    /// Examples run with the built-in rules behind the file's: one that a scan names only through another rule (a
    /// code frame's message, read when xcpretty's location line reaches the catch-all) passes, and one that a rule
    /// earlier in the file claims fails, naming the rule that took it.
    func testExamplesRunAsAScanRunsThem() throws {
        let dir = Scratch.url("xcmedic-rules")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("team.yml")
        try #"""
            - id: our-widget-api
              title: Our widget API missing
              category: xcode-version
              severity: error
              role: cause
              patterns: [{literal: "no member 'widgetKind'", regex: "has no member 'widgetKind'"}]
              explanation: The widget API needs the newer SDK.
              examples:
                match:
                  - line: "❌  (ios/W.swift:5:9)\n\n> 5 |     view.widgetKind()\n  |          ^ value of type 'V' has no member 'widgetKind'"
                    source: our CI
            - id: our-any-member
              title: Any missing member
              category: compile-error-generic
              severity: error
              role: cause
              patterns: [{literal: 'has no member', regex: 'has no member'}]
              explanation: Something is missing.
              examples: {match: [{line: "value of type 'V' has no member 'size'", source: our CI}]}
            - id: our-late-rule
              title: Never reached
              category: compile-error-generic
              severity: error
              role: cause
              patterns: [{literal: 'has no member', regex: "has no member 'count'"}]
              explanation: Claimed by the rule above it.
              examples: {match: [{line: "value of type 'V' has no member 'count'", source: our CI}]}

            """#.write(to: file, atomically: true, encoding: .utf8)
        let r = try CLI.run(["rules", "--check", file.path])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertEqual(r.stdout, "\(file.path): rule 'our-late-rule': examples.match[0]: does not match (claimed by 'our-any-member'): value of type 'V' has no member 'count'\n")
    }

    func testCategoriesAreListed() throws {
        let text = try CLI.run(["rules", "--categories"])
        XCTAssertEqual(text.status, 0)
        XCTAssertTrue(text.stdout.contains("\ntest-failure "), text.stdout)
        let json = try CLI.run(["rules", "--categories", "--format", "json"])
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let names = (doc["categories"] as? [[String: String]])?.compactMap { $0["name"] } ?? []
        XCTAssertTrue(names.contains("codesign-certificate"), "\(names)")
        XCTAssertEqual(doc["count"] as? Int, names.count)
        XCTAssertTrue(text.stdout.hasSuffix("\n\(names.count) categories\n"), text.stdout)
    }
}
