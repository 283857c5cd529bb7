internal import CHTTPParser
import Glibc

/// One client connection, served by the loop that accepted it: requests are parsed as bytes
/// arrive, answered in order one at a time, and the connection is kept alive or closed.
///
/// Confined to its loop's thread. Work done elsewhere (handlers, stream chunks) comes back
/// through `EventLoop.post`, carrying the connection's descriptor, `serial` and the exchange's
/// number, so a late answer never reaches a connection or request it was not meant for.
final class Connection {
  /// Where the connection is between and within exchanges.
  enum Phase {
    /// Waiting for the first byte of a request (a new or a kept-alive connection).
    case waiting
    /// A request head is arriving.
    case head
    /// The head was accepted (or refused without a body to wait for); the body is arriving.
    case body
    /// The handler runs; input waits in the socket.
    case handling
    /// A response is being written, or its stream waits for the next chunk.
    case writing
    /// An overload refusal (503 with `Retry-After`) decided from the head waits out its
    /// `Retry-After` before it is sent, reading nothing meanwhile: a client that retries at once
    /// instead of waiting is held back by TCP flow control rather than by the server's CPU.
    case parked
    /// The last answer is written (or being written); input is read and dropped until the
    /// client closes, so the answer is never reset away. Then the connection closes.
    case draining
    case closed
  }

  unowned let loop: EventLoop
  let core: ServerCore
  let fd: Int32
  let serial: UInt64
  /// The client's address as text.
  let address: String
  let accepted: ContinuousClock.Instant

  var phase = Phase.waiting
  /// When the current phase began.
  var phaseStarted: ContinuousClock.Instant
  /// The last time a byte was read or written.
  var lastProgress: ContinuousClock.Instant
  let parser = RequestParser()
  /// Bytes read but not parsed yet: the start of a pipelined request.
  var pending: [UInt8] = []
  var output = OutputQueue()
  /// The request being served.
  var exchange: Exchange?
  /// The exchange of the last request, kept for the next one (see `Exchange.reset`).
  var spareExchange: Exchange?
  /// Where every response head of this connection is written (its storage reused).
  var headBuffer: [UInt8] = []
  /// Requests answered on this connection.
  var served = 0
  var exchangeNumber: UInt64 = 0
  /// Whether the sending side is shut (after the last answer).
  var writeShut = false
  /// Bytes read and dropped after the last answer.
  var discarded = 0
  /// When a draining connection closes whether or not the client has.
  var drainDeadline: ContinuousClock.Instant?
  /// The answer of a parked connection and when it goes out.
  var parkedAnswer: (until: ContinuousClock.Instant, response: HTTPResponse)?
  /// Set when epoll reported the client's end of stream (a FIN, or a reset).
  var peerHungUp = false
  /// Set when epoll reported the client gone both ways (a reset, an error).
  var peerGone = false

  init(loop: EventLoop, fd: Int32, serial: UInt64, address: String) {
    self.loop = loop
    self.core = loop.core
    self.fd = fd
    self.serial = serial
    self.address = address
    accepted = loop.now
    phaseStarted = loop.now
    lastProgress = loop.now
    core.live.increment()
  }

  deinit {
    core.live.decrement()
  }

  func enter(_ next: Phase) {
    phase = next
    phaseStarted = loop.now
  }

  /// Does all that can be done now: writes what is queued, then reads and handles input while
  /// the phase wants it. Called on every readiness event and after every state change.
  func drive() {
    guard phase != .closed else { return }
    if peerGone {
      // A reset: whatever the phase, nothing can reach the client any more. What the
      // connection holds (its slot, its body reservation, its in-flight count) goes now.
      close()
      return
    }
    if !output.isEmpty { flush() }
    readInput()
  }

  /// Whether input is read in the current phase.
  private var readsInput: Bool {
    switch phase {
    case .waiting, .head, .body, .draining: true
    case .handling, .writing, .parked, .closed: false
    }
  }

  /// Reads until the socket is empty or the phase stops wanting input. At most 16 reads at a
  /// time: a connection with more waiting is driven again after the loop's other work.
  private func readInput() {
    if !pending.isEmpty, phase == .draining {
      discard(pending.count)
      pending = []
    }
    if !pending.isEmpty {
      let bytes = pending
      pending = []
      let rest = bytes.withUnsafeBytes { handle($0) }
      if rest > 0 { pending = Array(bytes.suffix(rest)) }
    }
    var reads = 0
    while readsInput, pending.isEmpty {
      if reads == 16 {
        loop.schedule(self)
        return
      }
      reads += 1
      if phase == .draining {
        // The answer is out and the client has closed its side: it read the answer (or never
        // will); what it sent before is not worth reading.
        if peerHungUp, writeShut {
          close()
          return
        }
        // Dropped bytes are never copied.
        let count = artwork_http_discard(fd, 1 << 20)
        if count > 0 {
          lastProgress = loop.now
          discard(count)
          continue
        }
        if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { close() }
        return
      }
      let count = artwork_http_recv(fd, loop.scratch.baseAddress, loop.scratch.count)
      if count > 0 {
        lastProgress = loop.now
        let rest = handle(UnsafeRawBufferPointer(rebasing: loop.scratch[..<count]))
        if rest > 0 {
          pending = Array(UnsafeRawBufferPointer(rebasing: loop.scratch[(count - rest)..<count]))
        }
        // NOTE: a short read emptied the socket; bytes arriving later raise a new edge, so
        // asking again now would only cost a system call that answers EAGAIN. Unless the client
        // has closed its side: then no edge will come, and the end of the stream must be read
        // now, with the last bytes, or the connection would wait for its deadline.
        if count < loop.scratch.count, !peerHungUp { return }
      } else if count == 0 {
        endOfInput()
        return
      } else {
        if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { close() }
        return
      }
    }
  }

  /// Handles input bytes; returns how many at the end were not used (they wait in `pending`).
  private func handle(_ bytes: UnsafeRawBufferPointer) -> Int {
    var offset = 0
    while offset < bytes.count {
      switch phase {
      case .draining:
        discard(bytes.count - offset)
        return 0
      case .waiting, .head, .body:
        if phase == .waiting { beginExchange() }
        let (consumed, stop) = parser.feed(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        offset += consumed
        if phase == .body, parser.isChunked {
          bodyGrew()
          if phase != .body { continue }
        }
        if phase == .head, parser.target.count > Self.targetLimit(core.configuration) {
          targetTooLong()
          continue
        }
        switch stop {
        case .needMore:
          if phase == .head, parser.headBytes > core.configuration.maxHeaderBytes {
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
          let start = Array(bytes[..<min(bytes.count, 64)])
          let answer = FramingRules.answer(for: failure, fields: parser.fields, start: start)
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
  private func endOfInput() {
    switch phase {
    case .waiting, .draining, .head, .body:
      // A request cut short cannot be answered usefully: nobody reads the answer.
      close()
    case .handling, .writing, .parked, .closed:
      break
    }
  }

  /// Bytes read after the last answer: dropped, within the bound.
  private func discard(_ count: Int) {
    discarded += count
    if discarded > core.configuration.maxDiscardBytes { close() }
  }
}

/// The request a connection is serving, from its first byte to the end of its answer. A class:
/// it is updated in place at every step, never copied. A connection keeps the one it used last
/// and starts its next request in it (`reset`): a kept-alive client's requests allocate none.
final class Exchange {
  /// Matches answers posted back from other threads to this exchange.
  private(set) var number: UInt64
  private(set) var started: ContinuousClock.Instant

  init(number: UInt64, started: ContinuousClock.Instant) {
    self.number = number
    self.started = started
  }

  /// Makes this exchange a new one, as `init` would: every property is set here.
  func reset(number: UInt64, started: ContinuousClock.Instant) {
    self.number = number
    self.started = started
    id = nil
    method = nil
    target = nil
    origin = nil
    isHead = false
    keepAlive = true
    isHTTP10 = false
    rejection = nil
    route = nil
    parameters = PathCaptures()
    head = nil
    bodyStarted = nil
    reserved = 0
    counted = false
    status = nil
    bytesSent = 0
    stream = nil
    answered = false
    steps = nil
  }

  var id: RequestID?
  var method: HTTPMethod?
  /// The request-target, once it parsed (its path goes in the access log).
  var target: RequestTarget?
  /// The request's `Origin`, when a browser sent it (the answer gets CORS fields).
  var origin: String?
  var isHead = false
  /// Whether the connection stays open after the answer.
  var keepAlive = true
  /// Whether the client speaks HTTP/1.0 (no chunked answers).
  var isHTTP10 = false
  /// An answer decided from a head without a body, sent once the message is complete.
  var rejection: HTTPResponse?
  var route: Router.Route?
  /// The later steps of a route with a typed context, with the context its check made.
  var steps: (@Sendable (HTTPRequest) -> Router.Proceed)?
  var parameters = PathCaptures()
  var head: HTTPRequestHead?
  /// When the body began to arrive.
  var bodyStarted: ContinuousClock.Instant?
  /// Bytes of the body budget held.
  var reserved = 0
  /// Whether the exchange is counted in `ServerCore.inFlight`.
  var counted = false
  /// The status of the answer, once it is queued.
  var status: Int?
  var bytesSent = 0
  /// A body being streamed.
  var stream: StreamState?
  /// Whether the answer was all written.
  var answered = false
}

/// A streamed response body on its way out.
struct StreamState {
  let next: @Sendable () async throws -> [UInt8]?
  /// Bytes still owed for a stream with a declared length.
  var remaining: Int?
  let chunked: Bool
  /// Whether a chunk is being fetched.
  var fetching = false
}
