import Foundation
import Testing

@testable import JSON

@Suite struct JSONValueTests {
  @Test func keepsKeyOrder() {
    let value = JSONValue.object([
      ("image_url", .string("https://a.example/x.jpg")), ("b", .int(2)), ("a", .bool(true)),
      ("list", .array([.null, .double(0.5)])),
    ])
    #expect(
      value.text
        == #"{"image_url":"https://a.example/x.jpg","b":2,"a":true,"list":[null,0.5]}"#)
  }

  @Test(arguments: [
    "plain", "quote \" and backslash \\", "line\nbreak\r\ttab", "nul \u{0} bell \u{7} del \u{7F}",
    "separators \u{2028} \u{2029}", "emoji 🖼️ accents é ₂", "", "\u{E2}",
  ])
  func stringsRoundTripThroughAJSONParser(text: String) throws {
    let bytes = JSONValue.object([("s", .string(text))]).bytes
    #expect(!bytes.contains(0x0A) && !bytes.contains(0x7F))
    let parsed = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String]
    #expect(parsed?["s"] == text)
  }

  @Test func lineSeparatorsAreEscaped() {
    #expect(JSONValue.string("a\u{2028}b\u{2029}").text == #""a\u2028b\u2029""#)
  }

  @Test func nonFiniteDoublesAreNull() {
    #expect(JSONValue.array([.double(.nan), .double(.infinity)]).text == "[null,null]")
  }
}
