/// Where a connection is between and within its exchanges, what each state may hold and for how
/// long, and which states may follow it (`ConnectionMachine.enter` checks every move). This is
/// the plain kind of a `ConnectionPhase`, whose cases carry the data of the states that have
/// some (a parked answer, a drain deadline, the client's FIN after its request).
///
/// | state | bytes held at most | time at most |
/// |---|---|---|
/// | `awaitingRequest` | the unread rest of the last read (64 KiB) | `headTimeout` for a new connection, `idleTimeout` between requests |
/// | `readingHead` | `maxHeaderBytes` (the target 8 KiB) | `headTimeout` from the head's first byte (the connection's start for its first) |
/// | `readingBody` | the route's body limit, reserved in `BodyBudget` (a refused body is never held) | `minBodyBytesPerSecond` after a grace of `headTimeout`, and `idleTimeout` without a byte |
/// | `handling` | the body, as reserved | `handlerTimeout`, then 503 |
/// | `writing` | the answer (a stream: one chunk at a time) | `minSendBytesPerSecond` after a grace of `headTimeout` while the client does not take it, `idleTimeout` without progress |
/// | `parked` | nothing is read | `Retry-After`, at most 2 s |
/// | `draining` | nothing is kept; `maxDiscardBytes` read and dropped | `lingerTimeout` (1 s after a 408) |
/// | `closed` | nothing | - |
enum ConnectionState: UInt8, CaseIterable, Sendable {
  /// Waiting for the first byte of a request (a new or a kept-alive connection).
  case awaitingRequest
  /// A request head is arriving.
  case readingHead
  /// The head was judged; its body (if any) is arriving: collected when the request was
  /// accepted, counted and dropped when it was refused without closing.
  case readingBody
  /// The handler runs; input waits in the socket.
  case handling
  /// An answer is being written, or its stream waits for its next chunk.
  case writing
  /// An overload refusal (503 with `Retry-After`) decided from the head waits out its
  /// `Retry-After` before it is sent, reading nothing meanwhile: a client that retries at once
  /// instead of waiting is held back by TCP flow control rather than by the server's CPU.
  case parked
  /// The last answer is written (or being written); input is read and dropped until the client
  /// closes, so the answer is never reset away. Then the connection closes.
  case draining
  /// Over: the socket is closed and what the connection held is released.
  case closed

  /// The states that may follow this one. Every state may close (a reset, a failed write, the
  /// server stopping); anything not listed here is a bug, counted and ended by a close.
  var successors: [ConnectionState] {
    switch self {
    case .awaitingRequest: [.readingHead, .closed]
    case .readingHead: [.readingBody, .draining, .closed]
    case .readingBody: [.handling, .writing, .parked, .draining, .closed]
    case .handling: [.writing, .draining, .closed]
    case .writing: [.awaitingRequest, .draining, .closed]
    case .parked: [.draining, .closed]
    case .draining: [.closed]
    case .closed: []
    }
  }

  /// Whether `next` may follow this state (a bit test: it runs on every move).
  func mayEnter(_ next: ConnectionState) -> Bool {
    Self.table[Int(rawValue)] & (1 << next.rawValue) != 0
  }

  /// `successors` as one bit mask per state.
  private static let table: [UInt8] = allCases.map { state in
    state.successors.reduce(0) { $0 | (1 << $1.rawValue) }
  }

  /// What the connection reads in this state.
  var reads: Bool {
    switch self {
    case .awaitingRequest, .readingHead, .readingBody, .draining: true
    case .handling, .writing, .parked, .closed: false
    }
  }
}
