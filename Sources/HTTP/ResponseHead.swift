/// The bytes of a response's status line and header section.
enum ResponseHead {
  /// How the body that follows is delimited.
  enum Framing {
    /// `Content-Length` bytes follow (for HEAD: would follow).
    case length(Int)
    /// Chunked transfer coding.
    case chunked
    /// Delimited by the end of the connection (a stream of unknown length to HTTP/1.0).
    case untilClose
    /// No body and no length field (1xx, 204).
    case none
  }

  /// What the `Connection` field says.
  enum Persistence {
    case close
    /// Sent only to an HTTP/1.0 client that asked for keep-alive.
    case keepAlive
    /// Nothing: HTTP/1.1's default, persistence.
    case unstated
  }

  /// Serialises a head. Header fields the server owns (framing, `Connection`, `Date`,
  /// `X-Request-Id`) or that would break the header block are dropped from `headers`.
  static func bytes(
    status: Int, headers: HTTPHeaders, framing: Framing, requestID: RequestID,
    persistence: Persistence, date: [UInt8]
  ) -> [UInt8] {
    var out: [UInt8] = []
    write(
      status: status, headers: headers, framing: framing, requestID: requestID,
      persistence: persistence, date: date, into: &out)
    return out
  }

  /// Serialises a head into `out`, replacing what it held: a connection writes every head into
  /// the same array, whose storage is reused once the last head is sent.
  static func write(
    status: Int, headers: HTTPHeaders, framing: Framing, requestID: RequestID,
    persistence: Persistence, date: [UInt8], into out: inout [UInt8]
  ) {
    out.removeAll(keepingCapacity: true)
    // Room for the status line, date, framing, id and persistence besides the fields.
    out.reserveCapacity(256 + (headers.prepared?.count ?? 0))
    out.append(contentsOf: "HTTP/1.1 ".utf8)
    appendDecimal(status, to: &out)
    out.append(32)
    out.append(contentsOf: HTTPStatus.reason(status).utf8)
    out.append(contentsOf: crlf)
    out.append(contentsOf: date)
    if let prepared = headers.prepared {
      out.append(contentsOf: prepared)
    } else {
      appendFields(headers, to: &out)
    }
    switch framing {
    case .length(let count):
      out.append(contentsOf: "Content-Length: ".utf8)
      appendDecimal(count, to: &out)
      out.append(contentsOf: crlf)
    case .chunked:
      out.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8)
    case .untilClose, .none:
      break
    }
    out.append(contentsOf: "X-Request-Id: ".utf8)
    requestID.withBytes { out.append(contentsOf: $0) }
    out.append(contentsOf: crlf)
    switch persistence {
    case .close: out.append(contentsOf: "Connection: close\r\n".utf8)
    case .keepAlive: out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
    case .unstated: break
    }
    out.append(contentsOf: crlf)
  }

  /// The `name: value` lines of the fields that may be sent (`mayForward`).
  static func appendFields(_ headers: HTTPHeaders, to out: inout [UInt8]) {
    for (name, value) in headers where mayForward(name, value) {
      out.append(contentsOf: name.utf8)
      out.append(contentsOf: ": ".utf8)
      out.append(contentsOf: value.utf8)
      out.append(contentsOf: crlf)
    }
  }

  /// `100 Continue`, sent before reading a body the client waits to send.
  static let continueInterim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

  private static let crlf: [UInt8] = [13, 10]

  /// Fields the server writes itself.
  private static let owned = [
    "Content-Length", "Transfer-Encoding", "Connection", "Date", "X-Request-Id", "Keep-Alive",
  ]
  /// Their lengths: most names are ruled out by length alone.
  private static let ownedLengths = Set(owned.map(\.utf8.count))

  /// Whether a handler's header field may be sent: the server owns the framing fields, and CR,
  /// LF or NUL would split the header block.
  static func mayForward(_ name: String, _ value: String) -> Bool {
    let length = name.utf8.count
    guard length > 0, name.utf8.allSatisfy(FramingRules.isTokenByte) else { return false }
    if ownedLengths.contains(length), owned.contains(where: { HTTPHeaders.same($0, name) }) {
      return false
    }
    return !value.utf8.contains { $0 == 0 || $0 == 10 || $0 == 13 }
  }

  /// The chunk-size line for a chunk of `count` bytes.
  static func chunkPrefix(_ count: Int) -> [UInt8] {
    Array(String(count, radix: 16).utf8) + crlf
  }

  static let chunkSuffix: [UInt8] = [13, 10]
  static let lastChunk = Array("0\r\n\r\n".utf8)

  /// The decimal digits of `value` (0 for a negative one), without making a string.
  private static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    var value = UInt(max(0, value))
    // UInt.max has 20 digits: written last first, from the end of a buffer on the stack.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var start = digits.count
      repeat {
        start -= 1
        digits[start] = UInt8(ascii: "0") + UInt8(value % 10)
        value /= 10
      } while value > 0
      out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }
}
