import Foundation

/// The rules compiled into the binary, so that copying the binary alone gives a working tool.
///
/// Each family is a YAML file in the same format users write (`docs/rules.md`): `Catalog/NN-<family>.yml`
/// at the repository root. `Catalog/embed.sh` reads them with `RuleLoader` (every check a user's file
/// gets) and writes the rules into `CompiledCatalog.swift` (`CatalogCompiler`), so start-up parses no
/// YAML and no resource bundle is needed. Order is priority: a line is claimed by the first rule that
/// matches it, so specific families come first, then the generic compile-error family, and the wrappers last.
public enum BuiltinCatalog {
    /// `(family, file)` in priority order; `file` is the name in `Catalog/`.
    public static let families: [(name: String, file: String)] = CompiledCatalog.families.map { ($0.family, $0.file) }

    private static let cache = Result {
        try CompiledCatalog.families.flatMap { try CatalogCompiler.decodeRules($0.tokens, origin: "builtin:\($0.family)") }
    }

    /// Every built-in rule, decoded once per process.
    public static func rules() throws -> [Rule] { try cache.get() }
}
