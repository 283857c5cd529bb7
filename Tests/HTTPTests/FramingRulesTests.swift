import Testing

@testable import HTTP

/// The byte classes of `FramingRules`, against their grammar written out as text.
@Suite struct FramingRulesTests {
  static func alphanumeric(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// Each class, and the bytes other than letters and digits that it admits (RFC 9110 `tchar`;
  /// RFC 3986 `host [ ":" port ]`).
  static let classes: [(name: String, admits: @Sendable (UInt8) -> Bool, others: String)] = [
    ("token", FramingRules.isTokenByte, "!#$%&'*+-.^_`|~"),
    ("host", FramingRules.isHostByte, "-._~!$&'()*+,;=:%[]"),
  ]

  @Test(arguments: 0..<2)
  func aByteClassIsExactlyItsGrammar(index: Int) {
    let (name, admits, others) = Self.classes[index]
    let otherBytes = Set(others.utf8)
    for byte in UInt8.min...UInt8.max {
      #expect(
        admits(byte) == (Self.alphanumeric(byte) || otherBytes.contains(byte)),
        "\(name) byte \(byte)")
    }
  }

  @Test func fieldNamesCompareWithoutCase() {
    let fields = [
      RequestParser.Field(name: Array("HoSt".utf8), value: Array("a".utf8)),
      RequestParser.Field(name: Array("TRANSFER-encoding".utf8), value: Array("gzip".utf8)),
    ]
    let answer = FramingRules.judge(version: (1, 1), fields: fields, hasContentLength: false)
    #expect(answer?.status == 501)
    let noHost = FramingRules.judge(
      version: (1, 1), fields: [RequestParser.Field(name: Array("hosts".utf8), value: [])],
      hasContentLength: false)
    #expect(noHost?.status == 400)
  }

  /// The framing verdict from a head's fields and what http-parser read of its length: no
  /// body, a length, chunked, or the breach (here, both Content-Length and Transfer-Encoding).
  @Test func theFramingIsJudgedFromTheHeadAlone() {
    func field(_ name: String, _ value: String) -> RequestParser.Field {
      RequestParser.Field(name: Array(name.utf8), value: Array(value.utf8))
    }
    let host = [field("Host", "example.org")]
    let cases: [(RequestParser.DeclaredLength, Bool, [RequestParser.Field], BodyFraming)] = [
      (.none, false, host, .none),
      (.bytes(0), false, host, .none),
      (.bytes(7), false, host, .length(7)),
      (.beyondAnyLimit, false, host, .lengthBeyondAnyLimit),
      (.none, true, host + [field("Transfer-Encoding", "chunked")], .chunked),
    ]
    for (declared, chunked, fields, expected) in cases {
      let framing = FramingRules.framing(
        version: (1, 1), fields: fields, declared: declared, isChunked: chunked)
      #expect(framing == expected, "\(declared), chunked \(chunked)")
      #expect(framing.hasBody == (expected != .none))
    }
    let both = FramingRules.framing(
      version: (1, 1), fields: host + [field("Transfer-Encoding", "chunked")],
      declared: .bytes(3), isChunked: true)
    #expect(
      both
        == .refused(
          ServerAnswer(
            status: 400,
            detail: "A request must not carry both Content-Length and Transfer-Encoding.")))
    let noHost = FramingRules.framing(
      version: (1, 1), fields: [], declared: .none, isChunked: false)
    #expect(
      noHost
        == .refused(
          ServerAnswer(status: 400, detail: "An HTTP/1.1 request needs a Host header field.")))
  }

  /// A declared length is checked against a route's limit once the head is routed; a chunked
  /// body is counted as it comes.
  @Test func aDeclaredLengthPastTheLimitIsTooLarge() {
    let route = Router.Route(
      method: .post, pattern: RoutePattern("/upload"), maxBodyBytes: 10, bodyTooLarge: nil,
      authorize: nil, prepare: { _, _ in .refused(HTTPResponse(status: 500)) })
    #expect(BodyFraming.length(10).tooLarge(limit: 10, route: route) == nil)
    #expect(BodyFraming.chunked.tooLarge(limit: 10, route: route) == nil)
    #expect(
      BodyFraming.length(11).tooLarge(limit: 10, route: route)
        == ServerAnswer(status: 413, detail: "The request body is 11 bytes; the limit is 10 bytes.")
    )
    #expect(
      BodyFraming.lengthBeyondAnyLimit.tooLarge(limit: 10, route: route)
        == ServerAnswer(
          status: 413, detail: "The request body is larger than the limit of 10 bytes."))
  }
}
