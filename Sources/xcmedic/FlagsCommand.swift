import ArgumentParser
import Foundation
import XCMedicKit

enum FlagsFormat: String, CaseIterable, ExpressibleByArgument {
    case shell, fastlane, json
}

struct FlagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flags",
        abstract: "Print xcodebuild's flags that skip macro and plugin validation, for CIs other than Xcode Cloud.",
        discussion: """
        They trust every macro and plugin of every package for that invocation. Pass them to every xcodebuild \
        call, including -resolvePackageDependencies. Xcode Cloud accepts no extra flags: use 'xcmedic ci-scripts'. \
        Example: xcodebuild $(xcmedic flags) -scheme App build
        """
    )

    @Option(help: "shell (words for $(xcmedic flags)), fastlane (an xcargs: argument) or json.")
    var format: FlagsFormat = .shell

    @Flag(help: "Only the macro flag.")
    var macros = false

    @Flag(help: "Only the plugin flag.")
    var plugins = false

    func run() throws {
        let kinds: [TrustTarget.Kind] = macros == plugins ? [.macro, .plugin] : (macros ? [.macro] : [.plugin])
        print(SkipFlags.render(kinds: kinds, format: SkipFlags.Format(rawValue: format.rawValue) ?? .shell), terminator: "")
    }
}
