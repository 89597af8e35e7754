import Foundation
import Yams

/// Finding categories: the few names the Swift code itself relies on, and the list of known ones
/// (`Catalog/categories.yml`, compiled into the binary by `Catalog/embed.sh`).
///
/// A rule may use any kebab-case category; `xcmedic rules --check` warns about one that is not known,
/// and every built-in rule's category is known (`CatalogTests`).
public enum FindingCategory {
    /// One or more tests failed on an assertion: findings of it name the test (JUnit's testcases).
    public static let testFailure = "test-failure"
    /// The test process crashed, hung or failed to launch.
    public static let testRunnerCrash = "test-runner-crash"
    /// A package macro not trusted on this machine: `ci-scripts --from-log` trusts the `macro` it captures.
    public static let macroValidation = "macro-validation"
    /// A build-tool plugin not trusted on this machine: `ci-scripts --from-log` trusts the `plugin` it captures.
    public static let pluginValidation = "plugin-validation"
    /// The CI machine or the job's set-up: an error a GitHub Action printed that no rule names is one.
    public static let ciEnvironment = "ci-environment"
    /// xcmedic's own notes about the scan (a rule stopped for taking too long).
    public static let xcmedic = "xcmedic"
    /// An upload or notarization failed; App Store Connect's issues for an upload it accepted are warnings (`ScanMarkers.delivered`).
    public static let appStoreUpload = "app-store-upload"
    /// Wrappers and evidence that say something failed, not what.
    public static let buildFailed = "build-failed"
    /// An error-looking line that no rule claims.
    public static let unrecognized = "unrecognized"

    /// The known categories, with their one-line descriptions, in the order of `Catalog/categories.yml`.
    public static func known() throws -> [(name: String, description: String)] { try cache.get() }

    private static let cache = Result { try CatalogCompiler.decodeCategories(CompiledCatalog.categories, origin: "builtin:categories") }

    /// Reads a categories file: a mapping of kebab-case category name to a one-line description.
    static func load(yaml: String, origin: String) throws -> [(name: String, description: String)] {
        let root: Node?
        do { root = try Yams.compose(yaml: yaml, .basic) } catch {
            throw RuleFileError(file: origin, problem: "invalid YAML: \(error)")
        }
        guard let map = root?.mapping else {
            throw RuleFileError(file: origin, line: root?.mark?.line, problem: "expected a mapping of category name to a one-line description")
        }
        var list: [(name: String, description: String)] = []
        for (key, value) in map {
            let name = key.string ?? ""
            guard RuleLoader.isKebabCase(name) else {
                throw RuleFileError(file: origin, line: key.mark?.line, problem: "'\(name)' is not a category name (kebab-case)")
            }
            guard !list.contains(where: { $0.name == name }) else {
                throw RuleFileError(file: origin, line: key.mark?.line, problem: "'\(name)' is listed twice")
            }
            guard let text = value.scalar?.string, text.contains(where: { !$0.isWhitespace }), !text.contains("\n") else {
                throw RuleFileError(file: origin, line: value.mark?.line, problem: "'\(name)' needs a one-line description")
            }
            list.append((name, text))
        }
        return list
    }

    /// One warning per category a rule names (`category`, `consequence_of`, `category_outside_build`) that is not known.
    public static func warnings(for rules: [Rule]) throws -> [String] {
        let names = Set(try known().map(\.name))
        var out: [String] = []
        for rule in rules {
            if !names.contains(rule.category) {
                out.append("rule '\(rule.id)': category '\(rule.category)' is not a known category ('xcmedic rules --categories' lists them)")
            }
            for category in rule.consequenceOf where !names.contains(category) {
                out.append("rule '\(rule.id)': consequence_of: '\(category)' is not a known category ('xcmedic rules --categories' lists them)")
            }
            if let other = rule.categoryOutsideBuild, !names.contains(other) {
                out.append("rule '\(rule.id)': category_outside_build: '\(other)' is not a known category ('xcmedic rules --categories' lists them)")
            }
        }
        return out
    }
}
