/// A response read by `LoopbackHTTPClient`.
public struct LoopbackHTTPResponse: Sendable {
  /// The status code.
  public var status: Int
  /// Header fields in order.
  public var headers: [(String, String)]
  /// The body (decoded from chunked transfer coding when needed; empty for HEAD).
  public var body: [UInt8]
  /// How many body bytes of the request were written before the response came.
  public var bodyBytesWritten = 0
  /// Whether the server answered (or closed) before the whole request body was written.
  public var answeredBeforeBodyWasSent = false

  /// A response value.
  public init(status: Int, headers: [(String, String)], body: [UInt8]) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The first value of header `name` (case-insensitive).
  public func header(_ name: String) -> String? {
    headers.first { $0.0.lowercased() == name.lowercased() }?.1
  }

  /// The body as UTF-8 text.
  public var text: String { String(decoding: body, as: UTF8.self) }
}
