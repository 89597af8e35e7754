// `static let` is immutable, but the object it holds is not Sendable.
final class ImageCache {
    var images: [String: [UInt8]] = [:]
}

enum Caches {
    static let shared = ImageCache()
}
