// A mutable singleton: `static var` is global shared state.
final class Settings {
    static var current = Settings()
    var theme = "light"
}
