// The detached task and the caller both mutate the same object.
final class Model {
    var value = 0
}

func kickOff() async {
    let model = Model()
    Task.detached {
        model.value += 1
    }
    model.value += 1
}
