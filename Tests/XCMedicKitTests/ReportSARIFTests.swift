import XCTest
@testable import XCMedicKit

/// Checks a SARIF log against what the SARIF 2.1.0 specification (OASIS, errata 01) requires of the
/// objects xcmedic writes; returns one line per violation.
enum SARIF210 {
    static let levels: Set<String> = ["none", "note", "warning", "error"]

    static func violations(_ json: String) -> [String] {
        var problems: [String] = []
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)), let log = object as? [String: Any] else {
            return ["not a JSON object"]
        }
        // §3.13.2 version: required, "2.1.0". §3.13.3 $schema: a URI if present.
        if log["version"] as? String != "2.1.0" { problems.append("sarifLog.version must be \"2.1.0\"") }
        if let schema = log["$schema"] { if !isAbsoluteURI(schema) { problems.append("$schema must be an absolute URI") } }
        // §3.13.4 runs: required, array (may be null only when the tool failed to start).
        guard let runs = log["runs"] as? [[String: Any]] else { return problems + ["runs must be an array of objects"] }
        for (r, run) in runs.enumerated() {
            let at = "runs[\(r)]"
            // §3.14.6 tool: required; §3.18.2 driver: required; §3.19.8 name: required string.
            guard let tool = run["tool"] as? [String: Any], let driver = tool["driver"] as? [String: Any] else {
                problems.append("\(at).tool.driver is required"); continue
            }
            if (driver["name"] as? String ?? "").isEmpty { problems.append("\(at).tool.driver.name is required") }
            if let version = driver["version"], !(version is String) { problems.append("\(at).tool.driver.version must be a string") }
            if let uri = driver["informationUri"], !isAbsoluteURI(uri) { problems.append("\(at).tool.driver.informationUri must be an absolute URI") }
            // §3.19.23 rules: array of reportingDescriptor; §3.49.3 id required; ids unique (§3.19.23).
            let rules = driver["rules"] as? [[String: Any]] ?? []
            if driver["rules"] != nil && !(driver["rules"] is [[String: Any]]) { problems.append("\(at).tool.driver.rules must be an array of objects") }
            var ids = Set<String>()
            for (i, rule) in rules.enumerated() {
                let rat = "\(at).tool.driver.rules[\(i)]"
                guard let id = rule["id"] as? String, !id.isEmpty else { problems.append("\(rat).id is required"); continue }
                if !ids.insert(id).inserted { problems.append("\(rat).id \(id) is not unique") }
                // §3.49.9/10/12: multiformatMessageString objects need `text` (§3.12.3).
                for key in ["shortDescription", "fullDescription", "help"] {
                    if let message = rule[key] {
                        if (message as? [String: Any])?["text"] as? String == nil { problems.append("\(rat).\(key).text is required") }
                    }
                }
                if let uri = rule["helpUri"], !isAbsoluteURI(uri) { problems.append("\(rat).helpUri must be an absolute URI") }
                if let config = rule["defaultConfiguration"] as? [String: Any], let level = config["level"] {
                    if !(level is String) || !levels.contains(level as! String) { problems.append("\(rat).defaultConfiguration.level \(level) not enumerated") }
                }
            }
            // §3.14.23 results: array of result objects.
            guard let results = run["results"] as? [[String: Any]] else { problems.append("\(at).results must be an array"); continue }
            let baseIDs = run["originalUriBaseIds"] as? [String: Any] ?? [:]
            for (i, result) in results.enumerated() {
                let res = "\(at).results[\(i)]"
                // §3.27.11 message: required; §3.11.7 text (or id).
                guard let message = result["message"] as? [String: Any], (message["text"] is String || message["id"] is String) else {
                    problems.append("\(res).message with text is required"); continue
                }
                // §3.27.10 level: enumerated.
                if let level = result["level"] { if !(level is String) || !levels.contains(level as! String) { problems.append("\(res).level \(level) not enumerated") } }
                // §3.27.5/§3.27.6 ruleId and ruleIndex consistent with rules[].
                if let index = result["ruleIndex"] {
                    guard let i = index as? Int, i >= 0, i < rules.count else { problems.append("\(res).ruleIndex out of range"); continue }
                    if let ruleID = result["ruleId"] as? String, rules[i]["id"] as? String != ruleID {
                        problems.append("\(res).ruleId \(ruleID) is not rules[\(i)].id")
                    }
                } else if let ruleID = result["ruleId"] as? String, !ids.contains(ruleID) {
                    problems.append("\(res).ruleId \(ruleID) names no rule")
                }
                // §3.27.12 locations; §3.29 physicalLocation; §3.4 artifactLocation.uri a URI reference;
                // §3.30 region: startLine/startColumn integers >= 1.
                if let locations = result["locations"] {
                    guard let list = locations as? [[String: Any]] else { problems.append("\(res).locations must be an array"); continue }
                    for (l, location) in list.enumerated() {
                        let lat = "\(res).locations[\(l)]"
                        guard let physical = location["physicalLocation"] as? [String: Any] else { continue }
                        guard let artifact = physical["artifactLocation"] as? [String: Any], let uri = artifact["uri"] as? String else {
                            problems.append("\(lat).physicalLocation.artifactLocation.uri is required"); continue
                        }
                        if URL(string: uri) == nil { problems.append("\(lat) uri \(uri) is not a URI reference") }
                        if URL(string: uri)?.scheme == nil, let base = artifact["uriBaseId"] as? String, !baseIDs.isEmpty, baseIDs[base] == nil {
                            problems.append("\(lat) uriBaseId \(base) is not in originalUriBaseIds")
                        }
                        if let region = physical["region"] as? [String: Any] {
                            for key in ["startLine", "startColumn"] {
                                if let value = region[key] { if !((value as? Int).map { $0 >= 1 } ?? false) { problems.append("\(lat).region.\(key) must be an integer >= 1") } }
                            }
                        }
                    }
                }
            }
        }
        return problems
    }

    static func isAbsoluteURI(_ value: Any) -> Bool {
        guard let text = value as? String, let url = URL(string: text), let scheme = url.scheme else { return false }
        return !scheme.isEmpty
    }
}

final class ReportSARIFTests: XCTestCase {
    func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func testStructureIsWhatSARIF210Requires() throws {
        let diagnosis = try ReportFixtures.diagnosis(ReportFixtures.compileLog)
        let sarif = SARIFReport(workspaceRoot: ReportFixtures.workspace).render(diagnosis)
        XCTAssertEqual(SARIF210.violations(sarif), [], sarif)
    }

    func testOneRulePerCatalogRuleUsedAndResultsWithLocations() throws {
        let diagnosis = try ReportFixtures.diagnosis(ReportFixtures.compileLog)
        let log = try json(SARIFReport(workspaceRoot: ReportFixtures.workspace).render(diagnosis))
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        let driver = try XCTUnwrap((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        XCTAssertEqual(driver["name"] as? String, "xcmedic")
        let rules = try XCTUnwrap(driver["rules"] as? [[String: Any]])
        // Symptoms (`** BUILD FAILED **`) repeat the causes and get no result, so no rule either.
        let reported = diagnosis.findings.filter { $0.role != .symptom }
        XCTAssertEqual(rules.compactMap { $0["id"] as? String }, uniqued(reported.map(\.rule)))

        let macro = try XCTUnwrap(rules.first { $0["id"] as? String == "macro-not-trusted" })
        XCTAssertEqual((macro["shortDescription"] as? [String: Any])?["text"] as? String, "Package macro not trusted on this machine")
        XCTAssertTrue(((macro["help"] as? [String: Any])?["text"] as? String)?.contains("-skipMacroValidation") ?? false)
        XCTAssertNotNil(macro["fullDescription"])

        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        XCTAssertEqual(results.count, reported.count)
        func location(_ result: [String: Any]) -> (uri: String?, base: String?, line: Int?, column: Int?) {
            let physical = ((result["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any]
            let artifact = physical?["artifactLocation"] as? [String: Any]
            let region = physical?["region"] as? [String: Any]
            return (artifact?["uri"] as? String, artifact?["uriBaseId"] as? String, region?["startLine"] as? Int, region?["startColumn"] as? Int)
        }
        let loader = try XCTUnwrap(results.first { $0["ruleId"] as? String == "sendable-closure-captures" })
        let l = location(loader)
        XCTAssertEqual(l.uri, "Sources/App/Loader.swift")
        XCTAssertEqual(l.base, "%SRCROOT%")
        XCTAssertEqual(l.line, 6)
        XCTAssertEqual(l.column, 13)
        XCTAssertEqual(loader["level"] as? String, "error")

        // Outside the workspace: an absolute file URI, percent-encoded.
        let odd = try XCTUnwrap(results.first { (($0["message"] as? [String: Any])?["text"] as? String)?.hasPrefix("100% odd") ?? false })
        XCTAssertEqual(location(odd).uri, "file:///tmp/with,comma:and%20colon/Odd.swift")
        XCTAssertFalse(((odd["message"] as? [String: Any])?["text"] as? String ?? "").contains("ghp_"), "secrets are redacted")

        // No source file: the log line stands in, as GitHub code scanning needs a location for every result.
        let macroResult = try XCTUnwrap(results.first { $0["ruleId"] as? String == "macro-not-trusted" })
        XCTAssertEqual(location(macroResult).uri, "build.log")
        XCTAssertEqual(location(macroResult).line, 8)

        let bases = try XCTUnwrap(run["originalUriBaseIds"] as? [String: Any])
        XCTAssertEqual((bases["%SRCROOT%"] as? [String: Any])?["uri"] as? String, "file:///Users/runner/work/app/app/")
    }

    func testTheValidatorCatchesBrokenLogs() throws {
        let diagnosis = try ReportFixtures.diagnosis(ReportFixtures.compileLog)
        var log = try json(SARIFReport().render(diagnosis))
        var runs = log["runs"] as! [[String: Any]]
        var results = runs[0]["results"] as! [[String: Any]]
        results[0]["ruleIndex"] = 99
        results[1]["level"] = "fatal"
        results[2]["message"] = ["markdown": "no text"]
        runs[0]["results"] = results
        log["runs"] = runs
        log["version"] = "2.0.0"
        let broken = String(decoding: try JSONSerialization.data(withJSONObject: log), as: UTF8.self)
        XCTAssertEqual(SARIF210.violations(broken).count, 4, SARIF210.violations(broken).joined(separator: "\n"))
    }

    func testACleanLogIsAValidEmptyRun() throws {
        let sarif = SARIFReport().render(try ReportFixtures.diagnosis("Build complete! (1.2s)\n"))
        XCTAssertEqual(SARIF210.violations(sarif), [])
        let run = try XCTUnwrap((try json(sarif)["runs"] as? [[String: Any]])?.first)
        XCTAssertEqual((run["results"] as? [Any])?.count, 0)
    }

    func testInfoIsNoteAndFingerprintsAreStable() {
        XCTAssertEqual(SARIFReport.level(.info), "note")
        XCTAssertEqual(SARIFReport.level(.warning), "warning")
        XCTAssertEqual(SARIFReport.fingerprint("a"), "af63dc4c8601ec8c") // FNV-1a 64 of "a"
    }

    private func uniqued(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }
}
