// Synchronous nonisolated code calls a @MainActor function.
@MainActor
func refreshUI() {}

func didReceiveData() {
    refreshUI()
}
