internal import CHTTPParser

/// Why the parser gave up on a request.
enum ParseFailure: Equatable {
  /// http-parser refused the bytes; `inBody` when it was reading the body.
  case parser(http_errno, inBody: Bool)
  /// A CR not followed by LF, or chunk data not followed by CRLF.
  case lineEnding
  /// A field line of the head or the trailers continued on a folded line (obs-fold).
  case foldedLine
  /// A chunk line that is not a hexadecimal size, then extensions after a `;`, then CRLF: a
  /// space after the size with no `;` after it, or a control character (a bare LF) in an
  /// extension.
  case chunkLine
  /// The request line does not end in ` HTTP/x.y`.
  case requestLine
  /// A Content-Length of more digits than http-parser counts (past 2^64): larger than any
  /// body this server takes, so a 413 like any other over its limit.
  case lengthBeyondAnyLimit
}

/// An answer the server gives by itself, before (or instead of) a handler: a status and the
/// sentence the problem's `detail` carries.
struct ServerAnswer: Equatable {
  var status: Int
  var detail: String
}

/// How a request's body is framed, judged from its head alone (RFC 9112 6): before any body
/// byte is read, and before the head is routed.
enum BodyFraming: Equatable {
  /// No body: no Content-Length (or 0), not chunked.
  case none
  /// A body of Content-Length bytes (more than 0).
  case length(Int)
  /// A Content-Length too large for an `Int`: longer than any limit.
  case lengthBeyondAnyLimit
  /// A chunked body, its length known only as it arrives.
  case chunked
  /// A breach of the framing rules: the answer, and the connection closes after it.
  case refused(ServerAnswer)

  /// Whether a body follows the head.
  var hasBody: Bool {
    switch self {
    case .none, .refused: false
    case .length, .lengthBeyondAnyLimit, .chunked: true
    }
  }

  /// The bytes the head declares (0 when it declares none, or more than an `Int` holds).
  var declaredBytes: Int {
    if case .length(let bytes) = self { bytes } else { 0 }
  }

  /// The 413 for a body declared longer than `limit`, worded by `route`; nil when the declared
  /// length fits, or none is declared (a chunked body is counted against `limit` as it comes).
  func tooLarge(limit: Int, route: Router.Route) -> ServerAnswer? {
    switch self {
    case .length(let declared) where declared > limit:
      ServerAnswer(status: 413, detail: route.tooLargeDetail(declared: declared, limit: limit))
    case .lengthBeyondAnyLimit:
      ServerAnswer(status: 413, detail: route.tooLargeDetail(declared: nil, limit: limit))
    case .none, .length, .chunked, .refused:
      nil
    }
  }
}

/// RFC 9112's rules for the head of a request, applied to what http-parser framed, and the
/// answer for each breach. Every breach closes the connection: after it nothing that follows
/// can be trusted to be a request.
enum FramingRules {
  /// How the body of a head that http-parser accepted is framed, or the breach that refuses it.
  /// `declared` and `isChunked` are what http-parser read of Content-Length and
  /// Transfer-Encoding.
  static func framing(
    version: (major: Int, minor: Int), fields: [RequestParser.Field],
    declared: RequestParser.DeclaredLength, isChunked: Bool
  ) -> BodyFraming {
    if let breach = judge(version: version, fields: fields, hasContentLength: declared != .none) {
      return .refused(breach)
    }
    // A head with both Content-Length and Transfer-Encoding was refused above.
    if isChunked { return .chunked }
    switch declared {
    case .none, .bytes(0): return .none
    case .bytes(let bytes): return .length(bytes)
    case .beyondAnyLimit: return .lengthBeyondAnyLimit
    }
  }

  /// The breach in a head that http-parser accepted, or nil when the head is well-formed.
  static func judge(
    version: (major: Int, minor: Int), fields: [RequestParser.Field], hasContentLength: Bool
  ) -> ServerAnswer? {
    guard version.major == 1, version.minor == 0 || version.minor == 1 else {
      return ServerAnswer(
        status: 505,
        detail: "HTTP/\(version.major).\(version.minor) is not supported; send HTTP/1.1.")
    }
    var hosts = 0
    var codings: [[UInt8]] = []
    var expectations: [[UInt8]] = []
    var hasCoding = false
    for field in fields {
      guard !field.name.isEmpty, field.name.allSatisfy(isTokenByte) else {
        return ServerAnswer(
          status: 400,
          detail:
            "The header field name \(quoted(field.name)) is not a token; whitespace before "
            + "the colon is not allowed.")
      }
      guard field.value.allSatisfy(isValueByte) else {
        return ServerAnswer(
          status: 400,
          detail: "The value of the header field \(quoted(field.name)) holds a control character.")
      }
      if same(field.name, "host") {
        hosts += 1
        guard field.value.allSatisfy(isHostByte) else {
          return ServerAnswer(
            status: 400,
            detail: "The Host header field \(quoted(field.value)) is not a host[:port].")
        }
      }
      if same(field.name, "transfer-encoding") {
        hasCoding = true
        codings += listItems(field.value)
      }
      if same(field.name, "expect") { expectations += listItems(field.value) }
    }
    let isHTTP11 = version.minor == 1
    if isHTTP11 ? hosts != 1 : hosts > 1 {
      return ServerAnswer(
        status: 400,
        detail: hosts == 0
          ? "An HTTP/1.1 request needs a Host header field."
          : "A request must have one Host header field, not \(hosts).")
    }
    if hasCoding {
      if !isHTTP11 {
        return ServerAnswer(
          status: 400, detail: "Transfer-Encoding is not allowed in an HTTP/1.0 request.")
      }
      if hasContentLength {
        return bothLengthAndCoding
      }
      guard codings.count == 1, same(codings[0], "chunked") else {
        return ServerAnswer(
          status: 501,
          detail:
            "The only transfer coding supported is chunked, applied once; this request has "
            + "Transfer-Encoding \(quoted(Array(codings.joined(separator: Array(", ".utf8)))))."
        )
      }
    }
    if !expectations.isEmpty, !(expectations.count == 1 && same(expectations[0], "100-continue")) {
      return ServerAnswer(
        status: 417, detail: "The only expectation supported is Expect: 100-continue.")
    }
    return nil
  }

  /// The answer to a request the parser refused. `fields` are those read before it stopped;
  /// `start` is the beginning of the request as read (to tell an unknown method from bytes that
  /// are not HTTP at all).
  static func answer(
    for failure: ParseFailure, fields: [RequestParser.Field], start: [UInt8]
  ) -> ServerAnswer {
    switch failure {
    case .lineEnding:
      return ServerAnswer(
        status: 400,
        detail:
          "Every line of the request must end with CRLF, and chunk data must be followed by CRLF.")
    case .foldedLine:
      return ServerAnswer(
        status: 400,
        detail: "A header or trailer field must not continue on a folded line (obs-fold).")
    case .chunkLine:
      return ServerAnswer(
        status: 400,
        detail:
          "A chunk line must be a hexadecimal size, optionally followed by ';' and extensions "
          + "without control characters, then CRLF.")
    case .requestLine:
      return answer(for: HPE_INVALID_CONSTANT, inBody: false, fields: fields, start: start)
    case .lengthBeyondAnyLimit:
      return ServerAnswer(
        status: 413,
        detail: "The declared Content-Length is larger than any request body taken here.")
    case .parser(let error, let inBody):
      return answer(for: error, inBody: inBody, fields: fields, start: start)
    }
  }

  private static func answer(
    for error: http_errno, inBody: Bool, fields: [RequestParser.Field], start: [UInt8]
  ) -> ServerAnswer {
    switch error {
    case HPE_INVALID_METHOD:
      let method = start.prefix { $0 != UInt8(ascii: " ") }
      if !method.isEmpty, method.allSatisfy(isTokenByte) {
        // The parser stops at the first byte no method it knows has there, so a method that
        // came in small reads may not be whole yet: it is still a token, only named by its start.
        let whole = method.count < start.count
        let named = whole ? quoted(Array(method)) : "beginning \(quoted(Array(method)))"
        return ServerAnswer(status: 501, detail: "The method \(named) is not implemented.")
      }
      return ServerAnswer(status: 400, detail: "This is not an HTTP/1.1 request.")
    case HPE_INVALID_VERSION, HPE_INVALID_CONSTANT:
      return ServerAnswer(
        status: 400,
        detail: "The request line is malformed; send METHOD, a space, the path, a space, HTTP/1.1.")
    case HPE_INVALID_URL:
      return ServerAnswer(status: 400, detail: "The request target is malformed.")
    case HPE_HEADER_OVERFLOW:
      return ServerAnswer(status: 431, detail: "The request head is too large.")
    case HPE_INVALID_HEADER_TOKEN:
      return ServerAnswer(
        status: 400,
        detail: "A header line is malformed: it has no colon, or holds a character not allowed.")
    case HPE_LF_EXPECTED, HPE_STRICT:
      return answer(for: .lineEnding, fields: fields, start: start)
    case HPE_INVALID_CONTENT_LENGTH:
      if inBody {
        return ServerAnswer(status: 400, detail: "A chunk size is too large.")
      }
      return ServerAnswer(
        status: 400, detail: "Content-Length must be a single run of decimal digits.")
    case HPE_UNEXPECTED_CONTENT_LENGTH:
      if fields.contains(where: { same($0.name, "transfer-encoding") }) {
        return bothLengthAndCoding
      }
      return ServerAnswer(
        status: 400, detail: "A request must have at most one Content-Length header field.")
    case HPE_INVALID_CHUNK_SIZE:
      return ServerAnswer(status: 400, detail: "A chunk size is not a hexadecimal number.")
    case HPE_INVALID_TRANSFER_ENCODING:
      return ServerAnswer(
        status: 501, detail: "The only transfer coding supported is chunked, applied once.")
    default:
      return ServerAnswer(status: 400, detail: "The request is not well-formed HTTP/1.1.")
    }
  }

  private static let bothLengthAndCoding = ServerAnswer(
    status: 400,
    detail: "A request must not carry both Content-Length and Transfer-Encoding.")

  /// RFC 9110 `tchar`.
  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
      UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
      UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      return true
    default:
      return false
    }
  }

  /// A byte of RFC 3986 `host [ ":" port ]`: unreserved, sub-delims, `%`, `:` and the brackets
  /// of an IP literal.
  static func isHostByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
      UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
      UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"),
      UInt8(ascii: "%"), UInt8(ascii: "["), UInt8(ascii: "]"):
      return true
    default:
      return false
    }
  }

  /// A byte allowed in a field value: visible characters, space, tab and obs-text.
  private static func isValueByte(_ byte: UInt8) -> Bool {
    byte == 9 || (byte >= 32 && byte != 127)
  }

  /// The comma-separated items of a list field, without surrounding whitespace.
  private static func listItems(_ value: [UInt8]) -> [[UInt8]] {
    value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { item in
      Array(item.drop { $0 == 32 || $0 == 9 }.reversed().drop { $0 == 32 || $0 == 9 }.reversed())
    }
  }

  /// ASCII case-insensitive comparison with a lowercase literal.
  private static func same(_ bytes: [UInt8], _ lowercase: StaticString) -> Bool {
    guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
    let expected = lowercase.utf8Start
    return bytes.withUnsafeBufferPointer { bytes in
      for index in bytes.indices {
        let byte = bytes[index]
        guard (byte >= 65 && byte <= 90 ? byte | 0x20 : byte) == expected[index] else {
          return false
        }
      }
      return true
    }
  }

  /// A client's bytes, safe to quote in a detail: at most 40 characters, anything outside
  /// printable ASCII escaped.
  static func quoted(_ bytes: [UInt8]) -> String {
    var text = "\""
    for byte in bytes.prefix(40) {
      if byte >= 32, byte < 127, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
        text.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    if bytes.count > 40 { text += "..." }
    return text + "\""
  }
}
