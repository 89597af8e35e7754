// Dependencies: Swift Package Manager resolution, Package.resolved, CocoaPods.
// Message texts quoted from the public logs named in each example's `source`; lines whose source is
// "swift 6.3.1 on Linux" were produced here with SwiftPM 6.3.1 and local git packages.
extension BuiltinCatalog {
    static let packageRules = #"""
- id: package-resolved-out-of-date
  title: Package.resolved is out of date and resolution is locked
  category: package-resolved-stale
  severity: error
  role: cause
  patterns:
    - literal: 'an out-of-date resolved file was detected'
      regex: 'an out-of-date resolved file was detected(?: at (?<path>\S+?),)?(?:.*?Running resolver because (?<reason>.+?)\.?$)?'
  message: 'Package.resolved does not match the package requirements, and this build may not re-resolve'
  explanation: >
    The build runs with package resolution locked to the committed Package.resolved
    (xcodebuild -onlyUsePackageVersionsFromResolvedFile or -disableAutomaticPackageResolution, swift
    build --only-use-versions-from-resolved-file; Xcode Cloud always archives this way), but a
    dependency was added or a requirement changed without committing the updated file. Locally Xcode
    re-resolves silently, so the change works there and fails only on CI.
  fixes:
    - summary: Re-resolve locally with the same Xcode and commit the updated Package.resolved (with its originHash)
      commands: ['xcodebuild -resolvePackageDependencies -scheme MyScheme', 'git add "*Package.resolved" && git commit -m "Update Package.resolved"']
    - summary: For a SwiftPM package
      commands: ['swift package resolve', 'git add Package.resolved']
    - summary: Commit the file Xcode reads; for a workspace that is MyApp.xcworkspace/xcshareddata/swiftpm/Package.resolved, for a project MyApp.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved
    - summary: Catch it before CI; resolve, then fail when the file changed
      commands: ["xcodebuild -resolvePackageDependencies -scheme MyScheme && git diff --exit-code -- '*Package.resolved'"]
  docs:
    - https://developer.apple.com/documentation/xcode/making-dependencies-available-to-xcode-cloud
  examples:
    match:
      - line: 'error: an out-of-date resolved file was detected at /tmp/cp-real/app/Package.resolved, which is not allowed when automatic dependency resolution is disabled; please make sure to update the file to reflect the changes in dependencies. Running resolver because requirements have changed.'
        source: swift 6.3.1 on Linux (swift package resolve --only-use-versions-from-resolved-file after changing a requirement)
        captures: {path: /tmp/cp-real/app/Package.resolved, reason: requirements have changed}
      - line: 'an out-of-date resolved file was detected … Running resolver because the following dependencies were added: ''dexcomkit'''
        source: https://github.com/kylebshr/luka-ios/pull/119 (Xcode Cloud, path elided in the quote)
        captures: {reason: 'the following dependencies were added: ''dexcomkit'''}
    no_match:
      - line: 'Resolved source packages:'

- id: package-resolved-required
  title: Package.resolved is missing and resolution is locked
  category: package-resolved-stale
  severity: error
  role: cause
  patterns:
    - literal: 'a resolved file is required when automatic dependency resolution is disabled'
      regex: 'a resolved file is required when automatic dependency resolution is disabled(?: and should be placed at\s*(?<path>\S*?Package\.resolved)?)?(?:.*?Running resolver because (?<reason>.+?)(?:fatalError)?$)?'
  message: 'No Package.resolved where xcodebuild looks, and this build may not resolve packages'
  explanation: >
    Package resolution is locked (Xcode Cloud always archives this way; locally
    -disableAutomaticPackageResolution or -onlyUsePackageVersionsFromResolvedFile), and there is no
    Package.resolved at the path xcodebuild prints. The file is git-ignored, committed next to the
    .xcodeproj while the build uses the .xcworkspace (or the reverse), or the project is generated
    (XcodeGen, Tuist) on CI without it.
  fixes:
    - summary: Resolve locally and commit Package.resolved at exactly the path in the message (un-ignore it if needed)
      commands: ['xcodebuild -resolvePackageDependencies -scheme MyScheme', 'git add -f MyApp.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved']
    - summary: For generated projects, keep a committed copy and put it in place after generating (Xcode Cloud ci_post_clone.sh)
      commands: ['mkdir -p MyApp.xcodeproj/project.xcworkspace/xcshareddata/swiftpm && cp Package.resolved MyApp.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/']
  docs:
    - https://developer.apple.com/documentation/xcode/making-dependencies-available-to-xcode-cloud
  examples:
    match:
      - line: "a resolved file is required when automatic dependency resolution is disabled and should be placed at /Users/featherless/workbench/localpackages/LocalPackagesFailOnCloudBuild.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved. Running resolver because the following dependencies were added: 'mypackage' (/Users/featherless/workbench/localpackages/MyPackage)fatalError"
        source: https://github.com/swiftlang/swift-package-manager/issues/6914
        captures: {path: /Users/featherless/workbench/localpackages/LocalPackagesFailOnCloudBuild.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved}
      - line: '  a resolved file is required when automatic dependency resolution is disabled and should be placed at'
        source: https://github.com/flutter/flutter/issues/185035 (the path wraps onto the next lines)
    no_match:
      - line: 'a resolved file was written'

- id: package-resolved-corrupted
  title: Package.resolved is corrupted or from a newer tool
  category: package-resolved-stale
  severity: error
  role: cause
  patterns:
    - literal: 'file is corrupted or malformed'
      regex: '(?<file>\S*Package\.resolved) file is corrupted or malformed; fix or delete the file to continue: (?<reason>.+)'
  message: 'Package.resolved cannot be read: {reason}'
  explanation: >
    SwiftPM cannot read the Package.resolved file. Usually an older Xcode or Swift reads a file written
    by a newer one (version 2 from Xcode 13.3, version 3 with originHash from Xcode 15.3 / Swift 5.10),
    or a merge left conflict markers in the JSON.
  fixes:
    - summary: Use the same Xcode on CI as the developers who write the file (or write it with the oldest Xcode in the CI matrix)
      commands: ['xcodebuild -version']
    - summary: After a merge conflict, take either side and re-resolve instead of editing the JSON by hand
      commands: ['git checkout --theirs -- Package.resolved', 'swift package resolve']
  examples:
    match:
      - line: 'error: /tmp/cp-real/app/Package.resolved file is corrupted or malformed; fix or delete the file to continue: DecodingError.dataCorrupted: Data was corrupted. Debug description: The given data was not valid JSON.'
        source: swift 6.3.1 on Linux (conflict markers written into Package.resolved)
        captures: {file: /tmp/cp-real/app/Package.resolved, reason: 'DecodingError.dataCorrupted: Data was corrupted. Debug description: The given data was not valid JSON.'}
      - line: 'Package.resolved file is corrupted or malformed; fix or delete the file to continue: unsupported schema version 2'
        source: https://github.com/Uckermark/dualra1n-loader/issues/2
        captures: {file: Package.resolved, reason: unsupported schema version 2}
    no_match:
      - line: 'warning: Package.resolved file was updated'

- id: package-resolution-locked
  title: Package resolution is locked to Package.resolved
  category: package-resolved-stale
  severity: info
  role: cause
  patterns:
    - literal: 'IDEPackageOnlyUseVersionsFromResolvedFile = YES'
      regex: 'IDEPackageOnlyUseVersionsFromResolvedFile = YES'
  message: 'This xcodebuild run uses only the versions in Package.resolved'
  explanation: >
    Context, not a failure: xcodebuild was started with -onlyUsePackageVersionsFromResolvedFile (Xcode
    Cloud does this for every build). Any difference between the package requirements and the
    committed Package.resolved is then an error instead of a silent re-resolve.
  fixes:
    - summary: Keep the committed Package.resolved in step with the project; resolve and commit after each dependency change
      commands: ['xcodebuild -resolvePackageDependencies -scheme MyScheme']
  docs:
    - https://developer.apple.com/documentation/xcode/making-dependencies-available-to-xcode-cloud
  examples:
    match:
      - line: '    IDEPackageOnlyUseVersionsFromResolvedFile = YES'
        source: https://github.com/swiftlang/swift-package-manager/issues/6914 (under "User defaults from command line")
    no_match:
      - line: '    IDEPackageSupportUseBuiltinSCM = YES'

- id: spm-tools-version-too-new
  title: A package needs a newer Swift tools version than this toolchain
  category: spm-resolution
  severity: error
  role: cause
  patterns:
    - literal: 'is using Swift tools version'
      regex: "package '(?<package>[^']+)'(?: @ \\S+)? is using Swift tools version (?<required>[\\d.]+) but the installed version is (?<installed>[\\d.]+)"
    - literal: 'which is no longer supported'
      regex: "package '(?<package>[^']+)' is using Swift tools version (?<required>[\\d.]+) which is no longer supported"
  message: "Package '{package}' needs Swift tools {required}; this toolchain has {installed}"
  explanation: >
    The package's manifest starts with a `// swift-tools-version:` newer than the Swift of the selected
    Xcode or toolchain (or, with "no longer supported", older than it still accepts). On CI this is
    usually a dependency update that requires a newer Xcode than the runner selects.
  fixes:
    - summary: Select a newer Xcode on CI (or a newer Swift toolchain)
      commands: ['sudo xcode-select -s /Applications/Xcode_26.0.app/Contents/Developer', 'swift --version']
    - summary: Or pin the dependency to the last version that supports your toolchain
      snippet: '.package(url: "https://github.com/owner/package.git", "1.2.0"..<"1.3.0")'
  docs:
    - https://developer.apple.com/documentation/packagedescription
  examples:
    match:
      - line: "error: 'tv': package 'tv' is using Swift tools version 6.9.0 but the installed version is 6.3.1"
        source: swift 6.3.1 on Linux (swift build with // swift-tools-version 6.9)
        captures: {package: tv, required: 6.9.0, installed: 6.3.1}
      - line: "error: 'tv': package 'package.swift' is using Swift tools version 3.1.0 which is no longer supported; consider using '// swift-tools-version: 6.3' to specify the current tools version"
        source: swift 6.3.1 on Linux (shared/reference/failures.yaml, spm-tools-version-mismatch)
        captures: {package: package.swift, required: 3.1.0}
    no_match:
      - line: '// swift-tools-version: 6.0'

- id: spm-dependencies-unsatisfiable
  title: No versions satisfy the package requirements
  category: spm-resolution
  severity: error
  role: cause
  patterns:
    - literal: 'Dependencies could not be resolved because'
      regex: 'Dependencies could not be resolved because (?<why>.+)'
  message: 'SwiftPM found no versions that satisfy every requirement: {why}'
  explanation: >
    SwiftPM's version solver found no set of versions that satisfies every requirement: the requested
    version or tag does not exist, two packages need different major versions of the same dependency,
    or an exact pin blocks an update.
  fixes:
    - summary: See which versions exist and who requires what
      commands: ['git ls-remote --tags https://github.com/owner/package.git', 'swift package show-dependencies']
    - summary: 'Relax the requirement (from: instead of exact:) or update the dependency that pins the old version'
  docs:
    - https://www.swift.org/documentation/package-manager/
  examples:
    match:
      - line: "error: Dependencies could not be resolved because no versions of 'dep' match the requirement 3.0.0..<4.0.0 and root depends on 'dep' 3.0.0..<4.0.0."
        source: swift 6.3.1 on Linux (requirement from 3.0.0 on a package tagged 1.x)
        captures: {why: "no versions of 'dep' match the requirement 3.0.0..<4.0.0 and root depends on 'dep' 3.0.0..<4.0.0."}
    no_match:
      - line: 'Dependencies resolved in 2.3s'

- id: spm-local-package-missing
  title: A local package path does not exist
  category: spm-resolution
  severity: error
  role: cause
  patterns:
    - literal: 'cannot be accessed'
      regex: "the package at '(?<path>[^']+)' cannot be accessed"
  message: "The local package at {path} does not exist on this machine"
  explanation: >
    A `.package(path:)` dependency, or a local package added to the Xcode project, points at a folder
    that is not there, typically a sibling repository that exists on the developer's Mac but is not
    cloned on CI.
  fixes:
    - summary: Clone the sibling repository at the expected relative path before building, or make it a git submodule
      commands: ['git submodule add https://github.com/owner/SharedKit.git ../SharedKit']
    - summary: Or depend on it by URL and version instead of by path
      snippet: '.package(url: "https://github.com/owner/SharedKit.git", from: "1.0.0")'
  examples:
    match:
      - line: "error: the package at '/tmp/cp-real/SharedKit' cannot be accessed (/tmp/cp-real/SharedKit doesn't exist in file system)"
        source: swift 6.3.1 on Linux (a path dependency on ../SharedKit, which does not exist)
        captures: {path: /tmp/cp-real/SharedKit}
      - line: "the package at '/Users/admin/builder/FeedKit' cannot be accessed (Error Domain=NSCocoaErrorDomain Code=260 \"The folder “FeedKit” doesn’t exist.\" UserInfo={NSFilePath=/Users/admin/builder/FeedKit})"
        source: https://github.com/SwiftPackageIndex/SwiftPackageIndex-Server/issues/3590 (UserInfo shortened)
        captures: {path: /Users/admin/builder/FeedKit}
    no_match:
      - line: 'The URL cannot be accessed'

- id: spm-product-not-found
  title: A target depends on a package product that does not exist
  category: spm-resolution
  severity: error
  role: cause
  patterns:
    - literal: ' not found in package '
      regex: "product ['‘](?<product>[^'’]+)['’] required by package ['‘](?<package>[^'’]+)['’] target ['‘](?<target>[^'’]+)['’] not found in package ['‘](?<inPackage>[^'’]+)['’]"
    # SwiftPM 4 and 5 wording.
    - literal: 'product dependency '
      regex: "product dependency ['‘](?<product>[^'’]+)['’](?: in package ['‘](?<inPackage>[^'’]+)['’])? not found"
    # Xcode's wording for a package product a target links that no resolved package provides.
    - literal: 'issing package product '
      regex: "[Mm]issing package product ['‘](?<product>[^'’]+)['’]"
  message: "Package product {product} was not found"
  explanation: >
    A target names a product that no resolved package offers: the product name is wrong or differs in case, the
    package dropped or renamed it in the version that resolved, the `package:` argument names the wrong package,
    or (in Xcode) package resolution failed earlier so no product exists at all; then the resolution error above
    is the cause.
  fixes:
    - summary: List the products the package really declares at the resolved version, and use that exact name
      commands: ['swift package show-dependencies', 'swift package describe --type json']
    - summary: Name the product together with its package identity
      snippet: '.product(name: "{product}", package: "package-identity")'
    - summary: In Xcode, reset the package caches and resolve again when the product exists but Xcode still misses it
      commands: ['rm -rf ~/Library/Developer/Xcode/DerivedData/*/SourcePackages', 'xcodebuild -resolvePackageDependencies']
  examples:
    match:
      - line: "error: 'virtual-terminal-demo': product 'VirtualTerminal' required by package 'virtual-terminal-demo' target 'virtual-terminal-demo' not found in package 'VirtualTerminal'. Did you mean '.product(name: \"VirtualTerminal\", package: \"virtualterminal\")'?"
        source: https://github.com/compnerd/VirtualTerminal/pull/3
        captures: {product: VirtualTerminal, package: virtual-terminal-demo, target: virtual-terminal-demo, inPackage: VirtualTerminal}
      - line: "error: product dependency 'BigInt' not found"
        source: https://github.com/travis-ci/travis-ci/issues/8558 (swift build, Xcode 9)
        captures: {product: BigInt}
      - line: "Missing package product '***'"
        source: https://github.com/overtake/TelegramSwift/issues/1216 (Xcode's issue-navigator wording; the name is masked there)
        captures: {product: '***'}
    no_match:
      - line: "error: no such module 'Alamofire'"

- id: spm-repository-not-accessible
  title: A package repository cannot be reached or read
  category: spm-resolution
  severity: error
  role: cause
  patterns:
    - literal: 'The remote repository could not be accessed'
      regex: '(?<url>[^\s`''‘’"]+)[`''’"]?: The remote repository could not be accessed'
    - literal: 'Failed to clone repository '
      regex: '^(?!.*skipping cache).*?Failed to clone repository (?<url>\S+?):?$'
  continuation:
    # git's own lines under the message; a network or credential line ends the block so that its own
    # rule names it.
    while: '^(?:Cloning into|remote: |Please make sure|and the repository exists|fatal: (?!.*(?:Could not resolve host|Failed to connect|SSL certificate problem|timed out|unable to access)))'
    collect: '^(?:fatal|remote): (?<gitSays>.+)$'
    max_lines: 8
  message: 'Could not clone the package repository {url}'
  explanation: >
    SwiftPM or Xcode could not clone a package. The lines below the message say why: credentials
    (private repository, SSH key, known_hosts), the network (host not resolved, timeout), or a URL or
    repository that does not exist. Xcode's built-in git ignores ~/.gitconfig URL rewrites and
    credential helpers, which often explains why the same clone works in a shell.
  fixes:
    - summary: Give the runner access; an SSH key and known_hosts for ssh URLs, a token for https URLs
      commands: ['ssh-keyscan github.com >> ~/.ssh/known_hosts']
    - summary: Make xcodebuild use the system git, so git config and credential helpers apply
      commands: ['xcodebuild ... -scmProvider system']
    - summary: Check the URL and that it is reachable from the runner
      commands: ['git ls-remote {url}']
  examples:
    match:
      - line: 'error: Failed to clone repository https://git.example.invalid/acme/Networking.git:'
        source: swift 6.3.1 on Linux (no network; the reason follows on the next lines)
        captures: {url: https://git.example.invalid/acme/Networking.git}
      - line: 'Failed to clone repository git@github.com:mergesort/Boutique.git:'
        source: https://github.com/mergesort/Boutique/issues/43
        captures: {url: git@github.com:mergesort/Boutique.git}
      - line: "error: Failed to clone repository https://github.com/mxcl/CryptoSwift.git:\n    Cloning into bare repository '/Users/iandreyeu/Library/Developer/swift-sh.cache/a719f5ad86f9977d7371d8dacb7c3662/.build/repositories/CryptoSwift-2284ee05'...\n    remote: Repository not found.\n    fatal: repository 'https://github.com/mxcl/CryptoSwift.git/' not found"
        source: https://github.com/mxcl/swift-sh/issues/198
        captures: {url: 'https://github.com/mxcl/CryptoSwift.git', gitSays: 'Repository not found., repository ''https://github.com/mxcl/CryptoSwift.git/'' not found'}
      - line: '`git@github.com:e-id-admin/didresolver-swift.git`: The remote repository could not be accessed. Make sure a valid repository exists at the specified location and that the correct credentials have been supplied.'
        source: https://github.com/swiyu-admin-ch/eidch-ios-wallet/issues/1 (Xcode 16.2)
        captures: {url: git@github.com:e-id-admin/didresolver-swift.git}
    no_match:
      - line: "warning: 'swift-argument-parser-nonexistent': skipping cache due to an error: Failed to clone repository https://github.com/apple/swift-argument-parser-nonexistent.git:"

- id: git-authentication-failed
  title: git has no credentials for a dependency's repository
  category: spm-resolution
  severity: error
  role: cause
  patterns:
    - literal: 'Permission denied (publickey)'
      regex: '(?:\S+@(?<host>[\w.-]+): )?Permission denied \(publickey'
    - literal: 'Authentication failed because no credentials were provided'
      regex: 'Authentication failed because no credentials were provided'
    - literal: 'Host key verification failed'
      regex: 'Host key verification failed'
    - literal: 'could not read Username for'
      regex: "could not read Username for '(?<host>[^']+)'"
  message: 'git has no credentials for a dependency''s repository'
  explanation: >
    A dependency (Swift package, pod, submodule, fastlane match repository) is fetched over ssh or https
    and the runner has no key or token for it, or does not know the server's host key. Private
    dependencies need credentials set up in the CI job; on Xcode Cloud they are granted to the
    repository in App Store Connect.
  fixes:
    - summary: For ssh URLs, add a deploy key to the agent and the server's host key to known_hosts
      commands: ['ssh-add - <<< "$DEPLOY_KEY"', 'ssh-keyscan github.com >> ~/.ssh/known_hosts']
    - summary: For https URLs, give git a token (and make xcodebuild use the system git so it applies)
      commands: ['git config --global url."https://x-access-token:${GITHUB_TOKEN}@github.com/".insteadOf "https://github.com/"', 'xcodebuild ... -scmProvider system']
    - summary: Use the same URL scheme (all https or all ssh) in Package.swift, the Xcode project and Package.resolved
  examples:
    match:
      - line: 'git@github.com: Permission denied (publickey).'
        source: https://github.com/mergesort/Boutique/issues/43
        captures: {host: github.com}
      - line: '  Authentication failed because no credentials were provided.'
        source: https://github.com/bitrise-steplib/steps-ios-auto-provision/issues/89
      - line: '    Host key verification failed.'
        source: https://github.com/urbanairship/ios-library/issues/425
    no_match:
      - line: 'Permission denied'

- id: spm-could-not-resolve
  title: xcodebuild could not resolve package dependencies
  category: spm-resolution
  severity: error
  role: symptom
  patterns:
    - literal: 'Could not resolve package dependencies'
      regex: 'Could not resolve package dependencies'
  message: 'xcodebuild could not resolve the package dependencies'
  explanation: >
    xcodebuild's heading for any package resolution failure. The reason is on the indented lines right
    after it (out-of-date Package.resolved, authentication, network, conflicting versions) and is
    listed as its own finding when xcmedic knows it.
  fixes:
    - summary: Read the lines right after this one; to see them alone, resolve in a separate step
      commands: ['xcodebuild -resolvePackageDependencies -scheme MyScheme']
  examples:
    match:
      - line: 'xcodebuild: error: Could not resolve package dependencies:'
        source: https://github.com/bitrise-steplib/steps-ios-auto-provision/issues/89
    no_match:
      - line: 'Resolve Package Graph'

- id: cocoapods-dependency-not-resolved
  title: CocoaPods could not resolve a pod
  category: cocoapods
  severity: error
  role: cause
  patterns:
    - literal: 'could not find compatible versions for pod'
      regex: 'CocoaPods could not find compatible versions for pod ["“](?<pod>[^"”]+)["”]'
    - literal: 'Unable to find a specification for '
      regex: 'Unable to find a specification for [`''‘](?<pod>[^`''’ ]+)(?: \((?<requirement>[^)]*)\))?[`''’](?: depended upon by [`''‘](?<dependent>[^`''’]+)[`''’])?'
  message: 'pod install could not resolve {pod}'
  explanation: >
    No spec repo the Podfile uses has a version of the pod that satisfies every requirement: the local copy of the
    CocoaPods specs is out of date (the version is newer than the runner's cache), the pod lives in a private spec repo
    the Podfile does not list as a source, the name or version is mistyped, or the matching versions need a higher
    deployment target than the Podfile's platform.
  fixes:
    - summary: Update the spec repos while installing
      commands: ['pod install --repo-update']
    - summary: For a private pod, list its spec repo as a source in the Podfile (before the CDN source)
      snippet: "source 'https://github.com/your-org/Specs.git'\nsource 'https://cdn.cocoapods.org/'"
    - summary: If the message says the specs need a higher minimum deployment target, raise `platform :ios` in the Podfile
  docs:
    - https://guides.cocoapods.org/using/troubleshooting.html
  examples:
    match:
      - line: '[!] CocoaPods could not find compatible versions for pod "GoogleUtilities/Logger":'
        source: https://github.com/CocoaPods/CocoaPods/issues/12808
        captures: {pod: GoogleUtilities/Logger}
      - line: 'CocoaPods could not find compatible versions for pod "JKCountDownButton":'
        source: https://github.com/shaojiankui/JKCountDownButton/issues/7
        captures: {pod: JKCountDownButton}
      - line: '[!] Unable to find a specification for `EasyFoundation (~> 1.0.0)` depended upon by `EasyReact`'
        source: https://github.com/Meituan-Dianping/EasyReact/issues/39
        captures: {pod: EasyFoundation, requirement: '~> 1.0.0', dependent: EasyReact}
      - line: '[!] Unable to find a specification for `xxxxxSDK`'
        source: https://github.com/FIRHQ/flow.ci/issues/107
        captures: {pod: xxxxxSDK}
    no_match:
      - line: 'Analyzing dependencies'

- id: cocoapods-sandbox-not-in-sync
  title: Pods are not installed or out of date (Podfile.lock vs Manifest.lock)
  category: cocoapods
  severity: error
  role: cause
  patterns:
    - literal: 'The sandbox is not in sync with the Podfile.lock'
      regex: 'The sandbox is not in sync with the Podfile\.lock'
  message: 'Pods/ does not match Podfile.lock; pod install has not run for this checkout'
  explanation: >
    The "[CP] Check Pods Manifest.lock" build phase compares Podfile.lock with Pods/Manifest.lock. They
    differ, or Pods/ is missing, because `pod install` did not run on this runner (Pods/ not committed,
    cache miss), ran with another CocoaPods version, or the .xcodeproj was built instead of the
    .xcworkspace.
  fixes:
    - summary: Run pod install before xcodebuild (with the CocoaPods version from the Gemfile)
      commands: ['bundle exec pod install --deployment']
    - summary: Build the workspace, not the project
      commands: ['xcodebuild -workspace MyApp.xcworkspace -scheme MyApp ...']
    - summary: If Pods/ is cached, key the cache on Podfile.lock
  docs:
    - https://guides.cocoapods.org/using/using-cocoapods.html
  examples:
    match:
      - line: "error: The sandbox is not in sync with the Podfile.lock. Run 'pod install' or update your CocoaPods installation."
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L597 (SAMPLE_PODS_ERROR)
    no_match:
      - line: 'Pod installation complete! There are 12 dependencies from the Podfile and 14 total pods installed.'

- id: cocoapods-dt-toolchain-dir
  title: Old CocoaPods xcconfig uses DT_TOOLCHAIN_DIR (Xcode 15)
  category: cocoapods
  severity: error
  role: cause
  patterns:
    - literal: 'DT_TOOLCHAIN_DIR cannot be used to evaluate'
      regex: 'DT_TOOLCHAIN_DIR cannot be used to evaluate (?<setting>[A-Z_]+)'
  message: 'The Pods xcconfig uses DT_TOOLCHAIN_DIR in {setting}, which Xcode 15 rejects'
  explanation: >
    Xcode 15 no longer allows DT_TOOLCHAIN_DIR in search path settings, and CocoaPods before 1.13
    generated xcconfig files that use it. Updating CocoaPods and reinstalling the pods regenerates them.
  fixes:
    - summary: Update CocoaPods to 1.13 or later and reinstall the pods
      commands: ['bundle update cocoapods', 'bundle exec pod install']
    - summary: If you cannot update yet, rewrite the generated xcconfigs in the Podfile's post_install
      snippet: |
        post_install do |installer|
          installer.aggregate_targets.each do |target|
            target.xcconfigs.each do |name, config|
              path = target.xcconfig_path(name)
              File.write(path, File.read(path).gsub('DT_TOOLCHAIN_DIR', 'TOOLCHAIN_DIR'))
            end
          end
        end
  docs:
    - https://github.com/CocoaPods/CocoaPods/issues/12012
  examples:
    match:
      - line: 'error: DT_TOOLCHAIN_DIR cannot be used to evaluate LIBRARY_SEARCH_PATHS, use TOOLCHAIN_DIR instead'
        source: as quoted in tisfeng/Easydict's README, which links CocoaPods/CocoaPods#12012 (shared/reference/failures.yaml)
        captures: {setting: LIBRARY_SEARCH_PATHS}
    no_match:
      - line: 'TOOLCHAIN_DIR = /Applications/Xcode.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain'

- id: libarclite-missing
  title: libarclite missing; deployment target too low for this Xcode
  category: cocoapods
  severity: error
  role: cause
  patterns:
    - literal: 'libarclite'
      regex: "SDK does not contain 'libarclite' at the path '(?<path>[^']+)'"
  message: 'A target (usually a pod) has a deployment target too low for this Xcode (libarclite missing)'
  explanation: >
    Targets with a deployment target below iOS 11 (macOS 10.13) link libarclite, which Xcode 14.3
    removed. Pods often keep the old deployment target of their podspec even when the app's is
    higher.
  fixes:
    - summary: Raise the deployment target of every pod in the Podfile's post_install (to at least the app's)
      snippet: |
        post_install do |installer|
          installer.pods_project.targets.each do |target|
            target.build_configurations.each do |config|
              config.build_settings['IPHONEOS_DEPLOYMENT_TARGET'] = '12.0'
            end
          end
        end
    - summary: Update the pod to a version whose podspec targets a newer OS; do not copy libarclite into Xcode.app
  examples:
    match:
      - line: "clang: error: SDK does not contain 'libarclite' at the path '/Applications/Xcode.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/lib/arc/libarclite_iphonesimulator.a'; try increasing the minimum deployment target"
        source: https://github.com/ibireme/YYCache/issues/164
        captures: {path: /Applications/Xcode.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/lib/arc/libarclite_iphonesimulator.a}
    no_match:
      - line: 'ld: warning: libarclite is deprecated'
"""#
}
