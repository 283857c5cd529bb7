/// A complete request: its head, the whole body (within the route's limit) and the values the
/// route pattern captured.
public struct HTTPRequest: Sendable {
  /// The request line and headers.
  public var head: HTTPRequestHead
  /// The request body; empty when there was none.
  public var body: [UInt8]
  /// Values captured by `{name}` segments of the route pattern, percent-decoded.
  public var pathParameters: [String: String]
  /// What the route's `immediate` step parsed from the request, for its handler.
  public var attachment: (any Sendable)?

  /// Builds a request; the server does this, tests may too.
  public init(head: HTTPRequestHead, body: [UInt8] = [], pathParameters: [String: String] = [:]) {
    self.head = head
    self.body = body
    self.pathParameters = pathParameters
  }

  /// The request id (see `HTTPRequestHead.id`).
  public var id: String { head.id }
  /// The request method. A GET route answering HEAD sees `.head` here.
  public var method: HTTPMethod { head.method }
  /// The percent-decoded path without the query.
  public var path: String { head.path }
  /// The request's header fields.
  public var headers: HTTPHeaders { head.headers }
  /// The decoded query parameters.
  public var query: [String: String] { head.query }
}
