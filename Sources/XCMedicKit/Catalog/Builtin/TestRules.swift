// Test runs: XCTest and Swift Testing failures (raw, parallel-clone and xcbeautify forms), the
// "Failing tests:" summary, and test processes that crashed, hung or never started.
// Every finding about a failing test captures `test` (and `suite` where the line has it).
// Message texts quoted from the public logs named in each example's `source`.
extension BuiltinCatalog {
    static let testRules = #"""
- id: xctest-assertion-failed
  title: XCTest assertion failed
  category: test-failure
  severity: error
  role: cause
  patterns:
    - literal: ': error: -['
      regex: '^(?<file>.+?):(?<line>\d+): error: -\[(?<suite>[\w.]+) (?<test>\w+)\] : (?<message>.+)$'
    - literal: ': error: '
      regex: '^(?<file>.+?):(?<line>\d+): error: (?<suite>[\w.]+)\.(?<test>\w+) : (?<message>.+)$'
  message: '{suite}.{test} failed: {message}'
  explanation: >
    A test assertion (XCTAssert..., XCTFail, a Kiwi or Specta expectation, or an uncaught error) failed at this
    line. The message after the test name is the assertion's own text; Darwin prints the test as -[Suite test],
    swift-corelibs-xctest on Linux as Suite.test.
  fixes:
    - summary: Run just this test locally with the same destination
      commands: ["xcodebuild test -scheme App -destination 'platform=iOS Simulator,name=iPhone 16' -only-testing:{suite:slashes}/{test}", 'swift test --filter {suite}.{test}']
    - summary: Read the failure with its attachments in the result bundle
      commands: ['xcrun xcresulttool get test-results tests --path Test.xcresult']
  examples:
    match:
      - line: '/Users/runner/work/xcbeautify/xcbeautify/Tests/XcbeautifyLibTests/CaptureGroupTests.swift:34: error: -[XcbeautifyLibTests.CaptureGroupTests testForceFailure] : XCTAssertTrue failed - True is never false.'
        source: cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/MixedTestLog_6_0_macOS.txt
        captures: {suite: XcbeautifyLibTests.CaptureGroupTests, test: testForceFailure, message: XCTAssertTrue failed - True is never false., line: '34'}
      - line: '/home/runner/work/xcbeautify/xcbeautify/Tests/XcbeautifyLibTests/CaptureGroupTests.swift:34: error: CaptureGroupTests.testForceFailure : XCTAssertTrue failed - True is never false.'
        source: cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/MixedTestLog_6_0_Linux.txt
        captures: {suite: CaptureGroupTests, test: testForceFailure}
      - line: "/Users/musalj/code/OSS/ObjectiveRecord/Example/SampleProjectTests/MappingsTests.m:61: error: -[MappingsTests Mappings_UsesMappedValuesWhenCreating] : 'Mappings, uses mapped values when creating' [FAILED], expected subject to equal 24, got 25"
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/raw_kiwi_fail.txt (Kiwi)
        captures: {suite: MappingsTests, test: Mappings_UsesMappedValuesWhenCreating}
      - line: '<EXPR>:0: error: LibXCTests.testThrows : threw error "Error Domain=x Code=1 "(null)""'
        source: swift test 6.3.1 on Linux, an uncaught error (shared/reference/failures.yaml)
        captures: {suite: LibXCTests, test: testThrows}
    no_match:
      - line: "/Users/dev/App/Sources/Feed.swift:12: error: cannot find 'x' in scope"

- id: test-exceeded-time-allowance
  title: A test ran past its execution time allowance
  category: test-runner-crash
  severity: error
  role: cause
  patterns:
    - literal: 'exceeded execution time allowance'
      regex: 'exceeded execution time allowance of (?<allowance>[^.]+)'
  message: 'A test exceeded its execution time allowance of {allowance}'
  explanation: >
    With test timeouts enabled, XCTest stops a test that runs longer than its allowance and restarts the runner. The
    test is usually waiting for something that never happens: an expectation nobody fulfils, a main-thread deadlock, a
    network call on CI, or a simulator that stopped responding.
  fixes:
    - summary: Find where the test waits (the result bundle has a spindump of the hang) and give every wait a timeout
      commands: ['xcrun xcresulttool get test-results tests --path Test.xcresult']
    - summary: If the test legitimately needs longer, raise its allowance
      snippet: "override func setUp() { executionTimeAllowance = 120 }"
      commands: ['xcodebuild test ... -test-timeouts-enabled YES -default-test-execution-time-allowance 120']
  examples:
    match:
      - line: "exceeded execution time allowance of 10 minutes. The test may have hung; check Xcode's test report for additional diagnostics. If the test requires additional time, use -[XCTestCase executionTimeAllowance] or one of xcodebuild's command-line overrides."
        source: https://github.com/RevenueCat/purchases-ios/pull/1517 (quoted from the raw test output)
        captures: {allowance: 10 minutes}
    no_match:
      - line: 'executionTimeAllowance = 60'

- id: xctest-case-failed
  title: XCTest test case failed
  category: test-failure
  severity: error
  role: cause
  patterns:
    - literal: ''' failed ('
      regex: "^Test Case '-\\[(?<suite>[\\w.]+) (?<test>\\w+)\\]' failed \\("
    - literal: ''' failed ('
      regex: "^Test Case '(?<suite>[\\w.]+)\\.(?<test>\\w+)' failed \\("
  message: '{suite}.{test} failed'
  explanation: >
    XCTest's line for a test that finished with at least one failure. The assertion that failed is printed
    above it (unless the test was a UI test whose failure is in its activity log, or it crashed); the result bundle
    has the details and attachments.
  fixes:
    - summary: Run just this test locally with the same destination
      commands: ["xcodebuild test -scheme App -destination 'platform=iOS Simulator,name=iPhone 16' -only-testing:{suite:slashes}/{test}"]
    - summary: Read the failure and its screenshots in the result bundle
      commands: ['xcrun xcresulttool get test-results tests --path Test.xcresult']
  examples:
    match:
      - line: "Test Case '-[XcbeautifyLibTests.CaptureGroupTests testForceFailure]' failed (0.163 seconds)."
        source: cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/MixedTestLog_6_0_macOS.txt
        captures: {suite: XcbeautifyLibTests.CaptureGroupTests, test: testForceFailure}
      - line: "Test Case 'CaptureGroupTests.testForceFailure' failed (0.001 seconds)"
        source: cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/MixedTestLog_6_0_Linux.txt
        captures: {suite: CaptureGroupTests, test: testForceFailure}
      - line: "Test Case '-[viewUITests.vmtAboutWindow testConnectToDesktop]' failed (22.490 seconds)."
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L20-L48 (SAMPLE_UITEST_CASE_WITH_FAILURE)
        captures: {suite: viewUITests.vmtAboutWindow, test: testConnectToDesktop}
    no_match:
      - line: "Test Case '-[XcbeautifyLibTests.CaptureGroupTests testMatchSwiftTestingIssueArgument1]' passed (0.002 seconds)."
      - line: "Test Suite 'CaptureGroupTests' failed at 2025-08-10 01:38:41.939."

- id: xctest-parallel-case-failed
  title: Test failed on a parallel-testing clone
  category: test-failure
  severity: error
  role: cause
  patterns:
    - literal: ''' failed on '''
      # XCTest names the test Suite.test(); Swift Testing (Xcode 16+) names it Suite/test().
      regex: "^Test case '(?<suite>[\\w.]+)[./](?<test>\\w+)\\(\\)' failed on '"
  message: '{suite}.{test}() failed'
  explanation: >
    With parallel testing (and in Xcode 26 logs) xcodebuild runs tests on clones of the simulator and prints one
    line per test; the assertion messages are not in the log, only in the result bundle. Retries on another clone
    show up as further lines for the same test.
  fixes:
    - summary: Read the failure in the result bundle
      commands: ['xcrun xcresulttool get test-results tests --path Test.xcresult']
    - summary: Run just this test, without parallel testing, to see its output
      commands: ["xcodebuild test -scheme App -destination 'platform=iOS Simulator,name=iPhone 16' -parallel-testing-enabled NO -only-testing:{suite:slashes}/{test}"]
  examples:
    match:
      - line: "Test case 'BuildFlagTests.test_failIntentionally()' failed on 'Clone 1 of iPhone 13 mini - xctest (59522)' (0.278 seconds)"
        source: cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/ParallelTestLog.txt
        captures: {suite: BuildFlagTests, test: test_failIntentionally}
      - line: "Test case 'ExampleTestUITests.testExample()' failed on 'Clone 2 of iPhone 17 Pro - ExampleTestUITests-Runner (97123)' (6.270 seconds)"
        source: fastlane/fastlane@d5347690d47d:scan/spec/fixtures/xcode26_testing_failure.log
        captures: {suite: ExampleTestUITests, test: testExample}
      - line: "Test case 'SubFolderTestDemoTests/exampleFalse()' failed on 'My Mac - TestDemo (29692)' (0.001 seconds)"
        source: cpisciotta/xcbeautify@0253347f843d:Tests/XcbeautifyLibTests/ParserTests.swift (Swift Testing under xcodebuild)
        captures: {suite: SubFolderTestDemoTests, test: exampleFalse}
    no_match:
      - line: "Test case 'BuildFlagTests.test_logClicksToConsole_isFalse()' passed on 'Clone 1 of iPhone 13 mini - xctest (32507)' (0.003 seconds)"

- id: swift-testing-issue
  title: Swift Testing recorded an issue
  category: test-failure
  severity: error
  role: cause
  patterns:
    - literal: ' recorded an issue'
      regex: '^Test "?(?<test>.+?)"? recorded an issue(?: with \d+ arguments? .*?)? at (?<file>[^:\s]+):(?<line>\d+):(?<column>\d+): (?<message>.+)$'
    # A parameterized test whose argument values span lines: "at file:line:col" comes on a later line.
    - literal: ' recorded an issue with '
      regex: '^Test "?(?<test>.+?)"? recorded an issue with \d+ arguments? '
  message: '{test} recorded an issue: {message}'
  explanation: >
    A Swift Testing expectation (#expect, #require) failed or the test threw an error at this location. The `→`
    parts of the message show the values the compared sub-expressions had.
  fixes:
    - summary: Run just this test
      commands: ['swift test --filter "{test}"', "xcodebuild test -scheme App -destination 'platform=macOS' -only-testing:AppTests"]
  examples:
    match:
      - line: '✘ Test testFailTrueIsFalse() recorded an issue at Test.swift:17:9: Expectation failed: true == false'
        source: cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/MixedTestLog_6_0_macOS.txt
        captures: {test: testFailTrueIsFalse(), file: Test.swift, line: '17', column: '9', message: 'Expectation failed: true == false'}
      - line: '✘ Test addition() recorded an issue at SwiftTests.swift:3:25: Expectation failed: (add(1, 2) → 4) == 3'
        source: swift test 6.3.1 on Linux (shared/reference/failures.yaml)
        captures: {test: addition()}
      - line: '􀢄  Test secondExample() recorded an issue at DemoSwiftTestingTests.swift:11:5: Expectation failed: true == false'
        source: cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/demo_swift_testing_log.txt (SF Symbols glyph)
        captures: {test: secondExample()}
      - line: '􀢄  Test "Different kinds of functions are handled correctly" recorded an issue with 3 arguments input → "final class C_NAME {'
        source: cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/swift_test_log_macOS.txt (argument value continues on the next lines)
        captures: {test: Different kinds of functions are handled correctly}
    no_match:
      - line: '✔ Test testTrueIsTrue() passed after 0.001 seconds.'

- id: swift-testing-test-failed
  title: Swift Testing test failed
  category: test-failure
  severity: error
  role: cause
  patterns:
    - literal: ' failed after '
      regex: '^Test (?!run with )"?(?<test>.+?)"? failed after [\d.]+ seconds with \d+ issues?'
    - literal: ' issue(s)'
      regex: '^(?<test>[^"\s][^"]*?\)) \([\d.]+ seconds\) \d+ issue\(s\)$'
    - literal: ' issue(s)'
      regex: '^"(?<test>[^"]+)" \([\d.]+ seconds\) \d+ issue\(s\)$'
  message: '{test} failed'
  explanation: >
    Swift Testing's closing line for a test that recorded issues. The "recorded an issue at file:line" lines
    above it give each failure; xcbeautify shortens the line to "name (seconds) N issue(s)".
  fixes:
    - summary: Run just this test
      commands: ['swift test --filter "{test}"']
  examples:
    match:
      - line: '✘ Test testFailTrueIsFalse() failed after 0.001 seconds with 1 issue.'
        source: cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/MixedTestLog_6_0_macOS.txt
        captures: {test: testFailTrueIsFalse()}
      - line: '✘ Test analyze_dumpPackage_missing_manifest() failed after 0.064 seconds with 1 issue.'
        source: cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/spi_swift_testing_full_log.txt
        captures: {test: analyze_dumpPackage_missing_manifest()}
      - line: '    ✖ "myTest" (1.234 seconds) 1 issue(s)'
        source: xcbeautify's rendering of `Test "myTest" failed after 1.234 seconds with 1 issue.` (cpisciotta/xcbeautify Tests/XcbeautifyLibTests/RendererTests, swiftTestingTestFailed)
        captures: {test: myTest}
    no_match:
      - line: '✘ Test run with 2 tests failed after 0.001 seconds with 1 issue.'
      - line: '✔ Test testTrueIsTrue() passed after 0.001 seconds.'

- id: xcbeautify-parallel-test-failed
  title: Failing test on a parallel-testing clone (xcbeautify output)
  category: test-failure
  severity: error
  role: cause
  patterns:
    - literal: '✖ ['
      regex: "^\\[(?<suite>[^\\]]+)\\] (?<test>\\w+) on '[^']+' \\([\\d.]+ seconds\\)$"
  message: '{suite}.{test} failed'
  explanation: >
    xcbeautify's rendering of "Test case 'Suite.test()' failed on 'Clone N of <device>'": a test that failed on one
    of the simulator clones used for parallel testing. The assertion message is only in the result bundle.
  fixes:
    - summary: Read the failure in the result bundle
      commands: ['xcrun xcresulttool get test-results tests --path Test.xcresult']
    - summary: Run just this test without parallel testing
      commands: ["xcodebuild test -scheme App -destination 'platform=iOS Simulator,name=iPhone 16' -parallel-testing-enabled NO -only-testing:{suite:slashes}/{test}"]
  examples:
    match:
      - line: "[15:47:28]: ▸     ✖ [ExampleTestTests] testExample on 'Clone 1 of iPhone 17 Pro - ExampleTest (96789)' (0.474 seconds)"
        source: fastlane/fastlane@d5347690d47d:scan/spec/fixtures/xcode26_xcbeautify_failure.log
        captures: {suite: ExampleTestTests, test: testExample}
    no_match:
      - line: "    ✔ [ExampleTestTests] testOther on 'Clone 1 of iPhone 17 Pro - ExampleTest (96789)' (0.010 seconds)"

- id: xcbeautify-failing-test
  title: Failing test (xcbeautify or xcpretty output)
  category: test-failure
  severity: error
  role: cause
  patterns:
    - literal: '✖ '
      regex: '^(?<test>test\w*), (?<message>.+)$'
    - literal: '✗ '
      regex: '^(?<test>test\w*), (?<message>.+)$'
  message: '{test} failed: {message}'
  explanation: >
    xcbeautify and xcpretty replace XCTest's failure lines with a ✖ (or ✗), the test name and the assertion
    message. The suite, file and line of the assertion are not in this form; the result bundle or the raw
    xcodebuild log has them.
  fixes:
    - summary: Run just this test locally, or read it in the result bundle
      commands: ['xcrun xcresulttool get test-results tests --path Test.xcresult']
    - summary: Keep the raw log next to the formatted one so file and line are available
      commands: ['set -o pipefail && xcodebuild test ... | tee xcodebuild.log | xcbeautify']
  examples:
    match:
      - line: '    ✗ testBuildErrorSummary, XCTAssertEqual failed: ("normal") is not equal to ("buildSummaryWithError")'
        source: xcpretty-style rendering checked by tokorom/swift-build-report Tests (DefaultFormatterTests)
        captures: {test: testBuildErrorSummary}
    no_match:
      - line: '    ✖ tests 10'
      - line: '✖ test/test-contract.js exited with a non-zero exit code: 1'

- id: failing-tests-list
  title: xcodebuild's list of failing tests
  category: test-failure
  severity: error
  role: cause
  patterns:
    - literal: 'Failing tests:'
      regex: '^Failing tests:$'
  continuation:
    # Suite.test(), Swift Testing's Suite/test(), or -[Suite test]; with parallel testing, " on 'Clone 1 of …'".
    while: "^(?:[\\w./]+(?:\\(\\))?:?|-\\[[\\w.]+ \\w+\\])(?: on '.*')?$"
    collect: '^(?<tests>[\w./]+\(\)|-\[[\w.]+ \w+\])'
    max_lines: 200
  message: 'xcodebuild lists the tests that failed'
  explanation: >
    xcodebuild's summary of every test that failed in this run, one per line (`tests`). Tests that crashed the
    runner appear here too, without an assertion message.
  fixes:
    - summary: Re-run only the failing tests
      commands: ["xcodebuild test -scheme App -destination 'platform=iOS Simulator,name=iPhone 16' -only-testing:AppTests/Suite/test"]
    - summary: Read each failure in the result bundle
      commands: ['xcrun xcresulttool get test-results tests --path Test.xcresult']
  examples:
    match:
      - line: "Failing tests:\n\tTestingTestTests.testFailure()\n** TEST FAILED **"
        source: fastlane/fastlane@d5347690d47d:scan/spec/fixtures/non_parallel_testing_failure.log
        captures: {tests: TestingTestTests.testFailure()}
    no_match:
      - line: 'Failing tests: none'

- id: test-crashed-and-restarted
  title: A test crashed or timed out and the runner was restarted
  category: test-failure
  severity: error
  role: cause
  patterns:
    - literal: 'Restarting after unexpected exit'
      regex: 'Restarting after unexpected exit(?:, crash, or test timeout| or crash) in -\[(?<suite>[\w.]+) (?<test>\w+)\]'
    - literal: 'Restarting after unexpected exit'
      regex: 'Restarting after unexpected exit(?:, crash, or test timeout| or crash) in (?<suite>[\w.]+)[./](?<test>\w+)\(\)'
  message: 'A test crashed or timed out: {suite}.{test}'
  explanation: >
    The named test killed the test process (fatalError, a force unwrap of nil, an array index out of range, a Swift 6
    isolation check, EXC_BAD_ACCESS) or ran past the execution time allowance, so xcodebuild restarted the runner and
    went on with the remaining tests. The crash message, when the process printed one, is a separate finding just
    above; the crash log is in the result bundle.
  fixes:
    - summary: Find the crash in the result bundle's diagnostics (or ~/Library/Logs/DiagnosticReports) and fix the trap it names
      commands: ['xcrun xcresulttool get test-results tests --path Test.xcresult']
    - summary: If it was a timeout, raise the allowance or fix the hang
      commands: ['xcodebuild test ... -test-timeouts-enabled YES -default-test-execution-time-allowance 120']
  examples:
    match:
      - line: 'Restarting after unexpected exit or crash in TestingTestTests/testFailure(); summary will include totals from previous launches.'
        source: fastlane/fastlane@d5347690d47d:scan/spec/fixtures/non_parallel_testing_failure.log
        captures: {suite: TestingTestTests, test: testFailure}
      - line: 'Restarting after unexpected exit, crash, or test timeout in HomePresenterTest.testIsCellPresented(); summary will include totals from previous launches.'
        source: cpisciotta/xcbeautify test data (shared/reference/failures.yaml, test-restarting-after-crash)
        captures: {suite: HomePresenterTest, test: testIsCellPresented}
    no_match:
      - line: 'Restarting simulator after unexpected exit'

- id: swift-runtime-trap
  title: A Swift runtime trap crashed the process
  category: test-runner-crash
  severity: error
  role: cause
  patterns:
    - literal: 'Fatal error: '
      regex: '^(?<file>[^:\s][^:]*?):(?<line>\d+): (?<kind>Fatal error): (?<message>.*)$'
    - literal: 'Fatal error: '
      regex: '^(?:\d{4}-\d\d-\d\d [\d:.]+(?:[-+]\d{4})? \S+\[\d+:\d+\] )?(?<kind>Fatal error): (?<message>.*?): file (?<file>\S+), line (?<line>\d+)$'
    - literal: 'Fatal error: '
      regex: '^(?:\d{4}-\d\d-\d\d [\d:.]+(?:[-+]\d{4})? \S+\[\d+:\d+\] )?(?<kind>Fatal error): (?<message>.*)$'
    - literal: 'atal error: unexpectedly found nil'
      regex: '^(?<kind>fatal error): (?<message>unexpectedly found nil while unwrapping an Optional value)'
    - literal: 'Precondition failed'
      regex: '^(?<file>[^:\s][^:]*?):(?<line>\d+): (?<kind>Precondition failed)(?:: (?<message>.*))?$'
    - literal: 'Precondition failed'
      regex: '^(?:\d{4}-\d\d-\d\d [\d:.]+(?:[-+]\d{4})? \S+\[\d+:\d+\] )?(?<kind>Precondition failed): (?<message>.*?):? file (?<file>\S+), line (?<line>\d+)$'
  message: '{kind}: {message}'
  explanation: >
    Swift stopped the program on purpose: a force unwrap of nil, an array index out of range, a failed precondition
    or fatalError(). In a test run this kills the test process, so the current test fails and xcodebuild restarts
    the runner (or gives up, if it happened while the app was launching). The file and line, when printed, point at
    the trap.
  fixes:
    - summary: Fix the trap at the file and line shown (replace the force unwrap with `guard let`, check the index, handle the error)
    - summary: "In tests, unwrap with XCTUnwrap or #require so a nil fails the test instead of crashing the runner"
      snippet: "let user = try XCTUnwrap(store.user)\nlet user = try #require(store.user)"
  examples:
    match:
      - line: 'Fatal error: Unexpectedly found nil while unwrapping an Optional value'
        source: fastlane/fastlane@d5347690d47d:scan/spec/fixtures/non_parallel_testing_failure.log
        captures: {message: Unexpectedly found nil while unwrapping an Optional value}
      - line: 'fatal error: unexpectedly found nil while unwrapping an Optional value'
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L54-L77 (Swift 3 wording)
        captures: {message: unexpectedly found nil while unwrapping an Optional value}
      - line: 'DateTests/CalendarDayTests.swift:63: Fatal error: This test is not implemented yet.'
        source: cpisciotta/xcbeautify@ba00f98f49ef:Tests/XcbeautifyLibTests/TestData/xctest_crash_log.txt
        captures: {file: DateTests/CalendarDayTests.swift, line: '63', message: This test is not implemented yet.}
      - line: 'Precondition failed: : file /Users/basher/Code/TestingTest/TestingTest/AppDelegate.swift, line 19'
        source: fastlane/fastlane@d5347690d47d:scan/spec/fixtures/early_testing_failure.log
        captures: {file: /Users/basher/Code/TestingTest/TestingTest/AppDelegate.swift, line: '19'}
      - line: '2018-11-04 10:28:22.440644-0800 TestingTest[28750:2314289] Fatal error: Unexpectedly found nil while unwrapping an Optional value'
        source: fastlane/fastlane@d5347690d47d:scan/spec/fixtures/non_parallel_testing_failure.log (the same trap as logged by the app)
        captures: {message: Unexpectedly found nil while unwrapping an Optional value}
    no_match:
      - line: "/Users/me/App/Header.h:3:9: fatal error: 'Foo.h' file not found"

- id: test-runner-early-exit
  title: The test runner exited before tests started
  category: test-runner-crash
  severity: error
  role: cause
  patterns:
    - literal: 'Early unexpected exit, operation never finished bootstrapping'
      regex: '(?<app>\S.*?) \(\d+\) encountered an error \(Early unexpected exit, operation never finished bootstrapping'
    - literal: 'The test runner failed to load the test bundle'
      regex: '(?<app>\S.*?) \(\d+\) encountered an error \(.*The test runner failed to load the test bundle'
  message: '{app} exited before running any test'
  explanation: >
    The app hosting the tests (or xctest) crashed or quit while launching, before XCTest could connect: a crash in
    the app delegate or SwiftUI App init (a failed precondition, a missing environment value or secret on CI), a
    framework missing from the test bundle (dyld "Library not loaded"), or a code-signing or entitlement mismatch.
    No test failed; none ran.
  fixes:
    - summary: Look for a crash or dyld message printed before this line (another finding above) or in the result bundle's diagnostics
      commands: ['xcrun xcresulttool get test-results tests --path Test.xcresult']
    - summary: Keep app launch light under tests; skip setup that needs secrets or network when XCTest is running
      snippet: "if ProcessInfo.processInfo.environment[\"XCTestConfigurationFilePath\"] != nil { return true }"
    - summary: Check that every framework the test bundle needs is embedded in the host app, then erase the simulator and retry once
      commands: ['xcrun simctl erase all']
  examples:
    match:
      - line: "\tTestingTest.app (30007) encountered an error (Early unexpected exit, operation never finished bootstrapping - no restart will be attempted. (Underlying error: Test runner exited before starting test execution.))"
        source: fastlane/fastlane@d5347690d47d:scan/spec/fixtures/early_testing_failure.log
        captures: {app: TestingTest.app}
      - line: 'xctest (60244) encountered an error (Early unexpected exit, operation never finished bootstrapping - no restart will be attempted. (Underlying error: The test runner failed to load the test bundle. Executable cannot be loaded for some other reason, such as a problem with a library it depends on or a code signature/entitlements mismatch.))'
        source: https://github.com/techprimate/TPPDF/issues/103
        captures: {app: xctest}
    no_match:
      - line: '2018-11-04 10:34:05.285 xcodebuild[29559:2319971] Error Domain=IDETestOperationsObserverErrorDomain Code=6 "Early unexpected exit, operation never finished bootstrapping - no restart will be attempted"'

- id: test-runner-hung
  title: The test runner hung before connecting
  category: test-runner-crash
  severity: error
  role: cause
  patterns:
    - literal: 'hung before establishing connection'
      regex: '(?:(?<app>\S.*?) \(\d+\) encountered an error \()?The test runner hung before establishing connection'
  message: 'The test runner {app} hung before XCTest could connect'
  explanation: >
    The host app launched but XCTest never connected to it within the timeout (about six minutes in reports): an
    overloaded or freshly booted simulator, heavy work or a blocked main thread at launch, or a system permission
    prompt waiting for a tap.
  fixes:
    - summary: Boot the simulator before testing and retry once with a clean one
      commands: ['xcrun simctl boot "iPhone 16"', 'xcrun simctl erase all']
    - summary: Run fewer simulator clones at once
      commands: ['xcodebuild test ... -parallel-testing-worker-count 2']
    - summary: Skip heavy launch work when XCTestConfigurationFilePath is set
  examples:
    match:
      - line: '    Transcripted (28723) encountered an error (The test runner hung before establishing connection.)'
        source: https://github.com/r3dbars/transcripted/pull/91
        captures: {app: Transcripted}
    no_match:
      - line: 'The test runner connected after 12 seconds'

- id: testing-failed-summary
  title: xcodebuild's Testing failed summary
  category: test-failure
  severity: error
  role: symptom
  patterns:
    - literal: 'Testing failed:'
      regex: '^Testing failed:$'
    - literal: 'Test run with '
      regex: '^Test run with \d+ tests? (?:in \d+ suites? )?failed after'
    - literal: ' failed after '
      regex: '^Suite "?(?<suite>.+?)"? failed after [\d.]+ seconds with \d+ issues?'
  message: 'The test run failed; the failing tests and their causes are listed above'
  explanation: >
    Summary lines of xcodebuild ("Testing failed:") and Swift Testing ("Test run with N tests failed", "Suite X
    failed"). They say that testing failed, not why; when the summary says testing was cancelled because the build
    failed, the cause is a build error, not a test.
  fixes:
    - summary: Fix the failures and crashes listed above; if testing was cancelled because the build failed, fix the build error first
  examples:
    match:
      - line: 'Testing failed:'
        source: fastlane/fastlane@d5347690d47d:scan/spec/fixtures/early_testing_failure.log
      - line: '✘ Test run with 2 tests failed after 0.001 seconds with 1 issue.'
        source: cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/MixedTestLog_6_0_macOS.txt
      - line: '✘ Suite AnalyzeErrorTests failed after 1.199 seconds with 3 issues.'
        source: cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/spi_swift_testing_full_log.txt
        captures: {suite: AnalyzeErrorTests}
    no_match:
      - line: '✔ Test run with 4 tests passed after 0.010 seconds.'

- id: testing-cancelled-build-failed
  title: Tests did not run because the build failed
  category: build-failed
  severity: error
  role: symptom
  patterns:
    - literal: 'Testing cancelled because the build failed'
      regex: '^Testing cancelled because the build failed\.?$'
  message: 'Testing was cancelled because the build failed'
  explanation: >
    xcodebuild test built the app and its tests first and the build failed, so no test ran. The cause is a build
    error listed above (compile, link, signing, package or macro trust), not a test.
  fixes:
    - summary: Fix the build errors listed above; reproduce with build-for-testing
      commands: ["xcodebuild build-for-testing -scheme App -destination 'platform=iOS Simulator,name=iPhone 16'"]
  examples:
    match:
      - line: "\tTesting cancelled because the build failed."
        source: https://github.com/Matejkob/swift-spyable/issues/38
    no_match:
      - line: 'Testing cancelled by user'

- id: test-process-exited-with-code
  title: The test process exited with a crash status
  category: test-runner-crash
  severity: error
  role: symptom
  patterns:
    - literal: 'tests exited with '''
      regex: "^error: tests exited with '(?<code>\\d+)'"
  message: 'The test process exited with status {code}'
  explanation: >
    Bazel's XCTest runner reports that the test process ended with this status. A status above 128 means it was
    killed by signal (status - 128): 133 is SIGTRAP, a Swift runtime trap such as fatalError or a force unwrap of nil;
    139 is SIGSEGV. The trap message printed just before it names the cause.
  fixes:
    - summary: Fix the crash named by the runtime trap or crash log above; the test that was running when it happened is the last one that started
  examples:
    match:
      - line: "error: tests exited with '133'"
        source: cpisciotta/xcbeautify@ba00f98f49ef:Tests/XcbeautifyLibTests/TestData/xctest_crash_log.txt
        captures: {code: '133'}
    no_match:
      - line: 'INFO: 12 tests exited cleanly'
"""#
}
