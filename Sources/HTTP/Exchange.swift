/// The request a connection is serving, from its first byte to the end of its answer: held by
/// its `ConnectionMachine` alone, started afresh for every request (nothing carries over).
///
/// Its data belongs to the stages of a request, each an optional present once its stage ran:
/// what the head said (`said`), the route it matched (`routed`), what the check of the head
/// decided (`verdict`), the body's accounting (`body`) and the answer (`answer`). A field is
/// read through its stage, so it cannot be read before the stage that sets it.
///
/// Its fields change only through `apply`, one named event at a time (`Exchange.Event`), which
/// the machine calls from one place (`ConnectionMachine.updateExchange`), and `restart`.
///
/// NOTE: a class, not a struct: the machine reads it in many places, and each `if let` of a
/// struct this size copied it whole, a retain and a release for each of its twenty references,
/// on every request. The machine keeps a finished one and restarts it for the next request
/// (`ConnectionMachine.beginExchange`), so serving one costs no allocation. The stages are
/// structs stored in it, changed in place (`said?.target = ...`): read one field through its
/// stage (`said?.keepAlive`) rather than binding a whole stage, which copies it.
final class Exchange {
  /// Matches answers posted back from other threads to this exchange.
  private(set) var number: UInt64
  private(set) var started: Moment
  /// The id its answer and log carry: the head's (the client's `X-Request-Id` when sane, else a
  /// generated one), or the one a refusal made before the head was complete.
  private(set) var id: RequestID?
  /// What the head said; nil until it parsed. From then on the exchange counts in
  /// `ServerCore.inFlight`.
  private(set) var said: Said?
  /// The route the request matched, and who its check named; nil until a route matched.
  private(set) var routed: Routed?
  /// What the check of the head decided; nil until it decided (and for a request refused by the
  /// framing rules or a bound, which is answered at once).
  private(set) var verdict: Verdict?
  /// The body's accounting; nil until a body may arrive (accepted, or refused and dropped).
  private(set) var body: Body?
  /// The answer; nil until it is queued.
  private(set) var answer: Answer?
  /// The steps of the request before, emptied, for its route to fill again (`Router.Route`).
  private(set) var spareSteps: (any PreparedSteps)?

  /// What the head said: who asks and how, and whether the connection may stay open after the
  /// answer.
  struct Said {
    let method: HTTPMethod
    /// Whether the method is HEAD (the answer goes without its body).
    let isHead: Bool
    /// The request's `Origin`, when a browser sent it (the answer gets CORS fields).
    let origin: String?
    /// The client's address when a trusted proxy named it (`HTTPServerConfiguration
    /// .clientAddress`); nil: the peer's.
    let client: String?
    /// Whether the client speaks HTTP/1.0 (no chunked answers).
    let isHTTP10: Bool
    /// Whether the connection stays open after the answer.
    let keepAlive: Bool
    /// The request-target, once it parsed (its path goes in the access log); nil before, and
    /// for `*` or a malformed one.
    var target: RequestTarget?
  }

  /// The route a request matched.
  struct Routed {
    let route: Router.Route
    /// Who the route's `authorize` found the credentials to name (nil: nobody, or the route has
    /// no `authorize`): the access record's `caller`, also when it refused.
    let caller: String?
  }

  /// What the check of a head decided.
  enum Verdict {
    /// The route's check passed: the steps that answer the request once it is whole.
    case accepted(Accepted)
    /// A refusal decided before the message was complete, sent once it is: at once for a head
    /// without a body, else once the body has been read and dropped.
    case refused(HTTPResponse)
  }

  /// A request whose head its route's check accepted.
  struct Accepted {
    /// The head as the checks left it (`authorize` names the caller and the share on it).
    let head: HTTPRequestHead
    let parameters: PathCaptures
    /// The later steps of the route, with the context its check made.
    let steps: any PreparedSteps
  }

  /// A body's accounting, from when it began to arrive.
  struct Body {
    /// When the body began to arrive (accepted, or refused and being dropped): its rate is
    /// judged from then.
    let started: Moment
    /// Whose share of the body budget the body uses (`HTTPRequestHead.share`, else the client's
    /// network); empty for a body refused from the head, which holds nothing.
    let share: String
    /// Bytes of the body budget held.
    var reserved: Int
    /// Whether the body is still arriving (it holds one of its share's arriving places).
    var arriving: Bool
  }

  /// The answer, once queued.
  struct Answer {
    let status: Int
    /// The bytes of the answer queued so far (its head aside).
    var bytesSent: Int
    /// A body being streamed.
    var stream: StreamState?
  }

  init(number: UInt64, started: Moment) {
    self.number = number
    self.started = started
  }

  /// Forgets everything about the request before, and starts as `number`: what a new exchange
  /// would be, in the same storage.
  func restart(number: UInt64, started: Moment) {
    self.number = number
    self.started = started
    id = nil
    said = nil
    routed = nil
    setAsideSteps()
    body = nil
    answer = nil
  }

  /// Ends the verdict; steps it accepted are emptied and kept for the next request of their
  /// route.
  private func setAsideSteps() {
    // A move out of the stored verdict, not a copy of the accepted head: no retains.
    var verdict: Verdict? = nil
    swap(&verdict, &self.verdict)
    if case .accepted(let accepted) = consume verdict {
      accepted.steps.empty()
      spareSteps = accepted.steps
    }
  }

  /// What happens to an exchange, in about the order it happens.
  enum Event {
    /// The head parsed: who asks and how, and whether the connection may stay open after the
    /// answer. From here the exchange counts in `ServerCore.inFlight`.
    case headRead(id: RequestID, Said)
    /// The request-target parsed.
    case targetParsed(RequestTarget)
    /// The router found the route, and its `authorize` (when it has one) named the caller,
    /// whether or not it refused.
    case routed(Router.Route, caller: String?)
    /// The route's check of the head passed, leaving the steps that answer the request.
    case accepted(Accepted)
    /// A refusal decided from a head without a body, sent once the message is complete.
    case rejected(HTTPResponse)
    /// A refusal sent once the body, read from `since` on, has been dropped (decided from the
    /// head, or when a chunked body passed its limit: what was held for it is given back).
    case refusedAfterBody(HTTPResponse, since: Moment)
    /// The body may come: `reserved` bytes of the budget held for it under `share` (and, when
    /// `arriving`, one of the share's arriving places).
    case bodyStarted(at: Moment, reserved: Int, share: String, arriving: Bool)
    /// The body arrived whole: its arriving place is given back.
    case bodyArrived
    /// A chunked body grew past what was held: `bytes` more of the budget are held.
    case reservationGrew(by: Int)
    /// The id its answer and log carry.
    case identified(RequestID)
    /// The answer's head and in-memory body (`bytes`) are queued; a streamed body follows.
    case answerQueued(status: Int, bytes: Int, stream: StreamState?)
    /// The stream's next chunk is being fetched.
    case fetchStarted
    /// The stream's chunk came back and `sent` bytes of it are queued (0: an empty chunk).
    case streamAdvanced(sent: Int)
    /// The stream is over (its end is queued), or dropped.
    case streamEnded
  }

  /// Changes the exchange as `event` says: the one place its fields are written. Consumed: what
  /// it carries moves into the stages, not copied.
  func apply(_ event: consuming Event) {
    switch consume event {
    case .headRead(let id, let said):
      self.id = id
      self.said = said
    case .targetParsed(let target):
      said?.target = target
    case .routed(let route, let caller):
      routed = Routed(route: route, caller: caller)
    case .accepted(let accepted):
      verdict = .accepted(accepted)
    case .rejected(let response):
      setAsideSteps()
      verdict = .refused(response)
    case .refusedAfterBody(let response, let since):
      setAsideSteps()
      verdict = .refused(response)
      if body == nil {
        body = Body(started: since, share: "", reserved: 0, arriving: false)
      } else {
        body?.reserved = 0
      }
    case .bodyStarted(let at, let reserved, let share, let arriving):
      body = Body(started: at, share: share, reserved: reserved, arriving: arriving)
    case .bodyArrived:
      body?.arriving = false
    case .reservationGrew(let bytes):
      body?.reserved += bytes
    case .identified(let id):
      self.id = id
    case .answerQueued(let status, let bytes, let stream):
      answer = Answer(status: status, bytesSent: bytes, stream: stream)
    case .fetchStarted:
      answer?.stream?.fetchStarted()
    case .streamAdvanced(let sent):
      answer?.stream?.advanced(by: sent)
      answer?.bytesSent += sent
      if answer?.stream?.remaining == 0 { answer?.stream = nil }
    case .streamEnded:
      answer?.stream = nil
    }
  }
}
