// Compiler crashes, type-checker limits, stale headers and caches, Run Script phases, the build graph,
// and (in its own low-priority family) any compiler error no specific rule names.
// Message texts quoted from the public logs named in each example's `source`; Linux lines were
// produced here with swiftc 6.3.1.
extension BuiltinCatalog {
    static let compilerRules = #"""
- id: swift-compiler-crash
  title: The Swift compiler crashed
  category: compiler-crash
  severity: error
  role: cause
  patterns:
    - literal: 'Please submit a bug report (https://swift.org'
      regex: 'Please submit a bug report \(https://swift\.org/'
    - literal: 'Stack dump:'
      regex: '^Stack dump:$'
  continuation:
    while: '^(?:Stack dump|Please submit a bug report|\d+\.\s|\d+\s+\S+\s+0x[0-9a-fA-F]+\s)'
    collect: '^\d+\.\s+While .*?(?<files>/[^"''\s:()]+\.swift)'
    max_lines: 200
  message: 'The Swift compiler crashed (this is not an error in your code as written)'
  explanation: >
    swift-frontend itself crashed and printed a stack dump instead of a diagnostic; xcodebuild then only says
    that SwiftCompile failed. The numbered "While evaluating/type-checking/emitting ..." lines of the dump name the
    file and declaration it was working on (`files`). Crashes often appear only in Release or archive builds
    (optimizer, whole-module) or right after an Xcode upgrade, and a "While deserializing" frame points at a stale
    or mismatched prebuilt module.
  fixes:
    - summary: Rewrite the construct in the file and declaration the dump names (split the expression, add explicit types, move code out of a result builder); that usually avoids the crash
    - summary: If the dump mentions deserializing a module, clear DerivedData and rebuild dependencies with this Xcode
      commands: ['rm -rf ~/Library/Developer/Xcode/DerivedData']
    - summary: To find the file in an optimized build, compile one file at a time
      commands: ['xcodebuild ... SWIFT_COMPILATION_MODE=singlefile']
    - summary: Pin the previous Xcode on CI until a fixed release, and report the crash with the dump
      docs: https://github.com/swiftlang/swift/issues
  examples:
    match:
      - line: "Please submit a bug report (https://swift.org/contributing/#reporting-bugs) and include the crash backtrace.\nStack dump:\n0.\tProgram arguments: /Applications/Xcode-16.3.0.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/bin/swift-frontend -frontend -c\n1.\tApple Swift version 6.1 (swiftlang-6.1.0.110.21 clang-1700.0.13.3)\n3.\tWhile evaluating request TypeCheckSourceFileRequest(source_file \"/Users/agp1/Developer/Rugby/Example/LocalPods/LocalPod/Sources/TheView.swift\")"
        source: cpisciotta/xcbeautify@677dd067eb00:Tests/XcbeautifyLibTests/TestData/swiftcompile-failure-with-stack.txt (program arguments shortened)
        captures: {files: /Users/agp1/Developer/Rugby/Example/LocalPods/LocalPod/Sources/TheView.swift}
      - line: 'Stack dump:'
        source: https://github.com/mxcl/AppUpdater/issues/16
    no_match:
      - line: 'Stack dump without symbol names (ensure you have llvm-symbolizer in your PATH)'

- id: compiler-crashed-signal
  title: A compiler process was killed by a signal
  category: compiler-crash
  severity: error
  role: cause
  patterns:
    - literal: 'failed due to signal'
      regex: '(?:compile|frontend|merge-module|emit-module) command failed due to signal'
    - literal: 'Segmentation fault: 11'
      regex: '(?:^|error: |command: |signal: )Segmentation fault: 11'
    - literal: 'PLEASE submit a bug report to https://github.com/llvm'
      regex: 'PLEASE submit a bug report to https://github\.com/llvm/'
  message: 'A compiler process crashed (signal)'
  explanation: >
    The Swift or clang frontend died on a signal (11 is a segmentation fault, 6 an abort) instead of reporting
    a diagnostic. It is a compiler bug triggered by some construct in the file being compiled, or a corrupted or
    mismatched module in the caches; retrying rarely helps.
  fixes:
    - summary: Find the file being compiled (the command above this line, or the stack dump) and simplify the construct it was working on
    - summary: Clear DerivedData and the module cache, then rebuild
      commands: ['rm -rf ~/Library/Developer/Xcode/DerivedData']
    - summary: Pin the previous Xcode on CI until the compiler is fixed
  examples:
    match:
      - line: 'error: compile command failed due to signal 11 (use -v to see invocation)'
        source: https://github.com/mxcl/AppUpdater/issues/16
      - line: '<unknown>:0: error: unable to execute command: Segmentation fault: 11'
        source: https://github.com/Carthage/Carthage/issues/1152
      - line: '<unknown>:0: error: compile command failed due to signal (use -v to see invocation)'
        source: https://github.com/Carthage/Carthage/issues/1152
      - line: 'clang: error: clang frontend command failed due to signal (use -v to see invocation)'
        source: https://github.com/signalapp/Signal-iOS/issues/2967
      - line: 'Command failed due to signal: Segmentation fault: 11'
        source: https://github.com/lionheart/openradar-mirror/issues/9461 (Xcode 6.4 and 7 wording)
    no_match:
      - line: 'Command SwiftCompile failed with a nonzero exit code'
      - line: './ui-screen-shooter.sh: line 103: 51123 Segmentation fault: 11'

- id: expression-too-complex
  title: The type checker gave up on an expression
  category: compile-error-generic
  severity: error
  role: cause
  patterns:
    - literal: 'unable to type-check this expression in reasonable time'
      regex: 'the compiler is unable to type-check this expression in reasonable time'
    - literal: 'too complex to be solved in reasonable time'
      regex: '[Ee]xpression was too complex to be solved in reasonable time'
  message: 'The compiler gave up type-checking this expression'
  explanation: >
    Long chains of overloaded operators and literals (`+` on strings, mixed Int and Double, nested optionals)
    make the type checker try too many combinations, and it stops after a time limit. A slower CI machine can hit
    the limit where a laptop does not, so the same commit may build locally and fail on CI.
  fixes:
    - summary: Split the expression into smaller statements with explicit types
      snippet: "let subtotal: Double = price * Double(quantity)\nlet total: Double = subtotal + shipping"
    - summary: Find other slow expressions before they fail
      commands: ['xcodebuild ... OTHER_SWIFT_FLAGS="-Xfrontend -warn-long-expression-type-checking=200"']
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/expression-too-complex
  examples:
    match:
      - line: 'complex2.swift:2:13: error: the compiler is unable to type-check this expression in reasonable time; try breaking up the expression into distinct sub-expressions'
        source: swiftc 6.3.1 on Linux (shared/reference/failures.yaml)
        captures: {file: complex2.swift, line: '2'}
      - line: 'error: expression was too complex to be solved in reasonable time; consider breaking up the expression into distinct sub-expressions'
        source: swiftlang/swift compiler tests (expected-error text of Swift 3 and 4)
    no_match:
      - line: 'warning: expression took 250ms to type-check (limit: 200ms)'

- id: clang-module-cache-corrupt
  title: Corrupted clang module cache or precompiled header
  category: compile-error-generic
  severity: error
  role: cause
  patterns:
    - literal: 'malformed or corrupted AST file'
      regex: 'malformed or corrupted AST file'
  message: 'A cached clang module or precompiled header is corrupt or stale'
  explanation: >
    clang read a .pcm or .pch from the module cache that does not match the files on disk. It happens when
    DerivedData or ModuleCache.noindex is restored from a CI cache made by another Xcode, another checkout path or
    an interrupted build.
  fixes:
    - summary: Delete the module cache and DerivedData (the error names the cache path), then build again
      commands: ['rm -rf ~/Library/Developer/Xcode/DerivedData/ModuleCache.noindex ~/Library/Developer/Xcode/DerivedData']
    - summary: Include the Xcode version and the checkout path in the CI cache key for DerivedData
  examples:
    match:
      - line: "fatal error: malformed or corrupted AST file: 'could not find file '/path/file.h' referenced by AST file' note: after modifying system headers, please delete the module cache at '/path/DerivedData/ModuleCache/M5WJ0FYE7N06'"
        source: cpisciotta/xcbeautify test data (shared/reference/failures.yaml, malformed-ast-module-cache)
    no_match:
      - line: "note: after modifying system headers, please delete the module cache"

- id: pch-modified-since-built
  title: Header changed after the precompiled header was built
  category: compile-error-generic
  severity: error
  role: cause
  patterns:
    - literal: 'has been modified since the precompiled header'
      regex: "file '(?<file>[^']+)' has been modified since the precompiled header '(?<pch>[^']+)' was built"
  message: 'The precompiled header is older than a header it includes'
  explanation: >
    The prefix header (.pch) was built before one of the headers it includes changed, typically when DerivedData
    is cached between CI runs while Pods or generated headers change, or when two builds share DerivedData.
  fixes:
    - summary: Remove the stale precompiled headers (or all DerivedData) and rebuild
      commands: ['rm -rf ~/Library/Developer/Xcode/DerivedData']
    - summary: Do not restore DerivedData across changes to Podfile.lock or generated headers; key the cache on them
  examples:
    match:
      - line: "fatal error: file '/path/to/myproject/Pods/Pods-environment.h' has been modified since the precompiled header '/Users/hiroshi/Library/Developer/Xcode/DerivedData/MyProject-gfmuvpipjscewkdnqacgumhfarrd/Build/Intermediates/PrecompiledHeaders/MyProject-Prefix-dwjpvcnrlaydzmegejmcvrtcfkpf/MyProject-Prefix.pch.pch' was built"
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L634-L636 (SAMPLE_FATAL_COMPILE_PCH_ERROR)
        captures: {file: /path/to/myproject/Pods/Pods-environment.h}
    no_match:
      - line: 'ProcessPCH /Users/me/DerivedData/App-Prefix.pch.pch App-Prefix.pch normal arm64 objective-c'

- id: umbrella-header-incomplete
  title: Umbrella header does not include a public header
  category: compile-error-generic
  severity: error
  role: cause
  patterns:
    - literal: 'does not include header'
      regex: "umbrella header for module '(?<module>[^']+)' does not include header '(?<header>[^']+)'"
  message: "Umbrella header of module '{module}' does not include '{header}'"
  explanation: >
    A framework's umbrella header must import every public header of the module. A header that is public but not
    in the umbrella is reported, as an error when warnings are treated as errors or in explicit-module builds.
  fixes:
    - summary: 'Import the header in the umbrella header: #import <{module}/{header}>'
    - summary: Or make the header project/private instead of public (File inspector > Target Membership)
  examples:
    match:
      - line: "<module-includes>:1:1: error: umbrella header for module 'ModuleName' does not include header 'Header.h'"
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L692 (SAMPLE_MODULE_INCLUDES_ERROR)
        captures: {module: ModuleName, header: Header.h}
    no_match:
      - line: "error: could not build module 'ModuleName'"

- id: header-file-not-found
  title: Header file not found
  category: compile-error-generic
  severity: error
  role: cause
  patterns:
    - literal: ''' file not found'
      regex: "(?:fatal )?error: '(?<header>[^']+)' file not found"
  message: "Header '{header}' not found"
  explanation: >
    An #import or #include names a header that is on no header search path. With CocoaPods it usually means the
    pods are not installed or the project was built instead of the workspace; otherwise HEADER_SEARCH_PATHS or
    FRAMEWORK_SEARCH_PATHS misses the directory, or the file is not committed. The "In file included from" lines
    above it show which file asked for it.
  fixes:
    - summary: Install pods and build the workspace
      commands: ['pod install', 'xcodebuild -workspace App.xcworkspace -scheme App build']
    - summary: Check the header is committed and on HEADER_SEARCH_PATHS (or import it as <Module/{header}> from its framework)
      commands: ['git ls-files | grep {header}']
  examples:
    match:
      - line: "/Users/musalj/code/OSS/SampleApp/Pods/Headers/LessCoolPod/SomeRandomClass.h:31:9: fatal error: 'SomeRandomHeader.h' file not found"
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L625-L632 (SAMPLE_FATAL_COMPILE_ERROR)
        captures: {header: SomeRandomHeader.h, line: '31'}
    no_match:
      - line: "In file included from /Users/musalj/code/OSS/SampleApp/Pods/SuperCoolPod/SuperAwesomeClass.m:12:"

- id: source-file-missing
  title: A source file in the project is missing on disk
  category: compile-error-generic
  severity: error
  role: cause
  patterns:
    - literal: 'no such file or directory: '''
      regex: "error: no such file or directory: '(?<path>[^']+)'"
    - literal: ': error: no such file or directory'
      regex: '^(?<path>[^\s:][^:]*): error: no such file or directory$'
  message: "'{path}' is in the project but not on disk"
  explanation: >
    The project (or a compile command) lists a file that does not exist in this checkout: it was deleted or
    renamed without updating the project, never committed, git-ignored, or produced by a script that did not run.
  fixes:
    - summary: Commit the file, or remove or fix its reference in the project (it shows in red in Xcode's navigator)
      commands: ['git status --ignored', 'git log --diff-filter=D --name-only -- "*{path}"']
  examples:
    match:
      - line: "<unknown>:0: error: no such file or directory: '/Users/travis/build/supermarin/project/Classes/Class + Category/Two Words/MissingViewController.swift'"
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L605-L607 (SAMPLE_FILE_MISSING_ERROR)
        captures: {path: '/Users/travis/build/supermarin/project/Classes/Class + Category/Two Words/MissingViewController.swift'}
      - line: '[x] /path/file.swift: error: no such file or directory'
        source: xcbeautify's uncoloured rendering of "<unknown>:0 error no such file or directory '/path/file.swift'" (cpisciotta/xcbeautify TerminalRendererTests, fileMissingError)
        captures: {path: /path/file.swift}
    no_match:
      - line: 'cp: ./build/App.app: No such file or directory'

- id: build-input-file-not-found
  title: Build input file cannot be found
  category: compile-error-generic
  severity: error
  role: cause
  patterns:
    - literal: 'Build input file cannot be found: '
      regex: "Build input file cannot be found: ['‘](?<path>[^'’]+)['’]"
  message: "Build input '{path}' does not exist"
  explanation: >
    A file the build needs (Info.plist, GoogleService-Info.plist, an entitlements file, a source) is not on disk on
    this machine. On CI it is usually a git-ignored secret or config nobody provisions, a file renamed without
    updating the project, or the output of a Run Script phase that does not declare it as an output file.
  fixes:
    - summary: Create the file on CI before building (for example decode it from a secret in ci_post_clone.sh or a workflow step)
      commands: ['echo "$GOOGLE_SERVICE_INFO_PLIST" | base64 --decode > App/GoogleService-Info.plist']
    - summary: Fix the path in Build Settings (INFOPLIST_FILE, CODE_SIGN_ENTITLEMENTS) or remove the stale reference
    - summary: If a script generates it, list it under that Run Script phase's Output Files so the build runs the script first
  examples:
    match:
      - line: "Build input file cannot be found: '/Users/ed/dev/iOS/fullmoon-ios/fullmoon/Info.plist'. Did you forget to declare this file as an output of a script phase or custom build rule which produces it?"
        source: https://github.com/mainframecomputer/fullmoon-ios/issues/6
        captures: {path: /Users/ed/dev/iOS/fullmoon-ios/fullmoon/Info.plist}
      - line: "error: Build input file cannot be found: '/Users/ysy/Downloads/DKWechatHelper-master/dkhelper/dkhelper/Info.plist' (in target 'dkhelper' from project 'dkhelper')"
        source: https://github.com/DKJone/DKWechatHelper/issues/107
        captures: {path: /Users/ysy/Downloads/DKWechatHelper-master/dkhelper/dkhelper/Info.plist}
    no_match:
      - line: 'Build input file list is empty'

- id: user-script-sandbox-denied
  title: User script sandboxing blocked a Run Script phase
  category: phase-script-failed
  severity: error
  role: cause
  patterns:
    - literal: ' deny(1) '
      regex: "Sandbox: (?<tool>[\\w.+-]+)\\(\\d+\\) deny\\(1\\) (?<operation>file-[\\w-]+) \\S.*?(?: \\(in target '(?<target>[^']+)' from project '[^']+'\\))?$"
  message: 'The script sandbox stopped {tool} ({operation}) {target}'
  explanation: >
    With ENABLE_USER_SCRIPT_SANDBOXING=YES (the default for new projects since Xcode 15) a Run Script phase may only
    read its declared input files and write its declared output files. Scripts that do more, such as CocoaPods'
    "[CP] Embed Pods Frameworks" rsync, SwiftLint or SwiftGen, are stopped by the sandbox and the phase fails.
  fixes:
    - summary: Declare the files the script reads and writes as the phase's Input Files and Output Files (or .xcfilelist)
    - summary: Turn sandboxing off for the target that runs the script (and for Pods targets in post_install)
      snippet: "ENABLE_USER_SCRIPT_SANDBOXING = NO"
    - summary: Update CocoaPods, whose newer versions declare their scripts' inputs and outputs
      commands: ['gem install cocoapods', 'pod install']
  docs:
    - https://developer.apple.com/documentation/xcode/build-settings-reference#User-Script-Sandboxing
  examples:
    match:
      - line: "error: Sandbox: rsync.samba(10838) deny(1) file-write-create /Users/admin/Library/Developer/Xcode/DerivedData/Aquareum-ensdzxgnxifgnjfsmrodygeuqgop/Build/Intermediates.noindex/ArchiveIntermediates/Aquareum/BuildProductsPath/Release-iphoneos/XCFrameworkIntermediates/hermes-engine/Pre-built/hermes.framework/.Info.plist.rJ8Ma1 (in target 'hermes-engine' from project 'Pods')"
        source: https://github.com/cirruslabs/macos-image-templates/issues/191
        captures: {tool: rsync.samba, operation: file-write-create, target: hermes-engine}
      - line: 'Sandbox: bash(18682) deny(1) file-read-data /Users/<REDACTED>/Library/Developer/Xcode/DerivedData/test-<REDACTED>/Build/Products/Debug/LaunchAtLogin_LaunchAtLogin.bundle/Contents/Resources/copy-helper-swiftpm.sh'
        source: https://github.com/sindresorhus/LaunchAtLogin-Legacy/issues/95
        captures: {tool: bash, operation: file-read-data}
    no_match:
      - line: 'Sandbox: mdworker(412) allow file-read-data /Users/me/file'

- id: script-command-not-found
  title: A script called a command or file that is not there
  category: phase-script-failed
  severity: error
  role: cause
  patterns:
    # The shell's own messages: only lines the shell (or env) prints, never a tool's "No such file" output.
    - literal: ': command not found'
      regex: '(?:^|\.sh: |(?:^|/)(?:ba|z|da)?sh: )(?:line \d+: )?(?<command>[^\s:]+): command not found$'
    - literal: ': No such file or directory'
      regex: '^(?:/bin/|/usr/bin/)?(?:ba|z|da)?sh: (?:line \d+: )?(?<command>[^:]+?): No such file or directory$'
    - literal: ': No such file or directory'
      regex: '^/usr/bin/env: [''‘`]?(?<command>[^''’`:]+)[''’`]?: No such file or directory$'
  message: 'The script could not run {command}: it is not installed or not at that path on this machine'
  explanation: >
    A Run Script phase, Xcode Cloud script or CI step called a tool the runner does not have (swiftlint,
    sourcery, a Homebrew tool on an Apple-silicon PATH) or a script file that is not at that path. Xcode then
    reports "Command PhaseScriptExecution failed"; this line is why.
  fixes:
    - summary: Install the tool in the CI setup step, or call it by its full path (Homebrew on Apple silicon is /opt/homebrew/bin)
      snippet: 'export PATH="/opt/homebrew/bin:$PATH"'
    - summary: Make a build phase that only lints skip when the tool is missing instead of failing
      snippet: "if command -v {command} >/dev/null; then {command}; else echo \"warning: {command} not installed\"; fi"
  examples:
    match:
      - line: 'bash: /Users/roman/Developer/Sp/build_id.sh: No such file or directory'
        source: https://github.com/ldomaradzki/xcsift/issues/49 (before "Command PhaseScriptExecution failed with a nonzero exit code")
        captures: {command: /Users/roman/Developer/Sp/build_id.sh}
      - line: 'line 9: swiftlint: command not found'
        source: https://github.com/WeTransferArchive/WeScan/issues/385
        captures: {command: swiftlint}
      - line: '/usr/bin/env: ‘swiftlint’: No such file or directory'
        source: https://github.com/vknabel/vscode-swiftlint/issues/57
        captures: {command: swiftlint}
    no_match:
      - line: 'rm: /tmp/build/App.app: No such file or directory'
      - line: 'cp: ./build/App.app: No such file or directory'

- id: phase-script-failed
  title: A Run Script build phase failed
  category: phase-script-failed
  severity: error
  role: symptom
  patterns:
    - literal: 'Command PhaseScriptExecution failed'
      regex: 'Command PhaseScriptExecution failed with a nonzero exit code'
  message: 'A Run Script phase exited with an error; its own output above says why'
  explanation: >
    Xcode's wrapper line when a Run Script phase exits non-zero. It is a symptom: the script's own output, in the
    lines just above, holds the cause (a tool that is not installed on the runner such as swiftlint or sourcery, a
    path with spaces, a missing file, a sandbox denial, a failed CocoaPods manifest check). The "PhaseScriptExecution"
    line in the list of failed commands names the phase.
  fixes:
    - summary: Read the script output directly above this line; run the phase's script by hand with the same environment to reproduce
    - summary: Make optional tools not fail the build when absent
      snippet: "if command -v swiftlint >/dev/null; then swiftlint; else echo \"warning: SwiftLint not installed\"; fi"
    - summary: Quote paths in the script
      snippet: "\"${SRCROOT}/scripts/build.sh\""
  examples:
    match:
      - line: 'Command PhaseScriptExecution failed with a nonzero exit code'
        source: https://github.com/ldomaradzki/xcsift/issues/49
    no_match:
      - line: 'PhaseScriptExecution Generate\ Build\ ID /Users/roman/Developer/Sp/Derived/Script-ADA427850001A6CDC39B8504.sh'

- id: multiple-commands-produce
  title: Two build steps write the same file
  category: multiple-commands-produce
  severity: error
  role: cause
  patterns:
    - literal: 'Multiple commands produce '
      regex: "Multiple commands produce ['‘](?<path>[^'’]+)['’]"
  continuation:
    while: "^(?:\\d+\\)|note:) (?:Target '|That command depends|CreateBuildDirectory )"
    collect: "^(?:\\d+\\)|note:) (?<producers>Target '[^']+'(?: \\(project '[^']+'\\))? has .+? command|That command depends on command in Target '[^']+'.*?: script phase .+|CreateBuildDirectory \\S+)"
    max_lines: 20
  message: "Two build steps produce '{path}'"
  explanation: >
    Xcode's build system refuses to let two tasks write the same output. The numbered lines below the error name
    the two producers: typically Info.plist listed under Copy Bundle Resources while also processed as the Info.plist,
    two resources with the same file name in different folders, a framework embedded twice, or two packages shipping
    resource bundles with the same name.
  fixes:
    - summary: Remove Info.plist (or the duplicate file) from Build Phases > Copy Bundle Resources
    - summary: Rename one of two same-named resources, or add them as a folder reference so they keep their directory
    - summary: Remove the duplicate entry from Embed Frameworks
    - summary: If a CocoaPods script phase ("[CP] Copy Pods Resources") is one of the producers, update CocoaPods and reinstall the pods
      commands: ['gem install cocoapods', 'pod install']
  examples:
    match:
      - line: "error: Multiple commands produce '/Users/Sun/Library/Developer/Xcode/DerivedData/UMengComDemo-fgrazoiulnllyageanbowccmfvka/Build/Products/Debug-iphonesimulator/UMengComDemo.app/Info.plist':\n1) Target 'UMengComDemo' (project 'UMengComDemo') has copy command from '/Users/Sun/Desktop/MultiFunctioniOSDemo-master/UMengComDemo/Info.plist' to '/Users/Sun/Library/Developer/Xcode/DerivedData/UMengComDemo-fgrazoiulnllyageanbowccmfvka/Build/Products/Debug-iphonesimulator/UMengComDemo.app/Info.plist'\n2) Target 'UMengComDemo' (project 'UMengComDemo') has process command with output '/Users/Sun/Library/Developer/Xcode/DerivedData/UMengComDemo-fgrazoiulnllyageanbowccmfvka/Build/Products/Debug-iphonesimulator/UMengComDemo.app/Info.plist'"
        source: https://github.com/umeng/MultiFunctioniOSDemo/issues/18
        captures: {path: /Users/Sun/Library/Developer/Xcode/DerivedData/UMengComDemo-fgrazoiulnllyageanbowccmfvka/Build/Products/Debug-iphonesimulator/UMengComDemo.app/Info.plist, producers: "Target 'UMengComDemo' (project 'UMengComDemo') has copy command, Target 'UMengComDemo' (project 'UMengComDemo') has process command"}
      - line: "error: Multiple commands produce '.../Build/Products/Debug/Foundation Lab.app/Contents/Resources/README.md'\nnote: Target 'Foundation Lab' has copy command from '.../Foundation Lab/Playgrounds/README.md'\nnote: Target 'Foundation Lab' has copy command from '.../Foundation Lab/Views/Examples/DynamicSchemas/README.md'"
        source: https://github.com/rudrankriyam/Foundation-Models-Framework-Lab/issues/33 (Xcode 16 wording)
        captures: {path: .../Build/Products/Debug/Foundation Lab.app/Contents/Resources/README.md, producers: "Target 'Foundation Lab' has copy command"}
      - line: "error: Multiple commands produce '/Users/xhq/Library/Developer/Xcode/DerivedData/iOSProject-bxodsuowbsnzgabxwmiwlidwuxsz/Build/Products/Debug-iphonesimulator/iOSProject.app':\n1) Target 'iOSProject' has create directory command with output '/Users/xhq/Library/Developer/Xcode/DerivedData/iOSProject-bxodsuowbsnzgabxwmiwlidwuxsz/Build/Products/Debug-iphonesimulator/iOSProject.app'\n2) That command depends on command in Target 'iOSProject': script phase “[CP] Copy Pods Resources”"
        source: https://github.com/NJHu/iOSProject/issues/42
        captures: {producers: "Target 'iOSProject' has create directory command, That command depends on command in Target 'iOSProject': script phase “[CP] Copy Pods Resources”"}
    no_match:
      - line: 'warning: duplicate output file for build rule'

- id: swiftlint-violation
  title: SwiftLint reported an error
  category: phase-script-failed
  severity: error
  role: cause
  patterns:
    - literal: ' Violation'
      regex: 'error: [A-Z][\w ]*? Violation(?: \([\w ]+\))?: .+\((?<rule>[a-z_]+)\)$'
    - literal: ' Violation'
      regex: '^[A-Z][\w ]*? Violation: .+\((?<rule>[a-z_]+)\)$'
  explanation: >
    SwiftLint, run from a Run Script phase or a build-tool plugin, found a violation of a rule configured as an
    error, so the script exits non-zero and the build or test run fails at that phase. The rule name in parentheses
    is the key for .swiftlint.yml and for disable comments.
  fixes:
    - summary: Fix the code at the location shown, or run the autocorrect for the rules that have one
      commands: ['swiftlint --fix', 'swiftlint lint --strict']
    - summary: If the rule should not fail builds, lower it to a warning in .swiftlint.yml
      snippet: "{rule}:\n  severity: warning"
    - summary: Make sure CI runs the same SwiftLint version as developers (pin it with a package plugin or Mint)
      commands: ['swiftlint version']
  docs:
    - https://realm.github.io/SwiftLint/rule-directory.html
  examples:
    match:
      - line: 'AppVersionMonitor/AppVersion.swift:65:65: error: Force Cast Violation: Force casts should be avoided. (force_cast)'
        source: https://github.com/eure/AppVersionMonitor/issues/6
        captures: {rule: force_cast, file: AppVersionMonitor/AppVersion.swift, line: '65'}
      - line: "\tForce Cast Violation: Force casts should be avoided. (force_cast)"
        source: https://github.com/realm/SwiftLint/issues/2087 (listed under "Testing failed:")
        captures: {rule: force_cast}
    no_match:
      - line: 'Policy Violation detected in upload step'
      - line: 'AppVersionMonitor/AppVersion.swift:23: warning: Vertical Whitespace Violation: Limit vertical whitespace to a single empty line. Currently 2. (vertical_whitespace)'

- id: apple-only-api-unavailable
  title: Apple-platform API used where it does not exist
  category: compile-error-generic
  severity: error
  role: cause
  patterns:
    - literal: 'Objective-C interoperability is disabled'
      regex: 'Objective-C interoperability is disabled'
    - literal: 'can only be used with the Objective-C runtime'
      regex: "'#(?<api>selector|keyPath)' can only be used with the Objective-C runtime"
    - literal: '(aka ''AnyObject'') has no member'
      regex: "type '(?<api>URL\\w*|HTTPURLResponse|NSURL\\w*)' \\(aka 'AnyObject'\\) has no member"
    - literal: ''' in scope'
      regex: "cannot find (?:type )?'(?<api>autoreleasepool|os_log|os_signpost|objc_\\w+|NSSelectorFromString|Selector|CFAbsoluteTimeGetCurrent|kCF\\w+|NS(?:Workspace|Application|Image|Color|Font|View|ViewController|Window|Screen|Pasteboard)|UI(?:Application|Color|Image|View|ViewController|Screen|Device|Font|Window|Pasteboard))' in scope"
  message: "{api} is not available on this platform"
  explanation: >
    The code uses an API that only exists with Apple's Objective-C runtime or an Apple framework. `swift build` on
    Linux has no Objective-C runtime (@objc, #selector, autoreleasepool, objc_* functions), keeps URLSession in the
    separate FoundationNetworking module, and has no os, UIKit or AppKit; an iOS-only API in a macOS target fails
    the same way.
  fixes:
    - summary: Guard Objective-C-runtime code so other platforms skip it
      snippet: "#if canImport(ObjectiveC)\n...\n#endif"
    - summary: Import FoundationNetworking for URLSession on Linux
      snippet: "#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif"
    - summary: Build Apple-only targets on macOS runners only, or exclude them from the Linux job
  examples:
    match:
      - line: 'c.swift:3:6: error: Objective-C interoperability is disabled'
        source: swiftc 6.3.1 on Linux (@objc func)
      - line: "c.swift:4:28: error: '#selector' can only be used with the Objective-C runtime"
        source: swiftc 6.3.1 on Linux
        captures: {api: selector}
      - line: "c.swift:6:20: error: type 'URLSession' (aka 'AnyObject') has no member 'shared'"
        source: swiftc 6.3.1 on Linux (import Foundation only)
        captures: {api: URLSession}
      - line: "a.swift:3:5: error: cannot find 'autoreleasepool' in scope"
        source: swiftc 6.3.1 on Linux
        captures: {api: autoreleasepool}
      - line: "b.swift:4:5: error: cannot find 'objc_setAssociatedObject' in scope"
        source: swiftc 6.3.1 on Linux
        captures: {api: objc_setAssociatedObject}
    no_match:
      - line: "main.swift:3:5: error: cannot find 'helper' in scope"
"""#

    /// Last before the wrappers: any compiler diagnostic line that no specific rule named.
    static let genericCompileErrorRules = #"""
- id: compile-error
  title: Compile error
  category: compile-error-generic
  severity: error
  role: cause
  patterns:
    - literal: ': error: '
      regex: '^(?<file><[\w-]+>|[^\s<:][^:]*?):(?<line>\d+)(?::(?<column>\d+))?: error: (?!-\[|[\w.]+ : )(?<message>.+)$'
    - literal: ': fatal error: '
      regex: '^(?<file><[\w-]+>|[^\s<:][^:]*?):(?<line>\d+)(?::(?<column>\d+))?: fatal error: (?<message>.+)$'
    - literal: '❌ '
      regex: '^(?<file>[^\s<:][^:]*?\.\w+):(?<line>\d+):(?<column>\d+): (?!-\[)(?<message>.+)$'
    - literal: '[x] '
      regex: '^(?:\[x\] )?(?<file>[^\s<:][^:]*?\.\w+):(?<line>\d+):(?<column>\d+): (?!-\[)(?<message>.+)$'
  message: '{message}'
  explanation: >
    The compiler rejected code at this location. xcmedic has no specific rule for this message, so it is shown as
    the compiler wrote it; the notes and source lines under it in the log usually point at the fix. Fix the first
    error of each file first: later errors in the same file are often consequences of it.
  fixes:
    - summary: Open the file at the line and column shown and fix the code; reproduce locally with the same Xcode and scheme
      commands: ['xcodebuild -scheme App -destination "generic/platform=iOS Simulator" build']
  examples:
    match:
      - line: "/Users/musalj/code/OSS/ObjectiveSugar/Classes/NSNumber+ObjectiveSugar.m:26:5: error: use of undeclared identifier 'trololo'"
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/raw_kiwi_compilation_fail.txt
        captures: {file: /Users/musalj/code/OSS/ObjectiveSugar/Classes/NSNumber+ObjectiveSugar.m, line: '26', column: '5', message: "use of undeclared identifier 'trololo'"}
      - line: '/Users/musalj/code/OSS/SampleApp/SampleTest.m:12:59: error: expected identifier'
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L599-L603 (SAMPLE_COMPILE_ERROR)
        captures: {message: expected identifier, line: '12'}
      - line: "/home/dev/Racy/Sources/Racy/Broken.swift:3:12: error: cannot convert return expression of type 'String' to return type 'Int'"
        source: swift build 6.3.1 on Linux (shared/corpus/fixtures/swift-6.3-linux, path shortened)
        captures: {message: "cannot convert return expression of type 'String' to return type 'Int'"}
      - line: "❌ /path/file.swift:64:69: cannot find 'input' in scope"
        source: 'xcbeautify terminal rendering of the compile error "/path/file.swift:64:69 cannot find input in scope" (cpisciotta/xcbeautify Tests/XcbeautifyLibTests/RendererTests, testCompileError)'
        captures: {file: /path/file.swift, line: '64', column: '69', message: "cannot find 'input' in scope"}
      - line: "[x] /path/file.swift:64:69: cannot find 'input' in scope"
        source: xcbeautify's ASCII rendering (cpisciotta/xcbeautify Tests/XcbeautifyLibTests/RendererTests/TeamCityRendererTests.swift, testCompileError)
        captures: {line: '64', message: "cannot find 'input' in scope"}
    no_match:
      - line: '/Users/runner/work/xcbeautify/xcbeautify/Tests/XcbeautifyLibTests/CaptureGroupTests.swift:34: error: -[XcbeautifyLibTests.CaptureGroupTests testForceFailure] : XCTAssertTrue failed - True is never false.'
      - line: '/home/dev/spm/T/Tests/LibTests/XCTests.swift:4: error: LibXCTests.testAdd : XCTAssertEqual failed: ("4") is not equal to ("3") - '
      - line: "warning: Widgets isn't code signed but requires entitlements."
      - line: 'xcodebuild: error: Unable to find a destination matching the provided destination specifier:'
"""#
}
