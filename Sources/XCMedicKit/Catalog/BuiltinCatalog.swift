import Foundation

/// The rules compiled into the binary, so that copying the binary alone gives a working tool.
///
/// Each family is a YAML file in the same format users write (`docs/rules.md`): `Catalog/NN-<family>.yml`
/// at the repository root, embedded at build time by `Catalog/embed.sh` (`EmbeddedCatalog`), so no
/// resource bundle is needed. Order is priority: a line is claimed by the first rule that matches it,
/// so specific families come first, then the generic compile-error family, and the wrappers last.
public enum BuiltinCatalog {
    /// `(family, file, yaml)` in priority order; `file` is the name in `Catalog/`.
    public static let families: [(name: String, file: String, yaml: String)] = EmbeddedCatalog.families.map { ($0.family, $0.file, $0.yaml) }

    private static let cache = Result { try families.flatMap { try RuleLoader.load(yaml: $0.yaml, origin: "builtin:\($0.name)", compileRegexes: false) } }

    /// Every built-in rule, parsed once per process.
    public static func rules() throws -> [Rule] { try cache.get() }
}
