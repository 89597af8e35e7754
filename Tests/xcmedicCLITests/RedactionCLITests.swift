import Foundation
import XCTest
import XCMedicTestSupport

/// Secrets in a log stay out of every report the binary writes: each format on standard output, the
/// GitHub job summary, `--tee --report`, and the bisect report and progress; `--no-redact` shows them.
final class RedactionCLITests: XCTestCase {
    var directory: URL!
    // Token-shaped values are put together at run time, so that none sits in the repository. These are
    // shapes the issue-15 battery found printed (RedactionCorpusTests holds the full corpus).
    static let fake = "Q7wE9rT2yU4iO6pA8sD0fG3hJ5kL1zXc"
    static let secrets = ["s3cretPassw0rd", "Tr0ub4dor3-horse", "dt-88f1c0ffee77", fake, String(fake.uppercased().prefix(16)), "hunter2Hunter9", "d0ckerPassw0rd"]
    static let log = """
    Cloning certificates...
    error: clone of https://ci-bot:s3cretPassw0rd@git.example.com/org/certs.git failed
    error: MATCH_PASSWORD=Tr0ub4dor3-horse could not decrypt the profiles
    /Users/runner/work/app/app/Sources/App/Deploy.swift:4:1: error: deploy refused with DEPLOY_TOKEN=dt-88f1c0ffee77
    error: JWT eyJ\(fake).eyJ\(fake).\(fake) rejected
    error: notify https://hooks.slack.com/services/T0\(fake.prefix(6))/B0\(fake.prefix(8))/\(fake.prefix(24)) failed
    error: Firebase key AI\("za")\(fake)abc is invalid
    error: npm publish with np\("m_")\(fake)ABCD failed
    error: charge failed with sk\("_live_")\(fake)
    error: key\("AK")IA\(fake.uppercased().prefix(16)) rejected
    error: curl -u deploy:hunter2Hunter9 https://nexus.example.com failed
    error: docker login -u ci -p d0ckerPassw0rd registry.example.com failed
    error: config has password: \(fake)
    ** BUILD FAILED **

    """

    override func setUpWithError() throws {
        directory = Scratch.url("xcmedic-redact")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(RedactionCLITests.log.utf8).write(to: directory.appendingPathComponent("build.log"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func assertRedacted(_ text: String, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        for secret in RedactionCLITests.secrets {
            XCTAssertFalse(text.contains(secret), "\(context): \(secret) leaked\n\(text)", file: file, line: line)
        }
        XCTAssertTrue(text.contains("REDACTED"), "\(context)\n\(text)", file: file, line: line)
    }

    func testEveryFormatRedactsAndNoRedactShows() throws {
        let log = directory.appendingPathComponent("build.log").path
        for format in ["text", "json", "github", "markdown", "junit", "sarif"] {
            let r = try RawCLI.run(["scan", "--no-config", "--format", format, "--fail-on", "never", log])
            XCTAssertEqual(r.status, 0, r.stderrText)
            assertRedacted(String(decoding: r.stdout, as: UTF8.self), format)
            let plain = try RawCLI.run(["scan", "--no-config", "--no-redact", "--format", format, "--fail-on", "never", log])
            let text = String(decoding: plain.stdout, as: UTF8.self)
            for secret in RedactionCLITests.secrets { XCTAssertTrue(text.contains(secret), "\(format) --no-redact: \(secret)\n\(text)") }
        }
    }

    /// On GitHub Actions: the annotations and the job summary, both redacted.
    func testGitHubAnnotationsAndStepSummary() throws {
        let summary = directory.appendingPathComponent("summary.md")
        var env = RawCLI.cleanEnvironment
        env["GITHUB_ACTIONS"] = "true"
        env["GITHUB_STEP_SUMMARY"] = summary.path
        let r = try RawCLI.run(["scan", "--no-config", directory.appendingPathComponent("build.log").path], environment: env)
        XCTAssertEqual(r.status, 1, r.stderrText)
        let annotations = String(decoding: r.stdout, as: UTF8.self)
        XCTAssertTrue(annotations.hasPrefix("::error "), annotations)
        assertRedacted(annotations, "annotations")
        assertRedacted(try String(contentsOf: summary, encoding: .utf8), "step summary")
    }

    /// Pipe mode passes the log through untouched (it is the build's own output) and redacts the report.
    func testTeeCopiesTheLogAndRedactsTheReport() throws {
        let report = directory.appendingPathComponent("report.json")
        let r = try RawCLI.run(["scan", "--no-config", "--tee", "--format", "json", "--report", report.path], stdin: Data(RedactionCLITests.log.utf8))
        XCTAssertEqual(r.status, 1, r.stderrText)
        XCTAssertEqual(String(decoding: r.stdout, as: UTF8.self), RedactionCLITests.log)
        assertRedacted(try String(contentsOf: report, encoding: .utf8), "--tee --report")
        XCTAssertEqual(r.stderr, Data())
    }

    /// The bisect's failure excerpt, the failure it looks for, step reasons and progress lines quote the
    /// command's output: redacted unless --no-redact.
    func testBisectReportAndProgress() throws {
        let repo = try ScriptedRepo()
        try repo.write("deploy.sh", """
        #!/bin/sh
        if [ -e broken ]; then
          echo "error: deploy refused with DEPLOY_TOKEN=dt-88f1c0ffee77"
          exit 1
        fi
        echo ok

        """, executable: true)
        let good = try repo.commit("Deploy script")
        for i in 1...6 {
            if i == 4 { try repo.write("broken", "yes\n") }
            try repo.write("f\(i).txt", "\(i)\n")
            try repo.commit("Change \(i)")
        }
        let before = try repo.snapshot()
        for format in ["text", "json"] {
            let r = try CLI.run(["bisect", "--no-config", "--good", good, "--format", format, "--", "./deploy.sh"],
                                environment: ScriptedRepo.environment, cwd: repo.root)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertFalse(r.stdout.contains("dt-88f1c0ffee77"), r.stdout)
            XCTAssertFalse(r.stderr.contains("dt-88f1c0ffee77"), r.stderr)
            XCTAssertTrue(r.stdout.contains("DEPLOY_TOKEN=[REDACTED]"), r.stdout)
            XCTAssertTrue(r.stderr.contains("DEPLOY_TOKEN=[REDACTED]"), r.stderr)
            XCTAssertEqual(try repo.snapshot(), before)
        }
        let plain = try CLI.run(["bisect", "--no-config", "--no-redact", "--good", good, "--", "./deploy.sh"],
                                environment: ScriptedRepo.environment, cwd: repo.root)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(plain.stdout.contains("DEPLOY_TOKEN=dt-88f1c0ffee77"), plain.stdout)
        XCTAssertTrue(plain.stderr.contains("DEPLOY_TOKEN=dt-88f1c0ffee77"), plain.stderr)
    }
}
