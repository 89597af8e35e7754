// A local `var` written and read from closures that may run concurrently.
func runLater(_ work: @escaping @Sendable () -> Void) {}

func tally() {
    var total = 0
    runLater {
        total += 1
    }
    runLater {
        print(total)
    }
}
