/// The request a connection is serving, from its first byte to the end of its answer: a value
/// held by its `ConnectionMachine`, started new for every request (nothing carries over).
struct Exchange {
  /// Matches answers posted back from other threads to this exchange.
  let number: UInt64
  let started: ContinuousClock.Instant

  // What the head said.

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
  /// Whether the exchange is counted in `ServerCore.inFlight`.
  var counted = false

  // What the head check decided.

  /// An answer decided from a head without a body, sent once the message is complete.
  var rejection: HTTPResponse?
  var route: Router.Route?
  /// Who the route's `authorize` found the credentials to name (the access record's `caller`).
  var caller: String?
  /// The later steps of a route with a typed context, with the context its check made.
  var steps: (@Sendable (HTTPRequest) -> Router.Proceed)?
  var parameters = PathCaptures()
  var head: HTTPRequestHead?
  /// When the accepted body began to arrive.
  var bodyStarted: ContinuousClock.Instant?
  /// Bytes of the body budget held.
  var reserved = 0

  // The answer.

  /// The status of the answer, once it is queued.
  var status: Int?
  var bytesSent = 0
  /// A body being streamed.
  var stream: StreamState?

  init(number: UInt64, started: ContinuousClock.Instant) {
    self.number = number
    self.started = started
  }
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
