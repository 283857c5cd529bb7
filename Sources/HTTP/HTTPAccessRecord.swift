/// One line of the access log: a request that got a response.
public struct HTTPAccessRecord: Sendable {
  /// The request id (as echoed in `X-Request-Id`).
  public var requestID: String
  /// The request method.
  public var method: HTTPMethod
  /// The decoded path (the raw path when it did not decode).
  public var path: String
  /// The pattern of the route that served the request (`/v1/images/{name}`), nil when none did:
  /// a low-cardinality label for metrics.
  public var route: String?
  /// The status sent.
  public var status: Int
  /// Seconds from the request line to the end of the exchange.
  public var duration: Double
  /// Body bytes sent (headers not counted).
  public var bytesSent: Int
  /// The peer's IP address, when known.
  public var remoteAddress: String?
  /// Whether the exchange finished cleanly (false: the connection broke or was cut).
  public var completed: Bool
}
