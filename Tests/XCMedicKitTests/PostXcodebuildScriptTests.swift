import Foundation
import XCTest
import XCMedicTestSupport
@testable import XCMedicKit

/// `ci-scripts --post-xcodebuild`: the script it writes, run by real zsh and sh the way Xcode Cloud runs
/// it, on a DerivedData tree of gzipped activity logs (SLFTestSupport) and with the built xcmedic.
final class PostXcodebuildScriptTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = Scratch.url("post-xcodebuild")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    static var builtXcmedic: String? {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = dir.appendingPathComponent("xcmedic").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    static func shell(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A project folder with an .xcodeproj, so ci_scripts goes beside it.
    private func project() throws -> URL {
        let project = directory.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
        try Data().write(to: project.appendingPathComponent("App.xcodeproj/project.pbxproj"))
        return project
    }

    private func script(in project: URL) throws -> URL {
        _ = try PostXcodebuildScript.run(projectDirectory: project.path, scriptsDirectory: nil, command: "xcmedic ci-scripts --post-xcodebuild", dryRun: false)
        return project.appendingPathComponent("ci_scripts/ci_post_xcodebuild.sh")
    }

    /// DerivedData with a failing build log (a Swift 6 error at Model.swift:12:5) and a test log, gzipped.
    private func derivedData() throws -> URL {
        let root = directory.appendingPathComponent("DerivedData")
        for folder in ["Logs/Build", "Logs/Test"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let build = SLFWriter.Section(title: "Build App", subsections: [
            .init(title: "Compile Model.swift (arm64)", text: "", messages: [
                .init(title: "main actor-isolated static property 'shared' can not be referenced from a nonisolated context",
                      url: "file:///Volumes/workspace/repository/App/Model%20Layer/Model.swift", line: 11, column: 4),
            ]),
        ])
        try Data(try GzipForTests.compress(SLFWriter.log(build))).write(to: root.appendingPathComponent("Logs/Build/5C1E.xcactivitylog"))
        let test = SLFWriter.Section(title: "Test App", subsections: [.init(title: "Run tests", text: "Testing started\n")])
        try Data(try GzipForTests.compress(SLFWriter.log(test))).write(to: root.appendingPathComponent("Logs/Test/9A2B.xcactivitylog"))
        return root
    }

    private struct Run { var status: Int32; var output: String }

    private func run(_ shell: String, _ script: URL, environment: [String: String], options: [String] = []) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = options + [script.path]
        process.currentDirectoryURL = script.deletingLastPathComponent()
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: output)
    }

    /// A PATH with only the built xcmedic (or nothing) beside the system's tools.
    private func path(withXcmedic: Bool) throws -> String {
        let bin = directory.appendingPathComponent(withXcmedic ? "bin" : "empty-bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        if withXcmedic {
            guard let xcmedic = Self.builtXcmedic else { throw XCTSkip("the xcmedic binary is not built beside the tests") }
            if !FileManager.default.fileExists(atPath: bin.appendingPathComponent("xcmedic").path) {
                try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("xcmedic").path, withDestinationPath: xcmedic)
            }
        }
        return bin.path + ":/usr/bin:/bin"
    }

    private var shells: [(String, [String])] {
        get throws {
            var found: [(String, [String])] = []
            for name in ["zsh", "sh"] {
                if let shell = Self.shell(name) { found.append((shell, [])) }
            }
            guard found.count == 2 else { throw XCTSkip("zsh and sh are needed (apt-get install zsh)") }
            // As Xcode Cloud runs it (shebang, or zsh when not executable), and under a user's set -eu.
            return found + found.map { ($0.0, ["-eu"]) }
        }
    }

    func testAFailedBuildIsExplainedFromTheActivityLogsUnderZshAndSh() throws {
        let script = try script(in: try project())
        let derived = try derivedData()
        let path = try path(withXcmedic: true)
        for (shell, options) in try shells {
            let result = try run(shell, script, environment: ["PATH": path, "HOME": directory.path, "CI_XCODEBUILD_EXIT_CODE": "65",
                                                              "CI_DERIVED_DATA_PATH": derived.path], options: options)
            let label = "\(shell) \(options)"
            XCTAssertEqual(result.status, 0, "\(label): \(result.output)")
            XCTAssertTrue(result.output.contains("explaining the failed xcodebuild (exit code 65) from 2 activity log(s)"), "\(label): \(result.output)")
            XCTAssertTrue(result.output.contains("Model Layer/Model.swift:12:5"), "\(label): \(result.output)")
            XCTAssertTrue(result.output.contains("main actor-isolated static property 'shared'"), "\(label): \(result.output)")
        }
    }

    func testAPassingBuildPrintsNothingAndAMissingXcmedicIsSaid() throws {
        let script = try script(in: try project())
        let derived = try derivedData()
        for (shell, options) in try shells {
            let passing = try run(shell, script, environment: ["PATH": try path(withXcmedic: true), "CI_XCODEBUILD_EXIT_CODE": "0",
                                                               "CI_DERIVED_DATA_PATH": derived.path], options: options)
            XCTAssertEqual(passing.status, 0)
            XCTAssertEqual(passing.output, "", "\(shell) \(options)")
            let missing = try run(shell, script, environment: ["PATH": try path(withXcmedic: false), "CI_XCODEBUILD_EXIT_CODE": "65",
                                                               "CI_DERIVED_DATA_PATH": derived.path], options: options)
            XCTAssertEqual(missing.status, 0, missing.output)
            XCTAssertTrue(missing.output.contains("xcmedic: not installed"), "\(shell) \(options): \(missing.output)")
        }
    }

    func testNoLogsAndAnUnreadableResultBundleNeverFailTheBuild() throws {
        let script = try script(in: try project())
        let empty = directory.appendingPathComponent("EmptyDerivedData")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let derived = try derivedData()
        // On Linux xcmedic cannot read a bundle: the script says so and explains with the logs alone.
        let bundle = directory.appendingPathComponent("Result.xcresult")
        try FileManager.default.createDirectory(at: bundle.appendingPathComponent("Data"), withIntermediateDirectories: true)
        try Data("<plist/>".utf8).write(to: bundle.appendingPathComponent("Info.plist"))
        for (shell, options) in try shells {
            let none = try run(shell, script, environment: ["PATH": try path(withXcmedic: true), "CI_XCODEBUILD_EXIT_CODE": "65",
                                                            "CI_DERIVED_DATA_PATH": empty.path], options: options)
            XCTAssertEqual(none.status, 0, none.output)
            XCTAssertTrue(none.output.contains("no activity logs under"), "\(shell) \(options): \(none.output)")
            #if !os(macOS)
            let withBundle = try run(shell, script, environment: ["PATH": try path(withXcmedic: true), "CI_XCODEBUILD_EXIT_CODE": "65",
                                                                  "CI_DERIVED_DATA_PATH": derived.path, "CI_RESULT_BUNDLE_PATH": bundle.path], options: options)
            XCTAssertEqual(withBundle.status, 0, withBundle.output)
            XCTAssertTrue(withBundle.output.contains("and the result bundle"), withBundle.output)
            XCTAssertTrue(withBundle.output.contains("is an Xcode result bundle"), withBundle.output)
            XCTAssertTrue(withBundle.output.contains("explaining with the activity logs alone"), withBundle.output)
            XCTAssertTrue(withBundle.output.contains("Model Layer/Model.swift:12:5"), withBundle.output)
            #endif
        }
    }

    func testUserLinesAreKeptAndRunAfterTheBlock() throws {
        let project = try project()
        let folder = project.appendingPathComponent("ci_scripts")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let existing = folder.appendingPathComponent("ci_post_xcodebuild.sh")
        try Data("#!/bin/sh\necho \"user step ran\"\n".utf8).write(to: existing)
        try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: existing.path)
        let script = try script(in: project)
        let text = try String(contentsOf: script, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("#!/bin/sh\n# >>> xcmedic >>>\n"), text)
        XCTAssertTrue(text.hasSuffix("# <<< xcmedic <<<\necho \"user step ran\"\n"), text)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: script.path)[.posixPermissions] as? NSNumber)?.intValue, 0o750)
        // Again: nothing changes.
        let again = try PostXcodebuildScript.plan(projectDirectory: project.path, scriptsDirectory: nil, command: "xcmedic ci-scripts --post-xcodebuild")
        XCTAssertFalse(again.changes)
        for (shell, options) in try shells {
            let result = try run(shell, script, environment: ["PATH": try path(withXcmedic: false), "CI_XCODEBUILD_EXIT_CODE": "65"], options: options)
            XCTAssertEqual(result.status, 0, result.output)
            XCTAssertTrue(result.output.hasSuffix("user step ran\n"), "\(shell) \(options): \(result.output)")
        }
    }

    func testANewScriptIsExecutableAndItsTemplateIsEmbedded() throws {
        let script = try script(in: try project())
        let mode = (try FileManager.default.attributesOfItem(atPath: script.path)[.posixPermissions] as? NSNumber)?.intValue ?? 0
        XCTAssertEqual(mode & 0o111, 0o111)
        let text = try String(contentsOf: script, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("#!/bin/sh\n"))
        XCTAssertFalse(text.contains("{{"), text)
        XCTAssertTrue(text.contains("# Regenerate with: xcmedic ci-scripts --post-xcodebuild\n"), text)
    }
}
