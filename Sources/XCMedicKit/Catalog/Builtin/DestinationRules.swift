// Where xcodebuild builds and tests: destinations, simulators and their runtimes, platforms and SDKs,
// the selected Xcode, schemes. Message texts quoted from the public logs named in each example's `source`.
extension BuiltinCatalog {
    static let destinationRules = #"""
- id: destination-not-found
  title: No destination matches -destination
  category: destination-not-found
  severity: error
  role: cause
  patterns:
    - literal: 'matching the provided destination specifier'
      regex: 'Unable to find a (?:destination|device) matching the provided destination specifier'
  continuation:
    while: '^(?:\{ (?!.*\berror:)|Missing required|Unsupported device|The device|The requested device|Please supply)'
    collect: '^\{ (?<requested>[^}]*?) ?\}$'
    max_lines: 6
  message: 'No destination matches what -destination asked for'
  explanation: >
    xcodebuild could not find the simulator or device named by -destination (the specifier printed
    under the error). Each Xcode and each runner image ships its own set of simulators, so a device
    name or OS version that exists locally may not exist on CI; "OS:latest" means the newest runtime
    installed for the selected Xcode. The lists xcodebuild prints next ("Available destinations",
    "Ineligible destinations") show what exists; an ineligible entry with "error:" names a missing
    platform.
  fixes:
    - summary: List the simulators and destinations this Xcode really has
      commands: ['xcrun simctl list devices available', 'xcodebuild -showdestinations -scheme MyScheme']
    - summary: Ask for a device and OS pair the image has, or address the simulator by its UDID
      commands: ["xcodebuild ... -destination 'platform=iOS Simulator,name=iPhone 16,OS=18.2'", "xcodebuild ... -destination 'id=UDID'"]
    - summary: Builds that run nothing do not need a device at all
      commands: ["xcodebuild build ... -destination 'generic/platform=iOS Simulator'"]
    - summary: Create the device if the runtime exists but the device does not
      commands: ['xcrun simctl create "CI iPhone" "iPhone 16" com.apple.CoreSimulator.SimRuntime.iOS-18-2']
  docs:
    - https://developer.apple.com/documentation/xcode/installing-additional-simulator-runtimes
  examples:
    match:
      - line: "xcodebuild: error: Unable to find a destination matching the provided destination specifier:\n\t\t{ platform:iOS Simulator, OS:16.1, name:iPhone 14 Pro Max }\n\n\tAvailable destinations for the \"base\" scheme:"
        source: https://github.com/0xOpenBytes/ios-base/issues/3
        captures: {requested: 'platform:iOS Simulator, OS:16.1, name:iPhone 14 Pro Max'}
      - line: "[18:11:20]: ▸ xcodebuild: error: Unable to find a destination matching the provided destination specifier:\n[18:11:20]: ▸ { platform:iOS Simulator, id:CE6062D2-735F-4350-9804-A5CB0DE9234C }"
        source: https://github.com/fastlane/fastlane/issues/1928
        captures: {requested: 'platform:iOS Simulator, id:CE6062D2-735F-4350-9804-A5CB0DE9234C'}
      - line: "xcodebuild: error: Unable to find a destination matching the provided destination specifier:\n                { platform:iOS Simulator }\n\n        Missing required device specifier option."
        source: https://github.com/blakgeek/cordova-plugin-cocoapods-support/issues/12
        captures: {requested: 'platform:iOS Simulator'}
      - line: "xcodebuild: error: Unable to find a device matching the provided destination specifier:\n\t\t{ platform:iOS Simulator, OS:latest, name:iPhone 16 }\n\tThe requested device could not be found because no available devices matched the request."
        source: https://github.com/margelo/react-native-mmkv/pull/1025 (Xcode 16.4 wording)
        captures: {requested: 'platform:iOS Simulator, OS:latest, name:iPhone 16'}
    no_match:
      - line: 'Available destinations for the "base" scheme:'

- id: xcodebuild-failed-to-build-scheme
  title: xcodebuild could not start building the scheme
  category: build-failed
  severity: error
  role: symptom
  patterns:
    - literal: 'Failed to build '
      regex: 'xcodebuild: error: Failed to build (?<container>project|workspace) (?<name>.+?) with scheme (?<scheme>.+?)\.?$'
  message: 'xcodebuild refused to build scheme {scheme} of {name}'
  explanation: >
    xcodebuild stopped before building anything; the "Reason:" and "Recovery suggestion:" lines that
    follow say why, and xcmedic lists them as their own finding when it knows the reason (a missing
    platform, for example).
  fixes:
    - summary: Read the Reason line after this one and fix what it names
  examples:
    match:
      - line: "xcodebuild: error: Failed to build project code-sign-test with scheme code-sign-test.\n        Reason: This scheme builds an embedded Apple Watch app. watchOS 9.0 must be installed in order to archive the scheme"
        source: bitrise-io/go-xcode@1146c9c23eb0:errorfinder/errorfinder_test.go#L58-L60
        captures: {container: project, name: code-sign-test, scheme: code-sign-test}
    no_match:
      - line: 'Failed to build module Foo'

- id: platform-not-installed
  title: Platform (device support and SDK) not installed for this Xcode
  category: sdk-missing
  severity: error
  role: cause
  patterns:
    - literal: ' is not installed'
      regex: '(?<platform>iOS|iPadOS|watchOS|tvOS|visionOS|xrOS|macOS|DriverKit) (?<version>\d+[\d.]*) is not installed\. (?:To use with Xcode|Please download)'
    - literal: 'must be installed in order to'
      regex: '(?<platform>iOS|iPadOS|watchOS|tvOS|visionOS|xrOS|macOS|DriverKit) (?<version>\d+[\d.]*) must be installed in order to'
    - literal: 'Platform Not Installed'
      regex: '(?<platform>iOS|iPadOS|watchOS|tvOS|visionOS|xrOS|macOS|DriverKit) (?<version>\d+[\d.]*) Platform Not Installed'
  message: '{platform} {version} is not installed for the selected Xcode'
  explanation: >
    Since Xcode 15 each platform (its SDK support, device support and simulator runtime) is a separate
    download, and hosted runner images keep only a few. Archiving or building for a device needs the
    platform even with a generic destination, and a scheme that embeds a watch app needs watchOS too.
  fixes:
    - summary: Download the platform for the selected Xcode (watchOS and tvOS since Xcode 14, iOS and visionOS since Xcode 15)
      commands: ['xcodebuild -downloadPlatform {platform}']
    - summary: Pin the exact version when the newest one does not match the Xcode (Xcode 16 or later)
      commands: ['xcodebuild -downloadPlatform {platform} -buildVersion {version}']
    - summary: Or select the Xcode whose bundled platform is installed on the image
      commands: ['sudo xcode-select -s /Applications/Xcode_16.2.app/Contents/Developer']
  docs:
    - https://developer.apple.com/documentation/xcode/installing-additional-simulator-runtimes
  examples:
    match:
      - line: '        Reason: This scheme builds an embedded Apple Watch app. watchOS 9.0 must be installed in order to archive the scheme'
        source: bitrise-io/go-xcode@1146c9c23eb0:errorfinder/errorfinder_test.go#L58-L60
        captures: {platform: watchOS, version: '9.0'}
      - line: '        Recovery suggestion: watchOS 9.0 is not installed. To use with Xcode, first download and install the platform'
        source: bitrise-io/go-xcode@1146c9c23eb0:errorfinder/errorfinder_test.go#L58-L60
        captures: {platform: watchOS, version: '9.0'}
      - line: "\t\t{ platform:iOS, id:dvtdevice-DVTiPhonePlaceholder-iphoneos:placeholder, name:Any iOS Device, error:iOS 18.2 is not installed. To use with Xcode, first download and install the platform }"
        source: https://github.com/openfoodfacts/smooth-app/issues/6172
        captures: {platform: iOS, version: '18.2'}
      - line: "[09:19:50]: ▸ \t\t{ platform:iOS, id:dvtdevice-DVTiPhonePlaceholder-iphoneos:placeholder, name:Any iOS Device, error:iOS 26.0 is not installed. Please download and install the platform from Xcode > Settings > Components. }"
        source: https://github.com/openfoodfacts/smooth-app/issues/7482
        captures: {platform: iOS, version: '26.0'}
      - line: 'ibtool: iOS 26.2 Platform Not Installed'
        source: https://github.com/dotnet/maui/pull/34978
        captures: {platform: iOS, version: '26.2'}
    no_match:
      - line: 'Carthage is not installed. Run brew install carthage'

- id: simulator-runtime-sdk-mismatch
  title: No simulator runtime matches the simulator SDK
  category: simulator-runtime
  severity: error
  role: cause
  patterns:
    - literal: 'No simulator runtime version from'
      regex: 'No simulator runtime version from \[(?<runtimes>[^\]]*)\] available to use with (?<sdk>\w+) SDK version (?<sdkBuild>\w+)'
  message: 'No installed simulator runtime matches the {sdk} SDK (build {sdkBuild})'
  explanation: >
    actool and ibtool (asset catalogs, storyboards) and test runs need a simulator runtime whose build
    matches the selected Xcode's simulator SDK. The runtimes listed are installed but belong to other
    Xcode versions; this happens after switching Xcode on a runner or when a runtime download failed.
  fixes:
    - summary: Install the simulator runtime that belongs to the selected Xcode
      commands: ['xcodebuild -downloadPlatform iOS']
    - summary: See which runtimes are installed and which Xcode is selected
      commands: ['xcrun simctl runtime list', 'xcode-select -p']
  docs:
    - https://developer.apple.com/documentation/xcode/installing-additional-simulator-runtimes
  examples:
    match:
      - line: 'actool: No simulator runtime version from ["22F77"] available to use with iphonesimulator SDK version 23C53'
        source: https://github.com/dotnet/maui/pull/34978
        captures: {runtimes: '"22F77"', sdk: iphonesimulator, sdkBuild: 23C53}
    no_match:
      - line: 'iOS 26.2 (26.2 - 23C54) - com.apple.CoreSimulator.SimRuntime.iOS-26-2'

- id: simulator-boot-failed
  title: Simulator failed to boot
  category: simulator-runtime
  severity: error
  role: cause
  patterns:
    - literal: 'for impending launch'
      regex: "Failed to prepare device '(?<device>[^']+)' for impending launch"
    - literal: 'seconds for simulator to boot'
      regex: 'Timed out waiting (?<seconds>\d+) seconds for simulator to boot'
    - literal: 'Unable to boot '
      regex: 'Unable to boot (?:the Simulator|device(?! in current state: Booted))'
    - literal: 'launchd_sim'
      regex: 'Failed to start launchd_sim'
  message: 'The simulator did not boot'
  explanation: >
    CoreSimulator could not start the simulator: its service is wedged, the machine is overloaded, or
    the device is in a bad state. On shared CI machines this is usually flaky rather than caused by the
    change under test.
  fixes:
    - summary: Boot the simulator before testing and wait until it is ready
      commands: ['xcrun simctl boot UDID', 'xcrun simctl bootstatus UDID -b']
    - summary: Reset CoreSimulator and use a fresh device
      commands: ['xcrun simctl shutdown all', 'xcrun simctl erase all', 'xcrun simctl create "CI iPhone" "iPhone 16"']
    - summary: Retry the job once on exactly this failure
  examples:
    match:
      - line: "xctest encountered an error (Failed to prepare device 'iPhone 15' for impending launch. (Underlying Error: Unable to boot the Simulator. launchd failed to respond. (Underlying Error: Failed to start launchd_sim: could not bind to session, launchd_sim may have crashed or quit responding)))"
        source: https://github.com/awslabs/aws-sdk-swift/issues/1668
        captures: {device: iPhone 15}
      - line: "Failed to prepare device 'iPhone 14 - iOS17.4' for impending launch. (Underlying Error: Unable to boot device because we cannot determine the runtime bundle."
        source: https://github.com/cirruslabs/macos-image-templates/issues/147 (line quoted up to the cause)
        captures: {device: iPhone 14 - iOS17.4}
      - line: 'Unable to boot the Simulator.'
        source: https://github.com/futureware-tech/simulator-action/issues/301
      - line: "\tFailed to start launchd_sim: could not bind to session, launchd_sim may have crashed or quit responding"
        source: https://github.com/futureware-tech/simulator-action/issues/301
      - line: '2015-10-08 13:17:33.051 xcodebuild[57711:240667]  iPhoneSimulator: Timed out waiting 120 seconds for simulator to boot, current state is 1.'
        source: https://github.com/lionheart/openradar-mirror/issues/7982
        captures: {seconds: '120'}
    no_match:
      - line: 'Unable to boot device in current state: Booted'

- id: multiple-matching-destinations
  title: xcodebuild picked the first of several matching destinations
  category: destination-not-found
  severity: warning
  role: cause
  patterns:
    - literal: 'Using the first of multiple matching destinations'
      regex: 'xcodebuild: WARNING: Using the first of multiple matching destinations'
  continuation:
    while: '^\{ '
    collect: '^\{ (?<chosen>[^}]*?) ?\}$'
    max_lines: 1
  message: 'The -destination matched several simulators; xcodebuild used the first'
  explanation: >
    The destination did not say enough (no OS= or id=), so several simulators or runtimes matched and
    xcodebuild took the first one listed. Not a failure by itself, but it explains tests running on
    another OS version than expected.
  fixes:
    - summary: Name the OS version or the simulator's UDID in -destination
      commands: ["xcodebuild ... -destination 'platform=iOS Simulator,name=iPhone 16,OS=18.2'"]
  examples:
    match:
      - line: "--- xcodebuild: WARNING: Using the first of multiple matching destinations:\n{ platform:iOS Simulator, id:CA81380D-3348-43E9-B16E-982719A9580F, OS:17.5, name:iPhone 15 }"
        source: https://github.com/awslabs/aws-sdk-swift/issues/1668
        captures: {chosen: 'platform:iOS Simulator, id:CA81380D-3348-43E9-B16E-982719A9580F, OS:17.5, name:iPhone 15'}
    no_match:
      - line: 'Using the first of multiple matching destinations'

- id: fastlane-no-simulators
  title: fastlane scan found no simulators
  category: destination-not-found
  severity: error
  role: cause
  patterns:
    - literal: 'simulators found on local machine'
      regex: 'No (?:(?<kind>\S+) )?simulators found on local machine'
  message: 'fastlane found no simulators it can use with the selected Xcode'
  explanation: >
    fastlane scan and snapshot read `xcrun simctl list` of the selected Xcode and found no simulator of
    the requested kind: the runtimes are not installed for that Xcode, DEVELOPER_DIR points at another
    Xcode than expected, or CoreSimulator is not working on the machine.
  fixes:
    - summary: Check what simctl sees with the same DEVELOPER_DIR fastlane uses
      commands: ['xcode-select -p', 'xcrun simctl list devices available']
    - summary: Install the runtime for this Xcode, then name an existing device in scan's device/devices option
      commands: ['xcodebuild -downloadPlatform iOS']
  docs:
    - https://docs.fastlane.tools/actions/run_tests/
  examples:
    match:
      - line: '[!] No simulators found on local machine'
        source: fastlane/fastlane@d5347690d47d:scan/lib/scan/detect_values.rb (UI.user_error!, printed with "[!] ")
      - line: '[!] No iOS simulators found on local machine'
        source: fastlane/fastlane@d5347690d47d:scan/lib/scan/detect_values.rb:205 (message joined from the simulator type)
        captures: {kind: iOS}
    no_match:
      - line: 'Found 12 simulators on local machine'

- id: sdk-cannot-be-located
  title: SDK cannot be located
  category: sdk-missing
  severity: error
  role: cause
  patterns:
    - literal: 'cannot be located'
      # The version may itself carry quotes a shell script pasted in (SDK "iphoneos“7.0”").
      regex: 'SDK (?:["“]|â€œ|â\x{80}\x{9C}|‚Äú)(?<sdk>[a-z]+\S*?)(?:["”]|â€\x{9D}?|â\x{80}\x{9D}|‚Äù) cannot be located'
    - literal: 'unable to lookup item '
      regex: "unable to lookup item '(?<item>\\w+)' in SDK '(?<sdk>[^']+)'"
  message: 'The SDK "{sdk}" is not in the selected developer directory'
  explanation: >
    xcrun looks SDKs up in the developer directory chosen by xcode-select or DEVELOPER_DIR. When that is
    the standalone Command Line Tools, there are no iOS, tvOS or watchOS SDKs at all; when a script asks
    for a versioned SDK (iphoneos17.0), only the selected Xcode's own version exists.
  fixes:
    - summary: Point xcode-select (or DEVELOPER_DIR for one job) at a full Xcode
      commands: ['sudo xcode-select --switch /Applications/Xcode.app/Contents/Developer', 'export DEVELOPER_DIR=/Applications/Xcode.app/Contents/Developer']
    - summary: Ask for the unversioned SDK and check which SDKs the selected Xcode has
      commands: ['xcodebuild -showsdks']
  examples:
    match:
      - line: 'xcrun: error: SDK "iphoneos" cannot be located'
        source: https://github.com/deltachat/deltachat-ios/issues/1768
        captures: {sdk: iphoneos}
      - line: "xcrun: error: unable to lookup item 'Path' in SDK 'iphoneos'"
        source: https://github.com/deltachat/deltachat-ios/issues/1768
        captures: {item: Path, sdk: iphoneos}
      - line: 'xcrun: error: SDK “iphoneos” cannot be located'
        source: https://github.com/theos/theos/issues/322
        captures: {sdk: iphoneos}
      - line: 'xcodebuild: error: SDK "iphoneos“7.0”" cannot be located.'
        source: https://github.com/BradLarson/GPUImage/issues/1725 (a versioned SDK the Xcode does not have, quoted by the script)
        captures: {sdk: iphoneos“7.0”}
    no_match:
      - line: 'error: the file cannot be located'

- id: xcode-select-command-line-tools
  title: The active developer directory is the Command Line Tools, not Xcode
  category: sdk-missing
  severity: error
  role: cause
  patterns:
    - literal: 'is a command line tools instance'
      regex: "tool '(?<tool>[^']+)' requires Xcode, but active developer directory '(?<dir>[^']+)' is a command line tools instance"
  message: "{tool} needs Xcode, but xcode-select points at {dir}"
  explanation: >
    xcode-select (or DEVELOPER_DIR) points at the standalone Command Line Tools, which have no
    xcodebuild, simctl or platform SDKs. Installing a new Xcode or the tools package on a runner can
    leave the selection there.
  fixes:
    - summary: Select a full Xcode for the machine, or for this job only
      commands: ['sudo xcode-select -s /Applications/Xcode.app/Contents/Developer', 'export DEVELOPER_DIR=/Applications/Xcode.app/Contents/Developer']
    - summary: With fastlane, select the Xcode in the Fastfile
      snippet: 'xcode_select("/Applications/Xcode.app")'
  examples:
    match:
      - line: "xcode-select: error: tool 'xcodebuild' requires Xcode, but active developer directory '/Library/Developer/CommandLineTools' is a command line tools instance"
        source: https://github.com/CocoaPods/CocoaPods/issues/12378
        captures: {tool: xcodebuild, dir: /Library/Developer/CommandLineTools}
    no_match:
      - line: 'xcode-select: error: command line tools are already installed, use "Software Update" to install updates'

- id: xcodebuild-container-missing
  title: The workspace or project xcodebuild was given does not exist
  category: destination-not-found
  severity: error
  role: cause
  patterns:
    - literal: ' does not exist'
      regex: "xcodebuild: error: ['‘](?<path>[^'’]+\\.(?:xcworkspace|xcodeproj))['’] does not exist"
  message: "xcodebuild cannot find {path}"
  explanation: >
    The -workspace or -project path is relative to the directory xcodebuild runs in, and nothing is there: the job
    runs from the repository root while the workspace sits in a subfolder (ios/, App/), or the .xcworkspace is
    generated by `pod install` or a project generator (XcodeGen, Tuist) that has not run on this runner.
  fixes:
    - summary: Give the path from the directory the command runs in, or cd there first
      commands: ['ls -d */*.xcworkspace *.xcworkspace', 'xcodebuild -workspace ios/App.xcworkspace -scheme App build']
    - summary: Generate the workspace before building when it is not committed
      commands: ['pod install', 'xcodegen generate']
  examples:
    match:
      - line: "xcodebuild: error: 'PicEditor.xcworkspace' does not exist."
        source: https://github.com/huangxuan518/HXPackRobot/issues/21
        captures: {path: PicEditor.xcworkspace}
      - line: "    - NOTE  | [iOS] xcodebuild:  xcodebuild: error: 'App.xcworkspace' does not exist."
        source: https://github.com/CocoaPods/CocoaPods/issues/6021 (pod lib lint)
        captures: {path: App.xcworkspace}
    no_match:
      - line: "error: the file 'App.swift' does not exist"

- id: scheme-not-found
  title: The project or workspace has no such scheme
  category: destination-not-found
  severity: error
  role: cause
  patterns:
    - literal: 'does not contain a scheme named'
      regex: 'The (?<container>project|workspace) named (?:["“]|â€œ|â\x{80}\x{9C}|‚Äú)(?<name>[^"“”]+)(?:["”]|â€\x{9D}?|â\x{80}\x{9D}|‚Äù) does not contain a scheme named (?:["“]|â€œ|â\x{80}\x{9C}|‚Äú)(?<scheme>[^"“”]*)(?:["”]|â€\x{9D}?|â\x{80}\x{9D}|‚Äù)'
  message: 'The {container} "{name}" has no scheme "{scheme}" that CI can see'
  explanation: >
    CI sees only shared schemes (in xcshareddata/xcschemes); a scheme Xcode created for you lives in
    xcuserdata, which is usually not committed. The same error appears when building the .xcodeproj
    while the scheme lives in the .xcworkspace, or when the variable holding the scheme name is empty.
  fixes:
    - summary: List the schemes CI sees
      commands: ['xcodebuild -list -workspace MyApp.xcworkspace', 'xcodebuild -list -project MyApp.xcodeproj']
    - summary: In Xcode, Product > Scheme > Manage Schemes, tick "Shared", and commit the .xcscheme file
      commands: ['git add "*.xcodeproj/xcshareddata/xcschemes/*.xcscheme"']
  examples:
    match:
      - line: 'xcodebuild: error: The workspace named "Sample" does not contain a scheme named "Sample". The "-list" option can be used to find the names of the schemes in the workspace.'
        source: https://github.com/facebookarchive/AsyncDisplayKit/issues/2665
        captures: {container: workspace, name: Sample, scheme: Sample}
    no_match:
      - line: 'xcodebuild: error: The project named "Sample" does not contain any targets'
"""#
}
