/// Where a connection is, with what only that place holds. Its `kind` is the plain state the
/// table of moves checks (`ConnectionState`); the data a few states need lives in their cases,
/// so it exists only there: a parked answer only while parked, the time a draining connection
/// closes only while it drains. Leaving the case drops the data with it.
enum ConnectionPhase {
  case awaitingRequest
  case readingHead
  case readingBody
  case handling
  case writing
  /// An overload refusal waits out its `Retry-After`: `answer` goes out at `until`.
  case parked(answer: HTTPResponse, until: ContinuousClock.Instant)
  /// The last answer is going out (`deadline` nil), or it is out and the sending side is shut:
  /// then the connection closes at `deadline` (`lingerTimeout` later) if the client has not.
  case draining(deadline: ContinuousClock.Instant?)
  case closed

  /// The state this phase is, without its data: what the table of moves checks.
  var kind: ConnectionState {
    switch self {
    case .awaitingRequest: .awaitingRequest
    case .readingHead: .readingHead
    case .readingBody: .readingBody
    case .handling: .handling
    case .writing: .writing
    case .parked: .parked
    case .draining: .draining
    case .closed: .closed
    }
  }
}
