import Foundation

/// The shapes of secrets build logs carry, and how each is cut out of a text.
///
/// The token formats follow the public rule sets of gitleaks (`config/gitleaks.toml`) and GitHub secret
/// scanning's supported patterns; the forms around them (variables, headers, options, URLs) are the ones CI
/// logs print. docs/security.md lists them with their sources.
enum SecretShapes {
    static let replacement = "[REDACTED]"

    /// One match of a shape's regex.
    struct Match {
        let text: NSString
        let result: NSTextCheckingResult

        func range(_ name: String) -> NSRange? {
            let r = result.range(withName: name)
            return r.location == NSNotFound ? nil : r
        }

        func group(_ name: String) -> String? { range(name).map(text.substring) }
    }

    /// A shape: texts that contain none of `triggers` (lowercased ASCII) skip its regex, so the cost on an
    /// ordinary text is a few byte searches. The regex's group `s` is the secret (the whole match when it
    /// has none); `secret` may narrow it, or say it is no secret after all (nil).
    ///
    /// A trigger is a word in any case; when a shape's match needs more than that (the case of its prefix, a
    /// separator after a key), `confirm` says from the text's bytes, before the regex runs, whether a match is
    /// possible at all. It may say yes when there is none, never no when there is one. (`ac` and `sk`, the
    /// triggers of Twilio's ids, are in most compiler messages: `each`, `task`.)
    struct Shape: @unchecked Sendable { // NSRegularExpression is immutable once built
        var name: String
        var triggers: [[UInt8]]
        var regex: NSRegularExpression
        var secret: (@Sendable (Match) -> NSRange?)?
        var confirm: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)?

        init(_ name: String, _ triggers: [String], _ pattern: String, secret: (@Sendable (Match) -> NSRange?)? = nil,
             confirm: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)? = nil) {
            self.name = name
            self.triggers = triggers.map { Array($0.lowercased().utf8) }
            self.regex = try! NSRegularExpression(pattern: pattern)
            self.secret = secret
            self.confirm = confirm
        }

        /// Whether the shape may match `text`: its confirmation on the text's bytes, when it has one.
        func mayMatch(_ text: String) -> Bool {
            guard let confirm else { return true }
            var text = text
            return text.withUTF8 { confirm($0) }
        }
    }

    /// Confirmations of token shapes whose regex needs a case-sensitive prefix and a run of characters after it.
    static let tokenConfirms: [String: @Sendable (UnsafeBufferPointer<UInt8>) -> Bool] = [
        "Twilio API key": { hasLiteral(Array("SK".utf8), followedBy: 32, of: isHex, in: $0) },
        "Twilio account SID": { hasLiteral(Array("AC".utf8), followedBy: 32, of: isHex, in: $0) },
        "OpenAI / Anthropic key": { hasLiteral(Array("sk-".utf8), followedBy: 32, of: isTokenByte, in: $0) },
    ]

    static func isHex(_ b: UInt8) -> Bool { (48...57).contains(b) || (97...102).contains(b) || (65...70).contains(b) }
    static func isTokenByte(_ b: UInt8) -> Bool { (48...57).contains(b) || (65...90).contains(b) || (97...122).contains(b) || b == 95 || b == 45 }

    /// Whether `literal` occurs in `u` (case-sensitively) with at least `count` bytes that `allowed` accepts after it.
    static func hasLiteral(_ literal: [UInt8], followedBy count: Int, of allowed: (UInt8) -> Bool, in u: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = u.baseAddress else { return false }
        return literal.withUnsafeBufferPointer { needle in
            var from = 0
            while let at = Bytes.firstIndex(of: needle, in: base, count: u.count, from: from) {
                let runStart = at + needle.count
                var j = runStart
                while j < u.count, j - runStart < count, allowed(u[j]) { j += 1 }
                if j - runStart == count { return true }
                from = at + 1
            }
            return false
        }
    }

    /// Whether the bytes hold an `=` right after `myacinfo`, `dqsid`, or `des` and 20 or more hex digits (in any case):
    /// the session cookie's key. Its trigger `des` is in `includes` and `modes`, and code has `=` everywhere.
    static func mayHoldSessionCookie(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
        func endsWith(_ w: [UInt8], at end: Int) -> Bool {
            guard end >= w.count else { return false }
            for k in 0..<w.count where lower(u[end - w.count + k]) != w[k] { return false }
            return true
        }
        let myacinfo = Array("myacinfo".utf8), dqsid = Array("dqsid".utf8), des = Array("des".utf8)
        var i = 0
        while i < u.count {
            if u[i] == 61 {
                if endsWith(myacinfo, at: i) || endsWith(dqsid, at: i) { return true }
                var start = i
                while start > 0, isHex(u[start - 1]) { start -= 1 }
                if i - start >= 20, endsWith(des, at: start) { return true }
            }
            i += 1
        }
        return false
    }

    /// Whether the bytes hold four groups of four ASCII letters joined by `-` (`abcd-efgh-ijkl-mnop`), the form of an
    /// Apple ID app-specific password; its triggers (`pass`, `-p`) are in most command lines.
    static func hasFourLetterGroups(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        func letter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        guard u.count >= 19 else { return false }
        var p = 4
        while p + 15 <= u.count {
            if u[p] == 45, u[p + 5] == 45, u[p + 10] == 45 {
                var ok = true
                for start in [p - 4, p + 1, p + 6, p + 11] where ok {
                    for k in start..<(start + 4) where !letter(u[k]) { ok = false; break }
                }
                if ok { return true }
            }
            p += 1
        }
        return false
    }

    /// Whether the text has a key the "secret-named value" shape could take: a run of `[A-Za-z0-9_.-]` that starts with
    /// a letter or `_`, is not a path's component (no `/` before it), holds a trigger word in any case, and is followed by
    /// an optional quote, white space and `:` or `=`. (That shape's key is always such a whole run: the characters
    /// around it are not key characters.)
    static func mayHoldKeyedValue(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        func isKeyByte(_ b: UInt8) -> Bool { (48...57).contains(b) || (65...90).contains(b) || (97...122).contains(b) || b == 95 || b == 46 || b == 45 }
        let n = u.count
        var i = 0
        while i < n {
            // A colour code before a key (`\u{1B}[32mpassword: `): the key starts after its `m`.
            if u[i] == 0x1B, i + 1 < n, u[i + 1] == 91 {
                var k = i + 2
                while k < n, (48...57).contains(u[k]) || u[k] == 59 { k += 1 }
                i = k < n && u[k] == 109 ? k + 1 : k
                continue
            }
            guard isKeyByte(u[i]) else { i += 1; continue }
            var j = i + 1
            while j < n, isKeyByte(u[j]) { j += 1 }
            let first = u[i]
            if (65...90).contains(first) || (97...122).contains(first) || first == 95, i == 0 || u[i - 1] != 47,
               separatorFollows(u, j), containsKeyTrigger(UnsafeBufferPointer(rebasing: u[i..<j])) {
                return true
            }
            i = j
        }
        return false
    }

    /// `"` or `'`, white space, then `:` or `=` at `start`. A byte outside ASCII in the white space may be a space ICU
    /// counts: then yes.
    private static func separatorFollows(_ u: UnsafeBufferPointer<UInt8>, _ start: Int) -> Bool {
        var k = start
        if k < u.count, u[k] == 34 || u[k] == 39 { k += 1 }
        while k < u.count {
            let b = u[k]
            if b == 58 || b == 61 { return true }
            if b >= 0x80 { return true }
            guard b == 32 || (9...13).contains(b) else { return false }
            k += 1
        }
        return false
    }

    private static let loweredKeyTriggers: [[UInt8]] = keyTriggers.map { Array($0.lowercased().utf8) }

    private static func containsKeyTrigger(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
        let lowered = run.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }
        return lowered.withUnsafeBufferPointer { hay in
            guard let base = hay.baseAddress else { return false }
            return loweredKeyTriggers.contains { needle in needle.withUnsafeBufferPointer { Bytes.contains(base, count: hay.count, $0) } }
        }
    }

    /// A value after a key: quoted, or up to the next space or quote.
    static let value = #"(?<v>"[^"\n]*"|'[^'\n]*'|[^\s'"]+)"#
    static let keyBegin = #"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"#
    static let keyEnd = #"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"#

    /// Provider tokens: a distinctive prefix and a length. No word boundary in front, so a token glued to
    /// a word (`keyAKIA…`, a colour code's `m` left before it) still goes.
    static let tokens: [(String, [String], String)] = [
        ("GitHub token", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], #"gh[pousr]_[A-Za-z0-9]{30,}"#),
        ("GitHub fine-grained token", ["github_pat_"], #"github_pat_[A-Za-z0-9_]{30,}"#),
        ("GitLab token", ["glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glft-", "glimt-", "gloas-", "glsoat-", "glffct-", "glagent-"],
         #"gl(?:pat|dt|rt|ptt|cbt|ft|imt|oas|soat|ffct|agent)-[A-Za-z0-9_.-]{20,}"#),
        ("GitLab runner registration token", ["gr1348941"], #"GR1348941[A-Za-z0-9_-]{20,}"#),
        ("Atlassian / Bitbucket token", ["atbb", "atatt", "atctt"], #"AT(?:BB|ATT|CTT)[A-Za-z0-9_=.-]{24,}"#),
        ("Slack token", ["xox"], #"xox[abposre]-[A-Za-z0-9-]{10,}"#),
        ("Slack app token", ["xapp-"], #"xapp-\d-[A-Za-z0-9-]{10,}"#),
        ("AWS access key id", ["akia", "asia", "abia", "acca", "a3t"], #"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Z0-9])"#),
        ("Google API key", ["aiza"], #"AIza[A-Za-z0-9_-]{35}"#),
        ("Google OAuth client secret", ["gocspx-"], #"GOCSPX-[A-Za-z0-9_-]{20,}"#),
        ("Google OAuth token", ["ya29."], #"ya29\.[A-Za-z0-9_-]{20,}"#),
        ("Google refresh token", ["1//0"], #"1//0[A-Za-z0-9_-]{30,}"#),
        ("Firebase Cloud Messaging server key", ["apa91b"], #"AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{60,}"#),
        ("Azure AD client secret", ["q~"], #"(?<![A-Za-z0-9_~.])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}"#),
        ("Stripe key", ["sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"], #"[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,}"#),
        ("Stripe webhook secret", ["whsec_"], #"whsec_[A-Za-z0-9]{20,}"#),
        ("npm token", ["npm_"], #"npm_[A-Za-z0-9]{36}"#),
        ("PyPI token", ["pypi-ag"], #"pypi-Ag[A-Za-z0-9_-]{40,}"#),
        ("RubyGems key", ["rubygems_"], #"rubygems_[a-f0-9]{48}"#),
        ("Sentry token", ["sntrys_", "sntryu_"], #"sntry[su]_[A-Za-z0-9+/=_]{30,}"#),
        ("Twilio API key", ["sk"], #"(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])"#),
        ("Twilio account SID", ["ac"], #"(?<![A-Za-z0-9])AC[0-9a-f]{32}(?![A-Za-z0-9])"#),
        ("SendGrid key", ["sg."], #"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,60}"#),
        ("Mailgun key", ["key-"], #"(?<![A-Za-z0-9])key-[0-9a-f]{32}(?![A-Za-z0-9])"#),
        ("Mailchimp key", ["-us"], #"(?<![A-Za-z0-9])[0-9a-f]{32}-us\d{1,2}(?![A-Za-z0-9])"#),
        ("Shopify token", ["shpat_", "shpca_", "shppa_", "shpss_"], #"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"#),
        ("DigitalOcean token", ["dop_v1_", "doo_v1_", "dor_v1_"], #"do[por]_v1_[a-f0-9]{64}"#),
        ("OpenAI / Anthropic key", ["sk-"], #"(?<![A-Za-z0-9])sk-(?:proj-|svcacct-|admin-|ant-(?:api|admin)\d\d-)?[A-Za-z0-9_-]{32,}"#),
        ("HashiCorp Vault token", ["hvs.", "hvb.", "hvr."], #"hv[sbr]\.[A-Za-z0-9_-]{24,}"#),
        ("Doppler token", ["dp.pt.", "dp.st.", "dp.sa.", "dp.ct."], #"dp\.(?:pt|st|sa|ct)\.[A-Za-z0-9]{40,}"#),
        ("Postman key", ["pmak-"], #"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"#),
        ("Hugging Face token", ["hf_"], #"(?<![A-Za-z0-9])hf_[A-Za-z0-9]{34,}"#),
        ("Docker Hub token", ["dckr_pat_"], #"dckr_pat_[A-Za-z0-9_-]{20,}"#),
        ("Buildkite token", ["bkua_"], #"bkua_[a-f0-9]{40}"#),
        ("CircleCI token", ["ccipat_"], #"CCIPAT_[A-Za-z0-9_]{20,}"#),
        ("New Relic key", ["nrak-"], #"NRAK-[A-Z0-9]{27}"#),
        ("Grafana token", ["glc_", "glsa_"], #"gl(?:c|sa)_[A-Za-z0-9_=+/-]{32,}"#),
        ("Linear key", ["lin_api_"], #"lin_api_[A-Za-z0-9]{40}"#),
        ("Figma token", ["figd_"], #"figd_[A-Za-z0-9_-]{30,}"#),
        ("Heroku key", ["hrku-"], #"HRKU-[A-Za-z0-9_-]{30,}"#),
        ("Databricks token", ["dapi"], #"dapi[a-f0-9]{32}"#),
        ("age secret key", ["age-secret-key-"], #"AGE-SECRET-KEY-1[A-Z0-9]{50,}"#),
        ("JFrog key", ["akcp"], #"AKCp[A-Za-z0-9]{60,}"#),
        ("Telegram bot token", [":aa"], #"(?<![0-9])\d{8,10}:AA[A-Za-z0-9_-]{33}"#),
        ("JSON Web Token", ["eyj"], #"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"#),
        // A PEM key base64-encoded once more (an App Store Connect key kept in a variable): `-----BEGIN` in base64.
        ("base64 PEM block", ["ls0tls1crudjt"], #"LS0tLS1CRUdJT[A-Za-z0-9+/=]{16,}"#),
    ]

    static let shapes: [Shape] = {
        var shapes: [Shape] = [
            // Private key blocks (App Store Connect .p8 keys are PKCS#8 `PRIVATE KEY`), on one line or several
            // lines of one text; a block cut before its END line is redacted to the end.
            Shape("private key block", ["private key"], keyBegin + #"[\s\S]*?(?:"# + keyEnd + "|$)"),
        ]
        shapes += tokens.map { Shape($0.0, $0.1, $0.2, confirm: tokenConfirms[$0.0]) }
        shapes += [
            // Webhook URLs: the path is the secret.
            Shape("Slack webhook", ["hooks.slack.com"], #"hooks\.slack\.com/(?:services|workflows|triggers)/(?<s>[A-Za-z0-9_/+-]+)"#),
            Shape("Discord webhook", ["/api/webhooks/"], #"discord(?:app)?\.com/api/webhooks/(?<s>[0-9]+/[A-Za-z0-9_-]+)"#),
            Shape("Teams webhook", ["webhook.office.com", "logic.azure.com"],
                  #"(?:webhook\.office\.com/webhookb2|logic\.azure\.com[^\s'"]*?/workflows)/(?<s>[^\s'"]+)"#),
            // Credentials in URLs: https://user:password@host (a password may hold `@`: the last `@` before the
            // path ends them), and a token as the whole user name (https://TOKEN@github.com, a Sentry DSN).
            Shape("URL credentials", ["://"], #"[A-Za-z][A-Za-z0-9+.-]*://(?<s>[^/\s'"?#<>]*)@"#, secret: { m in
                guard let user = m.group("s"), !user.isEmpty else { return nil }
                return user.contains(":") || looksLikeToken(user) ? m.range("s") : nil
            }),
            // Signed URLs and query strings: S3/CloudFront/GCS signatures, Azure SAS `sig=`, tokens in queries.
            Shape("signed URL parameter", ["x-amz-", "x-goog-", "signature=", "sig=", "awsaccesskeyid=", "token=", "secret=", "password=",
                                           "passwd=", "pwd=", "key=", "auth=", "credential="],
                  ##"(?i)[?&;](?:x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|signature|sig|awsaccesskeyid|[a-z_]*token|client_secret|secret|password|passwd|pwd|api_?key|auth|credential)=(?<s>[^&\s'"#;]+)"##,
                  secret: { m in isPlaceholder(m.group("s") ?? "") ? nil : m.range("s") }),
            // Headers: everything after the header name, to the end of the line or the closing quote.
            // (`Authorization: Basic <redacted>`: a scheme before a placeholder is no secret either.)
            Shape("Authorization header", ["authorization"], #"(?i)\b(?:proxy-)?authorization\s*:\s*(?<s>[^'"\n]+)"#,
                  secret: { m in
                      let value = m.group("s") ?? ""
                      let credentials = value.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init)
                      return isPlaceholder(value) || credentials.map(isPlaceholder) == true ? nil : m.range("s")
                  }),
            Shape("Cookie header", ["cookie"], #"(?i)\b(?:set-)?cookie\s*:\s*(?<s>[^'"\n]+)"#,
                  secret: { m in isPlaceholder(m.group("s") ?? "") ? nil : m.range("s") }),
            Shape("bearer token", ["bearer"], #"(?i)\bbearer\s+(?<s>[A-Za-z0-9._~+/-]{16,}=*)"#),
            Shape("basic credentials", ["basic"], #"(?i)\bbasic\s+(?<s>[A-Za-z0-9+/]{16,}={0,2})"#),
            // Apple ID session cookies (fastlane's FASTLANE_SESSION holds them).
            Shape("Apple session cookie", ["myacinfo", "dqsid", "des"], #"(?i)\b(?:myacinfo|dqsid|des[0-9a-f]{20,})=(?<s>[^;\s'"]+)"#,
                  confirm: { mayHoldSessionCookie($0) }),
            // Command-line options.
            Shape("password option", ["pass", "secret", "token", "key", "issuer", "auth"],
                  #"(?i)(?<![A-Za-z0-9-])--?[a-z0-9_-]*?(?:password|passwd|pass|passphrase|secret|token|api[-_]?key|apikey|api[-_]?issuer|issuer(?:[-_]?id)?|key[-_]?id|storepass|keypass|srcstorepass|deststorepass|auth)(?:=|\s+)"# + value,
                  secret: { m in optionValue(m) }),
            Shape("curl user", ["-u", "--user"], #"\bcurl\b[^\n]*?\s(?:-u|--user)\s*(?<v>"[^"\n]*"|'[^'\n]*'|[^\s'"]+)"#,
                  secret: { m in (m.group("v") ?? "").contains(":") ? unquoted(m, "v") : nil }),
            Shape("login -p", ["login", "sshpass"], #"\b(?:(?:docker|podman|buildah|skopeo|helm|oras|crane|nerdctl)\b[^\n]*?\blogin|sshpass)\b[^\n]*?\s-p\s*"# + value,
                  secret: { m in optionValue(m) }),
            Shape("-p=", ["-p="], #"\s-p="# + value, secret: { m in optionValue(m) }),
            Shape("altool -p", ["altool"], #"\baltool\b[^\n]*?\s-p\s+"# + value, secret: { m in optionValue(m) }),
            // The keychain password of `security` (man security): unlock-keychain/create-keychain -p,
            // import/export -P (the .p12 passphrase), set-key-partition-list -k.
            Shape("security -p", ["security"], #"\bsecurity\s+(?:unlock-keychain|create-keychain|set-keychain-password)\b[^\n]*?\s-p\s+"# + value,
                  secret: { m in optionValue(m) }),
            Shape("security -P", ["security"], #"\bsecurity\s+(?:import|export)\b[^\n]*?\s-P\s+"# + value, secret: { m in optionValue(m) }),
            Shape("security -k", ["security"], #"\bsecurity\s+set-key-partition-list\b[^\n]*?\s-k\s+"# + value, secret: { m in optionValue(m) }),
            Shape("openssl pass:", ["pass:"], #"(?i)-pass(?:in|out)?\s+pass:(?<s>[^\s'"]+)"#,
                  secret: { m in isPlaceholder(m.group("s") ?? "") ? nil : m.range("s") }), // (`pass:***`: masked already)
            Shape(".netrc password", ["machine"], #"\bmachine\s+\S+(?:\s+login\s+\S+)?\s+password\s+(?<s>\S+)"#),
            // KEY=value, key: value, "key": "value", key => value, where the key names a secret.
            Shape("secret-named value", keyTriggers,
                  // (Not a path's component: `…/XCTest-status/Session-2014-09-10_11:39:20-JbO0b7.log` names a file.)
                  // (A colour code may stand right before the key: `\u{1B}[32mpassword: …`.)
                  #"(?<![A-Za-z0-9_./-])(?:\x{1B}\[[0-9;]*m)?(?<k>[A-Za-z_][A-Za-z0-9_.-]{0,80})["']?(?<sep>\s*(?:=>|:=|[:=])\s*)"# + value,
                  secret: { m in keyedValue(m) }, confirm: { mayHoldKeyedValue($0) }),
            // A property list entry: <key>APIKey</key><string>…</string>.
            Shape("plist entry", ["<key>"], #"<key>(?<k>[^<]{1,80})</key>\s*<string>(?<s>[^<]+)</string>"#, secret: { m in
                kind(ofKey: m.group("k") ?? "") == .secret && !isPlaceholder(m.group("s") ?? "") ? m.range("s") : nil
            }),
            // Apple ID app-specific passwords (xxxx-xxxx-xxxx-xxxx) after the words that introduce them.
            Shape("app-specific password", ["pass", "pwd", "-p", "apple", "specific"],
                  #"(?i)(?:password|passwd|pwd|-p|apple|specific)\W{1,3}(?<s>[a-z]{4}-[a-z]{4}-[a-z]{4}-[a-z]{4})(?![A-Za-z0-9-])"#,
                  secret: { m in isPlaceholder(m.group("s") ?? "") ? nil : m.range("s") },
                  confirm: { hasFourLetterGroups($0) }),
            // A long high-entropy value after a word that names a secret, with no `=` or `:` between.
            Shape("high-entropy value", ["secret", "token", "pass", "pwd", "key", "auth", "credential"],
                  #"(?i)(?<![A-Za-z0-9])(?:secret|token|password|passwd|pwd|api[_ -]?key|auth|credential|private[_ -]?key|access[_ -]?key)s?(?![A-Za-z0-9_])[^A-Za-z0-9\n]{0,3}(?:(?:is|was|of|for|to|as)\s+)?(?<s>[A-Za-z0-9+/_.=~-]{20,})"#,
                  secret: { m in
                      guard let s = m.range("s"), isHighEntropy(m.group("s") ?? "") else { return nil }
                      // The word with a dot after it (`Auth.build/Objects-normal/arm64/Auth.swiftmodule`, `Token.swift`)
                      // names a file or a module, not a secret and its value.
                      if s.location > 0, m.text.character(at: s.location - 1) == 0x2E { return nil }
                      // A path after it (`PWD=/private/var/folders/6c/4zxbd4tj1bx5rm_9tfnkdbp40000gn/T`, the shell's working
                      // directory in an `env` dump): a place, however random its folders' names.
                      if s.location > 0, m.text.character(at: s.location - 1) == 0x2F { return nil }
                      // A file's name (`Thea\ Credentials-ExecutorLinkFileList-normal-arm64.txt`, an intermediate file of an
                      // extension named Credentials): it ends in an extension.
                      if hasFileExtension(m.group("s") ?? "") { return nil }
                      // The variable that holds it (`Normalizando ASC Private Key (EXPO_ASC_PRIVATE_KEY_BASE64)...`).
                      if isVariableName(m.group("s") ?? "") { return nil }
                      return s
                  }),
        ]
        return shapes
    }()

    // MARK: - Applying the shapes

    static func redact(_ text: String) -> String {
        guard !text.isEmpty else { return text }
        var lowered = Array(text.utf8)
        for i in lowered.indices where lowered[i] >= 0x41 && lowered[i] <= 0x5A { lowered[i] |= 0x20 }
        let triggered = Triggers.table.shapes(triggeredIn: lowered)
        guard triggered.contains(true) else { return text }
        var out = text
        for (i, shape) in shapes.enumerated() where triggered[i] && shape.mayMatch(out) {
            out = apply(shape, to: out)
        }
        return out
    }

    /// Which shapes' triggers a lower-cased text contains, found in one pass over its bytes: every trigger
    /// is filed under its first two bytes, so a position costs one table load and only the triggers that
    /// start with the pair there are compared (a report redacts every text of thousands of findings; a
    /// search per trigger, about 150 of them, was most of an error-dense log's report).
    struct Triggers: @unchecked Sendable { // immutable once built
        /// Per byte pair (`first << 8 | second`): 1 + its index in `lists`, or 0.
        private let slots: [UInt16]
        private let lists: [[(shape: Int, needle: [UInt8])]]
        /// Shapes with a one-byte trigger (none today), checked with a byte search.
        private let short: [(shape: Int, needle: [UInt8])]

        static let table = Triggers(SecretShapes.shapes.map(\.triggers))

        init(_ triggers: [[[UInt8]]]) {
            var slots = [UInt16](repeating: 0, count: 65_536)
            var lists: [[(shape: Int, needle: [UInt8])]] = []
            var short: [(shape: Int, needle: [UInt8])] = []
            for (shape, needles) in triggers.enumerated() {
                for needle in needles {
                    guard needle.count >= 2 else { short.append((shape, needle)); continue }
                    let pair = Int(needle[0]) << 8 | Int(needle[1])
                    if slots[pair] == 0 {
                        lists.append([])
                        slots[pair] = UInt16(lists.count)
                    }
                    lists[Int(slots[pair]) - 1].append((shape, needle))
                }
            }
            self.slots = slots
            self.lists = lists
            self.short = short
        }

        func shapes(triggeredIn lowered: [UInt8]) -> [Bool] {
            var triggered = [Bool](repeating: false, count: SecretShapes.shapes.count)
            lowered.withUnsafeBufferPointer { hay in
                guard let base = hay.baseAddress else { return }
                let n = hay.count
                slots.withUnsafeBufferPointer { slots in
                    var i = 0
                    while i + 1 < n {
                        let slot = Int(slots[Int(base[i]) << 8 | Int(base[i + 1])])
                        if slot != 0 {
                            for (shape, needle) in lists[slot - 1] where !triggered[shape] && needle.count <= n - i {
                                if needle.withUnsafeBufferPointer({ memcmp(base + i, $0.baseAddress!, needle.count) == 0 }) {
                                    triggered[shape] = true
                                }
                            }
                        }
                        i += 1
                    }
                }
                for (shape, needle) in short where !triggered[shape] {
                    triggered[shape] = needle.withUnsafeBufferPointer { Bytes.contains(base, count: n, $0) }
                }
            }
            return triggered
        }
    }

    /// Replaces each secret the shape finds. A match that is no secret (a key that names none) is tried
    /// again from its value on, so `note: password=…` still finds the password.
    static func apply(_ shape: Shape, to text: String) -> String {
        let ns = text as NSString
        var pieces: [String] = []
        var copied = 0
        var position = 0
        while position < ns.length,
              let result = shape.regex.firstMatch(in: text, range: NSRange(location: position, length: ns.length - position)) {
            let match = Match(text: ns, result: result)
            let secret = shape.secret.map { $0(match) } ?? (match.range("s") ?? result.range)
            if let secret, secret.length > 0, secret.location >= copied, !isAlreadyRedacted(ns.substring(with: secret)) {
                pieces.append(ns.substring(with: NSRange(location: copied, length: secret.location - copied)))
                pieces.append(replacement)
                copied = secret.location + secret.length
                position = max(result.range.location + result.range.length, position + 1)
            } else {
                let retry = match.range("v")?.location ?? match.range("s")?.location ?? 0
                position = retry > result.range.location ? retry : result.range.location + 1
            }
        }
        guard copied > 0 || !pieces.isEmpty else { return text }
        pieces.append(ns.substring(from: copied))
        return pieces.joined()
    }

    private static func isAlreadyRedacted(_ secret: String) -> Bool {
        guard secret.contains(replacement) else { return false }
        return secret.replacingOccurrences(of: replacement, with: "").unicodeScalars.filter(isAlphanumeric).count < 4
    }

    // MARK: - Deciding

    static func isAlphanumeric(_ s: Unicode.Scalar) -> Bool {
        (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9")
    }

    /// A user name that is a token: long, with letters and digits (a Sentry DSN key, a 40-hex token).
    static func looksLikeToken(_ user: String) -> Bool {
        let scalars = user.unicodeScalars
        guard scalars.count >= 16, scalars.allSatisfy({ isAlphanumeric($0) || "_-.~%".unicodeScalars.contains($0) }) else { return false }
        return scalars.contains { $0 >= "0" && $0 <= "9" } && scalars.contains { ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") }
    }

    /// Values that stand for a secret without being one: a variable reference, a mask, a placeholder.
    static func isPlaceholder(_ raw: String) -> Bool {
        let value = raw.trimmingCharacters(in: CharacterSet(charactersIn: "\"'` ,;"))
        if value.isEmpty { return true }
        if value.hasPrefix("$") || value.hasPrefix("%") || value.hasPrefix("{{") || value.hasPrefix("<") || value.hasPrefix("@keychain:")
            || value.hasPrefix("@env:") || value.hasPrefix("env:") || value.hasPrefix("file:") || value == replacement { return true }
        if value.unicodeScalars.allSatisfy({ "*xX•.#-_".unicodeScalars.contains($0) }) { return true }
        // A template's field in braces (`-p {password}`, as a tool's documentation writes a command).
        if value.count > 2, value.hasPrefix("{"), value.hasSuffix("}"), let first = value.unicodeScalars.dropFirst().first,
           first == "_" || (first >= "A" && first <= "Z") || (first >= "a" && first <= "z"),
           value.unicodeScalars.dropFirst().dropLast().allSatisfy({ $0 == "_" || $0 == "-" || $0 == " " || $0 == "." || isAlphanumeric($0) }) {
            return true
        }
        // One character over and over (`aaaa-aaaa-aaaa-aaaa`, `0000000000`): the shape of a value, written to show it.
        let alphanumerics = value.unicodeScalars.filter(isAlphanumeric)
        if alphanumerics.count >= 4, Set(alphanumerics.map { $0.properties.lowercaseMapping }).count == 1 { return true }
        // A value a person wrote for theirs (`--apiKey YourKeyID`, `YOUR_API_TOKEN`, `your-token`).
        for word in ["your", "Your", "YOUR"] where value.hasPrefix(word) {
            guard let next = value.unicodeScalars.dropFirst(word.count).first else { continue }
            if next == "_" || next == "-" || (next >= "A" && next <= "Z") { return true }
        }
        return isVariableName(value)
    }

    /// The name of the environment variable that holds the secret, written where its value would go (`altool … -p
    /// APPLE_PASSWORD`, a tool echoing its command line before expanding it): upper-case words joined by `_`, one of them
    /// naming what it holds.
    static func isVariableName(_ value: String) -> Bool {
        let scalars = value.unicodeScalars
        guard scalars.count >= 4, scalars.count <= 64, scalars.contains("_"), let first = scalars.first, first >= "A" && first <= "Z",
              scalars.allSatisfy({ ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "_" }) else { return false }
        let words = value.split(separator: "_")
        return words.contains { ["PASSWORD", "PASS", "PWD", "PASSWD", "TOKEN", "KEY", "SECRET", "ID", "USER", "USERNAME", "PASSPHRASE"].contains(String($0)) }
    }

    /// An option's value (in `v`), unless it is the next option, a reference or a path.
    static func optionValue(_ m: Match) -> NSRange? {
        guard let v = m.group("v"), !v.hasPrefix("-"), !isPlaceholder(v), !isPath(v) else { return nil }
        return unquoted(m, "v")
    }

    /// The range of group `name` without its quotes.
    static func unquoted(_ m: Match, _ name: String) -> NSRange? {
        guard let r = m.range(name), let v = m.group(name) else { return nil }
        if v.count >= 2, let first = v.first, first == "\"" || first == "'", v.last == first {
            return r.length > 2 ? NSRange(location: r.location + 1, length: r.length - 2) : nil
        }
        return r
    }

    /// A reverse-DNS identifier (`com.apple.CoreSimulator.SimDevice.7283EAE1-…` after `Session = `, a bundle
    /// or service name): a name, not a secret.
    static func isReverseDNSName(_ v: String) -> Bool {
        let parts = v.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, ["com", "org", "net", "io", "dev", "app"].contains(parts[0]) else { return false }
        return parts.allSatisfy { part in !part.isEmpty && part.unicodeScalars.allSatisfy { isAlphanumeric($0) || $0 == "-" || $0 == "_" } }
    }

    static func isPath(_ v: String) -> Bool {
        v.hasPrefix("/") || v.hasPrefix("~/") || v.hasPrefix("./") || v.hasPrefix("../")
    }

    // MARK: Secret-named keys

    static let secretWords: Set<String> = [
        "secret", "secrets", "token", "tokens", "password", "passwords", "passwd", "pwd", "pass", "passphrase", "apikey", "apitoken",
        "authtoken", "accesstoken", "auth", "credential", "credentials", "creds", "private", "privatekey", "secretkey", "accesskey",
        "accountkey", "sharedaccesskey", "sharedaccesssignature", "sig", "session", "cookie", "dsn", "myacinfo", "issuerid",
        "authorization", "pat",
    ]
    /// `X_KEY` names a secret for these X (api key, access key, app key …); `ISSUER_ID` too.
    static let keyQualifiers: Set<String> = [
        "api", "access", "account", "app", "application", "private", "secret", "signing", "encryption", "master", "client", "server",
        "service", "storage", "license", "shared", "auth", "session", "sas", "p8", "connect",
    ]
    /// Names of encoded certificates and profiles: their value is a secret when it is long base64.
    static let encodedWords: Set<String> = [
        "certificate", "certificates", "cert", "certs", "p12", "pfx", "keystore", "jks", "profile", "profiles", "provisioning",
        "provision", "mobileprovision", "base64", "b64",
    ]
    /// A last word that makes the value something other than the secret (a file, a URL, a type, a switch).
    static let notSecretLastWords: Set<String> = [
        "file", "files", "path", "paths", "dir", "directory", "url", "uri", "helper", "type", "name", "length", "len", "count", "expiry",
        "expires", "expiration", "env", "var", "prompt", "mode", "method", "format", "kind", "required", "enabled", "policy", "hint", "label",
        "location", "endpoint", "usage", "ref", "source", "stdin", "manager", "provider", "scope", "scopes", "field", "header", "status",
        "error", "errors", "valid", "exists", "set", "timeout", "ttl", "version", "size", "domain", "host", "user", "username", "login",
        "identifier", "identifiers", "uuid", "udid", "description", "command", "arch", "architecture", "scheme", "target", "configuration",
        "platform", "destination",
    ]
    /// A key that is a file name (`AuthSession.swift:297:22:`) names no secret.
    static let sourceExtensions: Set<String> = [
        "swift", "m", "mm", "h", "hpp", "c", "cc", "cpp", "kt", "java", "rb", "py", "js", "ts", "tsx", "jsx", "dart", "json", "yml",
        "yaml", "plist", "xcconfig", "sh", "log", "txt", "storyboard", "xib", "strings", "entitlements", "pbxproj", "xcscheme",
        "gradle", "podspec", "lock", "md", "html", "xml", "metal", "intentdefinition", "xcstrings",
    ]
    /// Environment variables macOS sets that name a terminal or login session, in every `env` a tool prints.
    static let notSecretKeys: Set<String> = ["TERM_SESSION_ID", "SECURITYSESSIONID"]
    /// Values that are words of a sentence or code, not a secret.
    static let notSecretValues: Set<String> = [
        "null", "nil", "none", "true", "false", "yes", "no", "on", "off", "required", "optional", "undefined", "empty", "unset", "not",
        "is", "was", "set", "missing", "invalid", "incorrect", "expired", "found", "provided", "given", "specified", "needed", "from",
        "for", "the", "and", "or", "in", "of", "to", "with", "redacted", "hidden", "masked", "try", "await", "self", "super", "let",
        "var", "func", "return", "some", "any", "throws", "async", "case", "default", "string", "int", "bool", "data", "url", "date",
        // A shell's `line 109: shell_session_update: command not found` names a function, not a value.
        "command",
    ]
    static let keyTriggers = ["secret", "token", "pass", "pwd", "key", "auth", "cred", "private", "sig", "session", "cookie", "dsn",
                              "myacinfo", "issuer", "cert", "p12", "pfx", "jks", "profile", "provision", "base64", "b64", "pat"]

    /// The words of an identifier: split at `_`, `-`, `.` and case changes (`SecretAccessKey`, `APIKey`), lowercased.
    static func words(_ key: String) -> [String] {
        var words: [String] = []
        var current = ""
        let scalars = Array(key.unicodeScalars)
        func isUpper(_ s: Unicode.Scalar) -> Bool { s >= "A" && s <= "Z" }
        func isLower(_ s: Unicode.Scalar) -> Bool { (s >= "a" && s <= "z") || (s >= "0" && s <= "9") }
        for (i, s) in scalars.enumerated() {
            if s == "_" || s == "-" || s == "." {
                if !current.isEmpty { words.append(current); current = "" }
                continue
            }
            if isUpper(s), i > 0, !current.isEmpty {
                let previous = scalars[i - 1]
                let nextIsLower = i + 1 < scalars.count && scalars[i + 1] >= "a" && scalars[i + 1] <= "z"
                if isLower(previous) || (isUpper(previous) && nextIsLower) { words.append(current); current = "" }
            }
            current.unicodeScalars.append(isUpper(s) ? Unicode.Scalar(s.value + 32)! : s)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    enum KeyKind { case secret, encoded }

    static func kind(ofKey key: String) -> KeyKind? {
        // An NSError's userInfo key (`_NSURLErrorFailingURLSessionTaskErrorKey=`, `_kCFStreamErrorDomainKey=`): Apple's
        // constant names a field of the error, never a secret, whatever words it holds.
        if key.hasSuffix("Key"), key.hasPrefix("NS") || key.hasPrefix("_NS") || key.hasPrefix("kCF") || key.hasPrefix("_kCF") { return nil }
        if notSecretKeys.contains(key) { return nil }
        let w = words(key)
        guard let last = w.last, !notSecretLastWords.contains(last), !sourceExtensions.contains(last) else { return nil }
        for (i, word) in w.enumerated() {
            if secretWords.contains(word) { return .secret }
            if word == "key", i > 0, keyQualifiers.contains(w[i - 1]) { return .secret }
            if word == "id", i > 0, w[i - 1] == "issuer" { return .secret }
        }
        if w.contains(where: encodedWords.contains) { return .encoded }
        return nil
    }

    static func keyedValue(_ m: Match) -> NSRange? {
        guard let key = m.group("k"), let kind = kind(ofKey: key), let raw = m.group("v"), var range = unquoted(m, "v") else { return nil }
        // A Swift type alias (`public typealias URLSession = AnyObject`): a declaration, not a value.
        if let keyRange = m.range("k"), keyRange.location >= 10,
           m.text.substring(with: NSRange(location: keyRange.location - 10, length: 10)) == "typealias " { return nil }
        let quoted = raw.first == "\"" || raw.first == "'"
        var value = m.text.substring(with: range)
        // In a query string or a connection string the value ends at the next parameter.
        if !quoted, let keyRange = m.range("k"), keyRange.location > 0,
           ["?", "&", ";"].contains(m.text.substring(with: NSRange(location: keyRange.location - 1, length: 1))),
           let cut = value.firstIndex(where: { $0 == "&" || $0 == ";" || $0 == "#" }) {
            value = String(value[..<cut])
            range.length = (value as NSString).length
        }
        // A colour code ends the value (fastlane's `\u{1B}[31m    api_key: api_key,\u{1B}[0m`): what follows is formatting.
        if !quoted, let escape = value.firstIndex(of: "\u{1B}") {
            value = String(value[..<escape])
            range.length = (value as NSString).length
        }
        guard !isPlaceholder(value) else { return nil }
        let keyWords = words(key)
        // An Authorization header's scheme (`AUTHORIZATION: basic ***`, actions/checkout's extraheader): the credentials
        // after it are the secret, and the Authorization header shape reads them.
        if keyWords.last == "authorization", ["basic", "bearer", "digest", "negotiate", "ntlm", "token"].contains(value.lowercased()) { return nil }
        // The key's own name as its value (`static let authToken = "auth_token"`, a UserDefaults or JSON key): a name.
        if words(value) == keyWords { return nil }
        switch kind {
        case .encoded:
            // (A provisioning profile's UUID, `PROVISIONING_PROFILE = f916858b-51f5-…`, names the profile; it encodes nothing.)
            return isLongBase64(value) && !value.isUUID ? range : nil
        case .secret:
            if isPath(value) || value.unicodeScalars.filter(isAlphanumeric).count < 3 || isLineAndColumn(value) || isReverseDNSName(value) { return nil }
            // A URL with no credentials in it (`GTMSessionFetcher: https://github.com/google/gtm-session-fetcher.git`): credentials
            // and signed parameters in URLs have shapes of their own.
            if isPlainURL(value) { return nil }
            // An object's address in its description (`<DTDKMobileDeviceToken: 0x7ff19ee76470>`, Xcode's assertions
            // print the object): a pointer of at most 64 bits, not a value.
            if isPointer(value) { return nil }
            // A measurement (`shoutem.auth: 1.466ms`, a step's timing): a number with a unit.
            if isMeasurement(value) { return nil }
            if notSecretValues.contains(value.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ",;.)?!"))) { return nil }
            // A count of them (`Max Tokens: 100`, `passwords=3`): a plural key and a number.
            if let last = keyWords.last, last.count > 4, last.hasSuffix("s"), secretWords.contains(last),
               !value.isEmpty, value.utf8.count <= 9, value.utf8.allSatisfy({ (48...57).contains($0) }) { return nil }
            // SwiftPM's diagnostics about a package name it by identity in single quotes (`info: 'google.gtm-session-fetcher':
            // retrieving …`, `error: 'swift-session-kit': …`): a package, whatever words its name holds.
            if isPackageIdentity(m) { return nil }
            // A command line's `topic:command` (`npx eas credentials:sync --platform ios`): a plural key, `:` and a
            // lower-case word right after it.
            if m.group("sep") == ":", let last = keyWords.last, last.hasSuffix("s"),
               value.unicodeScalars.allSatisfy({ ($0 >= "a" && $0 <= "z") || $0 == "-" }) { return nil }
            // A shell redirection where a value would be (`-passin pass: 2>/dev/null`: the password is empty).
            if !quoted, let first = value.first, first == ">" || first == "<" || first == "|" || value.hasPrefix("&&")
                || (first.isNumber && value.dropFirst().first == ">") { return nil }
            // A variable bound to another in code (`if let session = sessionToRevoke {`, `var token = newToken`): a
            // declaration whose value is an unquoted name or a subscript of one. A secret written in code is a quoted literal.
            if !quoted, isDeclared(m), isName(value) { return nil }
            if !quoted {
                if looksLikeCode(value, separator: m.group("sep") ?? "") { return nil }
                // An unquoted value that runs on into `,` or `)` is cut there.
                if let cut = value.firstIndex(where: { $0 == "," || $0 == ")" }), value[..<cut].count >= 3 {
                    range.length = (String(value[..<cut]) as NSString).length
                }
            }
            return range
        }
    }

    /// The key follows `let `, `var ` or `const ` (Swift, JavaScript), `if let `/`guard let ` included.
    static func isDeclared(_ m: Match) -> Bool {
        guard let keyRange = m.range("k"), keyRange.location >= 4 else { return false }
        let before = m.text.substring(with: NSRange(location: max(0, keyRange.location - 6), length: min(6, keyRange.location)))
        return before.hasSuffix("let ") || before.hasSuffix("var ") || before.hasSuffix("const ")
    }

    /// A name in code, perhaps with a member chain or a subscript: `sessionToRevoke`, `peerSessions[tempID]`, `self.token`.
    static func isName(_ value: String) -> Bool {
        var body = Substring(value)
        while let last = body.last, "{,;".contains(last) || last == " " { body = body.dropLast() }
        if body.hasSuffix("]"), let open = body.firstIndex(of: "[") { body = body[..<open] }
        guard let first = body.unicodeScalars.first, first == "_" || (first >= "a" && first <= "z") else { return false }
        // (Not a token written without quotes: a name holds words, few digits.)
        return body.unicodeScalars.filter({ $0 >= "0" && $0 <= "9" }).count <= 2
            && body.unicodeScalars.allSatisfy { isAlphanumeric($0) || $0 == "_" || $0 == "." }
    }

    /// The key is a package identity as SwiftPM quotes it at the head of a diagnostic: lowercase, in single quotes, right
    /// after `info: `, `warning: `, `error: ` or `note: ` (a YAML file's quoted key stands alone).
    static func isPackageIdentity(_ m: Match) -> Bool {
        guard let keyRange = m.range("k"), let key = m.group("k"), keyRange.location >= 1,
              key.unicodeScalars.allSatisfy({ ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || "._-".unicodeScalars.contains($0) }),
              (m.group("sep") ?? "").hasPrefix(":"),
              m.text.substring(with: NSRange(location: keyRange.location - 1, length: 1)) == "'",
              keyRange.location + keyRange.length < m.text.length,
              m.text.substring(with: NSRange(location: keyRange.location + keyRange.length, length: 1)) == "'" else { return false }
        let before = m.text.substring(to: keyRange.location - 1)
        return ["info: ", "warning: ", "error: ", "note: "].contains(where: { before.hasSuffix($0) })
    }

    /// `….txt`, `….swift`, `….plist`: a last dot-separated part of one to six lower-case letters after a longer name.
    static func hasFileExtension(_ value: String) -> Bool {
        guard let dot = value.lastIndex(of: "."), value.distance(from: value.startIndex, to: dot) >= 3 else { return false }
        let ext = value[value.index(after: dot)...]
        return (1...6).contains(ext.count) && ext.unicodeScalars.allSatisfy { $0 >= "a" && $0 <= "z" }
    }

    /// A decimal number and a unit of time, size or share: `1.466ms`, `12s`, `3.5MB`, `40%`.
    static func isMeasurement(_ value: String) -> Bool {
        let u = Array(value.utf8)
        var i = 0
        while i < u.count, (48...57).contains(u[i]) { i += 1 }
        guard i > 0 else { return false }
        if i < u.count, u[i] == 0x2E {
            i += 1
            let fraction = i
            while i < u.count, (48...57).contains(u[i]) { i += 1 }
            guard i > fraction else { return false }
        }
        let unit = String(decoding: u[i...], as: UTF8.self).lowercased()
        return ["ms", "s", "sec", "secs", "seconds", "min", "h", "%", "b", "kb", "mb", "gb", "µs", "us", "ns"].contains(unit)
    }

    /// `0x` and 1 to 16 hex digits, then nothing or the `>` that closes an object's description.
    static func isPointer(_ value: String) -> Bool {
        var u = Substring(value).utf8
        if u.last == 0x3E { u = u.dropLast() } // `>`
        guard u.count >= 3, u.count <= 18, u.starts(with: [0x30, 0x78]) else { return false }
        return u.dropFirst(2).allSatisfy(isHex)
    }

    /// Source code rather than a value: a call, an identifier passed on (`token,`), a type (`token: String`).
    static func looksLikeCode(_ value: String, separator: String) -> Bool {
        if value.contains("(") || value.hasPrefix("[") || value.hasPrefix("{") { return true }
        // A selector's end in a symbol (`__28-[DVTiOSDevice attachToken:]_block_invoke_4` in a backtrace).
        if value.hasPrefix("]") { return true }
        // The rest of an Objective-C selector (`-[X _evaluateWithSession:context:error:]`): every part ends with `:`.
        if separator.trimmingCharacters(in: .whitespaces) == ":", isSelectorRest(value) { return true }
        let body = value.trimmingCharacters(in: CharacterSet(charactersIn: "?!,);"))
        func isIdentifier(_ text: String) -> Bool {
            !text.isEmpty && text.unicodeScalars.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || $0 == "_" || $0 == "." }
        }
        let identifier = isIdentifier(body)
        if identifier, value.hasSuffix(",") || value.hasSuffix(")") { return true }
        // An implicit member expression assigned in code (`session.sessionPreset = .inputPriority`).
        if identifier, body.hasPrefix("."), body.dropFirst().first.map({ $0.isLetter }) == true, separator.contains("="),
           !body.dropFirst().contains(".") { return true }
        // A member chain assigned in code (`let apiKey = SupabaseConfig.shared.supabaseKey`): letters and dots, no digit.
        if identifier, body.contains("."), !body.hasPrefix("."), !body.hasSuffix("."), separator.contains("=") { return true }
        // A type name after `:` (`class VTCompressionSession : _CFObject {`), a leading underscore or not, also a generic one
        // as a linker prints a Swift symbol (`….pushToStartTokenUpdates.getter : ActivityKit.Activity<A>.PushTokenUpdates`).
        let typeName = body.drop(while: { $0 == "_" })
        let typeIdentifier = identifier || withoutGenericArguments(typeName).map(isIdentifier) == true
        if separator.contains(":"), typeIdentifier, let first = typeName.unicodeScalars.first, first >= "A" && first <= "Z", !typeName.contains("_") { return true }
        return false
    }

    /// `Activity<A>.PushTokenUpdates` → `Activity.PushTokenUpdates`: the text without its balanced `<…>` parts, or nil when
    /// it has none (or they do not balance).
    static func withoutGenericArguments(_ text: Substring) -> String? {
        guard text.contains("<") else { return nil }
        var depth = 0
        var result = ""
        for c in text {
            if c == "<" { depth += 1 } else if c == ">" {
                depth -= 1
                if depth < 0 { return nil }
            } else if depth == 0 { result.append(c) }
        }
        return depth == 0 ? result : nil
    }

    /// `context:repairable:error:]`: identifiers each followed by a colon, then perhaps the closing bracket (or, for a Swift
    /// name, `storeLocation:)` and the quote around it).
    static func isSelectorRest(_ value: String) -> Bool {
        var body = Substring(value)
        while let last = body.last, "'\u{2019}\"".contains(last) { body = body.dropLast() }
        if body.hasSuffix("]") || body.hasSuffix(")") { body = body.dropLast() }
        guard body.hasSuffix(":") else { return false }
        return body.dropLast().split(separator: ":", omittingEmptySubsequences: false).allSatisfy { part in
            guard let first = part.unicodeScalars.first, first == "_" || (first >= "a" && first <= "z") || (first >= "A" && first <= "Z") else { return false }
            return part.unicodeScalars.allSatisfy { $0 == "_" || ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") }
        }
    }

    /// `297:22:` after a file name.
    static func isLineAndColumn(_ v: String) -> Bool {
        v.unicodeScalars.allSatisfy { ($0 >= "0" && $0 <= "9") || $0 == ":" } && v.contains(":")
    }

    /// `scheme://host/…` with no `user:password@` and no query.
    static func isPlainURL(_ v: String) -> Bool {
        guard let scheme = v.range(of: "://"), v[..<scheme.lowerBound].allSatisfy({ $0.isLetter }), !v[..<scheme.lowerBound].isEmpty else { return false }
        let rest = v[scheme.upperBound...]
        return !rest.isEmpty && !rest.contains("@") && !rest.contains("?") && !rest.contains(where: \.isWhitespace)
    }

    static func isLongBase64(_ v: String) -> Bool {
        v.utf8.count >= 32 && v.unicodeScalars.allSatisfy { isAlphanumeric($0) || $0 == "+" || $0 == "/" || $0 == "=" || $0 == "-" || $0 == "_" }
    }

    /// Long, mixed letters and digits, and more than 3.5 bits a character: a key, not a word or a path.
    static func isHighEntropy(_ v: String) -> Bool {
        let scalars = Array(v.unicodeScalars)
        guard scalars.count >= 20, !v.contains("://"), !isPath(v) else { return false }
        guard scalars.contains(where: { $0 >= "0" && $0 <= "9" }), scalars.contains(where: { ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") }) else { return false }
        var counts: [Unicode.Scalar: Int] = [:]
        for s in scalars { counts[s, default: 0] += 1 }
        let n = Double(scalars.count)
        let entropy = counts.values.reduce(0.0) { sum, c in
            let p = Double(c) / n
            return sum - p * log2(p)
        }
        return entropy >= 3.5
    }

    // MARK: - Blocks of lines

    private static let beginRegex = try! NSRegularExpression(pattern: keyBegin)
    private static let endRegex = try! NSRegularExpression(pattern: keyEnd)

    /// Whether `line` starts a private key block that it does not end.
    static func opensPrivateKey(_ line: String) -> Bool {
        guard Bytes.contains(line, Array("PRIVATE KEY".utf8)) else { return false }
        let range = NSRange(line.startIndex..., in: line)
        guard let lastBegin = beginRegex.matches(in: line, range: range).last else { return false }
        let after = NSRange(location: lastBegin.range.upperBound, length: range.length - lastBegin.range.upperBound)
        return endRegex.firstMatch(in: line, range: after) == nil
    }

    /// A line of a PEM body: base64 only (64 characters a line; the last one shorter).
    static func isBase64Line(_ line: String) -> Bool {
        let trimmed = line.utf8.drop { $0 == 0x20 || $0 == 0x09 }
        guard trimmed.count >= 4 else { return false }
        return trimmed.allSatisfy { b in
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2F || b == 0x3D
        }
    }

    /// Where the text after a private key's END marker starts, when `line` has one.
    static func privateKeyEnd(in line: String) -> String.Index? {
        guard Bytes.contains(line, Array("PRIVATE KEY".utf8)),
              let match = endRegex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
              let range = Range(match.range, in: line) else { return nil }
        return range.upperBound
    }

    /// fastlane's FASTLANE_SESSION printed as YAML: `- !ruby/object:HTTP::Cookie` then `value: …` lines.
    static func opensCookieList(_ line: String) -> Bool { Bytes.contains(line, Array("HTTP::Cookie".utf8)) }

    private static let cookieValue = try! NSRegularExpression(pattern: #"^(\s*value:\s*)(\S.*)$"#)

    static func redactCookieValue(_ line: String) -> String? {
        let ns = line as NSString
        guard let m = cookieValue.firstMatch(in: line, range: NSRange(location: 0, length: ns.length)) else { return nil }
        return ns.substring(with: m.range(at: 1)) + replacement
    }
}
