// A non-Sendable parameter (task-isolated) is handed to an actor.
final class Document {
    var text = ""
}

actor Store {
    func save(_ document: Document) {}
}

func persist(_ document: Document, store: Store) async {
    await store.save(document)
}
