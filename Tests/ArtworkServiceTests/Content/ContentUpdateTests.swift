import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// The update form of `/v1/content` merged by the relay's documented rules, without a server.
@Suite struct ContentUpdateTests {
  static let hosted = "https://art.example/v1/images/a.jpg"
  static let hash = "1QcSHQRnh493V4dIh4eXh1h4kJUI"
  static let stored =
    #"{"template":"generic","state":"Playing","progress":0.35,"image_url":"\#(hosted)","image_shape":"poster","image_thumbhash":"\#(hash)","end_date":1750003600}"#

  static func merged(_ patch: String, stored: String = stored) throws -> String {
    let body = #"{"stored":\#(stored),"patch":\#(patch)}"#
    let update = try #require(try ContentUpdate(parsing: Array(body.utf8)))
    return String(decoding: try update.merged().bytes, as: UTF8.self)
  }

  static func refusal(_ patch: String) -> ArtworkError? {
    do {
      _ = try merged(patch)
      return nil
    } catch let error as ArtworkError {
      return error
    } catch {
      return nil
    }
  }

  @Test func omittedFieldsCarryForwardAndSentOnesReplace() throws {
    #expect(
      try Self.merged(#"{"progress":0.5,"subtitle":"S02E05"}"#)
        == #"{"template":"generic","state":"Playing","progress":0.5,"image_url":"\#(Self.hosted)","image_shape":"poster","image_thumbhash":"\#(Self.hash)","end_date":1750003600,"subtitle":"S02E05"}"#
    )
  }

  @Test func nullClears() throws {
    #expect(
      try Self.merged(#"{"end_date":null,"live_progress":null}"#)
        == #"{"template":"generic","state":"Playing","progress":0.35,"image_url":"\#(Self.hosted)","image_shape":"poster","image_thumbhash":"\#(Self.hash)"}"#
    )
  }

  /// `"image_url": null` clears the artwork: the stored hash describes the image that went.
  @Test func clearingTheImageTakesItsHashAlong() throws {
    #expect(
      try Self.merged(#"{"image_url":null}"#)
        == #"{"template":"generic","state":"Playing","progress":0.35,"image_shape":"poster","end_date":1750003600}"#
    )
  }

  /// A new image_url without a hash: the stored hash stays in its place, where the new
  /// image's is written when the artwork is filled (the order of the fields holds).
  @Test func aNewImageKeepsTheHashsPlace() throws {
    #expect(
      try Self.merged(#"{"image_url":"https://media.example/next.jpg"}"#)
        == #"{"template":"generic","state":"Playing","progress":0.35,"image_url":"https://media.example/next.jpg","image_shape":"poster","image_thumbhash":"\#(Self.hash)","end_date":1750003600}"#
    )
    // The same URL again keeps it.
    #expect(try Self.merged(#"{"image_url":"\#(Self.hosted)"}"#) == Self.stored)
  }

  /// The documented rule: a switch to a template without an image slot drops the inherited
  /// image fields rather than failing; image fields sent in the same patch are a 422.
  @Test func aSwitchToATemplateWithoutAnImageSlotDropsInheritedImageFields() throws {
    #expect(
      try Self.merged(#"{"template":"alert","state":"Done"}"#)
        == #"{"template":"alert","state":"Done","progress":0.35,"end_date":1750003600}"#
    )
    for field in ["image_url", "image_shape", "image_thumbhash"] {
      let value =
        field == "image_shape"
        ? "\"square\"" : field == "image_url" ? "\"https://x/y.jpg\"" : "\"\(Self.hash)\""
      let error = try #require(Self.refusal(#"{"template":"alert","\#(field)":\#(value)}"#))
      #expect(error.kind == .unprocessableContent)
      #expect(error.detail.contains("alert") && error.detail.contains(field), "\(error.detail)")
    }
    // As the relay has it, even a null is a field sent.
    #expect(Self.refusal(#"{"template":"alert","image_url":null}"#)?.kind == .unprocessableContent)
  }

  /// A patch that is a push body answers a push body, its content merged.
  @Test func aPushBodyPatchAnswersAPushBody() throws {
    #expect(
      try Self.merged(#"{"state":"ended", "content": {"progress":1}}"#)
        == #"{"state":"ended", "content": {"template":"generic","state":"Playing","progress":1,"image_url":"\#(Self.hosted)","image_shape":"poster","image_thumbhash":"\#(Self.hash)","end_date":1750003600}}"#
    )
  }

  @Test func thePatchIsCheckedTheStoredContentIsNot() throws {
    // A stored BlurHash (from before) is carried as it is; a sent one is refused.
    let stored = #"{"template":"generic","image_thumbhash":"LEHV6nWB2yk8pyo0adR*.7kCMdnj"}"#
    #expect(try Self.merged(#"{"progress":1}"#, stored: stored).contains("LEHV6nWB2yk8"))
    let error = try #require(Self.refusal(#"{"image_thumbhash":"LEHV6nWB2yk8pyo0adR*.7kCMdnj"}"#))
    #expect(error.members.contains(.string("reason", "blurhash")))
  }

  @Test func onlyTheTwoPartsMakeTheUpdateForm() throws {
    #expect(try ContentUpdate(parsing: Array(#"{"stored":{},"patch":{},"x":1}"#.utf8)) == nil)
    #expect(try ContentUpdate(parsing: Array(#"{"patch":{}}"#.utf8)) == nil)
    #expect(throws: ArtworkError.self) {
      _ = try ContentUpdate(parsing: Array(#"{"stored":[],"patch":{}}"#.utf8))
    }
  }
}
