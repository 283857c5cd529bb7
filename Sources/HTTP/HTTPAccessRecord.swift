/// One line of the access log: a request that got a response.
///
/// Its id and path are kept as the request's bytes: `requestID` and `path` make text when read,
/// `appendRequestID` and `appendPath` copy the bytes (a log line built without a string).
public struct HTTPAccessRecord: Sendable {
  let id: RequestID?
  /// The request method.
  public var method: HTTPMethod
  let target: RequestTarget?
  /// The target as sent, when it did not parse (nil also when no head arrived).
  let unparsedTarget: [UInt8]?
  /// The pattern of the route that served the request (`/v1/images/{name}`), nil when none did:
  /// a low-cardinality label for metrics.
  public var route: String?
  /// The status sent.
  public var status: Int
  /// Seconds from the request line to the end of the exchange.
  public var duration: Double
  /// Body bytes sent (headers not counted).
  public var bytesSent: Int
  /// The client's IP address, when known: the peer's, or the one a trusted proxy named.
  public var remoteAddress: String?
  /// Whether the exchange finished cleanly (false: the connection broke or was cut).
  public var completed: Bool
  /// Who the request's credentials named (`HTTPRequestHead.caller`), nil when nobody.
  public var caller: String? = nil

  /// The request id (as echoed in `X-Request-Id`), or `-` when none was given yet.
  public var requestID: String { id?.text ?? "-" }

  /// The decoded path, without the query (the target as sent up to its `?` when it did not
  /// parse, `-` without a request line).
  public var path: String {
    var bytes: [UInt8] = []
    appendPath(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends `requestID`'s bytes.
  public func appendRequestID(to out: inout [UInt8]) {
    guard let id else {
      out.append(UInt8(ascii: "-"))
      return
    }
    id.withBytes { out.append(contentsOf: $0) }
  }

  /// Appends `path`'s bytes (UTF-8, except that a target that did not parse is as sent, up to
  /// its `?`: a query may carry a credential, `?token=`, and is never written down).
  public func appendPath(to out: inout [UInt8]) {
    if let target {
      target.appendPath(to: &out)
    } else if let unparsedTarget {
      out.append(
        contentsOf: unparsedTarget.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") })
    } else {
      out.append(UInt8(ascii: "-"))
    }
  }
}
