import Foundation
import XCTest
@testable import XCMedicKit

/// Catalog/*.yml at the repository root is the source of truth for the built-in rules; the binary
/// carries them compiled (`CompiledCatalog`, written by Catalog/embed.sh through `CatalogCompiler`), which
/// must not drift from the files and must give back exactly what the YAML loader reads from them.
final class CatalogEmbedTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Catalog")
    static let generated = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/XCMedicKit/Catalog/CompiledCatalog.swift")

    /// The generated file is what Catalog/embed.sh writes from the YAML files as they are now.
    func testCompiledCatalogMatchesTheCatalogFolder() throws {
        let expected = try CatalogCompiler.swiftSource(catalogFolder: Self.folder)
        let file = try String(contentsOf: Self.generated, encoding: .utf8)
        guard expected != file else { return }
        let a = file.split(separator: "\n", omittingEmptySubsequences: false), b = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let line = a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? a.count
        XCTFail("Sources/XCMedicKit/Catalog/CompiledCatalog.swift differs from what Catalog/*.yml gives from line \(line + 1) on: run Catalog/embed.sh")
    }

    /// The rules the binary decodes are the rules `RuleLoader` reads from the YAML files (with every check,
    /// regexes compiled), field by field, in the same order; and so are the categories and keywords.
    func testCompiledRulesEqualTheLoadedYAMLFieldByField() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { $0.range(of: #"^\d\d-.*\.yml$"#, options: .regularExpression) != nil }.sorted()
        XCTAssertEqual(BuiltinCatalog.families.map(\.file), files, "every Catalog/NN-<family>.yml is compiled, in order: run Catalog/embed.sh")
        var loaded: [Rule] = []
        for (file, family) in zip(files, BuiltinCatalog.families) {
            let yaml = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            loaded += try RuleLoader.load(yaml: yaml, origin: "builtin:\(family.name)", compileRegexes: true)
        }
        let compiled = try BuiltinCatalog.rules()
        XCTAssertEqual(compiled.count, loaded.count)
        XCTAssertGreaterThan(compiled.count, 200)
        for (c, l) in zip(compiled, loaded) {
            XCTAssertEqual(c.id, l.id)
            XCTAssertEqual(c.title, l.title, c.id)
            XCTAssertEqual(c.category, l.category, c.id)
            XCTAssertEqual(c.severity, l.severity, c.id)
            XCTAssertEqual(c.role, l.role, c.id)
            XCTAssertEqual(c.patterns, l.patterns, c.id)
            XCTAssertEqual(c.continuation, l.continuation, c.id)
            XCTAssertEqual(c.message, l.message, c.id)
            XCTAssertEqual(c.explanation, l.explanation, c.id)
            XCTAssertEqual(c.fixes, l.fixes, c.id)
            XCTAssertEqual(c.docs, l.docs, c.id)
            XCTAssertEqual(c.matches, l.matches, c.id)
            XCTAssertEqual(c.nonMatches, l.nonMatches, c.id)
            XCTAssertEqual(c.origin, l.origin, c.id)
            XCTAssertEqual(c.consequenceOf, l.consequenceOf, c.id)
            XCTAssertEqual(c.testRestart, l.testRestart, c.id)
            XCTAssertEqual(c.failedStep, l.failedStep, c.id)
            XCTAssertEqual(c.lastResort, l.lastResort, c.id)
            XCTAssertEqual(c.catchAll, l.catchAll, c.id)
            XCTAssertEqual(c.notice, l.notice, c.id)
            XCTAssertEqual(c.categoryOutsideBuild, l.categoryOutsideBuild, c.id)
            XCTAssertEqual(c, l, "\(c.id): a field the comparison above does not name differs")
        }

        let categories = try FindingCategory.load(yaml: String(contentsOf: Self.folder.appendingPathComponent("categories.yml"), encoding: .utf8), origin: "c")
        let known = try FindingCategory.known()
        XCTAssertEqual(known.map(\.name), categories.map(\.name))
        XCTAssertEqual(known.map(\.description), categories.map(\.description))
        let keywords = try KeywordClassifier.entries(yaml: String(contentsOf: Self.folder.appendingPathComponent("keywords.yml"), encoding: .utf8), origin: "k")
        let builtin = try KeywordClassifier.builtin()
        XCTAssertEqual(builtin.entries.map(\.category), keywords.map(\.category))
        XCTAssertEqual(builtin.entries.map { $0.words.map(\.pattern) }, keywords.map(\.words))
    }

    /// Any text survives the stream: quotes, backslashes, `"""`, `\#`, control characters, newlines,
    /// tabs, blanks at either end, empty texts, non-ASCII and invisible format characters.
    func testTheTokenStreamCarriesAnyTextThroughSwiftSource() throws {
        let texts = ["", " lead", "trail ", "a\"\"\"b", ##"\#(x) \\ \n \u{1B}"##, "tab\there", "two\nlines\n", "cr\r\n",
                     "\u{1B}[31mred\u{1B}[0m", "bidi \u{202E}evil\u{202C}", "“quotes” ❌ 日本", "line\u{2028}sep", "\u{7F}", "0", "-", "+"]
        let literal = CatalogCompiler.swiftLiteral(texts)
        XCTAssertFalse(literal.dropFirst(3).dropLast(3).contains("\"\"\""))
        // Read back as the Swift compiler reads a multi-line literal, for the escapes the writer uses.
        let body = literal.dropFirst(4).dropLast(3)
        var value = "", iterator = body.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else { value.unicodeScalars.append(scalar); continue }
            switch iterator.next() {
            case "\\": value += "\\"
            case "\"": value += "\""
            case "n": value += "\n"
            case "r": value += "\r"
            case "t": value += "\t"
            case "0": value += "\0"
            case "\n": break // the line continues
            case "u":
                var hex = ""
                _ = iterator.next() // {
                while let h = iterator.next(), h != "}" { hex.unicodeScalars.append(h) }
                value.unicodeScalars.append(Unicode.Scalar(UInt32(hex, radix: 16)!)!)
            case let other: XCTFail("unexpected escape \\\(String(describing: other))")
            }
        }
        XCTAssertEqual(value.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init), texts)
        // Every line of the literal is one token ended by \0 and continued: no newline of the source reaches the value.
        let lines = body.split(separator: "\n")
        XCTAssertEqual(lines.count, texts.count)
        for (n, line) in lines.enumerated() {
            XCTAssertTrue(line.hasSuffix(n == lines.count - 1 ? "\\0" : "\\0\\"), String(line))
            XCTAssertFalse(line.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }, String(line))
        }
        var w = CatalogCompiler.Writer()
        XCTAssertThrowsError(try w.add("a\0b"))
    }

    /// A stream of another layout or cut short is an error that says what to do, never wrong rules.
    func testAStaleOrDamagedStreamIsAnErrorThatNamesTheFix() throws {
        let rules = try BuiltinCatalog.rules().prefix(3)
        let tokens = try CatalogCompiler.encode(rules: Array(rules))
        let data = tokens.map { $0 + "\0" }.joined()
        XCTAssertEqual(try CatalogCompiler.decodeRules(data, origin: rules[0].origin), Array(rules))
        for damaged in [tokens.dropLast(), ["xcmedic-catalog-1"] + tokens.dropFirst(), tokens + ["extra"]] {
            XCTAssertThrowsError(try CatalogCompiler.decodeRules(damaged.map { $0 + "\0" }.joined(), origin: "builtin:x")) { error in
                XCTAssertTrue("\(error)".contains("run Catalog/embed.sh"), "\(error)")
            }
        }
    }

    /// Priority is the order of the file names, and each family is named after its file.
    func testFamiliesAreInFileNameOrderAndNamedAfterTheirFiles() {
        let files = BuiltinCatalog.families.map(\.file)
        XCTAssertEqual(files, files.sorted())
        for family in BuiltinCatalog.families {
            XCTAssertTrue(family.file.range(of: #"^\d\d-"# + NSRegularExpression.escapedPattern(for: family.name) + #"\.yml$"#, options: .regularExpression) != nil, family.file)
        }
    }
}
