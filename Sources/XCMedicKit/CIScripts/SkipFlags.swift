import Foundation

/// xcodebuild's per-invocation switches for the trust gate, and the defaults keys Xcode Cloud scripts use instead.
public enum SkipFlags {
    public enum Format: String, Sendable { case shell, fastlane, json }

    public static func flag(_ kind: TrustTarget.Kind) -> String {
        kind == .macro ? "-skipMacroValidation" : "-skipPackagePluginValidation"
    }

    public static func defaultsKey(_ kind: TrustTarget.Kind) -> String {
        kind == .macro ? CIScriptsLint.macroKey : CIScriptsLint.pluginKey
    }

    /// The text `xcmedic flags` prints, ending in a newline.
    public static func render(kinds: [TrustTarget.Kind], format: Format) -> String {
        let flags = kinds.map(flag)
        switch format {
        case .shell:
            return flags.joined(separator: " ") + "\n"
        case .fastlane:
            return "xcargs: \"\(flags.joined(separator: " "))\"\n"
        case .json:
            let flagList = flags.map { "\"\($0)\"" }.joined(separator: ", ")
            let defaults = kinds.map { "{\"domain\": \"com.apple.dt.Xcode\", \"key\": \"\(defaultsKey($0))\", \"value\": true}" }.joined(separator: ", ")
            return "{\"xcodebuildFlags\": [\(flagList)], \"defaults\": [\(defaults)]}\n"
        }
    }
}
