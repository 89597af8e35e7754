// The link step and module imports: undefined and duplicate symbols, missing libraries and frameworks,
// simulator/device slice mismatches, modules the compiler cannot find or cannot read.
// Message texts quoted from the public logs named in each example's `source`; Linux lines were
// produced here with swiftc 6.3.1.
extension BuiltinCatalog {
    static let linkerRules = #"""
- id: linker-undefined-symbols
  title: Undefined symbols at link time
  category: linker-undefined-symbols
  severity: error
  role: cause
  patterns:
    - literal: 'Undefined symbols for architecture '
      regex: '^Undefined symbols for architecture (?<arch>[\w-]+):'
    - literal: 'ld: Undefined symbols:'
      regex: '^ld: Undefined symbols:'
    - literal: 'symbol(s) not found for architecture '
      regex: '^ld: symbol\(s\) not found for architecture (?<arch>[\w-]+)'
    # Xcode's issue navigator (and reports copied from it) lists one "Undefined symbol: X" per symbol; they are one finding.
    - literal: 'Undefined symbol: '
      regex: '^Undefined symbol: \S'
  continuation:
    while: 'referenced from:$|(?:^| )in \S+$|^\(maybe you meant:|^ld: symbol\(s\) not found for architecture'
    collect: '^"?(?<symbols>[^"]+?)"?, referenced from:$'
    max_lines: 300
  message: 'The linker cannot find symbols the code references {arch}'
  explanation: >
    Code in this target uses a function, class or variable that no library or framework given to the
    linker defines. The usual reasons: the framework or package product is not linked to this target,
    a prebuilt library has no slice for this architecture (arm64 simulator on Apple silicon), an Objective-C
    or C symbol is declared but its .m/.c file is not in the target, or C++ name mangling hides a C function.
    The `symbols` list names what is missing; `_OBJC_CLASS_$_X` is the Objective-C class X.
  fixes:
    - summary: Link the library or package product that defines the symbol to this target (Build Phases > Link Binary With Libraries, or the target's dependencies in Package.swift)
    - summary: Check which architectures a prebuilt library contains; prefer an .xcframework that has the slice you build for
      commands: ['lipo -info path/to/libFoo.a', 'xcrun vtool -show-build path/to/Foo.framework/Foo']
    - summary: With CocoaPods, keep $(inherited) in OTHER_LDFLAGS so the pods' link flags reach the target
      snippet: "OTHER_LDFLAGS = $(inherited) -ObjC"
    - summary: For a C function called from C++ (.mm), declare it extern "C"
      snippet: "extern \"C\" {\n#include \"foo.h\"\n}"
  docs:
    - https://developer.apple.com/documentation/technotes/tn3117-resolving-build-errors-for-apple-silicon
  examples:
    match:
      - line: "Undefined symbols for architecture x86_64:\n  \"_OBJC_CLASS_$_CABasicAnimation\", referenced from:\n      objc-class-ref in ATZRadialProgressControl.o\nld: symbol(s) not found for architecture x86_64"
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L642-L647 (SAMPLE_UNDEFINED_SYMBOLS)
        captures: {arch: x86_64, symbols: _OBJC_CLASS_$_CABasicAnimation}
      - line: "Undefined symbols for architecture arm64:\n  \"_OBJC_CLASS_$_CPAProxyManager\", referenced from:\n      type metadata accessor for __ObjC.CPAProxyManager in ViewController.o\n  \"_OBJC_CLASS_$_CPAConfiguration\", referenced from:\n      type metadata accessor for __ObjC.CPAConfiguration in ViewController.o\nld: symbol(s) not found for architecture arm64"
        source: https://github.com/ursachec/CPAProxy/issues/46
        captures: {arch: arm64, symbols: '_OBJC_CLASS_$_CPAProxyManager, _OBJC_CLASS_$_CPAConfiguration'}
      - line: "ld: Undefined symbols:\n  _OBJC_CLASS_$_Parse, referenced from:\n       in AppDelegate.o"
        source: https://github.com/parse-community/Parse-SDK-iOS-OSX/issues/1771 (Xcode 15.1 linker)
        captures: {symbols: _OBJC_CLASS_$_Parse}
      - line: 'Undefined symbol: _objc_msgSend$role - this is a zld/Xcode 14 issue, see the bottom of the full error message for details'
        source: https://github.com/michaeleisel/zld/issues/125
      - line: 'Undefined symbol: Swift._ArrayBuffer._copyContents(initializing: Swift.UnsafeMutableBufferPointer<A>) -> (Swift.IndexingIterator<Swift._ArrayBuffer<A>>, Swift.Int)'
        source: https://github.com/react-native-share/react-native-share/issues/1013 (Xcode 12.5, "Showing All Issues")
      - line: '❌  ld: Undefined symbols:'
        source: https://github.com/GoogleCloudPlatform/recaptcha-enterprise-mobile-sdk/issues/111 (xcbeautify, Xcode 15.2)
    no_match:
      - line: 'Undefined symbol handling is set to dynamic_lookup'

- id: linker-undefined-reference
  title: Undefined reference at link time (Linux)
  category: linker-undefined-symbols
  severity: error
  role: cause
  patterns:
    - literal: 'undefined reference to '
      regex: "undefined reference to [`'‘](?<symbol>[^'’]+)['’]"
  message: "The linker cannot find '{symbol}'"
  explanation: >
    The GNU linkers used by `swift build` on Linux say "undefined reference" where Apple's linker says
    "Undefined symbols": code calls a symbol that no linked object or library defines. On Linux this is often
    a system library that is not linked (a missing `linkerSettings`), an Apple-only symbol, or a C declaration
    without its implementation in the package.
  fixes:
    - summary: Link the system library that defines the symbol from the target in Package.swift
      snippet: "linkerSettings: [.linkedLibrary(\"z\")]"
    - summary: Install the development package of that library on the Linux runner
      commands: ['apt-get install -y zlib1g-dev']
    - summary: Guard Apple-only code so Linux builds do not reference it
      snippet: "#if canImport(Darwin)\n...\n#endif"
  examples:
    match:
      - line: "/tmp/TemporaryDirectory.nwS1us/u-1.o:u-1.o:function main: error: undefined reference to 'missing_c_function'"
        source: swiftc 6.3.1 on Linux (a @_silgen_name function with no definition)
        captures: {symbol: missing_c_function}
    no_match:
      - line: 'warning: undefined behaviour sanitizer enabled'

- id: linker-duplicate-symbols
  title: Duplicate symbols at link time
  category: linker-other
  severity: error
  role: cause
  patterns:
    - literal: 'duplicate symbol'
      regex: '^duplicate symbols? .+ in:$'
    - literal: ' duplicate symbol'
      regex: '^ld: \d+ duplicate symbols?\b'
  continuation:
    while: '^(?:/|[\w.+-]+\.(?:o|a)\b|ld: \d+ duplicate symbols?\b)'
    collect: '^(?<objects>(?:/|[\w.+-]+\.(?:o|a)\b).*)$'
    max_lines: 200
  explanation: >
    Two object files given to the linker define the same symbol. Typical causes: a static library linked both
    into a framework and into the app, the same source file compiled into two targets, two dependencies that
    vendor the same third-party code, or -all_load/-ObjC pulling in duplicate objects. The `objects` list names
    the files that define it. Xcode 15's new linker also reports duplicates the old one tolerated.
  fixes:
    - summary: Link each static library into exactly one binary; remove the second copy from Link Binary With Libraries or from one of the dependencies
    - summary: Remove the source file from one of the targets that compile it (File inspector > Target Membership)
    - summary: Drop -all_load from OTHER_LDFLAGS; prefer -ObjC or -force_load for the one library that needs it
    - summary: As a stopgap on Xcode 15, fall back to the classic linker while you remove the duplicate
      snippet: "OTHER_LDFLAGS = $(inherited) -Wl,-ld_classic"
  examples:
    match:
      - line: "duplicate symbol _OBJC_IVAR_$ClassName._ivarName in:\n    /Users/username/Library/Developer/Xcode/DerivedData/App/Build/Intermediates/App.build/Debug-iphonesimulator/App.build/Objects-normal/i386/ClassName.o\n    /Users/username/Library/Developer/Xcode/DerivedData/App/Build/Products/Debug-iphonesimulator/libPods.a(DuplicateClassName.o)\nld: 1 duplicate symbol for architecture i386"
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L649-L655 (SAMPLE_DUPLICATE_SYMBOLS, DerivedData hash shortened)
        captures: {objects: '/Users/username/Library/Developer/Xcode/DerivedData/App/Build/Intermediates/App.build/Debug-iphonesimulator/App.build/Objects-normal/i386/ClassName.o, /Users/username/Library/Developer/Xcode/DerivedData/App/Build/Products/Debug-iphonesimulator/libPods.a(DuplicateClassName.o)'}
      - line: 'ld: 154 duplicate symbols for architecture arm64'
        source: https://github.com/fabric/fabric/issues/1837
    no_match:
      - line: 'warning: duplicate symbol names are ignored'

- id: linker-library-not-found
  title: Library not found at link time
  category: linker-other
  severity: error
  role: cause
  patterns:
    - literal: 'ld: library not found for -l'
      regex: '^ld: library not found for -l(?<library>\S+)'
    - literal: 'ld: library '''
      regex: "^ld: library '(?<library>[^']+)' not found"
    - literal: 'cannot find -l'
      regex: 'ld(?:\.gold|\.lld|\.bfd)?: (?:error: )?cannot find -l(?<library>\S+)'
  message: 'The linker cannot find library {library}'
  explanation: >
    The target asks the linker for `-l{library}` but no library search path contains it. With CocoaPods this
    almost always means the .xcodeproj was built instead of the .xcworkspace, `pod install` did not run on
    CI, or a stale libPods-*.a entry remains in Link Binary With Libraries after switching to frameworks.
    Otherwise the library is not built before this target or LIBRARY_SEARCH_PATHS is wrong.
  fixes:
    - summary: Build the workspace, after installing pods, not the project
      commands: ['pod install', 'xcodebuild -workspace App.xcworkspace -scheme App build']
    - summary: Remove stale lib{library}.a entries from Build Phases > Link Binary With Libraries
    - summary: Make sure the target that produces the library is a dependency of this one, or fix LIBRARY_SEARCH_PATHS
    - summary: On Linux, install the library's development package
      commands: ['apt-get install -y lib{library}-dev']
  examples:
    match:
      - line: 'ld: library not found for -lPods-Yammer'
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L662 (SAMPLE_LD_LIBRARY_ERROR)
        captures: {library: Pods-Yammer}
      - line: 'ld: library not found for -lPods'
        source: https://github.com/limboy/bizhi/issues/5
        captures: {library: Pods}
      - line: '[x] ld: library not found for -lPods-Yammer'
        source: xcbeautify's uncoloured rendering (cpisciotta/xcbeautify Tests/XcbeautifyLibTests/RendererTests/TerminalRendererTests.swift, ldError)
        captures: {library: Pods-Yammer}
      - line: '/usr/bin/ld.gold: error: cannot find -lNoSuchLibXYZ'
        source: swiftc 6.3.1 on Linux (swiftc -lNoSuchLibXYZ)
        captures: {library: NoSuchLibXYZ}
    no_match:
      - line: 'ld: warning: directory not found for option ''-L/Users/me/Pods/build'''

- id: linker-framework-not-found
  title: Framework not found at link time
  category: linker-other
  severity: error
  role: cause
  patterns:
    - literal: 'ld: framework not found '
      regex: '^ld: framework not found (?<framework>\S+)'
    - literal: 'ld: framework '''
      regex: "^ld: framework '(?<framework>[^']+)' not found"
  message: 'The linker cannot find framework {framework}'
  explanation: >
    The target links `-framework {framework}` but no framework search path holds it. With CocoaPods
    (`Pods_App` frameworks) build the .xcworkspace after `pod install`; a red Pods_*.framework left in Link
    Binary With Libraries after changing pods setup also causes it. For vendored binaries, the .framework or the
    .xcframework slice for this platform is missing or FRAMEWORK_SEARCH_PATHS does not point at it.
  fixes:
    - summary: Run pod install and build the workspace
      commands: ['pod install', 'xcodebuild -workspace App.xcworkspace -scheme App build']
    - summary: Remove the stale {framework} entry from Link Binary With Libraries and add it again from the workspace
    - summary: For vendored frameworks, ship an .xcframework with a slice for every platform you build, or fix FRAMEWORK_SEARCH_PATHS
  examples:
    match:
      - line: 'ld: framework not found Pods_ikpm-frontend-ios_Staging'
        source: https://github.com/xmartlabs/Swift-Project-Template/issues/27
        captures: {framework: Pods_ikpm-frontend-ios_Staging}
      - line: "ld: framework 'CoreAudioTypes' not found"
        source: https://github.com/firebase/flutterfire/issues/11867 (Xcode 15 linker wording)
        captures: {framework: CoreAudioTypes}
    no_match:
      - line: "ld: warning: Could not find or use auto-linked framework 'CoreAudioTypes': framework 'CoreAudioTypes' not found"

- id: linker-bitcode-missing
  title: Library built without bitcode
  category: linker-other
  severity: error
  role: cause
  patterns:
    - literal: 'does not contain bitcode'
      regex: "^ld: '?(?<library>.+?)'? does not contain bitcode"
  message: '{library} has no bitcode but the target builds with bitcode'
  explanation: >
    The target has ENABLE_BITCODE=YES and links a prebuilt library compiled without bitcode. Bitcode is
    deprecated since Xcode 14 and the App Store no longer accepts it, so the fix is to turn it off rather than
    to find a bitcode build of the library.
  fixes:
    - summary: Turn bitcode off for the target (and for Pods targets)
      commands: ['xcodebuild ... ENABLE_BITCODE=NO']
      snippet: "post_install do |installer|\n  installer.pods_project.targets.each do |t|\n    t.build_configurations.each { |c| c.build_settings['ENABLE_BITCODE'] = 'NO' }\n  end\nend"
  examples:
    match:
      - line: "ld: '/Users/.../GoogleAnalytics-iOS-SDK/libGoogleAnalyticsServices.a(TAGHit.o)' does not contain bitcode. You must rebuild it with bitcode enabled (Xcode setting ENABLE_BITCODE), obtain an updated library from the vendor, or disable bitcode for this target. for architecture armv7"
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L657-L659 (SAMPLE_BITCODE_LD)
        captures: {library: '/Users/.../GoogleAnalytics-iOS-SDK/libGoogleAnalyticsServices.a(TAGHit.o)'}
    no_match:
      - line: 'note: bitcode bundle could not be generated because it was built without full bitcode'

- id: linker-wrong-platform-slice
  title: Object file built for another platform (device vs simulator)
  category: linker-other
  severity: error
  role: cause
  patterns:
    - literal: 'but linking in object file built for'
      regex: "building for '?(?<building>[^,']+?)'?, but linking in object file (?:\\(.*?\\) )?built for '?(?<built>[^,']+?)'?(?:,|$)"
  message: 'Building for {building} but a linked library was built for {built}'
  explanation: >
    A prebuilt library or framework holds code for the device (iOS) where the simulator is being built, or the
    reverse. Before Apple silicon, "arm64" meant device, so old fat libraries put an arm64 device slice where the
    arm64 simulator needs its own. Only an .xcframework can carry both arm64 device and arm64 simulator slices.
  fixes:
    - summary: Replace the fat library with an .xcframework that has an ios-arm64-simulator slice (update the dependency or ask its vendor)
    - summary: Rebuild the library yourself for the simulator and package both builds
      commands: ['xcodebuild -create-xcframework -library build/ios/libFoo.a -library build/sim/libFoo.a -output Foo.xcframework']
    - summary: 'Last resort: exclude arm64 from simulator builds (the app then runs under Rosetta in an x86_64 simulator)'
      snippet: "EXCLUDED_ARCHS[sdk=iphonesimulator*] = arm64"
  docs:
    - https://developer.apple.com/documentation/technotes/tn3117-resolving-build-errors-for-apple-silicon
  examples:
    match:
      - line: 'ld: in /Users/pengliping/Desktop/PAPP/VKIntlProperty/Pods/YYKit/Vendor/WebP.framework/WebP(libwebpencode_la-config.o), building for iOS Simulator, but linking in object file built for iOS, for architecture arm64'
        source: https://github.com/ibireme/YYKit/issues/576
        captures: {building: iOS Simulator, built: iOS}
    no_match:
      - line: 'building for iOS Simulator-arm64'

- id: linker-ignored-file
  title: The linker skipped a library built for another architecture
  category: linker-other
  severity: warning
  role: cause
  patterns:
    - literal: 'ld: warning: ignoring file '
      regex: "^ld: warning: ignoring file '?(?<file>[^',]+?)'?[,:] (?<reason>.+)$"
  message: 'The linker ignored {file}: {reason}'
  explanation: >
    The linker skipped this library or framework because it has no code for the architecture or platform being
    linked, so every symbol it should have provided is then reported as undefined. It happens with old fat libraries
    on Apple-silicon simulators, with frameworks built for the device only, and when EXCLUDED_ARCHS differs between
    targets.
  fixes:
    - summary: Use a build of the dependency with the missing slice, ideally an .xcframework
      commands: ['lipo -info {file}']
    - summary: Make EXCLUDED_ARCHS and ONLY_ACTIVE_ARCH consistent across the app, its frameworks and Pods targets
  docs:
    - https://developer.apple.com/documentation/technotes/tn3117-resolving-build-errors-for-apple-silicon
  examples:
    match:
      - line: 'ld: warning: ignoring file /Users/Ricardo/Documents/eclipse/workspace/iOS7/git/SDWebImage.framework/SDWebImage, missing required architecture arm64 in file /Users/Ricardo/Documents/eclipse/workspace/iOS7/git/SDWebImage.framework/SDWebImage (3 slices)'
        source: https://github.com/SDWebImage/SDWebImage/issues/656
        captures: {file: /Users/Ricardo/Documents/eclipse/workspace/iOS7/git/SDWebImage.framework/SDWebImage}
    no_match:
      - line: "ld: warning: directory not found for option '-F/Users/me/Build/Products/Debug-iphonesimulator/Protobuf'"

- id: linker-command-failed
  title: The linker failed
  category: linker-other
  severity: error
  role: symptom
  patterns:
    - literal: 'linker command failed with exit code'
      regex: 'linker command failed with exit code (?<code>\d+)'
    - literal: 'link command failed with exit code'
      regex: 'error: link command failed with exit code (?<code>\d+)'
  message: 'The link step failed (exit code {code})'
  explanation: >
    clang's or the Swift driver's closing line when the linker fails. It never says why: the lines just above it
    (undefined symbols, a missing library or framework, duplicate symbols) name the cause.
  fixes:
    - summary: Read the ld output directly above this line; the root-cause findings above name what is missing
  examples:
    match:
      - line: 'clang: error: linker command failed with exit code 1 (use -v to see invocation)'
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L649-L655 (SAMPLE_DUPLICATE_SYMBOLS)
        captures: {code: '1'}
      - line: 'error: link command failed with exit code 1 (use -v to see invocation)'
        source: swiftc 6.3.1 on Linux
        captures: {code: '1'}
    no_match:
      - line: 'error: emit-module command failed with exit code 1 (use -v to see invocation)'

- id: no-such-module
  title: Imported module not found
  category: no-such-module
  severity: error
  role: cause
  patterns:
    - literal: 'no such module '
      regex: "[Nn]o such module ['‘](?<module>[^'’]+)['’]"
    # Xcode's issue navigator (and reports copied from it) capitalise the first word.
    - literal: 'No such module '
      regex: "No such module ['‘](?<module>[^'’]+)['’]"
  message: "The compiler cannot find module '{module}'"
  explanation: >
    An `import {module}` names a module the compiler was not given. In Xcode: the package product or framework
    is not a dependency of this target, package resolution did not run or failed earlier, the .xcodeproj was
    built instead of the CocoaPods .xcworkspace, or the module only exists for another platform. With `swift build`
    on Linux, Apple frameworks (UIKit, AppKit, SwiftUI, Combine, os) do not exist at all.
  fixes:
    - summary: Add the product that provides {module} to this target (target > General > Frameworks and Libraries, or the target's dependencies in Package.swift)
      snippet: ".target(name: \"App\", dependencies: [.product(name: \"{module}\", package: \"...\")])"
    - summary: Resolve packages first and build the workspace, not the project
      commands: ['xcodebuild -resolvePackageDependencies -workspace App.xcworkspace -scheme App', 'xcodebuild -workspace App.xcworkspace -scheme App build']
    - summary: For an Apple-only framework in code that also builds on Linux or another platform, guard the import
      snippet: "#if canImport({module})\nimport {module}\n#endif"
    - summary: Clear stale DerivedData when the dependency did build
      commands: ['rm -rf ~/Library/Developer/Xcode/DerivedData']
  examples:
    match:
      - line: "/home/dev/spm/App/Sources/App/main.swift:2:8: error: no such module 'UIKit'"
        source: swift build 6.3.1 on Linux (shared/reference/failures.yaml)
        captures: {module: UIKit, file: /home/dev/spm/App/Sources/App/main.swift, line: '2'}
      - line: "m.swift:1:8: error: no such module 'UIKit'"
        source: swiftc 6.3.1 on Linux
        captures: {module: UIKit}
      - line: "No such module 'KeychainSwift'"
        source: https://github.com/gjacobs314/HackQ/issues/58 (Xcode's issue navigator wording)
        captures: {module: KeychainSwift}
    no_match:
      - line: "warning: module 'UIKit' was not compiled with library evolution support"

- id: module-not-built-for-target
  title: Module found, but not for the architecture being built
  category: no-such-module
  severity: error
  role: cause
  patterns:
    - literal: 'ould not find module '''
      regex: "[Cc]ould not find module '(?<module>[^']+)' for target '(?<target>[^']+)'; found: (?<found>.+?)(?:, at: .*)?$"
  message: "Module '{module}' has no build for {target} (found: {found})"
  explanation: >
    The module exists, but only for other architectures: typically a binary framework without an arm64
    simulator slice on an Apple-silicon Mac, or a project that excludes arm64 (or x86_64) for the simulator in
    one target but not in another, so the two halves of the build disagree.
  fixes:
    - summary: Use a dependency version that ships an .xcframework with the missing slice
    - summary: Make EXCLUDED_ARCHS and ONLY_ACTIVE_ARCH the same in the app, its dependencies and Pods targets; remove old EXCLUDED_ARCHS[sdk=iphonesimulator*] = arm64 workarounds
    - summary: Build for the simulator architecture you have explicitly
      commands: ["xcodebuild ... -destination 'platform=iOS Simulator,name=iPhone 16,arch=arm64'"]
  docs:
    - https://developer.apple.com/documentation/technotes/tn3117-resolving-build-errors-for-apple-silicon
  examples:
    match:
      - line: "error: could not find module 'iOSDFULibrary' for target 'arm64-apple-ios-simulator'; found: i386, x86_64-apple-ios-simulator, x86_64, i386-apple-ios-simulator"
        source: https://github.com/nordicsemi/IOS-DFU-Library/issues/422
        captures: {module: iOSDFULibrary, target: arm64-apple-ios-simulator}
      - line: "Could not find module 'SwiftMessages' for target 'arm64-apple-ios-simulator'; found: x86_64-apple-ios-simulator, at: Build/Products/Debug-iphonesimulator/SwiftMessages.swiftmodule"
        source: https://github.com/SwiftKickMobile/SwiftMessages/issues/497
        captures: {module: SwiftMessages, found: x86_64-apple-ios-simulator}
    no_match:
      - line: "error: no such module 'UIKit'"

- id: module-dependency-not-found
  title: Dependency scan cannot find a module (explicitly built modules)
  category: no-such-module
  severity: error
  role: cause
  patterns:
    - literal: 'module dependency: '''
      regex: "[Uu]nable to (?:find|resolve) module dependency: '(?<module>[^']+)'"
  message: "The dependency scan cannot find module '{module}'"
  explanation: >
    Xcode 16 and Swift 6 scan every import before compiling (explicitly built modules) and report a missing
    module this way instead of "no such module". The causes are the same: the module is not a dependency of
    this target, not built for this platform, or imported from an interface that refers to an implementation-only
    dependency.
  fixes:
    - summary: "Add the product that provides {module} to the target's dependencies, or guard the import with #if canImport({module})"
    - summary: If the dependency is only used internally by a framework, import it `internal` or `@_implementationOnly` so its interface does not expose it
    - summary: To confirm it is the scan, build once without explicit modules
      commands: ['xcodebuild ... SWIFT_ENABLE_EXPLICIT_MODULES=NO']
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/dependency-scan
  examples:
    match:
      - line: "em.swift:1:8: error: unable to resolve module dependency: 'MissingModuleXYZ'"
        source: swiftc 6.3.1 on Linux with -explicit-module-build (shared/reference/failures.yaml)
        captures: {module: MissingModuleXYZ}
      - line: "error: Unable to find module dependency: 'UIKit'"
        source: Xcode 16 log quoted in shared/reference/failures.yaml (macOS target importing UIKit)
        captures: {module: UIKit}
    no_match:
      - line: "note: a dependency of main module 'em'"

- id: module-compiled-with-other-swift
  title: Binary module built by a different Swift compiler
  category: swift-version-mismatch
  severity: error
  role: cause
  patterns:
    - literal: 'cannot be imported by the Swift '
      regex: '[Mm]odule compiled with Swift (?<built>[\d.]+) cannot be imported by the Swift (?<current>[\d.]+) compiler(?:: (?<path>\S+))?'
  message: 'A module built with Swift {built} cannot be imported by Swift {current}'
  explanation: >
    A prebuilt .swiftmodule is only readable by the exact compiler that wrote it. The framework was shipped
    without a .swiftinterface (not built with BUILD_LIBRARY_FOR_DISTRIBUTION), or a cache (DerivedData, Carthage/Build,
    a Homebrew-installed tool like danger-swift) was made by another Xcode than the one this job uses.
  fixes:
    - summary: Rebuild or reinstall the dependency with the current Xcode
      commands: ['carthage bootstrap --use-xcframeworks --no-use-binaries', 'brew reinstall danger/tap/danger-swift']
    - summary: Key CI caches (DerivedData, Carthage/Build) on the Xcode version so another compiler never reads them
      commands: ['xcodebuild -version']
    - summary: Vendors of binary frameworks should build them with library evolution so any later Swift can import them
      snippet: "BUILD_LIBRARY_FOR_DISTRIBUTION = YES"
  examples:
    match:
      - line: '/var/folders/wf/mvxynpsj3wb3xk6v2bjmkqx80000gq/T/_tmp_dangerfile.swift:1:8: error: module compiled with Swift 5.5.2 cannot be imported by the Swift 5.6.1 compiler: /opt/homebrew/lib/danger/Danger.swiftmodule'
        source: https://github.com/danger/swift/issues/519
        captures: {built: 5.5.2, current: 5.6.1, path: /opt/homebrew/lib/danger/Danger.swiftmodule}
      - line: 'Module compiled with Swift 5.6 cannot be imported by the Swift 5.7 compiler: xxx/Pods/NECoreIMKit/NEKitCoreIM.framework/Modules/NEKitCoreIM.swiftmodule/x86_64-apple-ios-simulator.swiftmodule'
        source: https://github.com/netease-kit/nim-uikit-ios/issues/341
        captures: {built: '5.6', current: '5.7'}
    no_match:
      - line: 'Compiling with Swift 5.7'

- id: sdk-not-supported-by-compiler
  title: Module interface built by another Swift than this toolchain
  category: swift-version-mismatch
  severity: error
  role: cause
  patterns:
    - literal: 'this SDK is not supported by the compiler'
      regex: "[Ff]ailed to build module '(?<module>[^']+)'; this SDK is not supported by the compiler \\(the SDK is built with '(?<built>[^']+)', while this compiler is '(?<current>[^']+)'\\)"
  message: "Module '{module}' was built with {built}; this compiler is {current}"
  explanation: >
    The compiler refuses a module interface written by another Swift version. For Apple frameworks (UIKit,
    Foundation, CoreFoundation) the selected toolchain does not match the SDK: a swift.org or Command Line Tools
    compiler used with Xcode's SDK, or a different Xcode than the SDK's. For a vendor framework, its binary was built
    with a newer Xcode (often a beta) than the one on the runner.
  fixes:
    - summary: Select the Xcode whose SDK you build against, and do not mix in another toolchain
      commands: ['sudo xcode-select -s /Applications/Xcode_16.4.app/Contents/Developer', 'unset TOOLCHAINS', 'xcrun swift --version']
    - summary: For a vendor framework, use the release built for your Xcode version (or upgrade Xcode to the one it was built with)
  examples:
    match:
      - line: "Failed to build module 'TTSDK'; this SDK is not supported by the compiler (the SDK is built with 'Apple Swift version 5.10 (swiftlang-5.10.0.13 clang-1500.3.9.4)', while this compiler is 'Apple Swift version 6.0.3 effective-5.10 (swiftlang-6.0.3.1.10 clang-1600.0.30.1)'). Please select a toolchain which matches the SDK."
        source: https://github.com/volcengine/TTSDK-iOS/issues/84
        captures: {module: TTSDK}
      - line: "failed to build module 'CoreFoundation'; this SDK is not supported by the compiler (the SDK is built with 'Apple Swift version 6.0 effective-5.10 (swiftlang-6.0.0.7.43 clang-1600.0.25.3)', while this compiler is 'Apple Swift version 6.0.2 effective-5.10 (swiftlang-6.0.2.1.2 clang-1600.0.26.4)'). Please select a toolchain which matches the SDK."
        source: https://github.com/dirkschreib/SilentStudio/issues/12
        captures: {module: CoreFoundation}
    no_match:
      - line: "error: failed to build module 'Foo' for importation due to the errors above"
"""#
}
