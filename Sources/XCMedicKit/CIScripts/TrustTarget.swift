import Foundation

/// A problem with what the user asked `ci-scripts`/`flags` to do, or with the project it found.
/// The CLI prints `description` on one line and exits 2.
public struct CIScriptsError: Error, CustomStringConvertible, Equatable, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A package macro or build-tool plugin Xcode must be told to trust.
public struct TrustTarget: Sendable, Hashable, Comparable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Comparable, CaseIterable {
        case macro, plugin
        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
        /// The allow-list Xcode keeps for this kind in ~/Library/org.swift.swiftpm/security/.
        public var allowListFile: String { self == .macro ? "macros.json" : "plugins.json" }
    }

    public var kind: Kind
    /// The package as the user or the log named it; `ci-scripts` resolves it to the pin's identity.
    public var package: String
    /// The `.macro(name:)` / `.plugin(name:)` target name (not the product name).
    public var target: String

    public init(kind: Kind, package: String, target: String) {
        self.kind = kind
        self.package = package
        self.target = target
    }

    /// Parses `PACKAGE:TARGET` as given to `--macro` / `--plugin`.
    public static func parse(_ text: String, kind: Kind) throws -> TrustTarget {
        guard let colon = text.firstIndex(of: ":") else {
            throw CIScriptsError("--\(kind.rawValue) '\(text)': expected PACKAGE:TARGET, e.g. swift-case-paths:CasePathsMacros")
        }
        let package = String(text[..<colon]), target = String(text[text.index(after: colon)...])
        guard !package.isEmpty, !target.isEmpty else {
            throw CIScriptsError("--\(kind.rawValue) '\(text)': both PACKAGE and TARGET are needed, e.g. swift-case-paths:CasePathsMacros")
        }
        return TrustTarget(kind: kind, package: package, target: target)
    }

    public var description: String { "\(package):\(target)" }

    public static func < (a: TrustTarget, b: TrustTarget) -> Bool {
        (a.kind, a.package, a.target) < (b.kind, b.package, b.target)
    }
}

/// Shell quoting for values written into generated scripts.
public enum ShellQuote {
    /// One single-quoted word: nothing inside is expanded by sh, bash or zsh (`'` becomes `'\''`).
    public static func quote(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// A command-line word as typed: bare when it has only safe characters, else quoted.
    public static func word(_ value: String) -> String {
        !value.isEmpty && value.allSatisfy { $0.isLetter || $0.isNumber || "-_.:/=@+,".contains($0) } ? value : quote(value)
    }

    /// A value fit for a `#` comment line: control characters (a newline would end the comment and
    /// start a command) are shown as `?`.
    public static func commentSafe(_ value: String) -> String {
        String(String.UnicodeScalarView(value.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "?" : $0 }))
    }
}
