// An actor hands out a non-Sendable object it keeps.
final class Snapshot {
    var rows: [Int] = []
}

actor Database {
    let snapshot = Snapshot()
    func current() -> Snapshot { snapshot }
}

func read(db: Database) async {
    let s = await db.current()
    print(s.rows)
}
