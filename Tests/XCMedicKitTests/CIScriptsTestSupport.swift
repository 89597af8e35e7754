import Foundation
import XCTest
import XCMedicTestSupport
@testable import XCMedicKit

/// Runs generated scripts for real: a temporary HOME, `awk` = Debian's original-awk (the one-true-awk
/// macOS ships), a recording `defaults`, and failing stubs for tools a stock Mac lacks or the script
/// must not use (jq, plutil, curl, wget, brew), each recording that it was called.
struct ShellSandbox {
    let root: URL
    var home: URL { root.appendingPathComponent("home") }
    var bin: URL { root.appendingPathComponent("bin") }
    var calls: URL { root.appendingPathComponent("calls.log") }
    var security: URL { home.appendingPathComponent("Library/org.swift.swiftpm/security") }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func which(_ tool: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") + ["/usr/bin", "/bin"] {
            let path = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Skips the test with a clear message when a tool the test runs is not installed (`.ci/run` installs them).
    static func require(_ tools: String...) throws {
        for tool in tools where which(tool) == nil {
            throw XCTSkip("\(tool) is not installed (apt-get install \(tool == "original-awk" ? "original-awk" : tool)); this test runs generated scripts with it")
        }
    }

    init() throws {
        try ShellSandbox.require("original-awk")
        root = Scratch.url("xcmedic-sh")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("home"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("awk").path, withDestinationPath: ShellSandbox.which("original-awk")!)
        try stub("defaults", status: 0)
        for tool in ["jq", "plutil", "curl", "wget", "brew", "gawk", "mawk", "python3"] { try stub(tool, status: 127) }
    }

    func stub(_ name: String, status: Int) throws {
        let path = bin.appendingPathComponent(name).path
        let text = "#!/bin/sh\nprintf '%s\\n' \"\(name) $*\" >> '\(calls.path)'\nexit \(status)\n"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
    }

    /// Lines the stubs recorded (`defaults write ...`, `jq ...`).
    var recordedCalls: [String] {
        (try? String(contentsOf: calls, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    /// Runs `script` with `shell` (`zsh` or `bash`) as Xcode Cloud does: from the ci_scripts folder.
    func run(_ shell: String, _ script: String) throws -> Result {
        try ShellSandbox.require(shell)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ShellSandbox.which(shell)!)
        process.arguments = [script]
        process.currentDirectoryURL = URL(fileURLWithPath: script).deletingLastPathComponent()
        process.environment = ["HOME": home.path, "PATH": "\(bin.path):/usr/bin:/bin", "LC_ALL": "C"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    func allowList(_ file: String) -> String? {
        (try? Data(contentsOf: security.appendingPathComponent(file))).map { String(decoding: $0, as: UTF8.self) }
    }

    func reset() throws {
        try? FileManager.default.removeItem(at: home)
        try? FileManager.default.removeItem(at: calls)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }
}

enum Shellcheck {
    /// shellcheck's findings for a generated script (checked as bash: shellcheck has no zsh mode, and
    /// the scripts keep to what zsh and bash share).
    static func findings(_ path: String) throws -> String {
        guard let tool = ShellSandbox.which("shellcheck") else {
            throw XCTSkip("shellcheck is not installed (apt-get install shellcheck); generated scripts are not linted")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-s", "bash", "-S", "style", path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? "" : String(decoding: data, as: UTF8.self)
    }
}

/// A throwaway Xcode project folder with a Package.resolved where Xcode keeps it.
struct SampleProject {
    let directory: URL
    var resolved: URL { directory.appendingPathComponent("App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved") }
    var script: URL { directory.appendingPathComponent("ci_scripts/ci_post_clone.sh") }

    init(resolved text: String) throws {
        directory = Scratch.url("xcmedic-proj")
        try FileManager.default.createDirectory(at: resolved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try setResolved(text)
    }

    func setResolved(_ text: String) throws { try Data(text.utf8).write(to: resolved) }

    @discardableResult
    func generate(_ targets: [TrustTarget] = [], skip: Bool = false, command: String = "xcmedic ci-scripts") throws -> CIScriptsPlan {
        let plan = try CIScripts.plan(CIScriptsRequest(projectDirectory: directory.path, targets: targets, skipValidation: skip, command: command))
        try CIScripts.write(plan)
        return plan
    }
}

enum ResolvedFixture {
    struct Pin {
        var identity: String
        var url: String
        var revision: String?
        var version: String?
    }

    /// A Package.resolved as SwiftPM/Xcode write it, in format 1, 2 or 3.
    static func text(format: Int, _ pins: [Pin]) -> String {
        func q(_ s: String) -> String {
            let data = try! JSONSerialization.data(withJSONObject: [s], options: [.fragmentsAllowed])
            return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
        }
        if format == 1 {
            let entries = pins.map { pin in
                """
                      {
                        "package": \(q(pin.identity)),
                        "repositoryURL": \(q(pin.url)),
                        "state": {
                          "branch": null,
                          "revision": \(pin.revision.map(q) ?? "null"),
                          "version": \(pin.version.map(q) ?? "null")
                        }
                      }
                """
            }
            return "{\n  \"object\": {\n    \"pins\": [\n" + entries.joined(separator: ",\n") + "\n    ]\n  },\n  \"version\": 1\n}\n"
        }
        let entries = pins.map { pin in
            var state: [String] = []
            if let revision = pin.revision { state.append("        \"revision\" : \(q(revision))") }
            if let version = pin.version { state.append("        \"version\" : \(q(version))") }
            return """
                {
                  "identity" : \(q(pin.identity)),
                  "kind" : "\(pin.revision == nil ? "registry" : "remoteSourceControl")",
                  "location" : \(q(pin.url)),
                  "state" : {
            \(state.joined(separator: ",\n"))
                  }
                }
            """
        }
        let origin = format == 3 ? "  \"originHash\" : \"4c1d0f5b7a9e2c3d8f6a1b0e9d7c5a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b\",\n" : ""
        return "{\n" + origin + "  \"pins\" : [\n" + entries.joined(separator: ",\n") + "\n  ],\n  \"version\" : \(format)\n}\n"
    }

    /// The allow-list Xcode writes, as the generated script must write it.
    static func allowList(_ entries: [(fingerprint: String, identity: String, target: String)]) -> String {
        let body = entries.map {
            "  {\n    \"fingerprint\" : \"\($0.fingerprint)\",\n    \"packageIdentity\" : \"\($0.identity)\",\n    \"targetName\" : \"\($0.target)\"\n  }"
        }
        return "[\n" + body.joined(separator: ",\n") + (body.isEmpty ? "" : "\n") + "]\n"
    }
}

extension URL {
    var posixMode: Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
