/// A response: status, header fields and body.
///
/// The server sets `Content-Length`/`Transfer-Encoding` itself from the body, so those fields
/// are ignored here; fields whose name or value holds CR, LF or NUL are dropped.
public struct HTTPResponse: Sendable {
  /// The status code (100...999).
  public var status: Int
  /// The header fields to send.
  public var headers: HTTPHeaders
  /// The body.
  public var body: HTTPBody

  /// Builds a response.
  public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: HTTPBody = .empty) {
    self.status = status
    self.headers = headers
    self.body = body
  }
}

/// Handles one complete request; never blocks a thread (await instead).
public typealias HTTPHandler = @Sendable (HTTPRequest) async -> HTTPResponse
