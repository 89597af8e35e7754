import Foundation

/// The rules compiled into the binary, so that copying the binary alone gives a working tool.
///
/// Each family is a YAML document in the same format users write (`docs/rules.md`), kept in a Swift
/// string so no resource bundle is needed. Order is priority: a line is claimed by the first rule
/// that matches it, so specific families come first and generic wrappers last.
public enum BuiltinCatalog {
    /// `(family, yaml)` in priority order.
    public static let families: [(name: String, yaml: String)] = [
        ("trust", trustRules),
        ("concurrency", concurrencyRules),
        ("signing", signingRules),
        ("destination", destinationRules),
        ("packages", packageRules),
        ("linker", linkerRules),
        ("compiler", compilerRules),
        ("tests", testRules),
        ("layout", layoutRules),
        ("infrastructure", infrastructureRules),
        // After every specific family: claims any compiler error line the families above did not name.
        ("compile-errors", genericCompileErrorRules),
        ("wrappers", wrapperRules),
    ]

    private static let cache = Result { try families.flatMap { try RuleLoader.load(yaml: $0.yaml, origin: "builtin:\($0.name)", compileRegexes: false) } }

    /// Every built-in rule, parsed once per process.
    public static func rules() throws -> [Rule] { try cache.get() }
}
