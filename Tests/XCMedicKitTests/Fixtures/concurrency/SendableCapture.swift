// A non-Sendable object captured by a closure that may run on another thread.
final class Counter {
    var value = 0
}

func runLater(_ work: @escaping @Sendable () -> Void) {}

func schedule(counter: Counter) {
    runLater {
        counter.value += 1
    }
}
