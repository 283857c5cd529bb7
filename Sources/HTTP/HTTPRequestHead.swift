/// Everything about a request that is known once its headers are complete (no body yet).
///
/// Built by the server from the request's bytes; its text (the path, the query, the id) is made
/// when it is read, so a request answered without reading them makes none.
public struct HTTPRequestHead: Sendable {
  /// The request id: the client's `X-Request-Id` when it is sane (at most 64 characters of
  /// `[A-Za-z0-9._-]`), otherwise a generated 32-digit hex id. Always echoed in `X-Request-Id`.
  public var id: String { requestID.text }
  /// The request method.
  public let method: HTTPMethod
  /// The percent-decoded path, without the query. Never contains NUL.
  public var path: String { target.path }
  /// Query parameters, percent-decoded (`+` is a space); the last value of a repeated name wins.
  public var query: [String: String] { target.query }
  /// The request's header fields, in order.
  public let headers: HTTPHeaders
  /// The client's IP address as text, when known: the peer's, or the one a trusted proxy named
  /// (`HTTPServerConfiguration.clientAddress`).
  public let remoteAddress: String?
  /// The peer's address as text (a proxy's, when a trusted one named the client), when known.
  public let peerAddress: String?
  /// Who the request's credentials name, when a route's `authorize` recognised them (nil:
  /// nobody, or no route checks). Set by `authorize` and carried into the access record, so
  /// the log and the metrics can say who called, also for a request `authorize` refuses.
  public var caller: String?
  /// Whether `authorize` recognised a credential (a token): such a request is never refused
  /// because of other clients' connections near the limit.
  public var hasCredential = false
  /// Whose share of the server the request uses (a token's name, or the client's network),
  /// when `authorize` named one: its body is held under it (`BodyBudget`). Nil: the peer's
  /// network.
  public var share: String?

  let requestID: RequestID
  let target: RequestTarget

  /// A head for `target` (`/path?query`, escaped as on the wire); nil when the target is
  /// malformed. The server builds heads itself; this is for callers and tests.
  public init?(
    id: String, method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(),
    remoteAddress: String? = nil, peerAddress: String? = nil
  ) {
    guard let parsed = RequestTarget(target) else { return nil }
    self.init(
      id: RequestID.accept(id.utf8), method: method, target: parsed, headers: headers,
      remoteAddress: remoteAddress, peerAddress: peerAddress ?? remoteAddress)
  }

  init(
    id: RequestID, method: HTTPMethod, target: RequestTarget, headers: HTTPHeaders,
    remoteAddress: String?, peerAddress: String?
  ) {
    self.requestID = id
    self.method = method
    self.target = target
    self.headers = headers
    self.remoteAddress = remoteAddress
    self.peerAddress = peerAddress
  }
}
