/// Everything about a request that is known once its headers are complete (no body yet).
public struct HTTPRequestHead: Sendable {
  /// The request id: the client's `X-Request-Id` when it is sane (at most 64 characters of
  /// `[A-Za-z0-9._-]`), otherwise a generated 32-digit hex id. Always echoed in `X-Request-Id`.
  public var id: String
  /// The request method.
  public var method: HTTPMethod
  /// The percent-decoded path, without the query. Never contains NUL.
  public var path: String
  /// The path exactly as sent, without the query.
  var rawPath: String
  /// Query parameters, percent-decoded (`+` is a space); the last value of a repeated name wins.
  public var query: [String: String]
  /// The request's header fields, in order.
  public var headers: HTTPHeaders
  /// The peer's IP address as text, when known.
  public var remoteAddress: String?
  /// What the route's preflight parsed from the head, for the steps after it.
  public var attachment: (any Sendable)?

  /// Builds a request head; the server does this, tests and callers may too.
  public init(
    id: String, method: HTTPMethod, path: String, rawPath: String, query: [String: String] = [:],
    headers: HTTPHeaders = HTTPHeaders(), remoteAddress: String? = nil
  ) {
    self.id = id
    self.method = method
    self.path = path
    self.rawPath = rawPath
    self.query = query
    self.headers = headers
    self.remoteAddress = remoteAddress
  }
}
