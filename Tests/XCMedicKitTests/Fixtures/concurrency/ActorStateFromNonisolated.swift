// A nonisolated member reads main-actor state synchronously.
@MainActor
final class Player {
    var title = ""

    nonisolated func describe() -> String {
        title
    }
}
