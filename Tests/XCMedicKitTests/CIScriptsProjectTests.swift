import Foundation
import XCTest
import XCMedicTestSupport
@testable import XCMedicKit

/// Finding the project, its Package.resolved in the three places Xcode and SwiftPM keep it, and the
/// targets a failing log names.
final class CIScriptsProjectTests: XCTestCase {
    func folder() throws -> URL {
        let url = Scratch.url("xcmedic-loc")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func put(_ url: URL, _ text: String = "{}") throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func testPackageResolvedInTheThreePlaces() throws {
        let a = try folder()
        try put(a.appendingPathComponent("App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved"))
        XCTAssertEqual(try ProjectLocator.locate(in: a.path).resolvedPath, "App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved")

        let b = try folder()
        try FileManager.default.createDirectory(at: b.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
        try put(b.appendingPathComponent("App.xcworkspace/xcshareddata/swiftpm/Package.resolved"))
        let workspace = try ProjectLocator.locate(in: b.path)
        XCTAssertEqual(workspace.projectFile, "App.xcworkspace")
        XCTAssertEqual(workspace.resolvedPath, "App.xcworkspace/xcshareddata/swiftpm/Package.resolved")

        let c = try folder()
        try put(c.appendingPathComponent("Package.swift"), "// swift-tools-version:5.9\n")
        try put(c.appendingPathComponent("Package.resolved"))
        XCTAssertEqual(try ProjectLocator.locate(in: c.path).resolvedPath, "Package.resolved")
    }

    func testProjectInASubFolderIsFoundAndTwoAreAmbiguous() throws {
        let root = try folder()
        try put(root.appendingPathComponent("ios/App.xcodeproj/project.pbxproj"))
        try put(root.appendingPathComponent("ios/.build/checkouts/x/Package.swift"))
        let found = try ProjectLocator.locate(in: root.path)
        XCTAssertEqual(URL(fileURLWithPath: found.directory).lastPathComponent, "ios")
        XCTAssertNil(found.resolvedPath)
        XCTAssertEqual(found.searched, ["App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved"])
        try put(root.appendingPathComponent("macos/Mac.xcodeproj/project.pbxproj"))
        XCTAssertThrowsError(try ProjectLocator.locate(in: root.path)) { XCTAssertTrue("\($0)".contains("several projects below (ios, macos)"), "\($0)") }
        XCTAssertThrowsError(try ProjectLocator.locate(in: try folder().path)) { XCTAssertTrue("\($0)".contains("no .xcodeproj"), "\($0)") }
    }

    func testRelativePaths() {
        XCTAssertEqual(ProjectLocator.relative("/r/Examples/App/A.xcodeproj/x", to: "/r/ci_scripts"), "../Examples/App/A.xcodeproj/x")
        XCTAssertEqual(ProjectLocator.relative("/r/A.xcodeproj/x", to: "/r/ci_scripts"), "../A.xcodeproj/x")
    }

    func testMissingPackageResolvedAndUnknownPackageAreClearErrors() throws {
        let a = try folder()
        try FileManager.default.createDirectory(at: a.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
        let macro = [TrustTarget(kind: .macro, package: "swift-case-paths", target: "CasePathsMacros")]
        XCTAssertThrowsError(try CIScripts.plan(CIScriptsRequest(projectDirectory: a.path, targets: macro, command: "x"))) {
            XCTAssertTrue("\($0)".contains("no Package.resolved at") && "\($0)".contains("commit it"), "\($0)")
        }
        let project = try SampleProject(resolved: ResolvedFixture.text(format: 2, [CIScriptsRunTests.lint]))
        XCTAssertThrowsError(try CIScripts.plan(CIScriptsRequest(projectDirectory: project.directory.path, targets: macro, command: "x"))) {
            XCTAssertTrue("\($0)".contains("package 'swift-case-paths' (for macro 'CasePathsMacros') is not pinned") && "\($0)".contains("pinned: swiftlintplugins"), "\($0)")
        }
        var registry = CIScriptsRunTests.casePaths
        registry.revision = nil
        try project.setResolved(ResolvedFixture.text(format: 3, [registry]))
        XCTAssertThrowsError(try CIScripts.plan(CIScriptsRequest(projectDirectory: project.directory.path, targets: macro, command: "x"))) {
            XCTAssertTrue("\($0)".contains("pinned without a revision"), "\($0)")
        }
        XCTAssertThrowsError(try TrustTarget.parse("CasePathsMacros", kind: .macro)) { XCTAssertTrue("\($0)".contains("expected PACKAGE:TARGET"), "\($0)") }
    }

    func testSampleLogNamesTwoMacrosAndOnePlugin() throws {
        let log = CIScriptsTemplateTests.root.appendingPathComponent("Examples/SampleApp/build.log").path
        let request = try LogTrustRequest.scan(paths: [log])
        XCTAssertEqual(request.targets, [TrustTarget(kind: .macro, package: "swift-case-paths", target: "CasePathsMacros"),
                                         TrustTarget(kind: .macro, package: "swift-perception", target: "PerceptionMacros"),
                                         TrustTarget(kind: .plugin, package: "SwiftLintPlugins", target: "SwiftLintBuildToolPlugin")])
        XCTAssertTrue(request.targetsWithoutPackage.isEmpty)
    }

    /// Xcode 15 named only the target; the package comes from the checkout that declares it.
    func testTargetWithoutPackageIsFoundInCheckoutsOrReported() throws {
        let spyable = ResolvedFixture.Pin(identity: "swift-spyable", url: "https://github.com/Matejkob/swift-spyable", revision: String(repeating: "a", count: 40), version: "0.1.0")
        let project = try SampleProject(resolved: ResolvedFixture.text(format: 2, [CIScriptsRunTests.casePaths, spyable]))
        let log = project.directory.appendingPathComponent("build.log")
        try Data("\tTarget 'SpyableMacro' must be enabled before it can be used.\n".utf8).write(to: log)
        XCTAssertThrowsError(try CIScripts.plan(CIScriptsRequest(projectDirectory: project.directory.path, logs: [log.path], command: "x"))) {
            XCTAssertTrue("\($0)".contains("macro target 'SpyableMacro' (line 1) without its package") && "\($0)".contains("--macro PACKAGE:SpyableMacro"), "\($0)")
        }
        try put(project.directory.appendingPathComponent("SourcePackages/checkouts/swift-spyable/Package.swift"),
                "let package = Package(\n  name: \"swift-spyable\",\n  targets: [\n    .macro(\n      name: \"SpyableMacro\",\n      dependencies: [])\n  ])\n")
        let plan = try CIScripts.plan(CIScriptsRequest(projectDirectory: project.directory.path, logs: [log.path], command: "x"))
        XCTAssertEqual(plan.trusts.map { "\($0.identity):\($0.target)" }, ["swift-spyable:SpyableMacro"])
    }
}
