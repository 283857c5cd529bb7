import Foundation
import Testing

@testable import JSON

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
          ("url", .string("https://a.example/p.jpg")), ("size", .number("400")),
          ("ratio", .number("-1.5e2")), ("ok", .bool(true)), ("no", .bool(false)),
          ("none", .null), ("list", .array([.number("1"), .array([]), .object([])])),
          ("nested", .object([("b", .number("1")), ("a", .number("2"))])),
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

  /// Numbers are kept exactly as written, at any magnitude and precision, and written back so.
  @Test(arguments: [
    "0", "-0", "42", "-7", "9223372036854775807", "9223372036854775808", "1.0", "0.5", "1e3",
    "2E-2", "1e+2", "1e400", "-1e-400", "0.1000000000000000000000000000001",
    String(repeating: "9", count: 401), "-" + String(repeating: "1", count: 1000) + ".5E-99999",
  ])
  func keepsNumbersAsWritten(text: String) throws {
    #expect(try parse(text) == .number(text))
    #expect(try parse("[\(text)]").bytes == Array("[\(text)]".utf8))
  }

  /// Keys are compared by code points: a precomposed and a decomposed é are two keys.
  @Test func keysAreComparedByCodePoints() throws {
    let text = #"{"é": 1, "é": 2, "é": 3}"#
    #expect(failure(text)?.reason.contains("appears twice") == true)
    let two = try parse(#"{"é": 1, "é": 2}"#)
    guard case .object(let members) = two else {
      Issue.record("not an object")
      return
    }
    #expect(members.count == 2)
    #expect(members.map { Array($0.0.unicodeScalars) } == [["\u{E9}"], ["e", "\u{301}"]])
  }

  @Test(arguments: [
    ("", "unexpected end"), ("{", "expected a quoted key"), ("{\"a\" 1}", "expected ':'"),
    ("{\"a\":1,}", "expected a quoted key"), ("[1,]", "unexpected character"),
    ("[1 2]", "expected ',' or ']'"), ("{\"a\":1 \"b\":2}", "expected ',' or '}'"),
    ("{'a':1}", "expected a quoted key"), ("tru", "unexpected character"),
    ("nul", "unexpected character"), ("NaN", "unexpected character"),
    ("01", "leading zero"), ("-", "malformed number"), ("1.", "malformed number"),
    (".5", "unexpected character"), ("1e", "malformed number"), ("+1", "unexpected character"),
    ("\"abc", "not closed"), ("\"a\u{1}b\"", "control character"),
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
    let value = JSONValue.object([
      ("s", .string(text)), ("n", .number("-3")), ("d", .number("0.25")),
    ])
    let bytes = value.bytes
    #expect(try JSONValue(parsing: bytes) == value)
    let foundation = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    #expect(foundation?["s"] as? String == text)
  }

  @Test func objectMembersLookUpByKey() throws {
    let members = try #require(try parse(#"{"url": "u", "size": 3}"#).objectMembers)
    #expect(members["url"] == .string("u") && members["size"] == .number("3"))
    #expect(try parse("[1]").objectMembers == nil)
  }

  /// Read once, the text tells where the members of each of its objects are, keys as written.
  @Test func jsonTextKeepsWhereEveryObjectsMembersAre() throws {
    let source = #" {"stored": {"caf\u00e9" : 1}, "patch":{"content":{"a":[{"b":2}]}}} "#
    let text = try JSONText(parsing: Array(source.utf8))
    #expect(text.start == 1)
    let top = try #require(text.members(ofObjectAt: text.start))
    #expect(top.map(\.key) == ["stored", "patch"])
    let stored = try #require(text.members(ofObjectAt: top[0].valueRange.lowerBound))
    #expect(stored.map(\.key) == ["caf\u{E9}"])
    #expect(String(decoding: text.bytes[stored[0].keyRange], as: UTF8.self) == #""caf\u00e9""#)
    #expect(String(decoding: text.bytes[stored[0].member], as: UTF8.self) == #""caf\u00e9" : 1"#)
    let patch = try #require(text.members(ofObjectAt: top[1].valueRange.lowerBound))
    let content = try #require(text.members(ofObjectAt: patch[0].valueRange.lowerBound))
    #expect(content.map(\.key) == ["a"])
    #expect(text.members(ofObjectAt: 0) == nil)
    #expect(throws: JSONSyntaxError.self) { try JSONText(parsing: Array(#"{"a":1,}"#.utf8)) }
    #expect(throws: JSONSyntaxError.self) { try JSONText(parsing: Array(#"{"a":1 "b":2}"#.utf8)) }
  }
}
