import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// `/v1/content`'s reading and splicing of a relay's document, without a server.
@Suite struct ContentDocumentTests {
  /// The fuzz finding `Fuzz/findings/content/crash-922d…`: `"é"` and `"e\u{301}"` are two keys,
  /// and each is looked up as itself (Swift's `==` takes them for one string).
  @Test func keysAreLookedUpByCodePoints() throws {
    let text = #"{"\u00e9":1,"e\u0301":2,"image_url":"https://x.example/a.png"}"#
    let document = try ContentDocument(parsing: Array(text.utf8))
    #expect(document.value(of: "\u{E9}") == .number("1"))
    #expect(document.value(of: "e\u{301}") == .number("2"))
    let filled = document.answered(thumbHash: "abc")
    #expect(
      String(decoding: filled.bytes, as: UTF8.self)
        == #"{"\u00e9":1,"e\u0301":2,"image_url":"https://x.example/a.png","image_thumbhash":"abc"}"#
    )
  }

  @Test func fillingChangesOnlyTheImageFields() throws {
    let text =
      #"{"state":"ongoing", "content": {"progress": 0.35, "image_thumbhash" :null, "image_url":"u", "n":1e400}}"#
    let document = try ContentDocument(parsing: Array(text.utf8))
    let filled = document.answered(imageURL: "https://h/\"q\"", thumbHash: "h")
    #expect(
      String(decoding: filled.bytes, as: UTF8.self)
        == #"{"state":"ongoing", "content": {"progress": 0.35, "image_thumbhash" :"h", "image_url":"https://h/\"q\"", "n":1e400}}"#
    )
  }

  @Test func theAnswerWritesTheShapeInLowerCaseAndReportsItsFields() throws {
    let text = #"{"image_shape":"POSTER","image_url":"https://a.example/p.jpg","x":[1]}"#
    let document = try ContentDocument(parsing: Array(text.utf8))
    let answer = document.answered(imageURL: "https://h/v1/images/a.jpg", thumbHash: "abc")
    #expect(
      String(decoding: answer.bytes, as: UTF8.self)
        == #"{"image_shape":"poster","image_url":"https://h/v1/images/a.jpg","image_thumbhash":"abc","x":[1]}"#
    )
    #expect(
      answer.imageFields == [
        .string("https://h/v1/images/a.jpg"), .string("POSTER"), .string("abc"),
      ])
    let same = document.answered()
    #expect(
      String(decoding: same.bytes, as: UTF8.self)
        == text.replacingOccurrences(of: "POSTER", with: "poster"))
    #expect(same.imageFields == [.string("https://a.example/p.jpg"), .string("POSTER"), nil])
  }

  /// Members taken out with the commas between them and what stays, neighbours included: the
  /// result is the document without them, every other byte as sent.
  @Test(arguments: [
    (#"{"a":1, "image_url":"u", "image_shape":"square", "b":2}"#, #"{"a":1, "b":2}"#),
    (#"{"a":1, "image_url":"u", "image_shape":"square"}"#, #"{"a":1}"#),
    (#"{"image_url":"u" , "image_shape":"square", "b":2}"#, #"{"b":2}"#),
    (#"{ "image_url":"u", "image_thumbhash":null, "image_shape":"square" }"#, #"{  }"#),
    (#"{"image_url":"u","a":1,"image_thumbhash":"h"}"#, #"{"a":1}"#),
    (#"{"state":1,"content":{"a":1,"image_url":"u"}}"#, #"{"state":1,"content":{"a":1}}"#),
  ])
  func removingTakesMembersAndTheirCommas(sent: String, left: String) throws {
    let document = try ContentDocument(parsing: Array(sent.utf8), checkingRules: false)
    let removed = document.removing(ContentDocument.imageFields)
    #expect(String(decoding: removed, as: UTF8.self) == left)
  }
}
