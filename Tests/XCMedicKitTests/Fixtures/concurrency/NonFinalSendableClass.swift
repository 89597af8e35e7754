// A subclass could add mutable state, so a non-final class cannot be Sendable.
class Token: Sendable {
    let value: String
    init(value: String) { self.value = value }
}
