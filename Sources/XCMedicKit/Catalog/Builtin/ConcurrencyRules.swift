// Swift concurrency (Sendable, `sending`, actor isolation) diagnostics.
//
// Wording covers Swift 5.10 to 6.3: quotes, backticks or Xcode's curly quotes; `non-sendable` (<= 6.1) or
// `non-Sendable` (6.2+); `non-isolated` (5.10) or `nonisolated`; the first letter capitalised as Xcode's
// issue navigator shows it. Regexes are unanchored at the end, so the `; this is an error in the Swift 6
// language mode` / `; this is an error in Swift 6` suffix and the ` [#Group]` suffix are allowed without
// being required (the scanner flags the Swift 6 suffix itself).
//
// Order matters: within this family a line is claimed by the first rule that matches, so a rule whose
// text is a special case of another's (a Task closure's `sending value of non-Sendable type '() async
// -> ()'`) comes before the general one. Regexes that start with an isolation name anchor it after
// `: ` or at the line start, so the `file:line:col: error: ` header never ends up in a capture.
// Compiler notes are never needed: every rule matches the error/warning line itself.
extension BuiltinCatalog {
    static let concurrencyRules = #"""
- id: sendable-closure-captures
  title: Capture of a non-Sendable value in a @Sendable closure
  category: sendable-capture
  severity: error
  role: cause
  patterns:
    - literal: 'apture of '
      regex: '[Cc]apture of [''`‘’](?<name>[^''`‘’]+)[''`’] with non-[sS]endable type [''`‘’](?<type>.+?)[''`’] in a [''`‘’]@Sendable[''`’] (?:closure|local function)'
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
    - summary: For a type you have audited yourself (or one from a module without annotations), declare it unchecked
      snippet: "extension {type}: @unchecked Sendable {}"
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/sendable-closure-captures
  examples:
    match:
      - line: "SendableCapture.swift:10:9: error: capture of 'counter' with non-Sendable type 'Counter' in a '@Sendable' closure [#SendableClosureCaptures]"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (Tests/XCMedicKitTests/Fixtures/concurrency/SendableCapture.swift)
        captures: {name: counter, type: Counter, file: SendableCapture.swift, line: '10', column: '9'}
      - line: "cases2/self_capture_dispatch.swift:6:13: error: capture of 'self' with non-Sendable type 'Loader' in a '@Sendable' closure [#SendableClosureCaptures]"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (shared/reference/failures.yaml)
        captures: {name: self, type: Loader}
      - line: "UseA.swift:5:17: warning: capture of 'l' with non-Sendable type 'Legacy' in a '@Sendable' closure; this is an error in the Swift 6 language mode [#SendableClosureCaptures]"
        source: swiftc 6.3.1 on Linux, -swift-version 5 -strict-concurrency=complete (shared/reference/failures.yaml)
        captures: {name: l, type: Legacy}
      - line: "Capture of 'self' with non-sendable type 'DataProvider' in a `@Sendable` closure"
        source: Swift 5.10/6.0 wording as Xcode's issue navigator shows it (shared/reference/failures.yaml, secondhand)
        captures: {name: self, type: DataProvider}
    no_match:
      - line: "error: capture of 'x' before it is declared"
      - line: "CapturedVar.swift:7:9: error: mutation of captured var 'total' in concurrently-executing code [#SendableClosureCaptures]"

- id: captured-var-in-concurrent-code
  title: A captured local var is used by code that runs concurrently
  category: sendable-capture
  severity: error
  role: cause
  patterns:
    - literal: 'in concurrently-executing code'
      regex: '(?<access>[Mm]utation of|[Rr]eference to) captured (?<kind>var|parameter|let) [''`‘’](?<name>[^''`‘’]+)[''`’] in concurrently-executing code'
  message: "Captured var '{name}' is shared with a closure that may run concurrently"
  explanation: >
    A `var` captured by a @Sendable closure is captured by reference, so the closure and the code
    around it (or two runs of the closure) could read and write it at the same time. Reading is
    flagged as well as writing. The cure is to stop sharing the variable, not to silence the closure.
  fixes:
    - summary: To read a snapshot, capture the value instead of the variable
      snippet: "runLater { [total] in print(total) }"
    - summary: Return results from child tasks and combine them, instead of mutating an outer var
      snippet: "let total = await withTaskGroup(of: Int.self) { group in\n    group.addTask { 1 }\n    return await group.reduce(0, +)\n}"
    - summary: Keep shared mutable state in an actor (or a Mutex) and change it through that
      snippet: "actor Tally { var total = 0; func add(_ n: Int) { total += n } }"
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/sendable-closure-captures
  examples:
    match:
      - line: "CapturedVar.swift:7:9: error: mutation of captured var 'total' in concurrently-executing code [#SendableClosureCaptures]"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (Tests/XCMedicKitTests/Fixtures/concurrency/CapturedVar.swift)
        captures: {name: total, access: mutation of, line: '7', column: '9'}
      - line: "CapturedVar.swift:10:15: error: reference to captured var 'total' in concurrently-executing code [#SendableClosureCaptures]"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (Tests/XCMedicKitTests/Fixtures/concurrency/CapturedVar.swift)
        captures: {name: total, access: reference to}
      - line: "CapturedVar.swift:7:9: warning: mutation of captured var 'total' in concurrently-executing code; this is an error in the Swift 6 language mode [#SendableClosureCaptures]"
        source: swiftc 6.3.1 on Linux, -swift-version 5 -strict-concurrency=complete (Tests/XCMedicKitTests/Fixtures/concurrency/CapturedVar.swift)
        captures: {name: total}
    no_match:
      - line: "error: reference to var 'counter' is not concurrency-safe because it involves shared mutable state"
      - line: "main.swift:4:5: warning: variable 'total' was never mutated; consider changing to 'let' constant"

- id: non-sendable-parameter-in-sendable-closure
  title: A non-Sendable closure parameter is used where a @Sendable closure is required
  category: sendable-capture
  severity: error
  role: cause
  patterns:
    - literal: 'endable parameter '
      regex: '(?:[Pp]assing|[Uu]sing|[Aa]ssigning) non-[sS]endable parameter [''`‘’](?<name>[^''`‘’]+)[''`’] (?:to function expecting|in a context expecting|to) a [''`‘’]@Sendable[''`’] closure'
  message: "Closure parameter '{name}' is not @Sendable but is passed on as a @Sendable closure"
  explanation: >
    The function takes a plain closure parameter and hands it to an API that requires a @Sendable
    closure (one that may run on another thread). The parameter's type is what is missing `@Sendable`;
    callers then have to pass closures that are safe to run concurrently.
  fixes:
    - summary: Declare the parameter @Sendable so callers pass a concurrency-safe closure
      snippet: "func wrap(_ {name}: @escaping @Sendable () -> Void)"
    - summary: Or keep the work on one actor and call the closure there instead of handing it on
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/sendable-closure-captures
  examples:
    match:
      - line: "generic_sendable.swift:10:35: error: using non-Sendable parameter 'g' in a context expecting a '@Sendable' closure"
        source: "swiftc 6.3.1 on Linux, -swift-version 6 (`let h: @Sendable () -> Void = g`)"
        captures: {name: g}
      - line: "cases2/convert_sendable_fn.swift:3:19: error: passing non-Sendable parameter 'g' to function expecting a '@Sendable' closure"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (shared/reference/failures.yaml)
        captures: {name: g, line: '3', column: '19'}
    no_match:
      - line: "error: passing non-escaping parameter 'g' to function expecting an '@escaping' closure"

- id: sending-closure-risks-data-race
  title: Closure passed as a 'sending' parameter captures state the current task still uses
  category: sending-data-race
  severity: error
  role: cause
  patterns:
    - literal: "parameter risks causing data races"
      regex: "[Pp]assing closure as a ['`‘’][Ss]ending['`’] parameter risks causing data races"
  message: "A closure passed as 'sending' (Task, Task.detached, addTask) captures a value the current task can still reach"
  explanation: >
    Task.init, Task.detached and TaskGroup.addTask take their closure as `sending`: the compiler must
    prove nothing the closure captures is used again by the caller. It is usually fixed by making what
    the closure captures Sendable (or creating it inside the task), not by changing the function the
    closure is passed to. The `note: closure captures 'x'` line under the error names the value.
  fixes:
    - summary: Make the captured type Sendable, or isolate it to an actor (@MainActor) so the Task inherits that isolation
      snippet: "@MainActor final class Model { var value = 0 }"
    - summary: Create the value inside the task, or copy the Sendable data it needs into a let first
      snippet: "let id = model.id\nTask { await load(id) }"
    - summary: Take the parameter as `sending` so the caller gives up ownership
      snippet: "func start(_ model: sending Model) { Task { model.run() } }"
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/sending-closure-risks-data-race
  examples:
    match:
      - line: "TaskCapturesParameter.swift:7:5: error: passing closure as a 'sending' parameter risks causing data races between code in the current task and concurrent execution of the closure [#SendingClosureRisksDataRace]"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (Tests/XCMedicKitTests/Fixtures/concurrency/TaskCapturesParameter.swift)
        captures: {file: TaskCapturesParameter.swift, line: '7', column: '5'}
      - line: "cases/closure_sending_param.swift:4:5: error: passing closure as a 'sending' parameter risks causing data races between code in the current task and concurrent execution of the closure [#SendingClosureRisksDataRace]"
        source: swiftc 6.3.1 on Linux (shared/reference/failures.yaml)
    no_match:
      - line: "error: sending 'ns' risks causing data races [#SendingRisksDataRace]"

- id: sending-task-closure-value
  title: A task's closure captures a non-Sendable value that is used again after the task starts
  category: sending-data-race
  severity: error
  role: cause
  patterns:
    - literal: "risks causing data races"
      regex: "[Ss]ending value of non-[sS]endable type ['`‘’](?<type>[^'`‘’]*->[^'`‘’]*)['`’] risks causing data races"
  message: "The closure ({type}) sent to a task captures a value the caller touches again"
  explanation: >
    The value being sent is the closure of `Task { }` / `Task.detached { }` (or a `sending` closure
    parameter). It captures a non-Sendable value that the surrounding code keeps using, so both could
    run at once; the `note: access can happen concurrently` line points at the later use. Fix what the
    closure captures, not the Task call.
  fixes:
    - summary: Do not touch the captured value after starting the task (move the later use inside it, or await the task's result)
      snippet: "let result = await Task.detached { model.compute() }.value"
    - summary: Copy the Sendable data the task needs into a let before the task
      snippet: "let value = model.value\nTask.detached { print(value) }"
    - summary: Make the captured type Sendable, or an actor
      snippet: "actor Model { var value = 0 }"
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/sending-risks-data-race
  examples:
    match:
      - line: "DetachedTask.swift:8:10: error: sending value of non-Sendable type '() async -> ()' risks causing data races [#SendingRisksDataRace]"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (Tests/XCMedicKitTests/Fixtures/concurrency/DetachedTask.swift)
        captures: {type: '() async -> ()', file: DetachedTask.swift, line: '8', column: '10'}
      - line: "/home/dev/Racy/Sources/Racy/Racy.swift:16:10: error: sending value of non-Sendable type '() async -> ()' risks causing data races [#SendingRisksDataRace]"
        source: swift build 6.3.1 on Linux (shared/corpus/fixtures/swift-6.3-linux)
        captures: {type: '() async -> ()'}
    no_match:
      - line: "tiso2.swift:7:17: error: sending value of non-Sendable type 'Optional<Document>' risks causing data races [#SendingRisksDataRace]"

- id: sending-value-risks-data-race
  title: Non-Sendable value sent to another isolation domain
  category: sending-data-race
  severity: error
  role: cause
  patterns:
    - literal: "risks causing data races"
      regex: "[Ss]ending (?:value of non-[sS]endable type ['`‘’](?<type>.+?)['`’]|['`‘’](?<name>[^'`‘’]+)['`’]) risks causing data races"
  message: "Sending {name}{type} across isolation risks a data race"
  explanation: >
    A non-Sendable value that the sender can still reach (a local used later, a property of an actor or
    @MainActor type) is passed to code with other isolation. The notes under the error say where it
    goes: when a note says `task-isolated 'x'`, x is a parameter of your function, so the caller may
    still hold it and the function may not hand it to an actor.
  fixes:
    - summary: Make the type Sendable (a value type, an immutable final class, or an actor)
      snippet: "struct Document: Sendable { var text: String }"
    - summary: Keep caller and callee in the same isolation (both @MainActor), or stop using the value after the call
    - summary: For a task-isolated parameter (see the note), take it as `sending` so the caller gives it up
      snippet: "func persist(_ document: sending Document, store: Store) async { await store.save(document) }"
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/sending-risks-data-race
  examples:
    match:
      - line: "SendingToActor.swift:11:17: error: sending 'document' risks causing data races [#SendingRisksDataRace]"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (Tests/XCMedicKitTests/Fixtures/concurrency/SendingToActor.swift; the note says task-isolated)
        captures: {name: document, line: '11', column: '17'}
      - line: "cases/sending_arg.swift:9:13: error: sending 'ns' risks causing data races [#SendingRisksDataRace]"
        source: swiftc 6.3.1 on Linux (shared/reference/failures.yaml)
        captures: {name: ns}
      - line: "tiso2.swift:7:17: error: sending value of non-Sendable type 'Optional<Document>' risks causing data races [#SendingRisksDataRace]"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (await store.save(Optional(document)) with a non-Sendable parameter)
        captures: {type: 'Optional<Document>'}
      - line: "/private/tmp/kwwk-20260520-10643-c9v4sk/kwwk-0.1.11/Sources/KWWKCli/CodingTUI.swift:329:51: error: sending 'isAutoCompacting' risks causing data races [#SendingRisksDataRace]"
        source: https://github.com/EYHN/kwwk/issues/18 (swift build, Xcode 26.5 toolchain)
        captures: {name: isAutoCompacting}
    no_match:
      - line: "note: sending 'ns' to actor-isolated instance method 'take' risks causing data races between actor-isolated and local nonisolated uses"
      - line: "error: passing closure as a 'sending' parameter risks causing data races between code in the current task and concurrent execution of the closure"

- id: actor-isolated-call-synchronous-nonisolated
  title: Synchronous nonisolated code calls an actor-isolated (e.g. @MainActor) function
  category: actor-isolation
  severity: error
  role: cause
  patterns:
    - literal: 'in a synchronous '
      regex: '[Cc]all to (?<isolation>main actor|actor|global actor [''`‘’][^''`‘’]+[''`’]|[^ ]+)-isolated (?:(?<kind>[a-z ]+?) [''`‘’](?<name>[^''`‘’]+)[''`’]|function) in a synchronous (?<context>.+?) context'
  message: "Synchronous {context} code calls {isolation}-isolated {kind} '{name}'"
  explanation: >
    Synchronous code that is not on the actor cannot enter it: the call would have to wait. Typical
    after adopting Swift 6: UIKit and SwiftUI types are @MainActor, so calling them from a nonisolated
    helper, a Codable init, a delegate method of a nonisolated protocol or an XCTestCase method fails.
    Usually the caller, not the callee, is in the wrong isolation.
  fixes:
    - summary: Put the caller on the same actor (the compiler's note offers this fix-it)
      snippet: "@MainActor\nfunc didReceiveData() { refreshUI() }"
    - summary: Make the caller async and await the call, or hop explicitly
      snippet: "Task { @MainActor in refreshUI() }"
    - summary: If the callee touches no isolated state, mark it nonisolated
      snippet: "nonisolated func format(_ value: Int) -> String"
    - summary: "XCTest: isolate the test class or method to the main actor"
      snippet: "@MainActor final class ScreenTests: XCTestCase { ... }"
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/actor-isolated-call
  examples:
    match:
      - line: "MainActorFromNonisolated.swift:6:5: error: call to main actor-isolated global function 'refreshUI()' in a synchronous nonisolated context [#ActorIsolatedCall]"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (Tests/XCMedicKitTests/Fixtures/concurrency/MainActorFromNonisolated.swift)
        captures: {isolation: main actor, kind: global function, name: refreshUI(), context: nonisolated, line: '6', column: '5'}
      - line: "misc.swift:9:17: error: call to global actor 'DataActor'-isolated global function 'dataOnly()' in a synchronous nonisolated context [#ActorIsolatedCall]"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (@globalActor DataActor function called from a plain function)
        captures: {isolation: "global actor 'DataActor'", name: dataOnly()}
      - line: "error: call to actor-isolated instance method 'stopNotifications()' in a synchronous nonisolated context"
        source: https://github.com/swiftlang/swift-migration-guide/blob/main/Guide.docc/CommonProblems.md
        captures: {isolation: actor, kind: instance method, name: stopNotifications()}
    no_match:
      - line: "note: calls to global function 'refreshUI()' from outside of its actor context are implicitly asynchronous"
      - line: "error: 'async' call in a function that does not support concurrency"

- id: actor-isolated-cannot-be-called-outside
  title: Async code uses another actor's declaration without await
  category: actor-isolation
  severity: error
  role: cause
  patterns:
    - literal: 'from outside of the actor'
      regex: '(?:^|: )(?<isolation>[Mm]ain actor|[Aa]ctor|[Gg]lobal actor [''`‘’][^''`‘’]+[''`’]|[Dd]istributed actor)-isolated (?<kind>[a-z ]+?) [''`‘’](?<name>[^''`‘’]+)[''`’] cannot be (?<verb>called|accessed) from outside of the actor'
  message: "{isolation}-isolated {kind} '{name}' is {verb} without await from outside its actor"
  explanation: >
    The code is already async but touches another actor's function or property synchronously, so the
    hop onto that actor is missing. Swift 6.2 and later say so directly; older compilers reported the
    same mistake as `expression is 'async' but is not marked with 'await'`.
  fixes:
    - summary: Add await (the value that crosses must be Sendable)
      snippet: "await refreshUI()\nlet title = await panel.title"
    - summary: Or isolate the enclosing function to the same actor
      snippet: "@MainActor func update(panel: Panel) { ... }"
  docs:
    - https://www.swift.org/migration/documentation/swift-6-concurrency-migration-guide/commonproblems
  examples:
    match:
      - line: "outside.swift:10:5: error: main actor-isolated global function 'refreshUI()' cannot be called from outside of the actor"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (nonisolated async function calls a @MainActor function without await)
        captures: {isolation: main actor, kind: global function, name: refreshUI(), verb: called}
      - line: "cases/detached_self.swift:8:24: error: main actor-isolated property 'ns' cannot be accessed from outside of the actor"
        source: swiftc 6.3.1 on Linux (shared/reference/failures.yaml)
        captures: {kind: property, name: ns, verb: accessed}
      - line: "LocalModCatalog.swift:93:17: warning: main actor-isolated static method 'items(for:)' cannot be called from outside of the actor; this is an error in the Swift 6 language mode"
        source: Xcode 26 log quoted in shared/reference/failures.yaml (repository not identified)
        captures: {kind: static method, name: 'items(for:)'}
    no_match:
      - line: "error: main actor-isolated property 'title' can not be referenced from a nonisolated context"

- id: actor-isolated-referenced-from-nonisolated
  title: Actor-isolated state referenced or mutated from outside the actor
  category: actor-isolation
  severity: error
  role: cause
  patterns:
    - literal: ' can not be '
      regex: '(?:^|: )(?<isolation>[Mm]ain actor|[Aa]ctor|[Gg]lobal actor [''`‘’][^''`‘’]+[''`’]|[Dd]istributed actor)-isolated (?<kind>[a-z ]+?) [''`‘’](?<name>[^''`‘’]+)[''`’] can not be (?<verb>referenced|mutated|accessed|used [''`‘’]inout[''`’]) (?<context>(?:from|on) [^;\[]*[^;\[ ])'
  message: "{isolation}-isolated {kind} '{name}' is {verb} {context}"
  explanation: >
    Synchronous access to an actor's (or @MainActor type's) state from code that is not on that actor:
    a `nonisolated` member, a free function, or a @Sendable closure such as a GCD block. These are
    errors even in the Swift 5 language mode. Move the access onto the actor rather than removing the
    isolation from the state.
  fixes:
    - summary: Hop onto the actor for the access
      snippet: "Task { @MainActor in self.count += 1 }\nlet value = await account.balance"
    - summary: Isolate the accessing function or closure to the same actor
      snippet: "@MainActor func describe() -> String { title }"
    - summary: For immutable Sendable data, make the property a nonisolated let
      snippet: "nonisolated let id: UUID"
  docs:
    - https://www.swift.org/migration/documentation/swift-6-concurrency-migration-guide/commonproblems
  examples:
    match:
      - line: "ActorStateFromNonisolated.swift:7:9: error: main actor-isolated property 'title' can not be referenced from a nonisolated context"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (Tests/XCMedicKitTests/Fixtures/concurrency/ActorStateFromNonisolated.swift)
        captures: {isolation: main actor, kind: property, name: title, verb: referenced, context: from a nonisolated context, line: '7', column: '9'}
      - line: "referenced.swift:14:13: error: actor-isolated property 'balance' can not be referenced from a nonisolated context"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (synchronous function reads an actor's var)
        captures: {isolation: actor, name: balance}
      - line: "mutated.swift:8:18: error: main actor-isolated property 'count' can not be mutated from a Sendable closure"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (self.count += 1 inside DispatchQueue.global().async in a @MainActor class)
        captures: {verb: mutated, context: from a Sendable closure}
      - line: "non-sendable-closure.swift:15:5: error: main actor-isolated let 'nonSendable' can not be referenced from a nonisolated context"
        source: https://github.com/swiftlang/swift/issues/77129 (Swift 6.0)
        captures: {kind: let, name: nonSendable}
    no_match:
      - line: "error: main actor-isolated property 'ns' cannot be accessed from outside of the actor"
      - line: "error: actor-isolated instance method 'run()' can not be partially applied"

- id: conformance-crosses-into-actor-isolated-code
  title: An actor-isolated type conforms to a nonisolated protocol
  category: actor-isolation
  severity: error
  role: cause
  patterns:
    - literal: 'crosses into '
      regex: '[Cc]onformance of [''`‘’](?<type>[^''`‘’]+)[''`’] to (?:protocol )?[''`‘’](?<protocol>[^''`‘’]+)[''`’] crosses into (?<isolation>.+?)-isolated code and can cause data races'
    - literal: 'cannot be used to satisfy'
      regex: '(?:^|: )(?<isolation>[Mm]ain actor|[Aa]ctor|[Gg]lobal actor [''`‘’][^''`‘’]+[''`’])-isolated (?<kind>[a-z ]+?) [''`‘’](?<name>[^''`‘’]+)[''`’] cannot be used to satisfy (?:a )?non-?isolated protocol requirement'
  explanation: >
    A @MainActor (or actor-isolated) type conforms to a protocol whose requirements are nonisolated,
    such as Equatable, Codable or a delegate protocol, so generic code could call its main-actor
    methods from any thread. Swift 6.2 reports the conformance; older compilers report each witness.
  fixes:
    - summary: "Swift 6.2+: make it an isolated conformance, usable only on that actor"
      snippet: "@MainActor\nfinal class Screen: @MainActor Renderer { ... }"
    - summary: Mark the witnesses nonisolated when they touch no isolated state
      snippet: "nonisolated func render() -> String { \"screen\" }"
    - summary: Turn the races into run-time checks with a @preconcurrency conformance (for delegate protocols of old SDKs)
      snippet: "final class Screen: @preconcurrency Renderer { ... }"
    - summary: If every conformer is a UI type, isolate the protocol itself
      snippet: "@MainActor protocol Renderer { func render() -> String }"
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/conformance-isolation
  examples:
    match:
      - line: "ConformanceIsolation.swift:7:21: error: conformance of 'Screen' to protocol 'Renderer' crosses into main actor-isolated code and can cause data races [#ConformanceIsolation]"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (Tests/XCMedicKitTests/Fixtures/concurrency/ConformanceIsolation.swift)
        captures: {type: Screen, protocol: Renderer, isolation: main actor, line: '7', column: '21'}
      - line: "c2.swift:62:35: error: conformance of 'Conformer' to protocol 'P' crosses into main actor-isolated code and can cause data races [#ConformanceIsolation]"
        source: swiftc 6.3.1 on Linux (shared/reference/failures.yaml)
        captures: {type: Conformer, protocol: P}
      - line: "error: main actor-isolated instance method 'applyStyle()' cannot be used to satisfy nonisolated protocol requirement"
        source: https://github.com/swiftlang/swift-migration-guide/blob/main/Guide.docc/CommonProblems.md (Swift 6.0)
        captures: {isolation: main actor, kind: instance method, name: applyStyle()}
    no_match:
      - line: "note: main actor-isolated instance method 'render()' cannot satisfy nonisolated requirement"

- id: override-actor-isolation-mismatch
  title: An override has different actor isolation from the declaration it overrides
  category: actor-isolation
  severity: error
  role: cause
  patterns:
    - literal: 'has different actor isolation from'
      regex: '(?:^|: )(?<isolation>[Mm]ain actor|[Aa]ctor|[Gg]lobal actor [''`‘’][^''`‘’]+[''`’]|[Nn]onisolated)(?:-isolated)? (?<kind>[a-z ]+?) [''`‘’](?<name>[^''`‘’]+)[''`’] has different actor isolation from (?<base>.+?) (?:overridden declaration|superclass)'
  explanation: >
    An override (or a subclass) must keep the isolation of what it overrides, because callers reach it
    through the base type without knowing about the actor. Marking `override func setUp()` @MainActor
    in an XCTestCase subclass is the usual case.
  fixes:
    - summary: "XCTest: use the async setUp and hop to the main actor inside it"
      snippet: "override func setUp() async throws {\n    try await super.setUp()\n    await MainActor.run { ... }\n}"
    - summary: Or isolate the whole base class (or whole test class) to the same actor
      snippet: "@MainActor final class ScreenTests: XCTestCase { ... }"
  docs:
    - https://www.swift.org/migration/documentation/swift-6-concurrency-migration-guide/commonproblems
  examples:
    match:
      - line: "override_iso.swift:6:30: error: main actor-isolated instance method 'setUp()' has different actor isolation from nonisolated overridden declaration"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (@MainActor override of a nonisolated method)
        captures: {isolation: main actor, kind: instance method, name: setUp(), base: nonisolated}
    no_match:
      - line: "note: overridden declaration is here"

- id: main-actor-default-value-nonisolated
  title: A stored property's default value needs the main actor but the type is nonisolated
  category: actor-isolation
  severity: error
  role: cause
  patterns:
    - literal: 'default value in a '
      regex: '(?:^|: )(?<isolation>[Mm]ain actor|[Gg]lobal actor [''`‘’][^''`‘’]+[''`’]|[Aa]ctor)-isolated default value in a (?<context>.+?) context'
  explanation: >
    A default like `var label = Label()` in a nonisolated struct or class calls a @MainActor
    initializer (UIView, a view model) from whatever thread creates the value.
  fixes:
    - summary: Isolate the containing type to the main actor
      snippet: "@MainActor struct Row { var label = Label() }"
    - summary: Or create the value in a @MainActor initializer, or make the property optional and set it later
      snippet: "@MainActor init() { label = Label() }"
  docs:
    - https://www.swift.org/migration/documentation/swift-6-concurrency-migration-guide/commonproblems
  examples:
    match:
      - line: "default_value.swift:7:9: error: main actor-isolated default value in a nonisolated context"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (struct Row { var label = Label() } with a @MainActor Label)
        captures: {isolation: main actor, context: nonisolated}
      - line: "default_value.swift:7:9: warning: main actor-isolated default value in a nonisolated context; this is an error in the Swift 6 language mode"
        source: swiftc 6.3.1 on Linux, -swift-version 5 -strict-concurrency=complete
    no_match:
      - line: "error: default argument value of type 'Int' cannot be converted to type 'String'"

- id: async-call-missing-await
  title: Async call (or actor hop) without await
  category: concurrency-other
  severity: error
  role: cause
  patterns:
    - literal: 'but is not marked with'
      regex: '[Ee]xpression is [''`‘’]?async[''`’]? but is not marked with [''`‘’]?await'
  explanation: >
    An async function, or (before Swift 6.2) another actor's function or property, is used without
    `await`. The note under it says which: `call is 'async'`, or `calls to ... from outside of its
    actor context are implicitly asynchronous` for an actor hop.
  fixes:
    - summary: Add await (inside an async function)
      snippet: "let x = await fetch()"
    - summary: From synchronous code, start a Task or make the caller async
      snippet: "Task { let x = await fetch() }"
  docs:
    - https://www.swift.org/migration/documentation/swift-6-concurrency-migration-guide/commonproblems
  examples:
    match:
      - line: "async_noawait.swift:4:13: error: expression is 'async' but is not marked with 'await'"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (let x = fetch() for an async func)
    no_match:
      - line: "error: 'async' call in a function that does not support concurrency"

- id: global-mutable-state-not-concurrency-safe
  title: Global or static var is not concurrency-safe
  category: global-mutable-state
  severity: error
  role: cause
  patterns:
    - literal: 'is not concurrency-safe because it is non'
      regex: '(?:^|: )(?<kind>[Vv]ar|[Ll]et|[Ss]tatic property|[Cc]lass property|[Gg]lobal variable) [''`‘’](?<name>[^''`‘’]+)[''`’] is not concurrency-safe because it is non-?isolated global shared mutable state'
    - literal: 'is not concurrency-safe because it involves'
      regex: '[Rr]eference to (?<kind>var|let|static property|class property) [''`‘’](?<name>[^''`‘’]+)[''`’] is not concurrency-safe because it involves shared mutable state'
  message: "{kind} '{name}' is global mutable state that any thread can reach"
  explanation: >
    Swift 6 forbids an unprotected `var` at global or static scope (a mutable singleton, a counter, a
    SwiftUI EnvironmentKey's `static var defaultValue`) because any thread can read and write it. The
    compiler's notes offer the three standard fixes; pick the first that fits.
  fixes:
    - summary: Make it a let (the type must be Sendable)
      snippet: "static let {name} = Settings()"
    - summary: Isolate it to the main actor
      snippet: "@MainActor static var {name} = Settings()"
    - summary: Only if every access is already protected by a lock or queue, opt out explicitly
      snippet: "nonisolated(unsafe) static var {name} = Settings()"
    - summary: For SwiftUI EnvironmentKey.defaultValue use a computed property or static let (or the @Entry macro)
      snippet: "static var defaultValue: Theme { .light }"
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/mutable-global-variable
  examples:
    match:
      - line: "GlobalVar.swift:2:5: error: var 'requestCount' is not concurrency-safe because it is nonisolated global shared mutable state [#MutableGlobalVariable]"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (Tests/XCMedicKitTests/Fixtures/concurrency/GlobalVar.swift)
        captures: {kind: var, name: requestCount, file: GlobalVar.swift, line: '2', column: '5'}
      - line: "StaticVar.swift:3:16: error: static property 'current' is not concurrency-safe because it is nonisolated global shared mutable state [#MutableGlobalVariable]"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (Tests/XCMedicKitTests/Fixtures/concurrency/StaticVar.swift)
        captures: {kind: static property, name: current}
      - line: "Static property 'isObservingStarted' is not concurrency-safe because it is nonisolated global shared mutable state"
        source: https://github.com/adaptyteam/AdaptySDK-iOS/issues/122 (Xcode 26 beta, issue navigator)
        captures: {kind: Static property, name: isObservingStarted}
      - line: "Static property 'defaultValue' is not concurrency-safe because it is non-isolated global shared mutable state; this is an error in Swift 6"
        source: https://github.com/cybozu/WebUI/pull/8 (Xcode 15.x / Swift 5.10)
        captures: {name: defaultValue}
      - line: "Reference to class property '*' is not concurrency-safe because it involves shared mutable state; this is an error in the Swift 6 language mode"
        source: https://github.com/crisp-im/crisp-sdk-ios/issues/101 (Xcode 16)
        captures: {kind: class property, name: '*'}
    no_match:
      - line: "StaticLetNonSendable.swift:7:16: error: static property 'shared' is not concurrency-safe because non-'Sendable' type 'ImageCache' may have shared mutable state [#MutableGlobalVariable]"
      - line: "error: reference to nonisolated(unsafe) var 'cache' is unsafe in concurrently-executing code"

- id: static-let-non-sendable-type
  title: Global or static let holds a non-Sendable value
  category: global-mutable-state
  severity: error
  role: cause
  patterns:
    - literal: 'is not concurrency-safe because non-'
      regex: '(?:^|: )(?<kind>[Ss]tatic property|[Cc]lass property|[Ll]et|[Vv]ar) [''`‘’](?<name>[^''`‘’]+)[''`’] is not concurrency-safe because non-[''`‘’]?Sendable[''`’]? type [''`‘’](?<type>.+?)[''`’] may have shared mutable state'
    # Swift 5.10 (Xcode 15.3/15.4) wording, without the type's name.
    - literal: 'is not concurrency-safe because it is not either conforming'
      regex: '(?:^|: )(?<kind>[Ss]tatic property|[Cc]lass property|[Ll]et|[Vv]ar) [''`‘’](?<name>[^''`‘’]+)[''`’] is not concurrency-safe because it is not either conforming to [''`‘’]?Sendable[''`’]? or isolated to a global actor'
  message: "{kind} '{name}' shares one non-Sendable value with every thread"
  explanation: >
    A singleton like `static let shared = Cache()` is immutable, but the object it holds is not
    Sendable, so every thread gets the same mutable object. Fix the held type (or isolate the
    property); the `let` itself is fine.
  fixes:
    - summary: Make the type Sendable (final with immutable Sendable storage, or internally locked and @unchecked Sendable), or make it an actor
      snippet: "final class {type}: Sendable { ... }"
    - summary: Isolate the property (or the whole type) to the main actor
      snippet: "@MainActor static let {name} = {type}()"
    - summary: As a last resort, opt out for this property
      snippet: "nonisolated(unsafe) static let {name} = {type}()"
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/mutable-global-variable
  examples:
    match:
      - line: "StaticLetNonSendable.swift:7:16: error: static property 'shared' is not concurrency-safe because non-'Sendable' type 'ImageCache' may have shared mutable state [#MutableGlobalVariable]"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (Tests/XCMedicKitTests/Fixtures/concurrency/StaticLetNonSendable.swift)
        captures: {kind: static property, name: shared, type: ImageCache, line: '7', column: '16'}
      - line: "/Users/ec2-user/jenkins/workspace/swift-PR-source-compat-suite-test-macOS/swift-source-compat-suite/project_cache/penny-bot/.build/checkouts/swift-collections/Sources/DequeModule/_DequeBuffer.swift:44:14: error: let '_emptyDequeStorage' is not concurrency-safe because non-'Sendable' type 'ManagedBuffer<_DequeBufferHeader, Void>' may have shared mutable state"
        source: https://github.com/swiftlang/swift-source-compat-suite/pull/966 (Swift 6.0 CI log)
        captures: {kind: let, name: _emptyDequeStorage, type: 'ManagedBuffer<_DequeBufferHeader, Void>'}
      - line: "Class property 'shared' is not concurrency-safe because non-'Sendable' type 'SyncMonitor' may have shared mutable state"
        source: https://github.com/ggruen/CloudKitSyncMonitor/pull/24 (Xcode 16 beta 3)
        captures: {kind: Class property, type: SyncMonitor}
      - line: "Static property 'current' is not concurrency-safe because non-'Sendable' type 'OS' may have shared mutable state"
        source: https://github.com/MarcoEidinger/OSInfo/pull/3 (Xcode issue navigator, Swift 6)
        captures: {kind: Static property, name: current, type: OS}
      - line: "/src/Feature/Styles.swift:12:16: warning: static property 'shared' is not concurrency-safe because it is not either conforming to 'Sendable' or isolated to a global actor; this is an error in Swift 6"
        source: shared/reference/failures-notes.md section B (Swift 5.10 wording, Xcode 15.3/15.4; the path is illustrative)
        captures: {kind: static property, name: shared}
    no_match:
      - line: "GlobalVar.swift:2:5: error: var 'requestCount' is not concurrency-safe because it is nonisolated global shared mutable state [#MutableGlobalVariable]"

- id: non-sendable-result-crosses-actor-boundary
  title: A non-Sendable result is returned across an actor boundary
  category: non-sendable-crossing
  severity: error
  role: cause
  patterns:
    - literal: '-typed result can not be returned from'
      regex: '[Nn]on-[sS]endable [''`‘’](?<type>.+?)[''`’]-typed result can not be returned from (?<from>.+?) to (?<to>.+?) context'
    - literal: 'cannot cross actor boundary'
      regex: '[Nn]on-[sS]endable type [''`‘’](?<type>.+?)[''`’] returned by (?:implicitly asynchronous )?call to (?<from>.+?) cannot cross actor boundary'
  message: "Non-Sendable '{type}' is returned from {from} to other isolation"
  explanation: >
    An awaited call into an actor returns an object the actor may still hold, so both sides could use
    it at once. Return a Sendable snapshot, or hand the object over for good with a `sending` result.
  fixes:
    - summary: Return a Sendable value (a struct snapshot of what the caller needs)
      snippet: "struct SnapshotData: Sendable { let rows: [Int] }\nfunc current() -> SnapshotData"
    - summary: If the actor gives the object up, declare the result sending
      snippet: "func make() -> sending {type}"
    - summary: Or call it from the same isolation, so nothing crosses
  docs:
    - https://www.swift.org/migration/documentation/swift-6-concurrency-migration-guide/commonproblems
  examples:
    match:
      - line: "ResultFromActor.swift:12:22: error: non-Sendable 'Snapshot'-typed result can not be returned from actor-isolated instance method 'current()' to nonisolated context"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (Tests/XCMedicKitTests/Fixtures/concurrency/ResultFromActor.swift)
        captures: {type: Snapshot, from: "actor-isolated instance method 'current()'", to: nonisolated, line: '12', column: '22'}
      - line: "error: non-sendable type 'Foo' returned by implicitly asynchronous call to nonisolated function cannot cross actor boundary"
        source: https://github.com/swiftlang/swift/issues/74472 (Swift 6.0-dev)
        captures: {type: Foo, from: nonisolated function}
    no_match:
      - line: "error: non-Sendable type 'Buffer' of property 'buffer' cannot exit main actor-isolated context"

- id: non-sendable-property-exits-isolation
  title: A non-Sendable property is read from outside its actor
  category: non-sendable-crossing
  severity: error
  role: cause
  patterns:
    - literal: 'cannot exit '
      regex: '[Nn]on-[sS]endable type [''`‘’](?<type>.+?)[''`’] of property [''`‘’](?<name>[^''`‘’]+)[''`’] cannot exit (?<isolation>.+?) context'
    - literal: 'asynchronous access to '
      regex: '[Nn]on-[sS]endable type [''`‘’](?<type>.+?)[''`’] in (?:implicitly )?asynchronous access to (?<isolation>.+?) property [''`‘’](?<name>[^''`‘’]+)[''`’] cannot cross actor boundary'
  message: "Non-Sendable property '{name}' ({type}) is read outside its {isolation} context"
  explanation: >
    Reading a non-Sendable stored property of an actor or @MainActor type from another isolation
    domain (for example inside Task.detached) would share the object across threads. Read it on its
    actor and pass on a Sendable copy.
  fixes:
    - summary: Read the property on its actor and pass a Sendable copy out
      snippet: "let bytes = await MainActor.run { self.buffer.bytes }"
    - summary: Make the property's type Sendable
      snippet: "struct {type}: Sendable { ... }"
  docs:
    - https://www.swift.org/migration/documentation/swift-6-concurrency-migration-guide/commonproblems
  examples:
    match:
      - line: "prop_exit.swift:11:32: error: non-Sendable type 'Buffer' of property 'buffer' cannot exit main actor-isolated context"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (await self.buffer inside Task.detached in a @MainActor class)
        captures: {type: Buffer, name: buffer, isolation: main actor-isolated}
      - line: "Non-sendable type 'any P2' in implicitly asynchronous access to main actor-isolated property 'p2' cannot cross actor boundary"
        source: https://github.com/swiftlang/swift/issues/77516 (Swift 6.0.2, issue navigator wording)
        captures: {type: any P2, name: p2, isolation: main actor-isolated}
    no_match:
      - line: "error: non-sendable type 'Foo' returned by implicitly asynchronous call to nonisolated function cannot cross actor boundary"

- id: non-sendable-argument-crosses-isolation
  title: A non-Sendable argument is passed into another isolation domain (Swift 5.x wording)
  category: non-sendable-crossing
  severity: error
  role: cause
  patterns:
    - literal: 'may introduce data races'
      regex: '[Pp]assing argument of non-[sS]endable type [''`‘’](?<type>.+?)[''`’] (?<direction>into|outside of) (?<isolation>.+?) context may introduce data races'
  message: "Non-Sendable '{type}' is passed {direction} {isolation} code"
  explanation: >
    Before region-based isolation (Swift 5.10 and older, or Swift 5 mode without complete checking) the
    compiler flags every non-Sendable argument of a call that crosses isolation. On Linux XCTest it is
    often the test case itself (`self`) passed into a @MainActor test helper. Swift 6 compilers either
    accept the call or report it as `sending 'x' risks causing data races`.
  fixes:
    - summary: Make the type Sendable, or isolate it to the same actor as the callee
      snippet: "@MainActor final class {type}: XCTestCase { ... }"
    - summary: Pass only Sendable values (ids, structs) across the boundary
    - summary: Build with a Swift 6 compiler, whose region-based isolation accepts values that are not used again
  docs:
    - https://www.swift.org/migration/documentation/swift-6-concurrency-migration-guide/commonproblems
  examples:
    match:
      - line: "<unknown>:0: warning: passing argument of non-sendable type 'AnalyzerTests' into main actor-isolated context may introduce data races; this is an error in the Swift 6 language mode"
        source: cpisciotta/xcbeautify@513e4b12c3f6:Tests/XcbeautifyLibTests/TestData/spi_swift_testing_full_log.txt (swift test on Linux)
        captures: {type: AnalyzerTests, direction: into, isolation: main actor-isolated}
    no_match:
      - line: "error: sending 'ns' risks causing data races"

- id: sendable-conformance-invalid-storage
  title: A Sendable type stores mutable or non-Sendable state
  category: concurrency-other
  severity: error
  role: cause
  patterns:
    - literal: '-conforming '
      regex: '(?:[Ss]tored property|[Aa]ssociated value) [''`‘’](?<name>[^''`‘’]+)[''`’] of [''`‘’]?Sendable[''`’]?-conforming (?<kind>class|struct|enum|actor|generic struct|generic class|generic enum) [''`‘’](?<type>[^''`‘’]+)[''`’] (?:(?:has|contains) non-[sS]endable type [''`‘’](?<member>.+?)[''`’]|is mutable)'
  explanation: >
    A type declared Sendable may only hold state that is safe to share: `let` properties of Sendable
    types for classes, Sendable members for structs and enums. The fix is in the stored member's type
    (or the var), not in removing Sendable from the container.
  fixes:
    - summary: Make the stored type Sendable, or store a Sendable value (struct) instead
      snippet: "final class Connection: Sendable { let isOpen: Bool }"
    - summary: For a class, change var to let
      snippet: "let {name}: ..."
    - summary: If the state is protected by a lock, say so explicitly
      snippet: "final class {type}: @unchecked Sendable { private let lock = NSLock() ... }"
    - summary: Or make the container an actor
  docs:
    - https://www.swift.org/migration/documentation/swift-6-concurrency-migration-guide/commonproblems
  examples:
    match:
      - line: "SendableStructStorage.swift:7:9: error: stored property 'connection' of 'Sendable'-conforming struct 'Session' has non-Sendable type 'Connection'"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (Tests/XCMedicKitTests/Fixtures/concurrency/SendableStructStorage.swift)
        captures: {name: connection, kind: struct, type: Session, member: Connection, line: '7', column: '9'}
      - line: "/home/dev/Racy/Sources/Racy/Racy.swift:11:9: error: stored property 'model' of 'Sendable'-conforming struct 'Holder' has non-Sendable type 'Model'"
        source: swift build 6.3.1 on Linux (shared/corpus/fixtures/swift-6.3-linux)
        captures: {name: model, type: Holder, member: Model}
      - line: "nonfinal.swift:7:9: error: stored property 'count' of 'Sendable'-conforming class 'Box' is mutable"
        source: "swiftc 6.3.1 on Linux, -swift-version 6 (final class Box: Sendable { var count = 0 })"
        captures: {name: count, kind: class, type: Box}
      - line: "misc.swift:3:10: error: associated value 'tap' of 'Sendable'-conforming enum 'Event' has non-Sendable type 'Plain'"
        source: "swiftc 6.3.1 on Linux, -swift-version 6 (enum Event: Sendable { case tap(Plain) })"
        captures: {name: tap, kind: enum, type: Event, member: Plain}
    no_match:
      - line: "note: class 'Connection' does not conform to the 'Sendable' protocol"

- id: sendable-class-nonfinal-or-inherits
  title: A class cannot conform to Sendable (non-final, or has a superclass)
  category: concurrency-other
  severity: error
  role: cause
  patterns:
    - literal: 'cannot conform to'
      regex: '[Nn]on-final class [''`‘’](?<type>[^''`‘’]+)[''`’] cannot conform to (?:the )?[''`‘’]?Sendable[''`’]?'
    - literal: 'cannot inherit from another class'
      regex: '[''`‘’]?Sendable[''`’]? class [''`‘’](?<type>[^''`‘’]+)[''`’] cannot inherit from another class'
  message: "Class '{type}' cannot be checked Sendable"
  explanation: >
    A subclass could add mutable state, so a checked Sendable class must be `final` and have no
    superclass (NSObject is allowed on Apple platforms). A class made @MainActor is also seen as a
    subclass case when its superclass is nonisolated.
  fixes:
    - summary: Add final
      snippet: "final class {type}: Sendable { ... }"
    - summary: Use a struct or an actor instead of a class hierarchy
    - summary: For an audited hierarchy, declare it unchecked
      snippet: "class {type}: @unchecked Sendable { ... }"
  docs:
    - https://www.swift.org/migration/documentation/swift-6-concurrency-migration-guide/commonproblems
  examples:
    match:
      - line: "NonFinalSendableClass.swift:2:7: error: non-final class 'Token' cannot conform to the 'Sendable' protocol"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (Tests/XCMedicKitTests/Fixtures/concurrency/NonFinalSendableClass.swift)
        captures: {type: Token, line: '2', column: '7'}
      - line: "nonfinal.swift:12:13: error: 'Sendable' class 'Derived2' cannot inherit from another class"
        source: "swiftc 6.3.1 on Linux, -swift-version 6 (final class Derived2: Base, Sendable)"
        captures: {type: Derived2}
      - line: "NonFinalSendableClass.swift:2:7: warning: non-final class 'Token' cannot conform to the 'Sendable' protocol; this is an error in the Swift 6 language mode"
        source: swiftc 6.3.1 on Linux, -swift-version 5 -strict-concurrency=complete
        captures: {type: Token}
    no_match:
      - line: "error: non-class type 'S' cannot conform to class protocol 'P'"

- id: type-does-not-conform-to-sendable
  title: A non-Sendable type is used where Sendable is required
  category: concurrency-other
  severity: error
  role: cause
  patterns:
    - literal: 'does not conform to'
      regex: '(?:^|: )[Tt]ype [''`‘’](?<type>.+?)[''`’] does not conform to (?:the [''`‘’]?Sendable[''`’]? protocol|protocol [''`‘’]Sendable[''`’])'
  message: "'{type}' is not Sendable but is used where Sendable is required"
  explanation: >
    A generic `T: Sendable` requirement (a Task's result, an actor API, a Sendable container) is
    given a non-Sendable type. The fix is in that type, or in passing a Sendable value instead.
  fixes:
    - summary: Make the type Sendable (struct, immutable final class, or actor)
      snippet: "struct {type}: Sendable { ... }"
    - summary: Pass a Sendable value (an id or a struct snapshot) instead of the object
  docs:
    - https://www.swift.org/migration/documentation/swift-6-concurrency-migration-guide/commonproblems
  examples:
    match:
      - line: "generic_sendable.swift:6:5: error: type 'Plain' does not conform to the 'Sendable' protocol"
        source: "swiftc 6.3.1 on Linux, -swift-version 6 (send(Plain()) for func send<T: Sendable>)"
        captures: {type: Plain}
      - line: "generic_sendable.swift:6:5: warning: type 'Plain' does not conform to the 'Sendable' protocol; this is an error in the Swift 6 language mode"
        source: swiftc 6.3.1 on Linux, -swift-version 5 -strict-concurrency=complete
        captures: {type: Plain}
    no_match:
      - line: "note: class 'Plain' does not conform to the 'Sendable' protocol"
      - line: "error: type 'Plain' does not conform to protocol 'Equatable'"

- id: preconcurrency-import-suggested
  title: Sendable problems come from a module without concurrency annotations
  category: concurrency-other
  severity: warning
  role: cause
  patterns:
    - literal: 'preconcurrency'
      regex: '[Aa]dd [''`‘’]@preconcurrency[''`’] to (?<action>suppress|treat) [''`‘’]?Sendable[''`’]?-related (?:warnings|errors) from module [''`‘’](?<module>[^''`‘’]+)[''`’]'
  message: "Sendable diagnostics come from types of module '{module}', which has no concurrency annotations"
  explanation: >
    The Sendable errors next to this warning are about types from the named module, which was built
    without strict concurrency checking, so the compiler cannot know whether they are safe. Updating
    the dependency is the real fix; `@preconcurrency import` downgrades these errors meanwhile.
  fixes:
    - summary: Update the dependency to a version with Sendable annotations
    - summary: Meanwhile mark the import, and remove it once the module is annotated
      snippet: "@preconcurrency import {module}"
  docs:
    - https://docs.swift.org/compiler/documentation/diagnostics/preconcurrency-import
  examples:
    match:
      - line: "UseA.swift:1:1: warning: add '@preconcurrency' to treat 'Sendable'-related errors from module 'LibA' as warnings"
        source: swiftc 6.3.1 on Linux, -swift-version 6 (LibA built in Swift 5 mode)
        captures: {action: treat, module: LibA, line: '1', column: '1'}
      - line: "UseA.swift:1:1: warning: add '@preconcurrency' to suppress 'Sendable'-related warnings from module 'LibA'"
        source: swiftc 6.3.1 on Linux, -swift-version 5 -strict-concurrency=complete
        captures: {action: suppress, module: LibA}
    no_match:
      - line: "warning: '@preconcurrency' on conformance to 'Renderer' has no effect"

- id: swift6-runtime-isolation-assertion
  title: "Crash at run time: code ran off the actor it was isolated to"
  category: concurrency-other
  severity: error
  role: cause
  patterns:
    - literal: 'actor executor assumption'
      regex: 'Incorrect actor executor assumption(?:; [Ee]xpected (?<expected>[''`‘’][^''`‘’]+[''`’]|same executor as .+))?'
    - literal: '_dispatch_assert_queue_fail'
      regex: '_dispatch_assert_queue_fail'
  explanation: >
    Swift 6 inserts run-time checks where code is assumed to be on an actor (assumeIsolated,
    preconditionIsolated, or a closure inferred @MainActor). The process traps when that code is called
    on another thread, typically by GCD, an Objective-C/C callback or a framework delegate; in tests
    the runner crashes and restarts.
  fixes:
    - summary: Mark the callback closure @Sendable or nonisolated so it does not inherit @MainActor, and hop explicitly
      snippet: "legacyAPI.onUpdate { @Sendable value in\n    Task { @MainActor in self.update(value) }\n}"
    - summary: Import the framework with @preconcurrency or move the callback out of the @MainActor type
    - summary: Replace assumeIsolated with an awaited hop when the caller's thread is not guaranteed
      snippet: "await MainActor.run { ... }"
  docs:
    - https://github.com/swiftlang/swift/issues/76804
  examples:
    match:
      - line: "Incorrect actor executor assumption; expected 'preassert.Worker' executor."
        source: "swift 6.3.1 on Linux: a program calling actor.preconditionIsolated() from Task.detached"
        captures: {expected: "'preassert.Worker'"}
      - line: "Thread 4: Fatal error: Incorrect actor executor assumption; Expected same executor as ..."
        source: https://github.com/Actomaton/Actomaton/issues/87
      - line: "0  libdispatch.dylib              0x64d8 _dispatch_assert_queue_fail + 120"
        source: https://github.com/twostraws/CodeScanner/pull/154
    no_match:
      - line: "Fatal error: Unexpectedly found nil while unwrapping an Optional value"
"""#
}
