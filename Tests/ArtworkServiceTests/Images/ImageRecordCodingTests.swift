import ArtworkCore
import Foundation
import Testing

@testable import ArtworkService

/// The views of one image record are stored as flat JSON objects, in the format the stored
/// results and facts had before the record was one type: records written then read back now.
@Suite struct ImageRecordCodingTests {
  private static let image = ImageRecord(
    fileName: String(repeating: "ab", count: 32) + ".jpg", shape: "poster", format: "jpeg",
    width: 400, height: 600, bytes: 31_337, thumbHash: "1QcSHQRnh493V4dIh4eXh1h4kJUI",
    averageColor: "#5a4b3c")

  /// Facts as they were stored: every member at the top level, keys sorted.
  private static let storedFacts =
    ##"{"averageColor":"#5a4b3c","bytes":31337,"createdAt":1764650705,"fileName":""##
    + String(repeating: "ab", count: 32)
    + ##".jpg","format":"jpeg","height":600,"shape":"poster","source":{"bytes":900000,"format":"png","height":1500,"width":1000},"sourceURL":"https:\/\/example.com\/p.png","thumbHash":"1QcSHQRnh493V4dIh4eXh1h4kJUI","version":1,"width":400}"##

  @Test func storedFactsReadAndWriteTheSameBytes() throws {
    let facts = try #require(ImageFacts(json: Array(Self.storedFacts.utf8)))
    #expect(facts.image == Self.image)
    #expect(facts.createdAt == 1_764_650_705)
    #expect(facts.sourceURL == "https://example.com/p.png")
    #expect(facts.source == SourceFacts(format: "png", width: 1000, height: 1500, bytes: 900_000))
    #expect(facts.inferred == nil)
    #expect(String(decoding: facts.json, as: UTF8.self) == Self.storedFacts)
  }

  @Test func factsOfAnotherVersionAreAMiss() {
    let other = Self.storedFacts.replacingOccurrences(of: #""version":1"#, with: #""version":2"#)
    #expect(ImageFacts(json: Array(other.utf8)) == nil)
    #expect(ImageFacts(json: Array(#"{"version":1}"#.utf8)) == nil)
  }

  @Test func anAnswerIsCodedFlatBesideItsSource() throws {
    let source = SourceFacts(format: "png", width: 1000, height: 1500, bytes: 900_000)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let answer = try JSONDecoder().decode(
      ArtworkAnswer.self, from: Data(Self.storedFacts.utf8))
    #expect(answer.image == Self.image && answer.source == source)
    let object = try #require(
      JSONSerialization.jsonObject(with: encoder.encode(answer)) as? [String: Any])
    #expect(
      object.keys.sorted() == [
        "averageColor", "bytes", "fileName", "format", "height", "shape", "source", "thumbHash",
        "width",
      ])
    #expect(try JSONDecoder().decode(ArtworkAnswer.self, from: encoder.encode(answer)) == answer)
  }
}
