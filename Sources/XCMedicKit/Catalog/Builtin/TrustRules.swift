// Xcode's trust gate for package macros and build-tool plugins.
// Message texts quoted from the public logs named in each example's `source`.
extension BuiltinCatalog {
    static let trustRules = #"""
- id: macro-not-trusted
  title: Package macro not trusted on this machine
  category: macro-validation
  severity: error
  role: cause
  patterns:
    - literal: 'must be enabled before it can be used'
      regex: 'Macro ["“](?<macro>[^"”]+)["”] from package ["“](?<package>[^"”]+)["”] must be enabled before it can be used'
  message: 'Macro "{macro}" from package "{package}" is not trusted on this machine'
  explanation: >
    Since Xcode 15 a macro from a package runs only after someone approves it with "Trust & Enable".
    The approval lives in ~/Library/org.swift.swiftpm/security/macros.json on the machine that clicked,
    keyed by the package's pinned revision, so a fresh CI runner or Xcode Cloud has none and xcodebuild
    stops before compiling. `swift build` does not check, which is why the same package builds there.
  fixes:
    - summary: Trust exactly this macro at the pinned revision (an allow-list that follows Package.resolved)
      commands: ['xcmedic ci-scripts --macro {package}:{macro}']
    - summary: Skip macro validation for this xcodebuild invocation (trusts every macro)
      commands: ['xcodebuild ... -skipMacroValidation']
    - summary: Skip it machine-wide on CI (Xcode Cloud ci_post_clone.sh)
      commands: ['defaults write com.apple.dt.Xcode IDESkipMacroFingerprintValidation -bool YES']
  docs:
    - https://developer.apple.com/documentation/xcode/writing-custom-build-scripts
  examples:
    match:
      - line: 'Macro "ModifiedCopyMacros" from package "ModifiedCopy" must be enabled before it can be used'
        source: https://github.com/Floorp-Projects/floorp-ios/pull/76
        captures: {macro: ModifiedCopyMacros, package: ModifiedCopy}
      - line: '❌ Macro “MLXHuggingFaceMacros” from package “mlx-swift-lm” must be enabled before it can be used'
        source: Xcode Cloud log wording recorded in shared/reference/failures-notes.md (typographic quotes as Xcode prints them)
        captures: {macro: MLXHuggingFaceMacros, package: mlx-swift-lm}
    no_match:
      - line: 'Plugin “OpenAPIGenerator” from package “swift-openapi-generator” must be enabled before it can be used'

- id: macro-target-not-trusted
  title: Package macro target not trusted (Xcode 15 wording)
  category: macro-validation
  severity: error
  role: cause
  patterns:
    - literal: 'must be enabled before it can be used'
      regex: "Target '(?<macro>[^']+)' must be enabled before it can be used"
  message: "Macro target '{macro}' is not trusted on this machine"
  explanation: >
    Xcode 15.0-15.4 named only the macro target when its trust gate refused to build a package macro.
    Approval is per machine (~/Library/org.swift.swiftpm/security/macros.json), so a fresh CI runner
    fails while the developer's Mac, where someone clicked "Trust & Enable", builds.
  fixes:
    - summary: Trust this macro at the pinned revision (name its package)
      commands: ['xcmedic ci-scripts --macro PACKAGE:{macro}']
    - summary: Skip macro validation for this invocation
      commands: ['xcodebuild ... -skipMacroValidation']
    - summary: Skip it machine-wide on CI
      commands: ['defaults write com.apple.dt.Xcode IDESkipMacroFingerprintValidation -bool YES']
  examples:
    match:
      - line: "\tTarget 'SpyableMacro' must be enabled before it can be used."
        source: https://github.com/Matejkob/swift-spyable/issues/38
        captures: {macro: SpyableMacro}
    no_match:
      - line: "Target 'App' has no source files"

- id: plugin-not-trusted
  title: Package build-tool plugin not trusted on this machine
  category: plugin-validation
  severity: error
  role: cause
  patterns:
    - literal: 'must be enabled before it can be used'
      regex: 'Plugin ["“](?<plugin>[^"”]+)["”] from package ["“](?<package>[^"”]+)["”] must be enabled before it can be used'
    - literal: 'must be enabled before it can be used'
      regex: '(?:^|error: )["“](?<plugin>[^"”]+)["”] must be enabled before it can be used'
  message: 'Plugin "{plugin}" is not trusted on this machine'
  explanation: >
    Build-tool plugins (SwiftLint, SwiftGen, OpenAPIGenerator...) pass the same trust gate as macros:
    Xcode runs them only after "Trust & Enable", remembered in ~/Library/org.swift.swiftpm/security/plugins.json
    on that machine. CI machines start without it. `swift build` runs plugins without asking.
  fixes:
    - summary: Trust exactly this plugin at the pinned revision
      commands: ['xcmedic ci-scripts --plugin {package}:{plugin}']
    - summary: Skip plugin validation for this xcodebuild invocation (trusts every plugin)
      commands: ['xcodebuild ... -skipPackagePluginValidation']
    - summary: Skip it machine-wide on CI; Xcode reads Apple's misspelled key
      commands: ['defaults write com.apple.dt.Xcode IDESkipPackagePluginFingerprintValidatation -bool YES']
  examples:
    match:
      - line: 'Plugin “OpenAPIGenerator” from package “swift-openapi-generator” must be enabled before it can be used'
        source: https://github.com/the-blue-alliance/the-blue-alliance-ios/pull/1144
        captures: {plugin: OpenAPIGenerator, package: swift-openapi-generator}
      - line: 'error: “OpenAPIGenerator” must be enabled before it can be used'
        source: https://github.com/SwiftPackageIndex/SwiftPackageIndex-Server/issues/2792
        captures: {plugin: OpenAPIGenerator}
    no_match:
      - line: 'Macro "ModifiedCopyMacros" from package "ModifiedCopy" must be enabled before it can be used'

- id: plugin-validation-failed
  title: Validate plug-in step failed
  category: plugin-validation
  severity: error
  role: cause
  patterns:
    - literal: 'Validate plug-in '
      regex: 'Validate plug-in ["“](?<plugin>[^"”]+)["”] in package ["“](?<package>[^"”]+)["”]'
  message: 'Validating plugin "{plugin}" from package "{package}" failed'
  explanation: >
    Xcode 14 and 15 validate each package build-tool plugin before running it. On a machine where
    nobody approved the plugin the step fails, often with no further output.
  fixes:
    - summary: Trust exactly this plugin at the pinned revision
      commands: ['xcmedic ci-scripts --plugin {package}:{plugin}']
    - summary: Skip plugin validation for this xcodebuild invocation
      commands: ['xcodebuild ... -skipPackagePluginValidation']
  examples:
    match:
      - line: 'Validate plug-in “BenchmarkPlugin” in package “package-benchmark”'
        source: https://github.com/ordo-one/benchmark/issues/173
        captures: {plugin: BenchmarkPlugin, package: package-benchmark}
    no_match:
      - line: 'Validate /Users/me/App.app (in target App from project App)'

- id: macro-implementation-not-found
  title: The compiler could not load a macro's plugin
  category: macro-validation
  severity: error
  role: cause
  patterns:
    - literal: 'xternal macro implementation type '
      regex: '[Ee]xternal macro implementation type [''‘](?<type>[^''’]+)[''’] could not be found for macro [''‘](?<macro>[^''’]+)[''’]'
  message: "The plugin for macro {macro} ({type}) could not be loaded"
  explanation: >
    Every use of the macro fails because the compiler has no plugin for it: Xcode never built the macro target
    (it was not trusted, so look for a "must be enabled" finding above), stale DerivedData or package caches point
    at an old plugin, or with swift build the macro target is not a dependency of the target that uses it.
  fixes:
    - summary: Fix the macro trust error first if there is one (trust the macro or pass -skipMacroValidation)
      commands: ['xcodebuild ... -skipMacroValidation']
    - summary: Clear DerivedData and the package cache, then resolve packages again
      commands: ['rm -rf ~/Library/Developer/Xcode/DerivedData', 'xcodebuild -resolvePackageDependencies']
  examples:
    match:
      - line: "macro.swift:2:20: error: external macro implementation type 'CasePathsMacros.CasePathableMacro' could not be found for macro 'CasePathable()'; plugin for module 'CasePathsMacros' not found"
        source: swiftc 6.3.1 on Linux (shared/reference/failures.yaml, macro-external-implementation-not-found)
        captures: {type: CasePathsMacros.CasePathableMacro, macro: CasePathable(), file: macro.swift, line: '2'}
      - line: "External macro implementation type 'CasePathsMacros.CasePathableMacro' could not be found for macro 'CasePathable()'"
        source: https://github.com/pointfreeco/swift-case-paths/pull/132 (Xcode's issue navigator wording)
        captures: {type: CasePathsMacros.CasePathableMacro, macro: CasePathable()}
    no_match:
      - line: "@freestanding(expression) public macro stringify<T>(_ value: T) = #externalMacro(module: \"MyMacros\", type: \"StringifyMacro\")"
"""#
}
