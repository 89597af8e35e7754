// Generic wrappers that follow a real error: they say that something failed, not what.
// They rank below every root cause.
extension BuiltinCatalog {
    static let wrapperRules = #"""
- id: build-action-failed
  title: xcodebuild action failed
  category: build-failed
  severity: error
  role: symptom
  patterns:
    - literal: 'FAILED **'
      regex: '^\*\* (?<action>[A-Z][A-Z ]*?) FAILED \*\*'
  message: '{action} FAILED'
  explanation: >
    xcodebuild's closing line for a failed build, test or archive. It only says that something failed;
    the root cause is an earlier error in the log.
  fixes:
    - summary: Fix the root causes listed above this finding; they are what failed
  examples:
    match:
      - line: '** BUILD FAILED **'
        source: xcodebuild output (shared/reference/failures.yaml, swift-spyable issue 38)
        captures: {action: BUILD}
      - line: '[15:48:35]: ▸ ** TEST FAILED **'
        source: fastlane/fastlane scan/spec/fixtures/xcode26_xcbeautify_failure.log
        captures: {action: TEST}
    no_match:
      - line: '** BUILD SUCCEEDED **'

- id: build-commands-failed
  title: The following build commands failed
  category: build-failed
  severity: error
  role: symptom
  patterns:
    - literal: 'The following build commands failed:'
      regex: 'The following build commands failed:'
  continuation:
    while: '^(?!\(\d+ failures?\))\S'
    collect: '^(?<command>[A-Za-z][A-Za-z]+(?: .*)?)$'
    max_lines: 50
  message: 'xcodebuild lists the commands that failed'
  explanation: >
    xcodebuild's summary of the build steps that failed, one per line (SwiftCompile, Ld,
    PhaseScriptExecution...). The errors that made them fail come earlier in the log.
  fixes:
    - summary: Look at the root causes listed above; each failed command here has its error earlier in the log
  examples:
    match:
      - line: 'The following build commands failed:'
        source: xcodebuild output (shared/reference/failures.yaml)
    no_match:
      - line: 'The following build commands succeeded:'

- id: command-failed-nonzero-exit
  title: A build command failed with a nonzero exit code
  category: build-failed
  severity: error
  role: symptom
  patterns:
    - literal: 'failed with a nonzero exit code'
      regex: 'Command (?<command>\S+) failed with a nonzero exit code'
  message: 'Command {command} failed'
  explanation: >
    Xcode's wrapper line after any failing build step. The compiler, linker or script output above it
    names the cause.
  fixes:
    - summary: Read the first error above this line; this wrapper only says which step failed
  examples:
    match:
      - line: 'Command SwiftCompile failed with a nonzero exit code'
        source: https://github.com/swiftlang/swift/issues/80938
        captures: {command: SwiftCompile}
    no_match:
      - line: 'Command SwiftCompile succeeded'

- id: swift-command-failed
  title: Swift driver command failed
  category: build-failed
  severity: error
  role: symptom
  patterns:
    - literal: 'command failed with exit code'
      regex: 'error: (?<command>[\w-]+) command failed with exit code (?<code>\d+)'
  message: 'The {command} command failed with exit code {code}'
  explanation: >
    The Swift driver or SwiftPM reporting that a compile or emit-module job failed. The compiler's own
    errors, above or below, are the cause.
  fixes:
    - summary: Fix the compiler errors reported for the same module
  examples:
    match:
      - line: 'error: emit-module command failed with exit code 1 (use -v to see invocation)'
        source: swift build 6.3.1 on Linux (shared/corpus/fixtures/swift-6.3-linux)
        captures: {command: emit-module, code: '1'}
    no_match:
      - line: 'error: the following command failed with exit code 1 but produced no further output'

- id: command-failed-without-output
  title: A build command failed and printed nothing
  category: build-failed
  severity: error
  role: symptom
  patterns:
    - literal: 'but produced no further output'
      regex: '[Tt]he following command failed with exit code (?<code>\d+) but produced no further output'
  message: 'A build step failed with exit code {code} without printing why'
  explanation: >
    Xcode's line for a step that failed silently, most often a package plugin or macro that was not trusted
    (Xcode 14 and 15 print "Validate plug-in ..." next to it) or a script phase that exits without output.
  fixes:
    - summary: Look at the lines just below and above for the step's name (Validate plug-in, a script phase) and fix that step
  examples:
    match:
      - line: 'error: the following command failed with exit code 1 but produced no further output'
        source: https://github.com/ordo-one/benchmark/issues/173 (before "Validate plug-in “BenchmarkPlugin” in package “package-benchmark”")
        captures: {code: '1'}
    no_match:
      - line: 'error: emit-module command failed with exit code 1 (use -v to see invocation)'
"""#
}
