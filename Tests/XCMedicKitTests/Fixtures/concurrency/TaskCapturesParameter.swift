// The task captures a parameter the caller can still use.
final class Model {
    var value = 0
}

func start(model: Model) {
    Task {
        model.value += 1
    }
}
