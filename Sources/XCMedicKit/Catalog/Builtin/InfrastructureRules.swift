// The machine and its surroundings: disk, network, Xcode Cloud custom scripts, shell locale, leftovers
// of earlier runs. Message texts quoted from the public logs named in each example's `source`; lines
// whose source says "on Linux" were produced here with the named tool.
extension BuiltinCatalog {
    static let infrastructureRules = #"""
- id: no-space-left-on-device
  title: The disk is full
  category: disk-full
  severity: error
  role: cause
  patterns:
    - literal: 'No space left on device'
      regex: 'No space left on device'
  message: 'The runner ran out of disk space'
  explanation: >
    A write failed because the disk is full. The failing step is rarely the one that filled it:
    DerivedData, archives, simulator runtimes and caches grow until any step (compile, link, codesign,
    copying the archive) fails. Self-hosted runners never clean ~/Library/Developer on their own.
  fixes:
    - summary: See what is left and what takes the space
      commands: ['df -h', 'du -sh ~/Library/Developer/Xcode/DerivedData ~/Library/Developer/Xcode/Archives ~/Library/Developer/CoreSimulator']
    - summary: Build into a per-job DerivedData folder and delete it after the job
      commands: ['xcodebuild ... -derivedDataPath build/DerivedData', 'rm -rf build/DerivedData']
    - summary: Remove simulators and runtimes nobody uses
      commands: ['xcrun simctl delete unavailable', 'xcrun simctl runtime list', 'xcrun simctl runtime delete RUNTIME_ID']
  examples:
    match:
      - line: "dd: error writing '/dev/full': No space left on device"
        source: GNU dd on Linux (writing to /dev/full)
    no_match:
      - line: 'Free space left: 47 MB'

- id: runner-low-disk-space
  title: The runner is running out of disk space
  category: disk-full
  severity: warning
  role: cause
  patterns:
    - literal: 'You are running out of disk space'
      regex: 'You are running out of disk space\.(?: The runner will stop working when the machine runs out of disk space\. Free space left: (?<freeMB>\d+) MB)?'
  message: 'The runner is running out of disk space'
  explanation: >
    GitHub Actions' runner warns when free space gets low. Any later step may then fail in a misleading
    way (a codesign, link or copy error) while the real cause is the full disk.
  fixes:
    - summary: Free space at the start of the job (DerivedData, old archives, unused simulator runtimes)
      commands: ['rm -rf ~/Library/Developer/Xcode/DerivedData', 'xcrun simctl delete unavailable']
  examples:
    match:
      - line: 'You are running out of disk space. The runner will stop working when the machine runs out of disk space. Free space left: 47 MB'
        source: https://github.com/nodejs/build/issues/3878
        captures: {freeMB: '47'}
    no_match:
      - line: 'Disk space is fine'

- id: cocoapods-cdn-unreachable
  title: CocoaPods could not download from its CDN
  category: network
  severity: error
  role: cause
  patterns:
    - literal: 'URL couldn'
      regex: "CDN: (?<repo>\\S+) URL couldn\\S{1,3}t be downloaded: (?<url>\\S+?),? (?:Response: |error: )(?<reason>.+?)(?:, retries: \\d+)?$"
  message: 'CocoaPods could not download {url}: {reason}'
  explanation: >
    `pod install` fetches podspecs from the CocoaPods CDN (cdn.cocoapods.org, cdn.jsdelivr.net) and the
    download failed: a timeout, a TLS error or a blocked host. Usually transient; where the CDN is
    blocked, the git specs repository is the alternative.
  fixes:
    - summary: Retry; cache Pods/ and ~/.cocoapods keyed on Podfile.lock so most runs need no download
      commands: ['bundle exec pod install --deployment']
    - summary: If the CDN is blocked for this network, use the git specs repository in the Podfile
      snippet: "source 'https://github.com/CocoaPods/Specs.git'"
  examples:
    match:
      - line: 'CDN: trunk URL couldn''t be downloaded: https://cdn.jsdelivr.net/cocoa/Specs/a/7/5/AFNetworking/3.2.0/AFNetworking.podspec.json Response: SSL connect error'
        source: https://github.com/CocoaPods/CocoaPods/issues/11939
        captures: {repo: trunk, url: 'https://cdn.jsdelivr.net/cocoa/Specs/a/7/5/AFNetworking/3.2.0/AFNetworking.podspec.json', reason: SSL connect error}
      - line: '[!] CDN: trunk URL couldn''t be downloaded: https://cdn.cocoapods.org/all_pods_versions_f_2_0.txt Response: Timeout was reached'
        source: https://github.com/CocoaPods/CocoaPods/issues/9618
        captures: {repo: trunk, url: 'https://cdn.cocoapods.org/all_pods_versions_f_2_0.txt', reason: Timeout was reached}
      - line: '[!] CDN: trunk URL couldn''t be downloaded: https://cdn.cocoapods.org/all_pods_versions_2_1_2.txt, error: Failed to open TCP connection to cdn.cocoapods.org:443 (No route to host - connect(2) for "cdn.cocoapods.org" port 443)'
        source: https://github.com/CocoaPods/CocoaPods/issues/9085
        captures: {url: 'https://cdn.cocoapods.org/all_pods_versions_2_1_2.txt'}
    no_match:
      - line: 'CDN: trunk Relative path: CocoaPods-version.yml exists! Returning local because checking is only perfomed in'

- id: host-not-resolved
  title: A host name could not be resolved (DNS or no network)
  category: network
  severity: error
  role: cause
  patterns:
    - literal: 'Could not resolve host'
      regex: 'Could not resolve host: (?<host>[\w.-]+)'
    - literal: 'nodename nor servname provided'
      regex: '(?:for (?<host>[\w.-]+): )?nodename nor servname provided, or not known'
  message: 'A host name could not be resolved: {host}'
  explanation: >
    A download (git clone of a dependency, CocoaPods spec, gem, tool) failed because the host name did
    not resolve: the runner has no network or DNS at that moment, a proxy or firewall blocks it, or the
    host name is wrong. Usually transient on hosted runners; permanent on locked-down networks.
  fixes:
    - summary: Retry the job; if it repeats, check DNS and the network from the runner
      commands: ['nslookup github.com', 'curl -sSI https://github.com']
    - summary: Behind a proxy, export it for git and the tools (HTTPS_PROXY, git config http.proxy)
      commands: ['git config --global http.proxy "$HTTPS_PROXY"']
  examples:
    match:
      - line: "    fatal: unable to access 'https://git.example.invalid/acme/Networking.git/': Could not resolve host: git.example.invalid"
        source: swift 6.3.1 (SwiftPM) on Linux without network, under "Failed to clone repository"
        captures: {host: git.example.invalid}
      - line: "fatal: unable to access 'https://github.com/tomaka/winit.git/': Could not resolve host: github.com"
        source: https://github.com/travis-ci/travis-ci/issues/6926
        captures: {host: github.com}
      - line: '`Clone error: failed to resolve address for github.com: nodename nor servname provided, or not known`'
        source: https://github.com/thebaselab/codeapp/issues/820
        captures: {host: github.com}
    no_match:
      - line: 'Resolving host github.com'

- id: connection-timed-out
  title: A network connection timed out or was refused
  category: network
  severity: error
  role: cause
  patterns:
    - literal: 'Failed to connect to '
      regex: 'Failed to connect to (?<host>[\w.-]+) port (?<port>\d+)'
    - literal: 'connect to host '
      regex: 'connect to host (?<host>[\w.-]+) port (?<port>\d+): (?<reason>.+)'
    - literal: 'Failed to open TCP connection to '
      regex: 'Failed to open TCP connection to (?<host>[\w.-]+):(?<port>\d+)'
  message: 'Could not connect to {host} port {port}'
  explanation: >
    The host name resolved but the connection did not come up: the server or the runner's network was
    slow or down, or a firewall or proxy drops the traffic (port 22 for ssh URLs is blocked on many
    corporate networks).
  fixes:
    - summary: Retry the job; if it repeats, test the connection from the runner
      commands: ['curl -sSI https://{host}', 'ssh -T git@github.com']
    - summary: If ssh (port 22) is blocked, fetch over https instead
      commands: ['git config --global url."https://github.com/".insteadOf "git@github.com:"']
  examples:
    match:
      - line: "fatal: unable to access 'https://github.com/vapor/vapor.git/': Failed to connect to github.com port 443: Operation timed out"
        source: https://github.com/vapor/toolbox/issues/184
        captures: {host: github.com, port: '443'}
      - line: '13:40:01 ssh: connect to host github.com port 22: Operation timed out'
        source: https://github.com/swiftlang/swift-package-manager/pull/3563
        captures: {host: github.com, port: '22', reason: Operation timed out}
    no_match:
      - line: 'Connected to github.com port 443'

- id: ssl-certificate-problem
  title: TLS certificate could not be verified
  category: network
  severity: error
  role: cause
  patterns:
    - literal: 'SSL certificate problem'
      regex: "(?:unable to access '(?<url>[^']+)': )?SSL certificate problem: (?<reason>.+)"
  message: 'TLS verification failed: {reason}'
  explanation: >
    git or curl could not verify the server's certificate. On CI this is usually a proxy that
    intercepts TLS with its own certificate authority (not trusted by the runner), an outdated CA
    bundle, or a certificate that really expired.
  fixes:
    - summary: Trust the proxy's CA for git instead of turning verification off
      commands: ['git config --global http.sslCAInfo /path/to/corporate-ca.pem']
    - summary: Check the certificate chain the runner sees
      commands: ['curl -v https://github.com -o /dev/null']
  examples:
    match:
      - line: "Error: fatal: unable to access 'https://github.com/tuist/tuist.git/': SSL certificate problem: unable to get local issuer certificate"
        source: https://github.com/tuist/tuist/issues/1039
        captures: {url: 'https://github.com/tuist/tuist.git/', reason: unable to get local issuer certificate}
      - line: "fatal: unable to access 'https://github.com/jpsim/Yams/': SSL certificate problem: self signed certificate in certificate chain"
        source: https://github.com/jpsim/Yams/issues/317
        captures: {reason: self signed certificate in certificate chain}
    no_match:
      - line: 'SSL connection using TLSv1.2 / ECDHE-RSA-AES128-GCM-SHA256'

- id: ci-script-not-runnable
  title: An Xcode Cloud ci_scripts script could not be run
  category: xcode-cloud-script
  severity: error
  role: cause
  patterns:
    - literal: 'ermission denied'
      regex: '(?<script>\S*ci_(?:post_clone|pre_xcodebuild|post_xcodebuild)\.sh): [Pp]ermission denied'
    - literal: 'ermission denied: '
      regex: '[Pp]ermission denied: (?<script>\S*ci_(?:post_clone|pre_xcodebuild|post_xcodebuild)\.sh)'
    - literal: 'bad interpreter'
      regex: '(?<script>\S*ci_(?:post_clone|pre_xcodebuild|post_xcodebuild)\.sh): (?:bad interpreter: (?<interpreter>\S+?)(?:\^M)?:|\S+?(?:\^M)?: bad interpreter)'
    - literal: 'cannot execute: required file not found'
      regex: '(?<script>\S*ci_(?:post_clone|pre_xcodebuild|post_xcodebuild)\.sh): cannot execute: required file not found'
  message: 'The custom build script {script} could not be run'
  explanation: >
    Xcode Cloud runs ci_scripts/ci_post_clone.sh, ci_pre_xcodebuild.sh and ci_post_xcodebuild.sh from a
    ci_scripts folder next to the project or workspace the workflow builds, and wants them executable
    (git mode 100755) with a shebang. These patterns are the shells' own messages for a script without
    the executable bit or with Windows (CRLF) line endings, seen when a script is run directly; Xcode
    Cloud's own wording for these cases is not confirmed from a real log, and a script in the wrong
    folder produces no message at all (the next step fails instead).
  fixes:
    - summary: Make the script executable in git and commit; check the mode is 100755
      commands: ['chmod +x ci_scripts/*.sh', 'git update-index --chmod=+x ci_scripts/ci_post_clone.sh', 'git ls-files -s ci_scripts']
    - summary: Convert CRLF line endings to LF and keep a shebang on the first line
      commands: ["sed -i '' $'s/\\r$//' ci_scripts/ci_post_clone.sh", "head -1 ci_scripts/ci_post_clone.sh"]
    - summary: Put ci_scripts/ in the folder of the .xcodeproj or .xcworkspace the workflow builds (e.g. ios/ci_scripts for Flutter and React Native)
  docs:
    - https://developer.apple.com/documentation/xcode/writing-custom-build-scripts
  examples:
    match:
      - line: 'bash: line 1: ./ci_scripts/ci_post_clone.sh: Permission denied'
        source: GNU bash 5.2.15 on Linux (script without the executable bit)
        captures: {script: ./ci_scripts/ci_post_clone.sh}
      - line: 'zsh:1: permission denied: ./ci_scripts/ci_post_clone.sh'
        source: zsh 5.9 on Linux (script without the executable bit)
        captures: {script: ./ci_scripts/ci_post_clone.sh}
      - line: 'zsh:1: ./ci_scripts/ci_post_clone.sh: bad interpreter: /bin/sh^M: no such file or directory'
        source: zsh 5.9 on Linux (script with CRLF line endings)
        captures: {script: ./ci_scripts/ci_post_clone.sh, interpreter: /bin/sh}
      - line: 'bash: line 1: ./ci_scripts/ci_post_clone.sh: cannot execute: required file not found'
        source: GNU bash 5.2.15 on Linux (script with CRLF line endings)
        captures: {script: ./ci_scripts/ci_post_clone.sh}
    no_match:
      - line: 'bash: line 1: ./scripts/deploy.sh: Permission denied'

- id: ci-script-bash-syntax-under-zsh
  title: An Xcode Cloud ci_scripts script uses bash syntax but runs under zsh
  category: xcode-cloud-script
  severity: error
  role: cause
  patterns:
    - literal: ': = not found'
      regex: '(?<script>\S*ci_(?:post_clone|pre_xcodebuild|post_xcodebuild)\.sh):(?:\w+:)?(?<scriptLine>\d+): (?<zshSays>= not found)'
    - literal: ': bad substitution'
      regex: '(?<script>\S*ci_(?:post_clone|pre_xcodebuild|post_xcodebuild)\.sh):(?:\w+:)?(?<scriptLine>\d+): (?<zshSays>bad substitution)'
    - literal: ': bad option: -'
      regex: '(?<script>\S*ci_(?:post_clone|pre_xcodebuild|post_xcodebuild)\.sh):(?:\w+:)?(?<scriptLine>\d+): (?<zshSays>bad option: -\w+)'
  message: '{script} line {scriptLine} is bash syntax that zsh rejects ({zshSays})'
  explanation: >
    Apple documents that Xcode Cloud runs a custom script as `zsh <file>` when the file is not
    executable or has no shebang, so a script written for bash fails on bash-only syntax (`==` inside
    `[ ]`, `${var,,}`, `read -a`) although it works when run with bash. The messages are zsh's own;
    that Xcode Cloud prints them unchanged is inferred from Apple's documentation, not confirmed from a
    real Xcode Cloud log.
  fixes:
    - summary: Give the script a bash shebang and the executable bit, so Xcode Cloud runs it with bash
      commands: ["head -1 ci_scripts/ci_post_clone.sh   # must be #!/bin/bash", 'chmod +x ci_scripts/*.sh', 'git update-index --chmod=+x ci_scripts/ci_post_clone.sh']
    - summary: Or write the script in POSIX sh or zsh syntax
  docs:
    - https://developer.apple.com/documentation/xcode/writing-custom-build-scripts
  examples:
    match:
      - line: 'ci_post_clone.sh:3: = not found'
        source: zsh 5.9 on Linux running a bash script (if [ "$X" == "archive" ]) as `zsh ci_post_clone.sh`
        captures: {script: ci_post_clone.sh, scriptLine: '3', zshSays: '= not found'}
      - line: 'ci_post_xcodebuild.sh:2: bad substitution'
        source: zsh 5.9 on Linux running echo "${name,,}" as `zsh ci_post_xcodebuild.sh`
        captures: {script: ci_post_xcodebuild.sh, scriptLine: '2', zshSays: bad substitution}
      - line: 'ci_pre_xcodebuild.sh:read:1: bad option: -a'
        source: zsh 5.9 on Linux running read -a as `zsh ci_pre_xcodebuild.sh`
        captures: {script: ci_pre_xcodebuild.sh, scriptLine: '1', zshSays: 'bad option: -a'}
    no_match:
      - line: 'build.sh:3: = not found'

- id: operation-could-not-be-completed
  title: Generic "The operation couldn't be completed" error
  category: build-failed
  severity: error
  role: symptom
  patterns:
    - literal: 't be completed'
      regex: 'The operation couldn(?:[''’]|â€™|‚Äô)t be completed\.(?: \((?<domain>[\w.]+) error (?<code>-?\d+)\.?\))?'
  message: 'A generic Apple framework error ({domain} {code})'
  explanation: >
    The default text of an Apple framework error that carries no description. The domain and code are
    the only clue; the lines around it, or the tool's own log (.xcdistributionlogs for export,
    CoreSimulator.log for simulators), name the cause. IDEDistributionErrorDomain is export and
    signing, com.apple.CoreSimulator.SimError the simulator, NSURLErrorDomain the network.
  fixes:
    - summary: Read the lines just above this one and the tool's own log for the real reason
    - summary: Set a UTF-8 locale so the message and its neighbours are not garbled
      commands: ['export LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8']
  examples:
    match:
      - line: 'error: The operation couldn’t be completed. (com.apple.CoreSimulator.SimError error 405.)'
        source: the NSError text form quoted in shared/reference/failures.yaml (operation-could-not-be-completed); domain and code as in https://github.com/bazelbuild/rules_apple/issues/2597
        captures: {domain: com.apple.CoreSimulator.SimError, code: '405'}
      - line: 'The operation couldnâ€™t be completed. (IDEDistributionErrorDomain error 1.)'
        source: https://github.com/bitrise-steplib/steps-xcode-archive/issues/13 (mojibake in the original log)
        captures: {domain: IDEDistributionErrorDomain, code: '1'}
    no_match:
      - line: 'The operation completed successfully.'

- id: locale-not-utf8
  title: The shell's locale is not UTF-8 (fastlane, CocoaPods)
  category: ci-environment
  severity: warning
  role: cause
  patterns:
    - literal: 'requires your locale to be set to UTF-8'
      regex: 'fastlane requires your locale to be set to UTF-8'
    - literal: 'requires your terminal to be using UTF-8 encoding'
      regex: 'CocoaPods requires your terminal to be using UTF-8 encoding'
  message: 'The CI shell does not use a UTF-8 locale'
  explanation: >
    fastlane and CocoaPods are Ruby programs that read UTF-8 files and tool output. When LANG and LC_ALL
    are unset (common in CI shells) Ruby falls back to US-ASCII and fails on the first non-ASCII byte,
    often far from the cause, or garbles messages.
  fixes:
    - summary: Export a UTF-8 locale before fastlane or pod run (in the CI job, not in fastlane/.env)
      snippet: |
        export LANG=en_US.UTF-8
        export LC_ALL=en_US.UTF-8
      docs: https://docs.fastlane.tools/getting-started/ios/setup/#set-up-environment-variables
  examples:
    match:
      - line: 'WARNING: fastlane requires your locale to be set to UTF-8. To learn more go to https://docs.fastlane.tools/getting-started/ios/setup/#set-up-environment-variables'
        source: fastlane/fastlane fastlane/lib/fastlane/cli_tools_distributor.rb (UI.error of the warn string)
      - line: '    WARNING: CocoaPods requires your terminal to be using UTF-8 encoding.'
        source: https://github.com/CocoaPods/CocoaPods/issues/10939
    no_match:
      - line: 'export LANG=en_US.UTF-8'

- id: ruby-encoding-error
  title: Ruby failed on a non-ASCII byte (locale not UTF-8)
  category: ci-environment
  severity: error
  role: cause
  patterns:
    - literal: 'invalid byte sequence in US-ASCII'
      regex: 'invalid byte sequence in US-ASCII'
    - literal: 'Unicode Normalization not appropriate for ASCII-8BIT'
      regex: 'Unicode Normalization not appropriate for ASCII-8BIT'
  message: 'fastlane or CocoaPods failed because the locale is not UTF-8'
  explanation: >
    A Ruby tool (CocoaPods, fastlane) read text with the US-ASCII or binary encoding it falls back to
    when the shell's locale is not UTF-8, and stopped at the first non-ASCII character (a pod name, a
    path, a localized message).
  fixes:
    - summary: Export a UTF-8 locale in the CI job before running the tool
      snippet: |
        export LANG=en_US.UTF-8
        export LC_ALL=en_US.UTF-8
  examples:
    match:
      - line: "/opt/homebrew/Cellar/ruby/3.3.5/lib/ruby/3.3.0/unicode_normalize/normalize.rb:141:in `normalize': Unicode Normalization not appropriate for ASCII-8BIT (Encoding::CompatibilityError)"
        source: https://github.com/CocoaPods/CocoaPods/issues/10939
      - line: 'ArgumentError - invalid byte sequence in US-ASCII'
        source: https://github.com/CocoaPods/CocoaPods/issues/9222
    no_match:
      - line: 'Encoding: UTF-8'

- id: result-bundle-path-exists
  title: The -resultBundlePath already exists
  category: ci-environment
  severity: error
  role: cause
  patterns:
    - literal: 'Existing file at -resultBundlePath'
      regex: 'Existing file at -resultBundlePath (?:["“]|â€œ|â\x{80}\x{9C}|‚Äú)(?<path>[^"“”â‚]+)'
  message: 'xcodebuild will not overwrite the result bundle {path}'
  explanation: >
    xcodebuild refuses to start when the .xcresult it should write already exists, typically left by an
    earlier attempt in a retry loop or a reused workspace on a self-hosted runner. Nothing was built.
  fixes:
    - summary: Delete the old result bundle before the run, or use a unique path per attempt
      commands: ['rm -rf "{path}"', 'xcodebuild ... -resultBundlePath "build/Test-$(date +%s).xcresult"']
  examples:
    match:
      - line: 'xcodebuild: error: Existing file at -resultBundlePath "/output/file.xcresult"'
        source: cpisciotta/xcbeautify@513e4b12c3f6 test data (shared/reference/failures.yaml, result-bundle-path-exists)
        captures: {path: /output/file.xcresult}
    no_match:
      - line: 'Writing result bundle at path: /output/file.xcresult'
"""#
}
