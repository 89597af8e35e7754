import Foundation
import XCTest
@testable import XCMedicKit

/// The JSON report validates against docs/xcmedic.schema.json.
final class JSONSchemaTests: XCTestCase {
    private var schema: [String: Any] {
        get throws {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("docs/xcmedic.schema.json")
            return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        }
    }

    private func report(for log: String) throws -> Any {
        let scanner = Scanner(ruleSet: try RuleSet.builtin())
        try scanner.scan(text: log, name: "build.log")
        return try JSONSerialization.jsonObject(with: Data(JSONReport.render(scanner.finish()).utf8))
    }

    func testFailingLogReportMatchesTheSchema() throws {
        let log = """
        /src/A.swift:3:5: error: sending 'ns' risks causing data races [#SendingRisksDataRace]
        Macro "M" from package "p" must be enabled before it can be used
        error: the flux capacitor broke
        ** BUILD FAILED **
        """
        let json = try report(for: log)
        XCTAssertEqual(SchemaValidator.validate(json, against: try schema), [])
        let findings = try XCTUnwrap((json as? [String: Any])?["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.map { $0["role"] as? String }, ["cause", "cause", "unrecognized", "symptom"])
    }

    func testTestRunAndInvocationMatchTheSchema() throws {
        let log = """
        xcodebuild -workspace Shop.xcworkspace -scheme Shop -destination 'platform=iOS Simulator,name=iPhone 15 Pro' test
        Test Suite 'All tests' started at 2024-05-01 10:00:00.000.
        Test Case '-[ShopTests.CartTests testAdd]' started.
        /src/CartTests.swift:12: error: -[ShopTests.CartTests testAdd] : XCTAssertTrue failed
        Test Case '-[ShopTests.CartTests testAdd]' failed (0.003 seconds).
        Test Case '-[ShopTests.CartTests testTotal]' passed (0.001 seconds).
        Test Suite 'All tests' failed at 2024-05-01 10:00:00.010.
        \t Executed 2 tests, with 1 failure (0 unexpected) in 0.004 (0.005) seconds
        ✔ Test login() passed after 0.001 seconds.
        ✔ Test run with 1 test passed after 0.001 seconds.
        """
        let json = try XCTUnwrap(try report(for: log) as? [String: Any])
        XCTAssertEqual(SchemaValidator.validate(json, against: try schema), [])
        let tests = try XCTUnwrap(json["tests"] as? [String: Any])
        XCTAssertEqual(tests["total"] as? Int, 3)
        XCTAssertEqual(tests["failed"] as? Int, 1)
        XCTAssertEqual((tests["stated"] as? [[String: Any]])?.compactMap { $0["tests"] as? Int }, [2, 1])
        let invocation = try XCTUnwrap(((json["inputs"] as? [[String: Any]])?.first)?["invocation"] as? [String: Any])
        XCTAssertEqual(invocation["scheme"] as? String, "Shop")
    }

    func testCleanLogReportMatchesTheSchema() throws {
        XCTAssertEqual(SchemaValidator.validate(try report(for: "Build complete!\n"), against: try schema), [])
    }

    func testValidatorRejectsWhatTheSchemaForbids() throws {
        var bad = try XCTUnwrap(try report(for: "error: x\n") as? [String: Any])
        bad["status"] = "green"
        bad["extra"] = 1
        bad.removeValue(forKey: "inputs")
        let errors = SchemaValidator.validate(bad, against: try schema)
        XCTAssertTrue(errors.contains { $0.contains("status") }, "\(errors)")
        XCTAssertTrue(errors.contains { $0.contains("extra") }, "\(errors)")
        XCTAssertTrue(errors.contains { $0.contains("inputs") }, "\(errors)")
    }
}

/// The part of JSON Schema the report's schema uses: type, enum, required, properties,
/// additionalProperties (false or a schema), items, minimum.
enum SchemaValidator {
    static func validate(_ value: Any, against schema: [String: Any], path: String = "$") -> [String] {
        var errors: [String] = []
        if let type = schema["type"] as? String, !matches(value, type) {
            return ["\(path): expected \(type)"]
        }
        if let allowed = schema["enum"] as? [Any], !allowed.contains(where: { "\($0)" == "\(value)" }) {
            errors.append("\(path): \(value) not in \(allowed)")
        }
        if let minimum = schema["minimum"] as? Int, let number = value as? Int, number < minimum {
            errors.append("\(path): \(number) < \(minimum)")
        }
        if let object = value as? [String: Any] {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                errors.append("\(path): missing required \(key)")
            }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (key, child) in object {
                if let sub = properties[key] as? [String: Any] {
                    errors += validate(child, against: sub, path: "\(path).\(key)")
                } else if let additional = schema["additionalProperties"] {
                    if let allowed = additional as? Bool, !allowed {
                        errors.append("\(path): unexpected property \(key)")
                    } else if let sub = additional as? [String: Any] {
                        errors += validate(child, against: sub, path: "\(path).\(key)")
                    }
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (i, item) in array.enumerated() { errors += validate(item, against: items, path: "\(path)[\(i)]") }
        }
        return errors
    }

    private static func matches(_ value: Any, _ type: String) -> Bool {
        switch type {
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "boolean": return isBool(value)
        case "integer": return value is Int && !isBool(value)
        default: return true
        }
    }

    /// JSONSerialization gives NSNumber for both; only a boolean's type encoding is "c" (char).
    private static func isBool(_ value: Any) -> Bool {
        guard let n = value as? NSNumber else { return value is Bool }
        return String(cString: n.objCType) == "c"
    }
}
