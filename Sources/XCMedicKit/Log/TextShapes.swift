import Foundation

extension StringProtocol {
    /// `8-4-4-4-12` hexadecimal digits: a simulator's, a profile's or a session's identifier (the history's
    /// fingerprint writes it as `<uuid>`; the redactor does not take it for an encoded secret).
    var isUUID: Bool {
        let groups = split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
