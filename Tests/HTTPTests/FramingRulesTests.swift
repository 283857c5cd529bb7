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
}
