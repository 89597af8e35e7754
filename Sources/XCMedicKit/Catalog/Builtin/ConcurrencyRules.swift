// Swift concurrency (Sendable, `sending`, actor isolation) diagnostics.
// Wording covers Swift 5.10 to 6.3: backticks or quotes, non-sendable or non-Sendable, the
// `; this is an error in the Swift 6 language mode` suffix and the ` [#Group]` suffix.
extension BuiltinCatalog {
    static let concurrencyRules = #"""
- id: sendable-closure-captures
  title: Capture of a non-Sendable value in a @Sendable closure
  category: sendable-capture
  severity: error
  role: cause
  patterns:
    - literal: 'apture of '
      regex: "[Cc]apture of ['`‘](?<name>[^'`’]+)['`’] with non-[sS]endable type ['`‘](?<type>.+?)['`’] in a ['`‘]@Sendable['`’] closure"
  message: "'{name}' of non-Sendable type '{type}' is captured by a @Sendable closure"
  explanation: >
    A @Sendable closure (DispatchQueue.async, a completion handler annotated @Sendable, a task group
    child) may run on another thread at the same time as the code that made it, so everything it
    captures must be Sendable. The fix belongs in the captured type, usually `self`, not in the closure.
  fixes:
    - summary: Make the captured type Sendable (a final class with only immutable Sendable stored properties, a struct, or an actor)
      snippet: "final class {type}: Sendable { let id: UUID }"
    - summary: Isolate the type to the main actor and hop with a Task instead of a GCD queue
      snippet: "@MainActor final class {type} { ... }\nTask { @MainActor in ... }"
    - summary: Capture only the Sendable values the closure needs
      snippet: "{ [id = self.id] in use(id) }"
    - summary: For a type you have audited yourself, declare it unchecked
      snippet: "extension {type}: @unchecked Sendable {}"
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/sendable-closure-captures
  examples:
    match:
      - line: "cases2/self_capture_dispatch.swift:6:13: error: capture of 'self' with non-Sendable type 'Loader' in a '@Sendable' closure [#SendableClosureCaptures]"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (shared/reference/failures.yaml)
        captures: {name: self, type: Loader}
      - line: "UseA.swift:5:17: warning: capture of 'l' with non-Sendable type 'Legacy' in a '@Sendable' closure; this is an error in the Swift 6 language mode [#SendableClosureCaptures]"
        source: swiftc 6.3.1 on Linux, -swift-version 5 -strict-concurrency=complete (shared/reference/failures.yaml)
        captures: {name: l, type: Legacy}
      - line: "Capture of 'self' with non-sendable type 'DataProvider' in a `@Sendable` closure"
        source: Swift 5.10/6.0 wording as Xcode's issue navigator shows it (shared/reference/failures.yaml)
        captures: {name: self, type: DataProvider}
    no_match:
      - line: "error: capture of 'x' before it is declared"

- id: sending-closure-risks-data-race
  title: Closure passed as a 'sending' parameter captures state the current task still uses
  category: sending-data-race
  severity: error
  role: cause
  patterns:
    - literal: "parameter risks causing data races"
      regex: "passing closure as a ['`]sending['`] parameter risks causing data races"
  message: "A closure passed as 'sending' (Task, Task.detached, addTask) captures a value the current task can still reach"
  explanation: >
    Task.init, Task.detached and TaskGroup.addTask take their closure as `sending`: the compiler must
    prove nothing the closure captures is used again by the caller. It is usually fixed by making what
    the closure captures Sendable (or creating it inside the task), not by changing the function the
    closure is passed to. The `note: closure captures 'x'` line under the error names the value.
  fixes:
    - summary: Make the captured type Sendable, or isolate it to an actor (@MainActor) so the Task inherits that isolation
    - summary: Create the value inside the task, or stop using it after the task starts
    - summary: Take the parameter as `sending` so the caller gives up ownership
      snippet: "func start(_ model: sending Model) { Task { model.run() } }"
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/sending-closure-risks-data-race
  examples:
    match:
      - line: "cases/closure_sending_param.swift:4:5: error: passing closure as a 'sending' parameter risks causing data races between code in the current task and concurrent execution of the closure [#SendingClosureRisksDataRace]"
        source: swiftc 6.3.1 on Linux (shared/reference/failures.yaml)
    no_match:
      - line: "error: sending 'ns' risks causing data races [#SendingRisksDataRace]"

- id: sending-value-risks-data-race
  title: Non-Sendable value sent to another isolation domain
  category: sending-data-race
  severity: error
  role: cause
  patterns:
    - literal: "risks causing data races"
      regex: "sending (?:value of non-[sS]endable type ['`](?<type>.+?)['`]|['`](?<name>[^'`]+)['`]) risks causing data races"
  message: "Sending {name}{type} across isolation risks a data race"
  explanation: >
    A non-Sendable value that the sender can still reach (a local used later, a property of an actor or
    @MainActor type, a task-isolated parameter) is passed to code with other isolation. The notes under
    the error say where it goes and which later access could race.
  fixes:
    - summary: Make the type Sendable (a value type, an immutable final class, or an actor)
    - summary: Keep caller and callee in the same isolation (both @MainActor), or stop using the value after the call
    - summary: Mark the parameter `sending` when the callee takes ownership
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/sending-risks-data-race
  examples:
    match:
      - line: "cases/sending_arg.swift:9:13: error: sending 'ns' risks causing data races [#SendingRisksDataRace]"
        source: swiftc 6.3.1 on Linux (shared/reference/failures.yaml)
        captures: {name: ns}
      - line: "/home/dev/Racy/Sources/Racy/Racy.swift:16:10: error: sending value of non-Sendable type '() async -> ()' risks causing data races [#SendingRisksDataRace]"
        source: swift build 6.3.1 on Linux (shared/corpus/fixtures/swift-6.3-linux)
        captures: {type: '() async -> ()'}
    no_match:
      - line: "note: sending 'ns' to actor-isolated instance method 'take' risks causing data races between actor-isolated and local nonisolated uses"
"""#
}
