import Dispatch
import Synchronization

/// A `ConnectionMachine` served without a socket or a loop: a clock that moves only when told,
/// a receive buffer the client fills, and a send buffer that takes as many bytes per write as
/// it is given room for. The machine's tests and its fuzz target drive connections through it
/// (SwiftNIO's `EmbeddedChannel` plays this part for its handlers), and it checks the bounds the
/// machine promises after every step (`violations`).
///
/// It honours the machine's demand as the real `Connection` does: bytes the client sends while
/// the machine reads nothing wait in the receive buffer, and a FIN is seen only after them.
package final class EmbeddedConnection {
  let core: ServerCore
  let machine: ConnectionMachine
  /// The time of the next event.
  private(set) var now: Moment
  /// Bytes sent by the client and not read yet.
  private var inbound: [UInt8] = []
  /// Whether the client shut its sending side (seen once `inbound` is read).
  private var clientFinished = false
  /// How many bytes the socket takes per write; nil: all of them.
  package var room: Int?
  /// Everything the server wrote.
  package private(set) var written: [UInt8] = []
  /// Actions the machine decided after its `.close` (it promises none).
  package private(set) var actionsAfterClose = 0
  /// Whether the server shut its sending side, and whether it closed the socket.
  package private(set) var halfClosed = false
  package private(set) var closed = false
  /// Handlers and stream fetches started and not run yet (a handler cancelled meanwhile runs
  /// in a cancelled task).
  private var handlers:
    [(number: UInt64, run: @Sendable () async -> HTTPResponse, cancelled: Bool)] = []
  private var fetches: [(number: UInt64, next: @Sendable () async throws -> [UInt8]?)] = []
  /// The exchanges whose handler the machine cancelled, in order.
  package private(set) var cancelledHandlers: [UInt64] = []
  /// The states the machine was in after each step, in order (repeats folded).
  private(set) var trace: [ConnectionState] = []

  /// A connection to a server with `router` and `configuration`, accepted now.
  package init(router: Router, configuration: HTTPServerConfiguration = HTTPServerConfiguration()) {
    core = ServerCore(configuration: configuration, router: router)
    now = Moment.now
    machine = ConnectionMachine(
      core: core, address: "127.0.0.2", network: "127.0.0.0/24", date: HTTPDate(), now: now)
    trace = [machine.state]
  }

  // MARK: - What the client and the world do

  /// The client sends `bytes`.
  package func send(_ bytes: [UInt8]) {
    guard !clientFinished else { return }
    inbound += bytes
    settle()
  }

  /// The client sends `text`.
  package func send(_ text: String) { send(Array(text.utf8)) }

  /// The client shuts its sending side (a FIN after what it sent).
  package func finish() {
    clientFinished = true
    settle()
  }

  /// The client resets the connection: what it sent and did not have read is lost.
  package func reset() {
    inbound = []
    step(.peerReset)
  }

  /// Time passes, in ticks of at most 100 ms as the loop's.
  package func advance(by duration: Duration) {
    var left = duration
    while left > .zero {
      let tick = min(left, .milliseconds(100))
      now += tick
      left -= tick
      step(.tick)
    }
  }

  /// Runs the handlers and stream fetches started, one at a time, and delivers their answers.
  package func runHandlers() async {
    while !handlers.isEmpty || !fetches.isEmpty {
      if !handlers.isEmpty {
        let handler = handlers.removeFirst()
        // A cancelled handler's task is cancelled before the handler starts: cancelling it from
        // here after `Task {}` raced the task's own start on another thread.
        let cancelled = handler.cancelled
        let task = Task {
          if cancelled { withUnsafeCurrentTask { $0?.cancel() } }
          return await handler.run()
        }
        step(.answered(number: handler.number, await task.value))
      } else {
        let fetch = fetches.removeFirst()
        let result: Result<[UInt8]?, any Error>
        do { result = .success(try await fetch.next()) } catch { result = .failure(error) }
        step(.chunk(number: fetch.number, result))
      }
    }
  }

  /// `runHandlers` for a caller that is not async (the fuzz target): it waits on a semaphore,
  /// so it must not be called from the concurrency pool.
  package func runHandlersBlocking() {
    let done = DispatchSemaphore(value: 0)
    let box = UncheckedBox(self)
    Task.detached {
      await box.value.runHandlers()
      done.signal()
    }
    done.wait()
  }

  /// Graceful shutdown begins, then (with `graceOver`) its grace runs out.
  package func shutdown(graceOver: Bool) {
    step(.shutdownBegan)
    if graceOver { step(.graceOver) }
  }

  /// Delivers one event and takes the actions it led to, then reads what the machine wants.
  func step(_ event: ConnectionEvent) {
    machine.handle(event, at: now)
    settle()
  }

  // MARK: - Taking the machine's actions

  private func settle() {
    while !closed {
      takeActions()
      let demand = machine.demand
      if demand == .none || closed { break }
      if !inbound.isEmpty {
        let count = min(inbound.count, 64 * 1024)
        if demand == .discard {
          machine.handle(.discarded(count), at: now)
        } else {
          let bytes = Array(inbound[..<count])
          bytes.withUnsafeBytes { machine.handle(.received($0), at: now) }
        }
        inbound.removeFirst(count)
      } else if clientFinished {
        machine.handle(.peerClosed, at: now)
        takeActions()
        break
      } else {
        break
      }
    }
    if trace.last != machine.state { trace.append(machine.state) }
  }

  private func takeActions() {
    while let action = machine.takeAction() {
      // The machine promises nothing after its close: a write or a run there would reach a
      // descriptor that may be another connection's.
      if closed { actionsAfterClose += 1 }
      switch action {
      case .write:
        guard !closed else { continue }
        let room = room ?? Int.max
        var taken: [UInt8] = []
        machine.send(at: now) { output in
          taken = output.take(upTo: room)
          return output.isEmpty ? .done : .blocked(written: taken.count)
        }
        written += taken
      case .halfClose:
        halfClosed = true
      case .close:
        closed = true
      case .run(let number, let run):
        handlers.append((number, run, false))
      case .cancel(let number):
        cancelledHandlers.append(number)
        if let index = handlers.firstIndex(where: { $0.number == number }) {
          handlers[index].cancelled = true
        }
      case .fetch(let number, let next):
        fetches.append((number, next))
      }
    }
  }

  /// Writes what waits for room, with the room given now.
  package func flush() {
    guard !closed else { return }
    step(.writable)
  }

  // MARK: - What is checked

  /// The statuses of the answers written, in order (interim 1xx answers included; a body that
  /// holds `HTTP/1.x NNN` would count too).
  package var statuses: [Int] {
    var found: [Int] = []
    let marker = Array("HTTP/1.".utf8)
    var index = 0
    while index + 12 <= written.count {
      if written[index..<(index + 7)].elementsEqual(marker) {
        let digits = written[(index + 9)..<(index + 12)]
        if digits.allSatisfy({ (48...57).contains($0) }) {
          found.append(digits.reduce(0) { $0 * 10 + Int($1) - 48 })
        }
      }
      index += 1
    }
    return found
  }

  /// Whether the connection is closed and what it held was given back.
  package var isOverAndReleased: Bool {
    closed && core.inFlight.load(ordering: .relaxed) == 0 && core.bodyBudget.reserved == 0
  }

  /// The machine's promises that do not hold now: no illegal move, nothing held after the close,
  /// a drain deadline only once the sending side is shut, and input held within its bounds (a
  /// body within its route's limit, and one read's worth waiting).
  package func violations() -> [String] {
    var found: [String] = []
    let illegal = core.illegalTransitions.load(ordering: .relaxed)
    if illegal > 0 { found.append("\(illegal) illegal transitions") }
    if closed, !isOverAndReleased {
      found.append(
        "closed holding \(core.inFlight.load(ordering: .relaxed)) in flight and "
          + "\(core.bodyBudget.reserved) body bytes")
    }
    if closed != (machine.state == .closed) { found.append("socket and machine disagree") }
    if actionsAfterClose > 0 { found.append("\(actionsAfterClose) actions after the close") }
    // A parked answer outside `.parked` cannot be held: the phase's case holds it. What can
    // still disagree is the socket and the drain deadline: it is set exactly when the sending
    // side is shut.
    if case .draining(let deadline, _) = machine.phase, (deadline != nil) != halfClosed {
      found.append("a drain deadline without a half-close, or a half-close without one")
    }
    let limit =
      machine.exchange?.routed?.route.maxBodyBytes ?? core.configuration.defaultMaxBodyBytes
    if machine.parser.body.count > limit { found.append("a body past its limit is held") }
    if machine.pendingCount > 64 * 1024 { found.append("\(machine.pendingCount) bytes pending") }
    return found
  }
}

/// Hands a value to a task that runs while its owner waits for it.
private struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
