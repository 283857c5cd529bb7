import Testing

@testable import HTTP

/// The bytes of a response head, as `ResponseHead` writes them.
@Suite struct ResponseHeadTests {
  static func head(status: Int = 200, length: Int) -> String {
    let bytes = ResponseHead.bytes(
      status: status, headers: ["Content-Type": "image/jpeg"], framing: .length(length),
      requestID: RequestID.accept("abc".utf8), persistence: .unstated,
      date: Array("Date: x\r\n".utf8))
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test(arguments: [0, 7, 9, 10, 11, 99, 100, 45_865, 2_097_152, 1 << 40, Int.max])
  func theContentLengthIsTheDecimalLength(length: Int) {
    #expect(Self.head(length: length).contains("\r\nContent-Length: \(length)\r\n"))
  }

  @Test func aNegativeLengthIsWrittenAsZero() {
    #expect(Self.head(length: -5).contains("\r\nContent-Length: 0\r\n"))
  }

  @Test func theHeadIsTheStatusLineTheFieldsAndAnEmptyLine() {
    #expect(
      Self.head(status: 404, length: 12)
        == "HTTP/1.1 404 Not Found\r\nDate: x\r\nContent-Type: image/jpeg\r\n"
        + "Content-Length: 12\r\nX-Request-Id: abc\r\n\r\n")
  }
}
