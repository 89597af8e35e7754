// Code signing: certificates and private keys, provisioning profiles, teams, export.
// Message texts quoted from the public logs and sources named in each example's `source`.
// Xcode writes some of these with typographic quotes (“ ” ’); logs decoded with the wrong charset show
// them as mojibake (`â€œ` `â€™` from Windows-1252, the same with C1 controls from Latin-1, `‚Äú`
// `‚Äô` from Mac Roman), so the regexes accept every form and the literals avoid quotes altogether.
extension BuiltinCatalog {
    static let signingRules = #"""
- id: no-signing-certificate
  title: No signing certificate with its private key in the keychain
  category: codesign-certificate
  severity: error
  role: cause
  patterns:
    - literal: 'No signing certificate '
      regex: 'No signing certificate (?:["“]|â€œ|â\x{80}\x{9C}|‚Äú)(?<kind>[^"“”â‚]+)(?:["”]|â€\x{9D}?|â\x{80}\x{9D}|‚Äù) found(?:.*? signing certificate matching team ID (?:["“]|â€œ|â\x{80}\x{9C}|‚Äú)(?<team>[^"“”â‚]+))?'
  message: 'No "{kind}" signing certificate with its private key is installed'
  explanation: >
    xcodebuild needs a certificate of the kind named in the message, with its private key, in a
    keychain it searches, and found none. On CI this usually means the .cer was imported without the .p12 (no private key), the
    temporary keychain is not in the search list, the certificate belongs to another team or expired,
    or the project asks for the old "iOS Distribution" type while only an "Apple Distribution"
    certificate exists.
  fixes:
    - summary: See which signing identities the runner really has (each needs a private key to be listed)
      commands: ['security find-identity -v -p codesigning']
    - summary: With fastlane, install the team's certificates read-only into a temporary CI keychain
      commands: ['fastlane run setup_ci', 'fastlane match appstore --readonly']
    - summary: Without fastlane, import the .p12 into a keychain on the search list and let codesign use it
      commands:
        - 'security create-keychain -p "$KEYCHAIN_PASSWORD" ci.keychain'
        - 'security import cert.p12 -k ci.keychain -P "$P12_PASSWORD" -T /usr/bin/codesign'
        - 'security list-keychains -d user -s ci.keychain login.keychain'
        - 'security set-key-partition-list -S apple-tool:,apple: -s -k "$KEYCHAIN_PASSWORD" ci.keychain'
    - summary: Make CODE_SIGN_IDENTITY (or ExportOptions.plist signingCertificate) name the kind of certificate you have, e.g. "Apple Distribution"
  docs:
    - https://docs.fastlane.tools/codesigning/getting-started/
    - https://developer.apple.com/documentation/technotes/tn3161-inside-code-signing-certificates
  examples:
    match:
      - line: 'error: No signing certificate "iOS Development" found: No "iOS Development" signing certificate matching team ID "***" with a private key was found.'
        source: https://github.com/yukiarrr/ios-build-action/issues/79 (team ID masked by the CI)
        captures: {kind: iOS Development, team: '***'}
      - line: 'error: exportArchive: No signing certificate "iOS Distribution" found'
        source: https://github.com/fastlane/fastlane/issues/15968
        captures: {kind: iOS Distribution}
      - line: 'Error Domain=IDECodesignResolverErrorDomain Code=1 "No signing certificate "iOS Distribution" found" UserInfo={IDEDistributionIssueSeverity=3, NSLocalizedRecoverySuggestion=No "iOS Distribution" signing certificate matching team ID "AV5ZG7RC89" with a private key was found.}'
        source: https://github.com/fastlane/fastlane/issues/20837 (UserInfo shortened)
        captures: {kind: iOS Distribution, team: AV5ZG7RC89}
    no_match:
      - line: 'Signing Identity:     "Apple Distribution: Example Corp (ABCDE12345)"'

- id: no-certificate-matching-identity
  title: No certificate matches CODE_SIGN_IDENTITY for the team
  category: codesign-certificate
  severity: error
  role: cause
  patterns:
    - literal: 'No certificate matching '
      regex: "No certificate matching '(?<identity>[^']+)' for team '(?<team>[^']+)'"
    - literal: 'No certificate for team '
      regex: "No certificate for team '(?<team>[^']+)' matching '(?<identity>[^']+)'"
  message: "No certificate '{identity}' for team {team} in the keychain"
  explanation: >
    Manual signing names a certificate in CODE_SIGN_IDENTITY that is not in any keychain
    the build searches, or that belongs to another team than DEVELOPMENT_TEAM. On a CI runner the
    certificate and its private key have to be installed for every job.
  fixes:
    - summary: List the identities the runner has and compare names and team IDs
      commands: ['security find-identity -v -p codesigning']
    - summary: Install the certificate with its private key (fastlane match, or import the .p12 into the CI keychain)
      commands: ['fastlane match appstore --readonly']
    - summary: Or point CODE_SIGN_IDENTITY and DEVELOPMENT_TEAM at a certificate you have, or switch the target to automatic signing
      commands: ['xcodebuild ... CODE_SIGN_IDENTITY="Apple Distribution" DEVELOPMENT_TEAM={team}']
  docs:
    - https://developer.apple.com/documentation/technotes/tn3161-inside-code-signing-certificates
  examples:
    match:
      - line: "No certificate matching 'iPhone Distribution: Name (B89SBB0AV9)' for team 'B89SBB0AV9':  Select a different signing certificate for CODE_SIGN_IDENTITY, a team that matches your selected certificate, or switch to automatic provisioning."
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L621-L623 (SAMPLE_NO_CERTIFICATE)
        captures: {identity: 'iPhone Distribution: Name (B89SBB0AV9)', team: B89SBB0AV9}
    no_match:
      - line: 'No certificate was provided to sign the package'

- id: no-signing-identities-for-team
  title: No valid signing identities for the team ID
  category: codesign-certificate
  severity: error
  role: cause
  patterns:
    - literal: 'No valid signing identities'
      regex: 'No valid signing identities (?:\(i\.e\. certificate and private key pair\) )?matching the team ID [^A-Z0-9]{0,6}(?<team>[A-Z0-9]{10})'
    - literal: 'signing identit'
      regex: 'No (?:code )?signing identit(?:ies|es) found'
  message: 'No signing certificate with its private key is installed for the team'
  explanation: >
    Older Xcode's way of saying that no certificate plus private key pair for the team is installed. The
    certificate may be in the keychain without its private key (a .cer instead of a .p12), expired or
    revoked, or in a keychain the build does not search.
  fixes:
    - summary: List the identities that have a private key
      commands: ['security find-identity -v -p codesigning']
    - summary: Install the team's certificate and key (fastlane match, or import the .p12 into the CI keychain)
      commands: ['fastlane match development --readonly']
  docs:
    - https://docs.fastlane.tools/codesigning/getting-started/
  examples:
    match:
      - line: 'Code Sign error: No code signing identites found: No valid signing identities (i.e. certificate and private key pair) matching the team ID ‚ÄúCAT6HF57NJ‚Äù were found.'
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L609-L611 (SAMPLE_CODESIGN_ERROR, quotes as mojibake in the original log)
        captures: {team: CAT6HF57NJ}
      - line: 'No valid signing identities (i.e. certificate and private key pair) matching the team ID “CAT6HF57NJ” were found.'
        source: xcpretty SAMPLE_CODESIGN_ERROR with its Mac Roman mojibake decoded back to the typographic quotes Xcode printed
        captures: {team: CAT6HF57NJ}
    no_match:
      - line: '1 valid identities found'

- id: keychain-errsecinternalcomponent
  title: codesign cannot use the private key (errSecInternalComponent)
  category: codesign-certificate
  severity: error
  role: cause
  patterns:
    - literal: 'errSecInternalComponent'
      regex: '(?:(?<path>\S+): )?errSecInternalComponent'
  message: 'codesign could not use the private key of the signing identity'
  explanation: >
    codesign found the identity but the keychain refused to hand over its private key. On CI this is a
    locked keychain (SSH or launchd session without a login, or the keychain auto-locked), a key whose
    partition list does not allow codesign, or a missing Apple WWDR intermediate certificate ("unable to
    build chain to self-signed root" just before).
  fixes:
    - summary: Unlock the keychain in the same job and keep it unlocked for the build
      commands:
        - 'security unlock-keychain -p "$KEYCHAIN_PASSWORD" ci.keychain'
        - 'security set-keychain-settings -lut 21600 ci.keychain'
    - summary: Allow codesign to use the imported key without a prompt
      commands: ['security set-key-partition-list -S apple-tool:,apple:,codesign: -s -k "$KEYCHAIN_PASSWORD" ci.keychain']
    - summary: With fastlane, setup_ci creates an unlocked temporary keychain that match installs into
      commands: ['fastlane run setup_ci']
    - summary: Install the current Apple WWDR intermediate certificate if the chain cannot be built
      docs: https://www.apple.com/certificateauthority/
  examples:
    match:
      - line: '/Users/home/Library/Developer/Xcode/DerivedData/Gas_Mask-dkdvtwdzbmdpmyaltikuxbzrquqc/Build/Products/Debug/Launcher.app: errSecInternalComponent'
        source: https://github.com/2ndalpha/gasmask/issues/165
        captures: {path: /Users/home/Library/Developer/Xcode/DerivedData/Gas_Mask-dkdvtwdzbmdpmyaltikuxbzrquqc/Build/Products/Debug/Launcher.app}
      - line: 'extractor: errSecInternalComponent'
        source: https://github.com/pajowu/beaconstorekey-extractor/issues/7
        captures: {path: extractor}
    no_match:
      - line: 'Command CodeSign failed with a nonzero exit code'

- id: requires-provisioning-profile
  title: Target requires a provisioning profile
  category: provisioning-profile
  severity: error
  role: cause
  patterns:
    - literal: 'requires a provisioning profile'
      regex: '(?:^|: |")(?:["“]|â€œ|â\x{80}\x{9C}|‚Äú)?(?<target>[^"“”:]+?)(?:["”]|â€\x{9D}?|â\x{80}\x{9D}|‚Äù)? requires a provisioning profile(?:\. Select a provisioning profile (?:for the (?:["“]|â€œ|â\x{80}\x{9C}|‚Äú)(?<configuration>[^"“”]+)(?:["”]|â€\x{9D}?|â\x{80}\x{9D}|‚Äù) build configuration )?in the)?'
  message: '{target} needs a provisioning profile'
  explanation: >
    The target is signed manually but no provisioning profile is set or installed for it. App extensions,
    watch apps and Swift package resource bundles are often forgotten. During `-exportArchive` it means
    ExportOptions.plist has no entry for that bundle ID in `provisioningProfiles`.
  fixes:
    - summary: Install the profiles on the runner (fastlane match installs every bundle ID you list)
      commands: ['fastlane match appstore --readonly --app_identifier "com.example.app,com.example.app.share"']
    - summary: Set PROVISIONING_PROFILE_SPECIFIER for this target and configuration, or let Xcode manage signing on CI with an App Store Connect API key
      commands: ['xcodebuild ... -allowProvisioningUpdates -authenticationKeyPath AuthKey.p8 -authenticationKeyID KEY_ID -authenticationKeyIssuerID ISSUER_ID']
    - summary: For -exportArchive, map every bundle ID (extensions too) to a profile name in ExportOptions.plist
      snippet: |
        <key>provisioningProfiles</key>
        <dict>
          <key>com.example.app.share</key>
          <string>match AppStore com.example.app.share</string>
        </dict>
  docs:
    - https://developer.apple.com/documentation/technotes/tn3125-inside-code-signing-provisioning-profiles
  examples:
    match:
      - line: 'PROJECT_NAME requires a provisioning profile. Select a provisioning profile for the "Debug" build configuration in the project editor.'
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L617-L619 (SAMPLE_REQUIRES_PROVISION)
        captures: {target: PROJECT_NAME, configuration: Debug}
      - line: 'error: exportArchive: "share-extension.appex" requires a provisioning profile.'
        source: bitrise-io/go-xcode@1146c9c23eb0:errorfinder/errorfinder_test.go#L85-L87
        captures: {target: share-extension.appex}
      - line: 'Error Domain=IDEProvisioningErrorDomain Code=9 ""share-extension.appex" requires a provisioning profile." UserInfo={IDEDistributionIssueSeverity=3}'
        source: bitrise-io/go-xcode@1146c9c23eb0:errorfinder/errorfinder_test.go#L85-L87 (UserInfo shortened)
        captures: {target: share-extension.appex}
    no_match:
      - line: 'FrameworkName will not be code signed because its settings don''t specify a development team.'

- id: no-profile-matching
  title: No provisioning profile matching the specifier is installed
  category: provisioning-profile
  severity: error
  role: cause
  patterns:
    - literal: 'No profile for team '
      regex: "No profile for team '(?<team>[^']+)' matching '(?<profile>[^']+)' found"
    - literal: 'No profile matching '
      regex: "No profile matching '(?<profile>[^']+)' found"
  message: "Profile '{profile}' is not installed on this machine"
  explanation: >
    The target names a provisioning profile (PROVISIONING_PROFILE_SPECIFIER) but no
    installed profile has that name for the team. On CI the profiles have to be installed for each
    job; a profile renamed or regenerated on the developer portal (new devices, new certificate) also
    stops matching.
  fixes:
    - summary: Install the profile; with fastlane match the profile is named "match <Type> <bundle id>"
      commands: ['fastlane match appstore --readonly']
    - summary: Check the names of the installed profiles (Xcode 16+ keeps them in ~/Library/Developer/Xcode/UserData/Provisioning Profiles, older Xcode in ~/Library/MobileDevice/Provisioning Profiles)
      commands: ['for p in ~/Library/Developer/Xcode/UserData/Provisioning\ Profiles/* ~/Library/MobileDevice/Provisioning\ Profiles/*; do security cms -D -i "$p" | plutil -extract Name raw -; done']
    - summary: Or set PROVISIONING_PROFILE_SPECIFIER to an installed profile's name
  docs:
    - https://docs.fastlane.tools/actions/match/
  examples:
    match:
      - line: "./steps-xcode-archive/_tmp/code-sign-test.xcodeproj: error: No profile for team 'ASDF8V3WYL' matching 'BitriseBot-Wildcard' found: Xcode couldn't find any provisioning profiles matching 'ASDF8V3WYL/BitriseBot-Wildcard'. Install the profile (by dragging and dropping it onto Xcode's dock item) or select a different one in the Signing & Capabilities tab of the target editor. (in target 'code-sign-test' from project 'code-sign-test')"
        source: bitrise-io/go-xcode@1146c9c23eb0:errorfinder/errorfinder_test.go#L53
        captures: {team: ASDF8V3WYL, profile: BitriseBot-Wildcard}
      - line: "No profile for team 'N8X438SEU2' matching 'match AppStore me.themoji.app.beta' found:  Xcode couldn't find any provisioning profiles matching 'N8X438SEU2/match AppStore me.themoji.app.beta'."
        source: fastlane/fastlane@d5347690d47d:gym/spec/error_handler_spec.rb#L38-L46
        captures: {team: N8X438SEU2, profile: match AppStore me.themoji.app.beta}
      - line: "No profile matching 'TargetName' found:  Xcode couldn't find a profile matching 'TargetName'. Install the profile (by dragging and dropping it onto Xcode's dock item) or select a different one in the General tab of the target editor."
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L684-L686 (SAMPLE_NO_PROFILE_MATCHING_ERROR)
        captures: {profile: TargetName}
    no_match:
      - line: "No profiles for 'com.abc.xyz.dev' were found"

- id: no-profiles-for-bundle-id
  title: No provisioning profiles for the bundle ID; automatic signing cannot create one
  category: provisioning-profile
  severity: error
  role: cause
  patterns:
    - literal: 'No profiles for '
      regex: "No profiles for '(?<bundleID>[^']+)' were found(?::\\s+Xcode couldn\\S{1,3}t find any (?<kind>.+?) provisioning profiles matching)?"
  message: 'No provisioning profile for {bundleID}, and automatic signing may not create one'
  explanation: >
    Automatic signing is on, but xcodebuild may not talk to the developer portal unless it gets
    -allowProvisioningUpdates and an account or App Store Connect API key, and no matching profile for
    the bundle ID is installed. Locally Xcode creates the profile silently; a clean CI runner cannot.
  fixes:
    - summary: For simulator-only builds and tests, do not sign at all
      commands: ['xcodebuild ... CODE_SIGNING_ALLOWED=NO']
    - summary: Let xcodebuild create and download the profile with an App Store Connect API key
      commands: ['xcodebuild ... -allowProvisioningUpdates -authenticationKeyPath AuthKey.p8 -authenticationKeyID KEY_ID -authenticationKeyIssuerID ISSUER_ID']
    - summary: Or sign manually on CI with profiles installed by fastlane match
      commands: ['fastlane match development --readonly --app_identifier {bundleID}']
  docs:
    - https://developer.apple.com/documentation/xcode/distributing-your-app-for-beta-testing-and-releases
  examples:
    match:
      - line: "Code Signing Error: No profiles for 'com.abc.xyz.dev' were found:  Xcode couldn't find any iOS App Development provisioning profiles matching 'com.abc.xyz.dev'. Automatic signing is disabled and unable to generate a profile. To enable automatic signing, pass -allowProvisioningUpdates to xcodebuild."
        source: https://github.com/MicrosoftDocs/azure-devops-docs/issues/6436
        captures: {bundleID: com.abc.xyz.dev, kind: iOS App Development}
    no_match:
      - line: "No profile matching 'TargetName' found"

- id: profile-missing-capability
  title: Provisioning profile lacks a capability or entitlement the app uses
  category: provisioning-profile
  severity: error
  role: cause
  patterns:
    - literal: ' capability'
      regex: 'Provisioning profile (?:["“]|â€œ|â\x{80}\x{9C}|‚Äú)(?<profile>[^"“”â‚]+)(?:["”]|â€\x{9D}?|â\x{80}\x{9D}|‚Äù) doesn\S{1,3}t support the (?<capability>.+?) capability'
    - literal: ' entitlement'
      regex: 'Provisioning profile (?:["“]|â€œ|â\x{80}\x{9C}|‚Äú)(?<profile>[^"“”â‚]+)(?:["”]|â€\x{9D}?|â\x{80}\x{9D}|‚Äù) doesn\S{1,3}t (?:include the|match the entitlements file\S{1,3}s value for the) (?<entitlement>\S+) entitlement'
    - literal: 'allowed the specified entitlements'
      regex: 'None of the valid provisioning profiles allowed the specified entitlements: (?<entitlement>.+?)\.?$'
  message: '{capability}{entitlement}: not allowed by provisioning profile {profile}'
  explanation: >
    The app's entitlements file asks for something the provisioning profile was not generated with:
    a capability enabled in Xcode (Push Notifications, iCloud, App Groups...) but not on the App ID in
    the developer portal, or enabled there after the profile was created. Profiles do not update
    themselves; they have to be regenerated and reinstalled.
  fixes:
    - summary: Enable the capability on the App ID in the developer portal, then regenerate the profile (match refreshes it when run once without readonly)
      commands: ['fastlane match appstore --force']
    - summary: Or remove the entitlement from the target if the app no longer uses it
  docs:
    - https://developer.apple.com/documentation/xcode/adding-capabilities-to-your-app
    - https://developer.apple.com/documentation/technotes/tn3125-inside-code-signing-provisioning-profiles
  examples:
    match:
      - line: 'Provisioning profile "Profile Name" doesn''t support the Push Notifications capability.'
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L672-L674 (SAMPLE_PROFILE_DOESNT_SUPPORT_CAPABILITY_ERROR)
        captures: {profile: Profile Name, capability: Push Notifications}
      - line: 'error: Provisioning profile "com.iw.mobile.pro.development" doesn''t include the com.apple.developer.icloud-services entitlement. (in target ''IwCareAppPro'' from project ''IwCareAppPro'')'
        source: https://github.com/codenameone/CodenameOne/issues/3501
        captures: {profile: com.iw.mobile.pro.development, entitlement: com.apple.developer.icloud-services}
      - line: '[04:22:15]: ▸ /Users/runner/work/iAPS/iAPS/FreeAPS.xcodeproj: error: Provisioning profile "match AppStore ru.artpancreas.***.FreeAPS" doesn''t match the entitlements file''s value for the com.apple.security.application-groups entitlement. Profile qualification is using entitlement definitions that may be out of date. Connect to network to update. (in target ''FreeAPS'' from project ''FreeAPS'')'
        source: https://github.com/Artificial-Pancreas/iAPS/issues/126
        captures: {profile: match AppStore ru.artpancreas.***.FreeAPS, entitlement: com.apple.security.application-groups}
      - line: 'Provisioning profile “Profile Name” doesn’t support the Push Notifications capability.'
        source: xcpretty SAMPLE_PROFILE_DOESNT_SUPPORT_CAPABILITY_ERROR rewritten with typographic quotes and apostrophe, to cover logs that keep Xcode's typography
        captures: {profile: Profile Name, capability: Push Notifications}
      - line: '❌  Code Sign error: No matching provisioning profiles found: None of the valid provisioning profiles allowed the specified entitlements: com.apple.developer.icloud-container-identifiers, com.apple.developer.associated-domains, com.apple.developer.ubiquity-kvstore-identifier.'
        source: https://github.com/fastlane-old/match/issues/147
        captures: {entitlement: 'com.apple.developer.icloud-container-identifiers, com.apple.developer.associated-domains, com.apple.developer.ubiquity-kvstore-identifier'}
    no_match:
      - line: 'warning: Widgets isn''t code signed but requires entitlements. It is not possible to add entitlements to a binary without signing it. (in target ''Widgets'' from project ''Backyard Birds'')'

- id: profile-missing-signing-certificate
  title: Provisioning profile does not include the signing certificate
  category: provisioning-profile
  severity: error
  role: cause
  patterns:
    - literal: 'include signing certificate'
      regex: 'Provisioning [Pp]rofile (?:["“]|â€œ|â\x{80}\x{9C}|‚Äú)(?<profile>[^"“”â‚]+)(?:["”]|â€\x{9D}?|â\x{80}\x{9D}|‚Äù) doesn\S{1,3}t include signing certificate (?:["“]|â€œ|â\x{80}\x{9C}|‚Äú)?(?<certificate>[^"“”â‚]+?)(?:["”]|â€\x{9D}?|â\x{80}\x{9D}|‚Äù)?\.?(?: \(in target |$)'
  message: 'Provisioning profile {profile} does not include the certificate {certificate}'
  explanation: >
    The profile was generated for other certificates than the one the build signs with: the certificate
    was renewed or revoked after the profile was made, the runner's keychain holds another team member's
    certificate, or the project asks for a Development identity while the profile is for Distribution
    (or the reverse). Profiles list their certificates; they must be regenerated when a certificate changes.
  fixes:
    - summary: Compare the certificate in the keychain with the ones the profile lists
      commands: ['security find-identity -v -p codesigning', 'security cms -D -i profile.mobileprovision | plutil -extract DeveloperCertificates xml1 -o - -']
    - summary: With fastlane match, regenerate the profile for the current certificate (once, without readonly)
      commands: ['fastlane match appstore --force']
    - summary: Make CODE_SIGN_IDENTITY and the profile the same kind (Apple Development with a development profile, Apple Distribution with an App Store or ad hoc one)
  docs:
    - https://developer.apple.com/documentation/technotes/tn3125-inside-code-signing-provisioning-profiles
  examples:
    match:
      - line: '/var/folders/hj/jshqx2gn79l6bdlp_zwmk3m80000gn/T/build1774114946458497026xxx/dist/Launch.xcodeproj: error: Provisioning profile "Boardspace Mavin Release DEVELOPMENT" doesn''t include signing certificate "iPhone Distribution: Dave Dyer (N9ZJLP5456)". (in target ''Launch'' from project ''Launch'')'
        source: https://github.com/codenameone/CodenameOne/issues/5836
        captures: {profile: Boardspace Mavin Release DEVELOPMENT, certificate: 'iPhone Distribution: Dave Dyer (N9ZJLP5456)'}
      - line: 'error: Provisioning profile "match AppStore com.app.mobile" doesn''t include signing certificate "Apple Distribution: COMPANY (ASGDSGFS)". (in target ''proj'' from project ''proj'')'
        source: https://github.com/fastlane/fastlane/issues/18267
        captures: {profile: match AppStore com.app.mobile, certificate: 'Apple Distribution: COMPANY (ASGDSGFS)'}
      - line: '::error file=/Users/runner/work/sh-usermanagement-native-app/sh-usermanagement-native-app/ios/nativeIntegration.xcodeproj::Provisioning profile "usermanagementapp" doesn''t include signing certificate "iPhone Distribution: xxxxx (Txxxxxx)". (in target ''nativeIntegration'' from project ''nativeIntegration'')'
        source: https://github.com/yukiarrr/ios-build-action/issues/122 (GitHub Actions annotation)
        captures: {profile: usermanagementapp, certificate: 'iPhone Distribution: xxxxx (Txxxxxx)'}
      - line: 'INFO [2021-05-19 13:53:02.35]: ▸ error: exportArchive: Provisioning profile "xxxx" doesn''t include signing certificate "Apple Distribution: xxxx (xxxx)"'
        source: https://github.com/expo/turtle/issues/314 (gym output during export)
        captures: {profile: xxxx, certificate: 'Apple Distribution: xxxx (xxxx)'}
      - line: 'Provisioning profile "ttkdExpressApp" doesn''t include signing certificate "iPhone Developer: long li (D9N39VMFW3)".'
        source: https://github.com/huangxuan518/HXPackRobot/issues/8 (older Xcode, no error prefix)
        captures: {profile: ttkdExpressApp, certificate: 'iPhone Developer: long li (D9N39VMFW3)'}
    no_match:
      - line: 'Provisioning profile "Profile Name" doesn''t support the Push Notifications capability.'

- id: signing-requires-development-team
  title: Signing requires a development team
  category: codesign-other
  severity: error
  role: cause
  patterns:
    - literal: 'requires a development team'
      regex: 'Signing for (?:["“]|â€œ|â\x{80}\x{9C}|‚Äú)(?<target>[^"“”â‚]+)(?:["”]|â€\x{9D}?|â\x{80}\x{9D}|‚Äù) requires a development team'
  message: '{target} has no DEVELOPMENT_TEAM to sign with'
  explanation: >
    DEVELOPMENT_TEAM is empty for a target that must be signed. Since Xcode 14, archiving for a device
    also signs the resource bundles of Swift packages and CocoaPods, so this appears for targets you did
    not write (names like Package_Package).
  fixes:
    - summary: For simulator builds and tests, do not sign
      commands: ['xcodebuild ... CODE_SIGNING_ALLOWED=NO']
    - summary: Pass the team on the command line or in an xcconfig
      commands: ['xcodebuild ... DEVELOPMENT_TEAM=ABCDE12345']
    - summary: For CocoaPods resource bundles, turn signing off for bundle targets in the Podfile
      snippet: |
        post_install do |installer|
          installer.pods_project.targets.each do |target|
            if target.respond_to?(:product_type) && target.product_type == "com.apple.product-type.bundle"
              target.build_configurations.each { |c| c.build_settings['CODE_SIGNING_ALLOWED'] = 'NO' }
            end
          end
        end
  examples:
    match:
      - line: '~/myapp/derived_data/SourcePackages/checkouts/LaunchAtLogin/Package.swift: error: Signing for "LaunchAtLogin_LaunchAtLogin" requires a development team. Select a development team in the Signing & Capabilities editor. (in target ''LaunchAtLogin_LaunchAtLogin'' from project ''LaunchAtLogin'')'
        source: https://github.com/sindresorhus/LaunchAtLogin-Legacy/issues/85
        captures: {target: LaunchAtLogin_LaunchAtLogin}
      - line: 'Code Signing Error: Signing for "Name" requires a development team. Select a development team in the project editor.'
        source: https://github.com/yonaskolb/XcodeGen/issues/262
        captures: {target: Name}
    no_match:
      - line: 'FrameworkName will not be code signed because its settings don''t specify a development team.'

- id: code-signing-required-for-product-type
  title: Code signing is required for this product type
  category: codesign-other
  severity: error
  role: cause
  patterns:
    - literal: 'Code signing is required for product type'
      regex: "Code signing is required for product type '(?<productType>[^']+)' in SDK '(?<sdk>[^']+)'"
  message: "Product type '{productType}' for {sdk} must be signed, and signing is not set up"
  explanation: >
    Xcode refuses to build this product type for a device SDK without signing. It usually follows
    the line that says why signing is not possible (no team, no profile, no certificate); fix that
    first. If nothing precedes it, signing is switched off or CODE_SIGN_IDENTITY is empty for a device
    build.
  fixes:
    - summary: Fix the signing error reported just before this line, if any
    - summary: For simulator builds, build for the simulator SDK and skip signing
      commands: ['xcodebuild ... -destination "generic/platform=iOS Simulator" CODE_SIGNING_ALLOWED=NO']
    - summary: For device builds, set DEVELOPMENT_TEAM and a signing identity (or automatic signing with -allowProvisioningUpdates)
  examples:
    match:
      - line: "Code signing is required for product type 'Application' in SDK 'iOS 10.0'"
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L680-L682 (SAMPLE_CODE_SIGNING_IS_REQUIRED_ERROR)
        captures: {productType: Application, sdk: iOS 10.0}
      - line: "Code Signing Error: Code signing is required for product type 'Application' in SDK 'iOS 12.1'"
        source: https://github.com/MicrosoftDocs/azure-devops-docs/issues/6436
        captures: {productType: Application, sdk: iOS 12.1}
    no_match:
      - line: 'CODE_SIGNING_REQUIRED = NO'

- id: export-archive-failed
  title: xcodebuild -exportArchive failed
  category: codesign-other
  severity: error
  role: cause
  patterns:
    - literal: 'Step failed: <IDEDistribution'
      regex: 'Step failed: <IDEDistribution\w+[^>]*>: Error Domain=(?<domain>[\w.]+) Code=-?\d+ "(?<reason>.*?)" UserInfo'
    - literal: 'Failed to generate distribution items'
      regex: 'Failed to generate distribution items with error: Error Domain=(?<domain>[\w.]+) Code=-?\d+ "(?<reason>.*?)" UserInfo'
    - literal: 'exportArchive'
      regex: 'error: exportArchive:? (?<reason>.+)'
  message: 'Exporting the archive failed: {reason}'
  explanation: >
    `xcodebuild -exportArchive` re-signs the archive as ExportOptions.plist asks (method, team,
    certificate, one profile per bundle ID) and one of its steps failed. The message is often generic ("The
    operation couldn't be completed"); the full reason is in the `.xcdistributionlogs` folder whose
    path xcodebuild prints above (IDEDistribution.standard.log and verbose.log). fastlane gym calls
    this stage "Error packaging up the application".
  fixes:
    - summary: Read the distribution logs xcodebuild printed the path of ("Created bundle at path '...xcdistributionlogs'")
      commands: ['ls "$TMPDIR"/*.xcdistributionlogs']
    - summary: Check ExportOptions.plist; method, teamID, signingStyle and provisioningProfiles must match the installed certificate and profiles (see `xcodebuild -help` for the keys)
      commands: ['xcodebuild -help']
    - summary: An "unexpected Mach-O header" names a file in the archive that is not a binary (a static library or script copied into the app); remove it from the Copy Files / Embed phases
  docs:
    - https://developer.apple.com/documentation/xcode/distributing-your-app-for-beta-testing-and-releases
  examples:
    match:
      - line: '2015-12-15 13:00:57.318 xcodebuild[81544:4350404] [MT] IDEDistribution: Step failed: <IDEDistributionSigningAssetsStep: 0x7f9d94cb55a0>: Error Domain=DVTMachOErrorDomain Code=0 "Found an unexpected Mach-O header code: 0x72613c21" UserInfo={NSLocalizedDescription=Found an unexpected Mach-O header code: 0x72613c21, NSLocalizedRecoverySuggestion=}'
        source: fastlane/fastlane@d5347690d47d:gym/spec/error_handler_spec.rb#L8-L10
        captures: {domain: DVTMachOErrorDomain, reason: 'Found an unexpected Mach-O header code: 0x72613c21'}
      - line: '2015-12-15 13:00:57.318 xcodebuild[81544:4350404] [MT] IDEDistribution: Failed to generate distribution items with error: Error Domain=DVTMachOErrorDomain Code=0 "Found an unexpected Mach-O header code: 0x72613c21" UserInfo={NSLocalizedDescription=Found an unexpected Mach-O header code: 0x72613c21, NSLocalizedRecoverySuggestion=}'
        source: fastlane/fastlane@d5347690d47d:gym/spec/error_handler_spec.rb#L8-L10
        captures: {domain: DVTMachOErrorDomain, reason: 'Found an unexpected Mach-O header code: 0x72613c21'}
      - line: 'error: exportArchive: The operation couldn’t be completed. (IDEDistributionErrorDomain error 1.)'
        source: https://github.com/bitrise-steplib/steps-xcode-archive/issues/16
        captures: {reason: 'The operation couldn’t be completed. (IDEDistributionErrorDomain error 1.)'}
      - line: 'error: exportArchive: Symbols tool failed'
        source: https://github.com/flutter/flutter/issues/22306
        captures: {reason: Symbols tool failed}
    no_match:
      - line: '** EXPORT SUCCEEDED **'

- id: fastlane-match-readonly-no-profile
  title: fastlane match (readonly) has no matching provisioning profile
  category: provisioning-profile
  severity: error
  role: cause
  patterns:
    - literal: 'No matching provisioning profiles found '
      regex: "No matching provisioning profiles found (?:for '(?<profileFile>[^']+)'|and can ?not create a new one because you enabled `?readonly`?)"
  message: 'fastlane match (readonly) has no stored provisioning profile for this app'
  explanation: >
    fastlane match in readonly mode (the right mode for CI) only installs what the certificates
    repository already holds, and it holds no profile for this bundle ID and type. Typical after
    adding an app extension, a new bundle ID, a new device to a development or ad-hoc profile, or when
    the match repo, branch or storage on CI differs from the one used when the profiles were created.
  fixes:
    - summary: From a machine with developer portal access, create the missing profiles once, then keep CI readonly
      commands: ['fastlane match appstore --app_identifier "com.example.app,com.example.app.share"']
    - summary: Check that CI reads the same storage and branch (MATCH_GIT_URL, MATCH_GIT_BRANCH, git_branch option) as the machine that created them
  docs:
    - https://docs.fastlane.tools/actions/match/
  examples:
    match:
      - line: "[!] No matching provisioning profiles found and can not create a new one because you enabled `readonly`. Check the output above for more information."
        source: fastlane/fastlane@00639f2e0982:match/lib/match/runner.rb (UI.user_error!, printed by fastlane with "[!] ")
      - line: "No matching provisioning profiles found for 'AppStore_com.example.app.share.mobileprovision'"
        source: fastlane/fastlane@00639f2e0982:match/lib/match/runner.rb (UI.error before the user error)
        captures: {profileFile: AppStore_com.example.app.share.mobileprovision}
    no_match:
      - line: "No code signing identity found and can not create a new one because you enabled `readonly`"

- id: fastlane-match-certificate-problem
  title: fastlane match cannot install the signing certificate
  category: codesign-certificate
  severity: error
  role: cause
  patterns:
    - literal: 'No code signing identity found and can'
      regex: 'No code signing identity found and can ?not create a new one because you enabled `?readonly`?'
    - literal: 'please check end date and renew it'
      regex: "Your certificate '(?<certificate>[^']+)' is not valid, please check end date and renew it"
  message: 'fastlane match has no valid signing certificate to install'
  explanation: >
    In readonly mode fastlane match only installs certificates already in the certificates repository.
    Either there is none for this type yet (new repo, wrong branch or storage on CI), or the stored one
    expired or was revoked. A new certificate has to be created from a machine with developer portal
    access; CI should stay readonly.
  fixes:
    - summary: Check that CI reads the same storage and branch as the machine that created the certificates (MATCH_GIT_URL, MATCH_GIT_BRANCH)
    - summary: Create the certificate once from a machine with portal access, then rerun CI readonly
      commands: ['fastlane match appstore']
    - summary: For an expired certificate, revoke and regenerate (destructive; every profile using it is regenerated)
      commands: ['fastlane match nuke distribution', 'fastlane match appstore']
  docs:
    - https://docs.fastlane.tools/actions/match/
  examples:
    match:
      - line: "No code signing identity found and can not create a new one because you enabled `readonly`"
        source: fastlane/fastlane@00639f2e0982:match/lib/match/runner.rb (UI.crash!)
      - line: "[!] Your certificate 'ABCDE12345.cer' is not valid, please check end date and renew it if necessary"
        source: fastlane/fastlane@00639f2e0982:match/lib/match/runner.rb (UI.user_error!, printed with "[!] ")
        captures: {certificate: ABCDE12345.cer}
    no_match:
      - line: "Your certificate 'ABCDE12345.cer' is valid"

- id: fastlane-match-wrong-password
  title: fastlane match cannot decrypt the certificates repository
  category: codesign-certificate
  severity: error
  role: cause
  patterns:
    - literal: 'MATCH_PASSWORD'
      regex: "Invalid password passed via 'MATCH_PASSWORD'|Neither the MATCH_PASSWORD environment variable nor the local keychain contained a password"
  message: 'fastlane match cannot decrypt the certificates repository (MATCH_PASSWORD)'
  explanation: >
    match encrypts the certificates repository with a passphrase. On CI it comes from MATCH_PASSWORD;
    the variable is missing (a secret not exposed to this job, e.g. on pull requests from forks) or
    holds a different passphrase than the one the repository was encrypted with.
  fixes:
    - summary: Set MATCH_PASSWORD as a CI secret available to this job, with the passphrase used to encrypt the repo
    - summary: If the passphrase is lost, set a new one from a machine that can still decrypt, or recreate the repo
      commands: ['fastlane match change_password']
  docs:
    - https://docs.fastlane.tools/actions/match/
  examples:
    match:
      - line: "[!] Invalid password passed via 'MATCH_PASSWORD'"
        source: fastlane/fastlane@00f9cf81cea6:match/lib/match/encryption/openssl.rb (UI.user_error!, printed with "[!] ")
      - line: "Neither the MATCH_PASSWORD environment variable nor the local keychain contained a password."
        source: fastlane/fastlane@00f9cf81cea6:match/lib/match/encryption/openssl.rb (UI.error)
    no_match:
      - line: "export MATCH_PASSWORD=***"

- id: entitlements-without-signing
  title: Target has entitlements but is not signed
  category: codesign-other
  severity: warning
  role: cause
  patterns:
    - literal: 't code signed but requires entitlements'
      regex: '(?:^|warning: )(?<target>[^:]+?) isn\S{1,3}t code signed but requires entitlements'
  message: '{target} is built unsigned, so its entitlements are left out'
  explanation: >
    Informational for builds that switch signing off (CODE_SIGNING_ALLOWED=NO, typical for CI simulator
    builds): the binary is built without its entitlements. It does not fail the build; it matters only
    if tests rely on an entitlement (keychain groups, App Groups) at run time.
  fixes:
    - summary: Nothing to do for compile-only CI builds; sign (with a development team) when tests need the entitlements
  examples:
    match:
      - line: "warning: Widgets isn't code signed but requires entitlements. It is not possible to add entitlements to a binary without signing it. (in target 'Widgets' from project 'Backyard Birds')"
        source: cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/clean_build_xcode_15_1.txt
        captures: {target: Widgets}
    no_match:
      - line: "Widgets will not be code signed because its settings don't specify a development team."

- id: will-not-be-code-signed
  title: Target will not be code signed
  category: codesign-other
  severity: info
  role: cause
  patterns:
    - literal: 'will not be code signed because'
      regex: '(?<target>\S+) will not be code signed because (?<reason>.+?)\.?$'
  message: '{target} is not signed: {reason}'
  explanation: >
    Informational: Xcode skips signing a framework or bundle whose settings name no development team.
    Harmless for simulator builds; for device builds and archives the embedding app usually re-signs
    it, and a later signing error names the real problem if not.
  fixes:
    - summary: Nothing to do for simulator builds; set DEVELOPMENT_TEAM for the target if device builds need it signed
  examples:
    match:
      - line: "FrameworkName will not be code signed because its settings don't specify a development team."
        source: xcpretty/xcpretty@33d1f0a4adcb:spec/fixtures/constants.rb#L706 (SAMPLE_WILL_NOT_BE_CODE_SIGNED)
        captures: {target: FrameworkName, reason: "its settings don't specify a development team"}
    no_match:
      - line: 'Signing for "Name" requires a development team. Select a development team in the project editor.'
"""#
}
