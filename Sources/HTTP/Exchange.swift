/// The request a connection is serving, from its first byte to the end of its answer: held by
/// its `ConnectionMachine` alone, started afresh for every request (nothing carries over).
///
/// Its fields change only through `apply`, one named event at a time (`Exchange.Event`), which
/// the machine calls from one place (`ConnectionMachine.updateExchange`), and `restart`.
///
/// NOTE: a class, not a struct: the machine reads it in many places, and each `if let` of a
/// struct this size copied it whole, a retain and a release for each of its twenty references,
/// on every request. The machine keeps a finished one and restarts it for the next request
/// (`ConnectionMachine.beginExchange`), so serving one costs no allocation.
final class Exchange {
  /// Matches answers posted back from other threads to this exchange.
  private(set) var number: UInt64
  private(set) var started: Moment

  // What the head said.

  private(set) var id: RequestID?
  private(set) var method: HTTPMethod?
  /// The request-target, once it parsed (its path goes in the access log).
  private(set) var target: RequestTarget?
  /// The request's `Origin`, when a browser sent it (the answer gets CORS fields).
  private(set) var origin: String?
  private(set) var isHead = false
  /// Whether the connection stays open after the answer.
  private(set) var keepAlive = true
  /// Whether the client speaks HTTP/1.0 (no chunked answers).
  private(set) var isHTTP10 = false
  /// Whether the exchange is counted in `ServerCore.inFlight`.
  private(set) var counted = false

  // What the head check decided.

  /// A refusal decided before the message was complete, sent once it is: at once for a head
  /// without a body, else once the body has been read and dropped.
  private(set) var rejection: HTTPResponse?
  private(set) var route: Router.Route?
  /// Who the route's `authorize` found the credentials to name (the access record's `caller`).
  private(set) var caller: String?
  /// The client's address when a trusted proxy named it (`HTTPServerConfiguration
  /// .clientAddress`); nil: the peer's.
  private(set) var client: String?
  /// The later steps of a route with a typed context, with the context its check made.
  private(set) var steps: (any PreparedSteps)?
  /// The steps of the request before, emptied, for its route to fill again (`Router.Route`).
  private(set) var spareSteps: (any PreparedSteps)?
  private(set) var parameters = PathCaptures()
  private(set) var head: HTTPRequestHead?
  /// When the body began to arrive (accepted, or refused and being dropped): its rate is
  /// judged from then.
  private(set) var bodyStarted: Moment?
  /// Bytes of the body budget held.
  private(set) var reserved = 0
  /// Whose share of the body budget the body uses (`HTTPRequestHead.share`, else the client's
  /// network).
  private(set) var share = ""
  /// Whether the body is still arriving (it holds one of its share's arriving places).
  private(set) var arriving = false

  // The answer.

  /// The status of the answer, once it is queued.
  private(set) var status: Int?
  private(set) var bytesSent = 0
  /// A body being streamed.
  private(set) var stream: StreamState?

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
    method = nil
    target = nil
    origin = nil
    isHead = false
    keepAlive = true
    isHTTP10 = false
    counted = false
    rejection = nil
    route = nil
    caller = nil
    client = nil
    if let steps {
      steps.empty()
      spareSteps = steps
      self.steps = nil
    }
    parameters = PathCaptures()
    head = nil
    bodyStarted = nil
    reserved = 0
    share = ""
    arriving = false
    status = nil
    bytesSent = 0
    stream = nil
  }

  /// What happens to an exchange, in about the order it happens.
  enum Event {
    /// The head parsed: who asks and how, and whether the connection may stay open after the
    /// answer. From here the exchange counts in `ServerCore.inFlight`.
    case headRead(
      id: RequestID, method: HTTPMethod, origin: String?, isHTTP10: Bool, keepAlive: Bool)
    /// The client's address, named by the peer (a trusted proxy).
    case clientNamed(String)
    /// The request-target parsed.
    case targetParsed(RequestTarget)
    /// The router found the route.
    case routed(Router.Route)
    /// The route's `authorize` named the caller (nil: nobody), whether or not it refused.
    case authorized(caller: String?)
    /// The route's head check passed, leaving the steps that answer the request.
    case prepared(any PreparedSteps)
    /// A refusal decided from a head without a body, sent once the message is complete.
    case rejected(HTTPResponse)
    /// A refusal sent once the body, read from `since` on, has been dropped (decided from the
    /// head, or when a chunked body passed its limit: what was held for it is given back).
    case refusedAfterBody(HTTPResponse, since: Moment)
    /// The head was accepted: its body may come, `reserved` bytes of the budget held for it
    /// under `share` (and, when `arriving`, one of the share's arriving places).
    case bodyStarted(
      at: Moment, reserved: Int, share: String, arriving: Bool, head: HTTPRequestHead,
      parameters: PathCaptures)
    /// The body arrived whole: its arriving place is given back.
    case bodyArrived
    /// A chunked body grew past what was held: `bytes` more of the budget are held.
    case reservationGrew(by: Int)
    /// The id its answer and log carry.
    case identified(RequestID)
    /// The answer's head and in-memory body (`bytes`) are queued; a streamed body follows.
    case answerQueued(status: Int, bytes: Int, keepAlive: Bool, stream: StreamState?)
    /// The stream's next chunk is being fetched.
    case fetchStarted
    /// The stream's chunk came back and `sent` bytes of it are queued (0: an empty chunk).
    case streamAdvanced(sent: Int)
    /// The stream is over (its end is queued), or dropped.
    case streamEnded
  }

  /// Changes the exchange as `event` says: the one place its fields are written.
  func apply(_ event: Event) {
    switch event {
    case .headRead(let id, let method, let origin, let isHTTP10, let keepAlive):
      self.id = id
      self.method = method
      self.origin = origin
      isHead = method == .head
      self.isHTTP10 = isHTTP10
      self.keepAlive = keepAlive
      counted = true
    case .clientNamed(let client):
      self.client = client
    case .targetParsed(let target):
      self.target = target
    case .routed(let route):
      self.route = route
    case .authorized(let caller):
      self.caller = caller
    case .prepared(let steps):
      self.steps = steps
    case .rejected(let response):
      rejection = response
    case .refusedAfterBody(let response, let since):
      rejection = response
      bodyStarted = bodyStarted ?? since
      reserved = 0
    case .bodyStarted(let at, let reserved, let share, let arriving, let head, let parameters):
      bodyStarted = at
      self.reserved = reserved
      self.share = share
      self.arriving = arriving
      self.head = head
      self.parameters = parameters
    case .bodyArrived:
      arriving = false
    case .reservationGrew(let bytes):
      reserved += bytes
    case .identified(let id):
      self.id = id
    case .answerQueued(let status, let bytes, let keepAlive, let stream):
      self.status = status
      bytesSent += bytes
      self.keepAlive = keepAlive
      self.stream = stream
    case .fetchStarted:
      stream?.fetchStarted()
    case .streamAdvanced(let sent):
      stream?.advanced(by: sent)
      bytesSent += sent
      if stream?.remaining == 0 { stream = nil }
    case .streamEnded:
      stream = nil
    }
  }
}
