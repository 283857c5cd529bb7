import ArtworkCore

/// One connection's HTTP/1.1 logic, without a socket: events in (`handle`), actions out
/// (`takeAction`, and `demand` for what to read). It parses requests as their bytes arrive,
/// judges each head before any body byte is read, answers requests in order one at a time, and
/// keeps the connection alive or closes it. Every state has a bound in bytes and in time
/// (`ConnectionState`), and every move between states is checked (`enter`).
///
/// Where it is lives in `phase`, whose cases carry what only they hold (`ConnectionPhase`); the
/// request being served is `exchange`, changed only through `updateExchange`. Its data is
/// written in this file only (`private(set)` or private): the extensions in the other files
/// decide, and change it through the methods here (`enter`, `park`, `updateExchange`, `queue`,
/// `act`...).
///
/// It reads no clock (the time comes with each event) and touches no descriptor, so tests drive
/// it by tables of events (`ConnectionMachineTests`) and the fuzz target by random ones. The
/// `Connection` around it does the system calls. Confined to one thread.
final class ConnectionMachine {
  let core: ServerCore
  /// The peer's address as text.
  let address: String
  /// The peer's network (`ClientNetworks`): what its connection is counted by, and a request's
  /// share of the body budget when its route names none.
  let network: String
  /// Whether the peer may name the client of its requests (a trusted proxy), once asked
  /// (`HTTPServerConfiguration.speaksForClients`).
  private var peerSpeaksForClients: Bool?
  /// When the connection was accepted.
  let accepted: Moment
  /// The `Date` line of answers (the loop's, shared by its connections).
  let date: HTTPDate

  /// Where the connection is, with what only that phase holds.
  private(set) var phase = ConnectionPhase.awaitingRequest
  /// When the current phase began.
  private(set) var stateStarted: Moment
  /// The time of the event being handled.
  private(set) var now: Moment
  /// The last time a byte was read or written.
  private(set) var lastProgress: Moment
  let parser = RequestParser()
  /// The first bytes of the current request (at most 64), however they arrived: a refusal of
  /// its request line quotes them (a method sent a byte at a time is still named).
  private(set) var requestStart: [UInt8] = []
  /// Bytes received but not parsed yet: a pipelined request's, or what arrived with the end of
  /// the one before. At most one read's worth: nothing is read while they wait.
  private var pending: [UInt8] = []
  /// The bytes to write, in order (`.write`).
  private(set) var output = OutputQueue()
  /// The request being served (changed through `updateExchange`).
  private(set) var exchange: Exchange?
  /// The last finished exchange, emptied, kept for the next request (`beginExchange`).
  private var spareExchange: Exchange?
  private var exchangeNumber: UInt64 = 0
  /// Where every response head of this connection is written (its storage reused).
  private var headBuffer: [UInt8] = []
  /// Requests answered on this connection.
  private(set) var served = 0
  /// Whether graceful shutdown began (`.shutdownBegan`, or `.graceOver`, which ends it): every
  /// answer from then on closes its connection.
  private(set) var shuttingDown = false
  /// Bytes read and dropped after the last answer.
  private var discarded = 0
  /// How long a connection whose last answer is out waits for the client to close
  /// (`lingerTimeout`; 1 s after a 408): its draining deadline is this after the answer.
  private var linger: Duration
  /// Since when the client has not taken what is queued for it, and how much it took since.
  private(set) var sendBlocked: (since: Moment, written: Int)?

  /// The actions decided and not taken yet (`takeAction`), in order; the storage is reused.
  private var actions: [ConnectionAction] = []
  private var nextAction = 0

  init(core: ServerCore, address: String, network: String, date: HTTPDate, now: Moment) {
    self.core = core
    self.address = address
    self.network = network
    self.date = date
    accepted = now
    stateStarted = now
    self.now = now
    lastProgress = now
    linger = core.configuration.lingerTimeout
  }

  /// The client of a request with `headers`: the peer, or whom a trusted proxy named
  /// (`HTTPServerConfiguration.clientAddress`). Whether the peer is one is asked once per
  /// connection.
  func client(of headers: HTTPHeaders) -> String {
    guard let resolve = core.configuration.clientAddress else { return address }
    if let speaks = core.configuration.speaksForClients {
      if peerSpeaksForClients == nil { peerSpeaksForClients = speaks(address) }
      guard peerSpeaksForClients == true else { return address }
    }
    return resolve(address, headers)
  }

  /// Whether the peer is a proxy that speaks for clients (`client(of:)` asked, for this
  /// connection's first request): it passes on what it is given, so a refusal it relays must
  /// come after the body it streams (`reject`).
  var peerIsProxy: Bool {
    guard core.configuration.clientAddress != nil else { return false }
    return core.configuration.speaksForClients == nil || peerSpeaksForClients == true
  }

  /// The plain state the connection is in (its phase without the phase's data).
  var state: ConnectionState { phase.kind }

  /// Whether the connection idles between requests: kept alive after an answer, with nothing
  /// of a next request arrived. At the connection limit such a connection may be closed to
  /// admit a new one (`EventLoop.closeOldestIdle`), as HTTP lets a server close an idle
  /// connection at any time.
  var idlesKeptAlive: Bool { state == .awaitingRequest && served > 0 && pending.isEmpty }

  /// The answer a parked connection holds (nil in every other phase).
  var parkedAnswer: HTTPResponse? {
    if case .parked(let answer, _, _) = phase { answer } else { nil }
  }

  // MARK: - Events in, actions out

  /// Handles one event at `now`. The actions it decided wait in `takeAction`.
  func handle(_ event: ConnectionEvent, at now: Moment) {
    self.now = now
    guard state != .closed else { return }
    switch event {
    case .received(let bytes):
      lastProgress = now
      if !pending.isEmpty {
        // Read although nothing was asked for: it goes after what waits, in order.
        pending.append(contentsOf: bytes)
      } else {
        let rest = consume(bytes)
        if rest > 0 { pending.append(contentsOf: bytes[(bytes.count - rest)...]) }
      }
    case .discarded(let count):
      lastProgress = now
      discard(count)
    case .peerClosed:
      clientClosed()
    case .peerReset, .socketFailed, .serverStopped, .shed:
      // Nothing can reach the client any more: what the connection holds (its slot, its body
      // reservation, its in-flight count) goes now.
      close()
    case .wrote(let outcome):
      wrote(outcome)
    case .answered(let number, let response):
      // A late answer (after the handler's deadline, or to a connection reset meanwhile) is
      // dropped.
      guard state == .handling, exchange?.number == number else { return }
      respond(response)
    case .chunk(let number, let result):
      chunkArrived(number, result)
    case .writable:
      // Only what the machine queued goes out: the socket's room never writes on its own.
      if !output.isEmpty { act(.write) }
    case .tick:
      checkDeadlines()
    case .shutdownBegan:
      shuttingDown = true
      if state == .awaitingRequest { close() }
    case .graceOver:
      shuttingDown = true
      abort()
    }
    pump()
  }

  /// The next action to take, in the order they were decided; nil when none is left.
  func takeAction() -> ConnectionAction? {
    guard nextAction < actions.count else {
      if !actions.isEmpty {
        actions.removeAll(keepingCapacity: true)
        nextAction = 0
      }
      return nil
    }
    defer { nextAction += 1 }
    return actions[nextAction]
  }

  /// Bytes received and waiting to be parsed.
  var pendingCount: Int { pending.count }

  /// What to read from the socket now.
  var demand: InputDemand {
    switch phase {
    case .awaitingRequest, .readingHead, .readingBody: pending.isEmpty ? .parse : .none
    case .draining(_, let peerFinished): peerFinished ? .none : .discard
    case .handling, .writing, .parked, .closed: .none
    }
  }

  /// Queues an action for the connection. Nothing follows a `.close`: once the machine is
  /// closed, only the close itself is queued, so no write or run reaches a closed descriptor.
  func act(_ action: ConnectionAction) {
    if case .close = action {
      actions.append(action)
    } else if state != .closed {
      actions.append(action)
    }
  }

  /// Puts bytes of an answer in the output, after what waits there (the machine's own files
  /// only: nothing else writes the queue).
  func queue(_ bytes: [UInt8]) { output.append(bytes) }

  /// Puts a shared body in the output, after what waits there.
  func queue(_ body: SharedBody) { output.append(body) }

  /// Writes a response head into the connection's reused head buffer and queues it.
  func queueHead(
    status: Int, headers: HTTPHeaders, framing: ResponseHead.Framing, requestID: RequestID,
    persistence: ResponseHead.Persistence
  ) {
    ResponseHead.write(
      status: status, headers: headers, framing: framing, requestID: requestID,
      persistence: persistence, date: date.current(), into: &headBuffer)
    output.append(headBuffer)
  }

  /// After a 408 the connection lingers at most 1 s for the client to close.
  func lingerBriefly() { linger = min(linger, .seconds(1)) }

  /// Writes what is queued through `write` (the socket's, or a test's), then handles how far it
  /// got as `.wrote`. The queue is the machine's: the connection never changes it itself.
  func send(at now: Moment, _ write: (inout OutputQueue) -> OutputQueue.Outcome) {
    guard state != .closed else { return }
    let outcome = write(&output)
    handle(.wrote(outcome), at: now)
  }

  /// Moves to `next`, when the table allows its kind to follow the current one, and answers
  /// whether it moved. A move it does not allow is a bug: it is counted
  /// (`artwork_http_illegal_transitions_total`) and the connection closes, so the bug costs one
  /// connection, never the process; the caller must then stop (it queues nothing after the
  /// close). The data of the phase left goes with it (a parked answer, a drain deadline).
  func enter(_ next: ConnectionPhase) -> Bool {
    guard state.mayEnter(next.kind) else {
      core.illegalTransitions.add(1, ordering: .relaxed)
      close()
      return false
    }
    phase = next
    stateStarted = now
    return true
  }

  /// Changes the current exchange (when there is one) as `event` says: the one way the
  /// machine's files change an exchange.
  func updateExchange(_ event: consuming Exchange.Event) {
    exchange?.apply(event)
  }

  // MARK: - Input

  /// The first byte of a request arrived.
  func beginExchange() {
    exchangeNumber += 1
    if let spare = spareExchange {
      // Nothing else holds a finished exchange (records copy what they need).
      spareExchange = nil
      spare.restart(number: exchangeNumber, started: now)
      exchange = spare
    } else {
      exchange = Exchange(number: exchangeNumber, started: now)
    }
    requestStart.removeAll(keepingCapacity: true)
    parser.forgetHead()
    // A refused move closed the connection: `consume` sees `.closed` and stops.
    _ = enter(.readingHead)
  }

  /// Parks `response` until `until`: the answer lives in the `.parked` phase, and goes with it.
  func park(_ response: HTTPResponse, until: Moment) {
    _ = enter(.parked(answer: response, until: until, peerFinished: phase.peerFinished))
  }

  /// Parses what waited while the connection answered, once it reads again.
  private func pump() {
    while !pending.isEmpty, state.reads {
      let bytes = pending
      pending = []
      let rest = bytes.withUnsafeBytes { consume($0) }
      if rest > 0 { pending = Array(bytes.suffix(rest)) }
    }
  }

  /// Handles input bytes; returns how many at the end were not used (they wait in `pending`).
  private func consume(_ bytes: UnsafeRawBufferPointer) -> Int {
    var offset = 0
    while offset < bytes.count {
      switch state {
      case .draining:
        discard(bytes.count - offset)
        return 0
      case .awaitingRequest, .readingHead, .readingBody:
        if state == .awaitingRequest { beginExchange() }
        if state == .readingHead, requestStart.count < 64 {
          requestStart += bytes[offset..<min(bytes.count, offset + 64 - requestStart.count)]
        }
        let (consumed, stop) = parser.feed(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        offset += consumed
        if state == .readingBody, parser.isChunked {
          bodyGrew()
          if state != .readingBody { continue }
        }
        if state == .readingHead, parser.target.count > Self.targetLimit(core.configuration) {
          targetTooLong()
          continue
        }
        switch stop {
        case .needMore:
          if state == .readingHead, parser.headBytes > core.configuration.maxHeaderBytes {
            headTooLarge()
          }
        case .headComplete:
          if parser.headBytes > core.configuration.maxHeaderBytes {
            headTooLarge()
          } else {
            headArrived()
          }
        case .messageComplete:
          messageArrived()
        case .bodyOverLimit:
          bodyOverLimit()
        case .failed(let failure):
          let answer = FramingRules.answer(
            for: failure, fields: parser.fields, start: requestStart)
          refuseAndClose(answer)
        }
      case .handling, .writing, .parked:
        return bytes.count - offset
      case .closed:
        return 0
      }
    }
    return 0
  }

  /// The client closed its sending side.
  private func clientClosed() {
    switch phase {
    case .awaitingRequest, .readingHead, .readingBody:
      // A request cut short cannot be answered usefully: nobody reads the answer.
      close()
    case .draining where output.isEmpty && exchange == nil:
      close()
    case .draining, .handling, .writing, .parked:
      // The answer may still be read (a client that sent its request and then shut its side):
      // it goes out, then the connection closes. The same phase, now knowing it: not a move.
      phase = phase.withPeerFinished
    case .closed:
      break
    }
  }

  /// Bytes read after the last answer: dropped, within the bound.
  private func discard(_ count: Int) {
    discarded += count
    if discarded > core.configuration.maxDiscardBytes { close() }
  }

  // MARK: - Closing

  /// Closes at once. A request still in its exchange is logged as not completed; a handler or
  /// stream still running finds no exchange when it answers.
  func close() {
    guard state != .closed else { return }
    // Every state may close (the table), so this move is never refused.
    _ = enter(.closed)
    output.removeAll()
    pending = []
    if let exchange {
      self.exchange = nil
      release(exchange)
      if exchange.answer != nil { core.log(record(exchange, completed: false)) }
      retire(exchange)
    }
    act(.close)
  }

  /// Gives back what an exchange held: its in-flight count, its body's arriving place and its
  /// body budget.
  func release(_ exchange: Exchange) {
    if exchange.said != nil { core.inFlight.subtract(1, ordering: .relaxed) }
    if let body = exchange.body {
      if body.arriving { core.bodyBudget.arrived(share: body.share) }
      core.bodyBudget.release(body.reserved, share: body.share)
    }
  }

  /// Keeps a finished exchange for the next request, emptied now: what it referred to (the
  /// request's head, its fields, the route's steps) is let go at once, so the parser can reuse
  /// its buffers.
  private func retire(_ exchange: Exchange) {
    exchange.restart(number: 0, started: now)
    spareExchange = exchange
  }

  /// The access-log record of an exchange.
  func record(_ exchange: Exchange, completed: Bool) -> HTTPAccessRecord {
    let target = exchange.said?.target
    return HTTPAccessRecord(
      id: exchange.id, method: exchange.said?.method ?? HTTPMethod(rawValue: "-"),
      target: target,
      unparsedTarget: exchange.said == nil || target != nil ? nil : parser.target,
      route: exchange.routed?.route.pattern.text, status: exchange.answer?.status ?? 0,
      duration: (now - exchange.started).seconds,
      bytesSent: exchange.answer?.bytesSent ?? 0,
      remoteAddress: exchange.said?.client ?? address, completed: completed,
      caller: exchange.routed?.caller)
  }

  // MARK: - Output

  /// What was queued went out, or part of it.
  private func wrote(_ outcome: OutputQueue.Outcome) {
    switch outcome {
    case .failed:
      close()
      return
    case .blocked(let written):
      if written > 0 { lastProgress = now }
      if let blocked = sendBlocked {
        sendBlocked = (blocked.since, blocked.written + written)
      } else {
        sendBlocked = (now, 0)
      }
      return
    case .done:
      lastProgress = now
      sendBlocked = nil
    }
    if let exchange, exchange.answer != nil {
      if let stream = exchange.answer?.stream {
        if !stream.fetching { fetchChunk() }
        return
      }
      finishExchange()
    }
    if case .draining(let deadline, let peerFinished) = phase, exchange == nil {
      if peerFinished {
        close()
      } else if deadline == nil {
        // The last answer is out: shut the sending side and wait `linger` for the client. The
        // same phase with its deadline set, not a move.
        phase = .draining(deadline: now + linger, peerFinished: false)
        act(.halfClose)
      }
    }
  }

  /// The answer is all written: log it and get ready for the next request (or the close).
  private func finishExchange() {
    guard let exchange else { return }
    self.exchange = nil
    served += 1
    release(exchange)
    core.log(record(exchange, completed: true))
    retire(exchange)
    guard case .writing(let peerFinished) = phase else { return }
    if peerFinished {
      // The client sent its last request and shut its side: it has its answer.
      close()
    } else if shuttingDown {
      // A refused move has closed the connection already; nothing follows here either way.
      _ = enter(.draining(deadline: nil, peerFinished: false))
    } else {
      _ = enter(.awaitingRequest)
    }
  }

  static func double(_ duration: Duration) -> Double {
    duration.seconds
  }
}
