/// A complete request: its head, the whole body (within the route's limit) and the segments
/// the route pattern captured.
public struct HTTPRequest: Sendable {
  /// The request line and headers.
  public var head: HTTPRequestHead
  /// The request body; empty when there was none.
  public var body: [UInt8]
  let captures: PathCaptures

  /// A request without path captures; the server builds requests itself, this is for callers
  /// and tests.
  public init(head: HTTPRequestHead, body: [UInt8] = []) {
    self.init(head: head, body: body, captures: PathCaptures())
  }

  init(head: HTTPRequestHead, body: [UInt8], captures: PathCaptures) {
    self.head = head
    self.body = body
    self.captures = captures
  }

  /// The value captured by the `{name}` segment of the route pattern, percent-decoded; nil when
  /// the pattern has no such segment.
  public func pathParameter(_ name: String) -> String? {
    captures.range(name).map(head.target.segmentText)
  }

  /// The bytes of `pathParameter(name)`, without making a string: a slice of the request's
  /// own bytes when the segment held no escape.
  public func pathParameterBytes(_ name: String) -> ArraySlice<UInt8>? {
    captures.range(name).map(head.target.segmentBytes)
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
