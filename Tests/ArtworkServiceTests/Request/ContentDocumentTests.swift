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
    let filled = document.filled(imageURL: nil, thumbHash: "abc")
    #expect(
      String(decoding: filled, as: UTF8.self)
        == #"{"\u00e9":1,"e\u0301":2,"image_url":"https://x.example/a.png","image_thumbhash":"abc"}"#
    )
  }

  @Test func fillingChangesOnlyTheImageFields() throws {
    let text =
      #"{"state":"ongoing", "content": {"progress": 0.35, "image_thumbhash" :null, "image_url":"u", "n":1e400}}"#
    let document = try ContentDocument(parsing: Array(text.utf8))
    let filled = document.filled(imageURL: "https://h/\"q\"", thumbHash: "h")
    #expect(
      String(decoding: filled, as: UTF8.self)
        == #"{"state":"ongoing", "content": {"progress": 0.35, "image_thumbhash" :"h", "image_url":"https://h/\"q\"", "n":1e400}}"#
    )
  }
}
