import Foundation
import Testing

@testable import ArtworkService

@Suite struct JSONValueParsingTests {
  private func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    try JSONValue(parsing: Array(text.utf8))
  }

  private func failure(_ text: String) -> JSONSyntaxError? {
    do {
      _ = try parse(text)
      return nil
    } catch {
      return error
    }
  }

  @Test func readsEveryKindOfValueInOrder() throws {
    let value = try parse(
      #" { "url" : "https://a.example/p.jpg", "size": 400, "ratio": -1.5e2, "ok": true,"#
        + #" "no": false, "none": null, "list": [1, [], {}], "nested": {"b": 1, "a": 2} } "#)
    #expect(
      value
        == .object([
          ("url", .string("https://a.example/p.jpg")), ("size", .int(400)),
          ("ratio", .double(-150)), ("ok", .bool(true)), ("no", .bool(false)), ("none", .null),
          ("list", .array([.int(1), .array([]), .object([])])),
          ("nested", .object([("b", .int(1)), ("a", .int(2))])),
        ]))
  }

  @Test(arguments: [
    (#""a\"b\\c\/d""#, "a\"b\\c/d"),
    (#""\b\f\n\r\t""#, "\u{8}\u{C}\n\r\t"),
    (#""\u00e9\u00C9 \u20ac""#, "éÉ €"),
    (#""\ud83d\uddbc""#, "🖼"),
    (#""\u0000""#, "\u{0}"),
    ("\"caf\u{E9} \u{1F5BC}\"", "café 🖼"),
    (#""""#, ""),
  ])
  func decodesStringsAndEscapes(text: String, expected: String) throws {
    #expect(try parse(text) == .string(expected))
  }

  @Test(arguments: [
    ("0", JSONValue.int(0)), ("-0", .int(0)), ("42", .int(42)), ("-7", .int(-7)),
    ("9223372036854775807", .int(Int.max)),
    ("9223372036854775808", .double(9.223372036854775808e18)),
    ("1.0", .double(1)), ("0.5", .double(0.5)), ("1e3", .double(1000)), ("2E-2", .double(0.02)),
    ("1e+2", .double(100)),
  ])
  func readsNumbers(text: String, expected: JSONValue) throws {
    #expect(try parse(text) == expected)
  }

  @Test(arguments: [
    ("", "unexpected end"), ("{", "expected a quoted key"), ("{\"a\" 1}", "expected ':'"),
    ("{\"a\":1,}", "expected a quoted key"), ("[1,]", "unexpected character"),
    ("[1 2]", "expected ',' or ']'"), ("{\"a\":1 \"b\":2}", "expected ',' or '}'"),
    ("{'a':1}", "expected a quoted key"), ("tru", "unexpected character"),
    ("nul", "unexpected character"), ("NaN", "unexpected character"),
    ("01", "leading zero"), ("-", "malformed number"), ("1.", "malformed number"),
    (".5", "unexpected character"), ("1e", "malformed number"), ("+1", "unexpected character"),
    ("1e999", "out of range"), ("\"abc", "not closed"), ("\"a\u{1}b\"", "control character"),
    ("\"a\nb\"", "control character"), (#""\x""#, "invalid escape"),
    (#""\u12""#, "invalid \\u escape"), (#""\u12g4""#, "invalid \\u escape"),
    (#""\ud800""#, "high surrogate"), (#""\ud800\u0041""#, "high surrogate"),
    (#""\udc00""#, "low surrogate"), ("{} {}", "after the JSON value"), ("1 x", "after"),
    ("{\"a\":1,\"a\":2}", "appears twice"), ("// c\n{}", "unexpected character"),
  ])
  func refusesMalformedText(text: String, reason: String) {
    let error = failure(text)
    #expect(error?.reason.contains(reason) == true, "\(text): \(String(describing: error))")
  }

  @Test func refusesInvalidUTF8InStrings() {
    #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22]) }
    #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: [0x22, 0xFF, 0x22]) }
  }

  @Test func errorsNameTheOffset() {
    #expect(
      failure("[1, 2 3]") == JSONSyntaxError(reason: "expected ',' or ']' in an array", offset: 6))
    #expect(failure("{\"a\":1,\"a\":2}")?.offset == 7)
  }

  @Test func boundsTheNesting() throws {
    let deep = JSONValue.maxDepth
    _ = try parse(String(repeating: "[", count: deep) + String(repeating: "]", count: deep))
    let tooDeep = String(repeating: "[", count: deep + 1) + String(repeating: "]", count: deep + 1)
    #expect(failure(tooDeep)?.reason == "nested too deeply")
    #expect(failure(String(repeating: "{\"a\":", count: 100_000))?.reason == "nested too deeply")
  }

  /// Foundation's parser is an independent reader: our writer's output, read back by ours,
  /// must agree with it, including every escape the writer makes.
  @Test(arguments: [
    "plain", "quote \" and backslash \\", "line\nbreak\r\ttab", "nul \u{0} bell \u{7} del \u{7F}",
    "separators \u{2028} \u{2029}", "emoji 🖼️ accents é ₂", "", "\u{E2}",
  ])
  func readsWhatTheWriterWrites(text: String) throws {
    let value = JSONValue.object([("s", .string(text)), ("n", .int(-3)), ("d", .double(0.25))])
    let bytes = value.bytes
    #expect(try JSONValue(parsing: bytes) == value)
    let foundation = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    #expect(foundation?["s"] as? String == text)
  }

  @Test func objectMembersLookUpByKey() throws {
    let members = try #require(try parse(#"{"url": "u", "size": 3}"#).objectMembers)
    #expect(members["url"] == .string("u") && members["size"] == .int(3))
    #expect(try parse("[1]").objectMembers == nil)
  }
}
