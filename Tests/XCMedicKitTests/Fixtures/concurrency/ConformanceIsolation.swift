// A @MainActor class satisfies a nonisolated protocol requirement.
protocol Renderer {
    func render() -> String
}

@MainActor
final class Screen: Renderer {
    func render() -> String { "screen" }
}
