import Foundation

/// An `.xcresult` bundle (a folder with an `Info.plist`), read through `xcrun xcresulttool`, which
/// only macOS has. The JSON it prints is read by `XCResultJSON`.
public enum XCResultBundle {
    /// Whether this platform can run xcresulttool. A parameter of `read`, so tests can take the macOS
    /// path anywhere with a stub `xcrun` on PATH.
    #if os(macOS)
    public static let platformHasXcresulttool = true
    #else
    public static let platformHasXcresulttool = false
    #endif

    /// A folder with an `Info.plist` and a `.xcresult` name, or with the `Data` folder and
    /// `database.sqlite3` or `Info.plist` a result bundle holds.
    public static func isBundle(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return false }
        let base = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard FileManager.default.fileExists(atPath: base + "/Info.plist") else { return false }
        return base.hasSuffix(".xcresult") || FileManager.default.fileExists(atPath: base + "/Data")
    }

    /// The one line said on a platform without xcresulttool.
    static let unsupported = "is an Xcode result bundle, which only xcresulttool (macOS) reads: pass the JSON it prints instead ('xcrun xcresulttool get test-results tests --path BUNDLE --format json > tests.json', and 'get build-results'; before Xcode 16, 'xcrun xcresulttool get --path BUNDLE --format json')"

    /// The issues and test failures the bundle records: `get build-results` and `get test-results tests` (Xcode 16+);
    /// when neither works (an older Xcode), the legacy record (`get --legacy`, then plain `get`).
    public static func read(_ path: String, hasXcresulttool: Bool = platformHasXcresulttool,
                            limit: Int = XCResultJSON.defaultLimit) throws -> [StructuredLine] {
        guard hasXcresulttool else { throw InputError(path: path, problem: unsupported) }
        let tool = ["xcrun", "xcresulttool"]
        var lines: [StructuredLine] = []
        var problems: [String] = []
        var anyNew = false
        for arguments in [["get", "build-results"], ["get", "test-results", "tests"]] {
            switch try run(tool + arguments + ["--path", path, "--format", "json"], limit: limit, bundle: path) {
            case .success(let data):
                guard let rendered = XCResultJSON.lines(from: data) else {
                    problems.append("'xcresulttool \(arguments.joined(separator: " "))' printed JSON of an unknown shape")
                    continue
                }
                anyNew = true
                lines += rendered
            case .failure(let problem):
                problems.append(problem)
            }
        }
        if anyNew { return lines }
        for arguments in [["get", "--legacy"], ["get"]] {
            switch try run(tool + arguments + ["--path", path, "--format", "json"], limit: limit, bundle: path) {
            case .success(let data):
                if let rendered = XCResultJSON.lines(from: data) { return rendered }
                problems.append("'xcresulttool \(arguments.joined(separator: " "))' printed JSON of an unknown shape")
            case .failure(let problem):
                problems.append(problem)
            }
        }
        throw InputError(path: path, problem: "xcresulttool could not read the result bundle: \(problems.last ?? "no output")")
    }

    private enum Outcome {
        case success(Data)
        case failure(String)
    }

    private static func run(_ arguments: [String], limit: Int, bundle: String) throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xcmedic-xcresult-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.json").path
        let errors = folder.appendingPathComponent("err.txt").path
        let exit = try ChildProcess.run(arguments, ChildProcess.Options(outputPath: output, errorPath: errors, timeout: 600, interruptible: false))
        let command = arguments.dropFirst().prefix(while: { $0 != "--path" }).joined(separator: " ")
        switch exit {
        case .couldNotStart(let why):
            throw InputError(path: bundle, problem: "cannot run xcrun xcresulttool: \(why)")
        case .timedOut:
            return .failure("'\(command)' took more than 10 minutes")
        case .exited(let status) where status != 0:
            let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            let first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "exit status \(status)"
            return .failure("'\(command)': \(first)")
        case .exited:
            var info = stat()
            if stat(output, &info) == 0, Int(info.st_size) > limit {
                throw InputError(path: bundle, problem: "'\(command)' printed more than \(limit >> 20) MB of JSON, more than xcmedic reads")
            }
            guard let data = FileManager.default.contents(atPath: output) else { return .failure("'\(command)' printed nothing") }
            return .success(data)
        }
    }
}
