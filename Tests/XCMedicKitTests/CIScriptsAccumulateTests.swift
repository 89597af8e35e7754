import Foundation
import XCTest
@testable import XCMedicKit

/// Trust accumulates across runs: the block is read back, merged with what a run adds, and entries leave
/// only by --remove or --replace. Packages come from every place a log names them.
final class CIScriptsAccumulateTests: XCTestCase {
    static let spyable = ResolvedFixture.Pin(identity: "swift-spyable", url: "https://github.com/Matejkob/swift-spyable",
                                             revision: String(repeating: "a", count: 40), version: "0.8.0")

    func project() throws -> SampleProject {
        try SampleProject(resolved: ResolvedFixture.text(format: 3, [CIScriptsRunTests.casePaths, CIScriptsRunTests.perception, CIScriptsRunTests.lint, Self.spyable]))
    }

    func log(_ project: SampleProject, _ text: String) throws -> String {
        let url = project.directory.appendingPathComponent("build-\(UUID().uuidString).log")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @discardableResult
    func run(_ project: SampleProject, logs: [String] = [], targets: [TrustTarget] = [], removals: [TrustTarget] = [], replace: Bool = false) throws -> CIScriptsPlan {
        try CIScripts.run(CIScriptsRequest(projectDirectory: project.directory.path, targets: targets, logs: logs, removals: removals, replace: replace,
                                           command: "xcmedic ci-scripts"), dryRun: false)
    }

    func trusted(_ project: SampleProject) throws -> [String] {
        let text = [UInt8](try Data(contentsOf: project.script))
        guard case .allowList(let entries)? = MarkedBlock.extract(from: text).flatMap(TrustBlockParser.contents(of:)) else { return [] }
        return entries.map { "\($0.kind.rawValue) \($0.identity):\($0.target)" }
    }

    /// Done-when: two --from-log runs with different failures leave both trusted.
    func testTwoLogRunsWithDifferentFailuresLeaveBothTrusted() throws {
        let project = try project()
        let first = try run(project, logs: [try log(project, "error: Macro \"CasePathsMacros\" from package \"swift-case-paths\" must be enabled before it can be used\n")])
        XCTAssertEqual(first.added.map(\.target), ["CasePathsMacros"])
        let second = try run(project, logs: [try log(project, "error: Plugin \"SwiftLintBuildToolPlugin\" from package \"SwiftLintPlugins\" must be enabled before it can be used\n")])
        XCTAssertEqual(second.added.map(\.target), ["SwiftLintBuildToolPlugin"])
        XCTAssertEqual(second.kept.map(\.target), ["CasePathsMacros"])
        XCTAssertEqual(second.removed, [])
        XCTAssertEqual(try trusted(project), ["macro swift-case-paths:CasePathsMacros", "plugin swiftlintplugins:SwiftLintBuildToolPlugin"])
        // The first failure again: nothing to change.
        XCTAssertFalse(try run(project, logs: [try log(project, "error: Macro \"CasePathsMacros\" from package \"swift-case-paths\" must be enabled before it can be used\n")]).changes)
        // The comment says how to regenerate the whole block, not only the last run.
        let text = try String(contentsOf: project.script, encoding: .utf8)
        XCTAssertTrue(text.contains("# Regenerate with: xcmedic ci-scripts --replace --macro swift-case-paths:CasePathsMacros --plugin swiftlintplugins:SwiftLintBuildToolPlugin\n"), text)
    }

    /// Done-when: a run with the Xcode 15 checkout-path wording needs no --macro.
    func testXcode15CheckoutPathNamesThePackage() throws {
        let project = try project()
        let path = try log(project, "/Users/me/Library/Developer/Xcode/DerivedData/App-abc/SourcePackages/checkouts/swift-case-paths/Package.swift:PACKAGE-TARGET:CasePathsMacros: error: Target 'CasePathsMacros' must be enabled before it can be used.\n")
        let plan = try run(project, logs: [path])
        XCTAssertEqual(plan.added.map { "\($0.identity):\($0.target)" }, ["swift-case-paths:CasePathsMacros"])
        XCTAssertEqual(LogPackageHints(texts: [try String(contentsOfFile: path, encoding: .utf8)]).checkoutPackage, ["CasePathsMacros": "swift-case-paths"])
    }

    /// The log's "Resolved source packages:" list turns the name Xcode prints into the pin's identity.
    func testResolvedPackagesListMapsTheDisplayName() throws {
        let project = try project()
        let failure = "error: Macro \"SpyableMacro\" from package \"Spyable\" must be enabled before it can be used\n"
        XCTAssertThrowsError(try run(project, logs: [try log(project, failure)])) { XCTAssertTrue("\($0)".contains("package 'Spyable' (for macro 'SpyableMacro') is not pinned"), "\($0)") }
        let withList = "Resolved source packages:\n  Spyable: https://github.com/Matejkob/swift-spyable @ 0.8.0\n  swift-case-paths: https://github.com/pointfreeco/swift-case-paths @ 1.7.2\n\n" + failure
        let plan = try run(project, logs: [try log(project, withList)])
        XCTAssertEqual(plan.added.map { "\($0.identity):\($0.target)" }, ["swift-spyable:SpyableMacro"])
        XCTAssertEqual(LogPackageHints(texts: [withList]).resolvedPackages,
                       ["Spyable": "https://github.com/Matejkob/swift-spyable", "swift-case-paths": "https://github.com/pointfreeco/swift-case-paths"])
    }

    func testRemoveReplaceAndTheSummary() throws {
        let project = try project()
        try run(project, targets: CIScriptsRunTests.targets)
        XCTAssertEqual(try trusted(project).count, 3)
        let removed = try run(project, removals: [TrustTarget(kind: .macro, package: "swift-perception", target: "PerceptionMacros")])
        XCTAssertEqual(removed.removed.map(\.target), ["PerceptionMacros"])
        XCTAssertEqual(removed.kept.count, 2)
        XCTAssertEqual(removed.added, [])
        XCTAssertThrowsError(try run(project, removals: [TrustTarget(kind: .macro, package: "swift-perception", target: "PerceptionMacros")])) {
            XCTAssertTrue("\($0)".contains("the block does not trust it"), "\($0)")
        }
        // --remove by the display name a log prints works too (SwiftLintPlugins → swiftlintplugins).
        let byName = try run(project, removals: [TrustTarget(kind: .macro, package: "SwiftLintPlugins", target: "SwiftLintBuildToolPlugin")])
        XCTAssertEqual(byName.removed.map(\.identity), ["swiftlintplugins"])
        let replaced = try run(project, targets: [TrustTarget(kind: .macro, package: "swift-perception", target: "PerceptionMacros")], replace: true)
        XCTAssertEqual(replaced.added.map(\.target), ["PerceptionMacros"])
        XCTAssertEqual(replaced.removed.map(\.target), ["CasePathsMacros"])
        XCTAssertEqual(try trusted(project), ["macro swift-perception:PerceptionMacros"])
        // Removing the last entry takes the block out and leaves the rest of the script.
        let empty = try run(project, removals: [TrustTarget(kind: .macro, package: "swift-perception", target: "PerceptionMacros")])
        XCTAssertNil(empty.block)
        XCTAssertEqual(try String(contentsOf: project.script, encoding: .utf8), String(ScriptRenderer.newScript(block: "").dropLast()))
    }

    /// A package that left Package.resolved stays trusted (the script skips it at CI time) and is said.
    func testEntryWhosePackageLeftPackageResolvedIsKeptAndSaid() throws {
        let project = try project()
        try run(project, targets: [TrustTarget(kind: .macro, package: "swift-spyable", target: "SpyableMacro")])
        try project.setResolved(ResolvedFixture.text(format: 3, [CIScriptsRunTests.casePaths]))
        let plan = try run(project, targets: [TrustTarget(kind: .macro, package: "swift-case-paths", target: "CasePathsMacros")])
        XCTAssertEqual(plan.kept.map(\.identity), ["swift-spyable"])
        XCTAssertTrue(plan.notes.contains { $0.contains("swift-spyable (for macro 'SpyableMacro') is no longer in") }, "\(plan.notes)")
    }

    /// Whatever a name holds, the block reads back exactly what was written.
    func testHostileNamesReadBackExactly() throws {
        let names = ["plain", "it's", "$(rm -rf /)", "`x`", "a b", "new\nline", "back\\slash", "\"q\"", "#hash", "semi;colon"]
        let trusts = names.enumerated().map { i, name in
            ResolvedTrust(kind: i % 2 == 0 ? .macro : .plugin, identity: "pkg\(name)", target: "T\(name)", pin: PackagePin(identity: "pkg\(name)", location: "", revision: "r"))
        }
        let block = ScriptRenderer.block(.allowList(trusts, resolvedFromScripts: "../x/Package.resolved"), command: "xcmedic ci-scripts")
        guard case .allowList(let entries)? = TrustBlockParser.contents(of: block) else { return XCTFail("not read back:\n\(block)") }
        XCTAssertEqual(Set(entries.map { "\($0.kind) \($0.identity) \($0.target)" }), Set(trusts.map { "\($0.kind) \($0.identity) \($0.target)" }))
        XCTAssertEqual(TrustBlockParser.contents(of: ScriptRenderer.block(.skipValidation, command: "x")), .skipValidation)
    }
}
