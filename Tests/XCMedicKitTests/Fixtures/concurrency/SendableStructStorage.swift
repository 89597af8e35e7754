// A Sendable struct stores a non-Sendable class.
final class Connection {
    var open = false
}

struct Session: Sendable {
    let connection: Connection
}
