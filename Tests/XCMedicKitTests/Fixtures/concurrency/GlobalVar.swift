// A global `var` any thread can read and write.
var requestCount = 0

func bump() {
    requestCount += 1
}
