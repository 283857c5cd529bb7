/// Where a connection is, with what only that place holds. Its `kind` is the plain state the
/// table of moves checks (`ConnectionState`); the data a few states need lives in their cases,
/// so it exists only there: a parked answer only while parked, the time a draining connection
/// closes only while it drains. Leaving the case drops the data with it.
///
/// `peerFinished` says the client shut its sending side after its whole request: its answer
/// still goes out, then the connection closes. Only the phases after a whole request carry it;
/// in the reading phases a FIN closes at once.
enum ConnectionPhase {
  case awaitingRequest
  case readingHead
  case readingBody
  case handling(peerFinished: Bool)
  case writing(peerFinished: Bool)
  /// An overload refusal waits out its `Retry-After`: `answer` goes out at `until`.
  case parked(answer: HTTPResponse, until: Moment, peerFinished: Bool)
  /// The last answer is going out (`deadline` nil), or it is out and the sending side is shut:
  /// then the connection closes at `deadline` (`lingerTimeout` later) if the client has not.
  case draining(deadline: Moment?, peerFinished: Bool)
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

  /// Whether the client shut its sending side after its request (false in the phases that
  /// cannot hold it).
  var peerFinished: Bool {
    switch self {
    case .handling(let finished), .writing(let finished): finished
    case .parked(_, _, let finished), .draining(_, let finished): finished
    case .awaitingRequest, .readingHead, .readingBody, .closed: false
    }
  }

  /// This phase with the client's sending side shut: the same phase, not a move (the phases
  /// that cannot hold it are returned as they are).
  var withPeerFinished: ConnectionPhase {
    switch self {
    case .handling: .handling(peerFinished: true)
    case .writing: .writing(peerFinished: true)
    case .parked(let answer, let until, _):
      .parked(answer: answer, until: until, peerFinished: true)
    case .draining(let deadline, _): .draining(deadline: deadline, peerFinished: true)
    case .awaitingRequest, .readingHead, .readingBody, .closed: self
    }
  }
}
