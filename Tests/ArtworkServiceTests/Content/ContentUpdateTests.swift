import JSON
import TestSupport
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

  /// Keys and values that are not changed come back byte for byte: escaped keys
  /// (`"caf\u00e9"`, `"a\/b"`), surrogate pairs, and the stored content's spacing.
  @Test func unchangedMembersComeBackAsSent() throws {
    let stored =
      #"{ "template" : "generic",\#n  "caf\u00e9": "cr\u00e8me",\#n  "a\/b":1 ,"emoji\ud83c\udfa8":"\ud83c\udfa8\n", "title":"A" }"#
    #expect(
      try Self.merged(#"{"title":"B"}"#, stored: stored)
        == #"{ "template" : "generic",\#n  "caf\u00e9": "cr\u00e8me",\#n  "a\/b":1 ,"emoji\ud83c\udfa8":"\ud83c\udfa8\n", "title":"B" }"#
    )
    // A new member stands after the stored ones with the stored content's first separator.
    #expect(
      try Self.merged(#"{"sub\u0074itle" :  "S\u00e9"}"#, stored: stored)
        == #"{ "template" : "generic",\#n  "caf\u00e9": "cr\u00e8me",\#n  "a\/b":1 ,"emoji\ud83c\udfa8":"\ud83c\udfa8\n", "title":"A",\#n  "sub\u0074itle" :  "S\u00e9" }"#
    )
  }

  /// A member the patch replaces is the patch's text (its key as the patch wrote it) in the
  /// stored member's place, between the stored content's separators; one it clears takes one
  /// separator with it.
  @Test func aReplacedMemberIsThePatchsTextInTheStoredPlace() throws {
    let stored = "{\n  \"caf\\u00e9\": 1,\n  \"b\": 2,\n  \"c\": 3\n}"
    #expect(
      try Self.merged(#"{"café" :"\ud83d\ude00"}"#, stored: stored)
        == "{\n  \"café\" :\"\\ud83d\\ude00\",\n  \"b\": 2,\n  \"c\": 3\n}")
    #expect(
      try Self.merged(#"{"b":null}"#, stored: stored) == "{\n  \"caf\\u00e9\": 1,\n  \"c\": 3\n}")
    #expect(
      try Self.merged(#"{"c":null}"#, stored: stored) == "{\n  \"caf\\u00e9\": 1,\n  \"b\": 2\n}")
    #expect(
      try Self.merged(#"{"caf\u00e9":null,"b":null,"c":null}"#, stored: stored) == "{}")
  }

  /// Members added from a pretty-printed patch keep the patch's separators; with nothing
  /// stored, the patch's braces and spacing are the result's.
  @Test func addedMembersKeepThePatchsLayout() throws {
    let stored = "{\n  \"template\": \"generic\",\n  \"title\": \"A\"\n}"
    let patch = "{\n    \"title\": \"B\",\n    \"subtitle\": \"S\",\n    \"a\\/b\": [1, 2]\n}"
    #expect(
      try Self.merged(patch, stored: stored)
        == "{\n  \"template\": \"generic\",\n  \"title\": \"B\",\n    \"subtitle\": \"S\",\n    \"a\\/b\": [1, 2]\n}"
    )
    #expect(
      try Self.merged("{ \"a\\u0062\" : 1 ,\t\"c\":2 }", stored: "{ }")
        == "{ \"a\\u0062\" : 1 ,\t\"c\":2 }")
    // A push-body patch: its own text around the content stays too.
    #expect(
      try Self.merged(#"{ "state" : "ended" ,"content":{"ti\u0074le":"B"} }"#, stored: stored)
        == "{ \"state\" : \"ended\" ,\"content\":{\n  \"template\": \"generic\",\n  \"ti\\u0074le\":\"B\"\n} }"
    )
  }

  /// Random objects with escaped keys, surrogate pairs and odd spacing, merged: every member's
  /// text in the result is its text as sent, the merge's noted places are where a fresh read
  /// finds the members, and the result reads as the merge of the values.
  @Test func randomMergesKeepEveryMembersText() throws {
    var random = SeededRandom()
    let keys = [
      #""a""#, #""caf\u00e9""#, #""café""#, #""a\/b""#, #""\ud83c\udfa8""#, #""🎨""#,
      #""t\u0069tle""#,
      #""title""#, #""e\u0301""#, #""x""#,
    ]
    let values = [
      "1", "0.35", "1e2", "null", "true", #""\u00e9""#, #""\ud83d\ude00 \/ \"""#,
      "[1, {\"k\" : 2}]",
      "{}", #""plain""#,
    ]
    let spaces = ["", " ", "\n  ", "\t", "\r\n    "]
    func space(_ random: inout SeededRandom) -> String { spaces.randomElement(using: &random)! }
    func object(_ random: inout SeededRandom) -> String {
      var used: Set<String> = []
      var members: [String] = []
      for _ in 0..<Int.random(in: 0...5, using: &random) {
        let key = keys.randomElement(using: &random)!
        let decoded = try? JSONValue(parsing: Array(key.utf8))
        guard case .string(let name)? = decoded, used.insert(name).inserted else { continue }
        let colon = space(&random) + ":" + space(&random)
        members.append(key + colon + values.randomElement(using: &random)!)
      }
      let comma = space(&random) + "," + space(&random)
      return "{" + space(&random) + members.joined(separator: comma) + space(&random) + "}"
    }
    for round in 0..<500 {
      let stored = object(&random)
      let patch = object(&random)
      let body = Array(#"{"stored":\#(stored),"patch":\#(patch)}"#.utf8)
      let update = try #require(try ContentUpdate(parsing: body))
      let merged = try update.merged()
      let again = try ContentDocument(parsing: merged.bytes, checkingRules: false)
      #expect(again.members == merged.members, "round \(round): \(stored) + \(patch)")
      for member in merged.members {
        let text = merged.bytes[member.member]
        let from = update.patch.member(member.key) != nil ? update.patch : update.stored
        let source = try #require(from.member(member.key))
        #expect(
          Array(text) == Array(from.bytes[source.member]), "round \(round): \(stored) + \(patch)")
        if update.patch.member(member.key) == nil {
          #expect(member.value == update.stored.value(of: member.key))
        } else {
          #expect(member.value == update.patch.value(of: member.key) && member.value != .null)
        }
      }
    }
  }
}
