import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// `POST /v1/content`: a relay's activity content back with its artwork filled in, every other
/// byte as sent.
@Suite struct ContentEndpointTests {
  /// The relay's own example (its Generic template, with artwork), pretty-printed as a relay
  /// might send it, `image_url` pointing at `source`.
  static func pushBody(_ source: String, thumbhash: String? = nil, template: String = "generic")
    -> String
  {
    let hash = thumbhash.map { ",\n    \"image_thumbhash\": \"\($0)\"" } ?? ""
    return """
      {
        "state": "ongoing",
        "content": {
          "template": "\(template)",
          "progress": 0.35,
          "state": "Playing",
          "subtitle": "S02E04 - The Constant",
          "end_date": 1750003600,
          "ratio": 1.50e2,
          "icon": "play.fill",
          "image_url": "\(source)",
          "image_shape": "poster"\(hash),
          "accent_color": "indigo",
          "nested": {"a": [1, 2.0, -0.0, {"b": null}], "image_url": "untouched"}
        }
      }
      """
  }

  static func post(_ service: RunningArtwork, _ body: String, query: String = "") async throws
    -> LoopbackHTTPResponse
  {
    try await service.post("/v1/content" + query, json: body)
  }

  @Test func aSourceURLIsHostedAndEverythingElseIsKeptByteForByte() async throws {
    let service = try await URLSourceFixture.allowing.value
    let origin = try URLSourceFixture.origin.get()
    let target = "/image.jpg" + URLSourceFixture.unique()
    let source = try URLSourceFixture.url(target)
    let sent = Self.pushBody(source, thumbhash: "GYpSpSh4eHt4eHh4eHh4eHh4iIeH")
    let filled = try await Self.post(service, sent, query: "?size=200&crop=centre")
    #expect(filled.status == 200, "\(filled.text)")
    #expect(filled.header("Content-Type") == "application/json")

    // What /v1/artwork answers for the same URL and options: the same hosted image and hash.
    let artwork = try await service.post(
      "/v1/artwork", url: source, options: ["shape": "poster", "size": 200, "crop": "centre"])
    let hosted = try #require(artwork.string("image_url"))
    let hash = try #require(artwork.string("image_thumbhash"))
    #expect(hash != "GYpSpSh4eHt4eHh4eHh4eHh4iIeH")
    let expected =
      sent
      .replacingOccurrences(
        of: "\"image_url\": \"\(source)\"", with: "\"image_url\": \"\(hosted)\""
      )
      .replacingOccurrences(of: "GYpSpSh4eHt4eHh4eHh4eHh4iIeH", with: hash)
    #expect(filled.text == expected)
    #expect(try origin.requests(target) == 1)

    // The same push again answers the same bytes, from the result cache.
    let again = try await Self.post(service, sent, query: "?size=200&crop=centre")
    #expect(again.body == filled.body)
    #expect(try origin.requests(target) == 1)
  }

  /// A relay's sidecar in Python: urllib posts the push body and gets back the same bytes, the
  /// artwork filled, exactly what our own client gets.
  @Test func pythonUrllibGetsTheSameDocument() async throws {
    let service = try await URLSourceFixture.allowing.value
    let source = try URLSourceFixture.url("/image.jpg" + URLSourceFixture.unique())
    let sent = Self.pushBody(source)
    let script = """
      import sys, urllib.request
      request = urllib.request.Request(sys.argv[1], data=sys.argv[2].encode(), method="POST",
                                       headers={"Content-Type": "application/json"})
      with urllib.request.urlopen(request) as answer:
          sys.stdout.write(str(answer.status) + "\\n" + answer.read().decode())
      """
    let result = try await ServiceProcess.runProgram(
      "python3", ["-c", script, "http://127.0.0.1:\(service.port)/v1/content", sent])
    #expect(result.status == 0, "\(result.error)")
    let ours = try await Self.post(service, sent)
    #expect(result.output == "200\n" + ours.text)
    #expect(ours.text.contains("\"image_thumbhash\":") && !ours.text.contains(source))
  }

  @Test func aMissingHashIsAddedAfterTheURLAndTheDefaultShapeIsSquare() async throws {
    let service = try await URLSourceFixture.allowing.value
    let source = try URLSourceFixture.url("/image.png" + URLSourceFixture.unique())
    let sent = #"{"template":"media","image_url":"\#(source)","title":"x"}"#
    let filled = try await Self.post(service, sent)
    #expect(filled.status == 200, "\(filled.text)")
    let artwork = try await service.post("/v1/artwork", url: source)
    let hosted = try #require(artwork.string("image_url"))
    let hash = try #require(artwork.string("image_thumbhash"))
    #expect(artwork.string("image_shape") == "square")
    #expect(
      filled.text
        == #"{"template":"media","image_url":"\#(hosted)","image_thumbhash":"\#(hash)","title":"x"}"#
    )
  }

  /// The update form keeps every byte it does not change, as the plain form does: escaped
  /// keys, surrogate pairs and the stored content's spacing come back as sent, the patch's
  /// member with its own text, and only the artwork is filled in.
  @Test func theUpdateFormKeepsEscapesAndSpacing() async throws {
    let service = try await URLSourceFixture.allowing.value
    let source = try URLSourceFixture.url("/image.png" + URLSourceFixture.unique())
    let stored =
      "{\n  \"template\": \"media\",\n  \"caf\\u00e9\" : \"cr\\u00e8me\",\n"
      + "  \"a\\/b\":1 ,\"\\ud83c\\udfa8\":\"\\ud83d\\ude00\",\n"
      + "  \"image_url\": \"https://art.example/old.jpg\",\n"
      + "  \"image_thumbhash\": \"1QcSHQRnh493V4dIh4eXh1h4kJUI\"\n}"
    let patch = #"{ "image_url" : "\#(source)", "\u0074itle":"B" }"#
    let filled = try await Self.post(service, #"{"stored": \#(stored), "patch": \#(patch)}"#)
    #expect(filled.status == 200, "\(filled.text)")
    #expect(filled.header("Artwork-Changed") == "true")
    let artwork = try await service.post("/v1/artwork", url: source)
    let hosted = try #require(artwork.string("image_url"))
    let hash = try #require(artwork.string("image_thumbhash"))
    let expected =
      "{\n  \"template\": \"media\",\n  \"caf\\u00e9\" : \"cr\\u00e8me\",\n"
      + "  \"a\\/b\":1 ,\"\\ud83c\\udfa8\":\"\\ud83d\\ude00\",\n"
      + "  \"image_url\" : \"\(hosted)\",\n"
      + "  \"image_thumbhash\": \"\(hash)\", \"\\u0074itle\":\"B\"\n}"
    #expect(filled.text == expected)
  }

  /// A URL of ours: nothing fetched, the URL kept, the hash that of the stored object.
  @Test func aHostedURLIsLeftAndItsHashFilled() async throws {
    let service = try await URLSourceFixture.allowing.value
    let uploaded = try await service.upload(Fixtures.bytes("coffee.jpg"))
    #expect(uploaded.status == 201, "\(uploaded.text)")
    let hosted = try #require(uploaded.string("image_url"))
    let sent =
      #"{"content":{"template":"steps","image_url":"\#(hosted)","image_thumbhash":"1QcSHQRnh493V4dIh4eXh1h4kJUI"}}"#
    let filled = try await Self.post(service, sent)
    #expect(filled.status == 200, "\(filled.text)")
    let hash = try #require(uploaded.string("image_thumbhash"))
    #expect(
      filled.text
        == sent.replacingOccurrences(of: "1QcSHQRnh493V4dIh4eXh1h4kJUI", with: hash))

    // A hosted name that is not stored is a clear 422, and is not remembered.
    let missing = hosted.replacingOccurrences(
      of: String(hosted.split(separator: "/").last!.prefix(64)),
      with: String(repeating: "ab", count: 32))
    let gone = try await Self.post(service, #"{"image_url":"\#(missing)"}"#)
    #expect(gone.isProblem(422), "\(gone.text)")
    #expect(gone.string("detail")?.contains("no longer stored") == true)
  }

  @Test(arguments: [
    #"{"content":{"template":"generic","image_url":null,"progress":0.35}}"#,
    #"{"template":"generic","progress":1750003600}"#,
    #"{"template":"alert","title":"no image fields"}"#,
    "  {\"a\" : 1.0e0 }  ",
  ])
  func withoutAURLTheDocumentComesBackAsSent(sent: String) async throws {
    let service = try await URLSourceFixture.allowing.value
    let answer = try await Self.post(service, sent)
    #expect(answer.status == 200, "\(answer.text)")
    #expect(answer.text == sent)
  }

  @Test(arguments: [
    (#"{"template":"alert","image_url":"https://a.example/p.jpg"}"#, "\"alert\"", "image_url"),
    (
      #"{"template":"countdown","image_shape":"poster","image_thumbhash":"x"}"#, "\"countdown\"",
      "image_shape, image_thumbhash"
    ),
    (#"{"content":{"template":"alert","image_url":null}}"#, "\"alert\"", "image_url"),
  ])
  func imageFieldsOnATemplateWithoutAnImageSlotAre422(
    sent: String, template: String, fields: String
  ) async throws {
    let service = try await URLSourceFixture.allowing.value
    let refused = try await Self.post(service, sent)
    #expect(refused.isProblem(422), "\(refused.text)")
    #expect(refused.string("type") == "urn:artwork:problem:unprocessable-content")
    let detail = refused.string("detail") ?? ""
    #expect(detail.contains(template) && detail.contains(fields), "\(detail)")
  }

  @Test(arguments: [
    (#"{"image_url":"https://a.example/p.jpg","image_shape":"banner"}"#, 422),
    (#"{"image_url":"https://a.example/p.jpg","image_shape":2}"#, 422),
    (#"{"image_url":42}"#, 422), (#"{"image_url":"x","image_thumbhash":[]}"#, 422),
    (#"{"template":{},"image_url":null}"#, 422),
    (#"["not", "an object"]"#, 400), (#"{"a":1,"a":2}"#, 400), ("{", 400),
  ])
  func malformedDocumentsAreRefused(sent: String, status: Int) async throws {
    let service = try await URLSourceFixture.allowing.value
    let refused = try await Self.post(service, sent)
    #expect(refused.isProblem(status), "\(sent): \(refused.text)")
  }

  @Test func optionsAndTheBodyTypeAreChecked() async throws {
    let service = try await URLSourceFixture.allowing.value
    let body = #"{"image_url":null}"#
    #expect(try await Self.post(service, body, query: "?size=5000").isProblem(400))
    #expect(try await Self.post(service, body, query: "?shape=poster").isProblem(400))
    #expect(try await Self.post(service, body, query: "?sise=200").isProblem(400))
    let wrongType = try await service.post("/v1/content", json: body, contentType: "text/plain")
    #expect(wrongType.isProblem(415))
  }

  /// Failures are the problems `/v1/artwork` answers, with the same statuses.
  @Test func failuresAreTheArtworkProblems() async throws {
    let service = try await URLSourceFixture.allowing.value
    for (path, status) in [("/status/404", 422), ("/html", 415), ("/broken.jpg", 422)] {
      let source = try URLSourceFixture.url(path + URLSourceFixture.unique())
      let viaContent = try await Self.post(service, Self.pushBody(source))
      let viaArtwork = try await service.post(
        "/v1/artwork", url: source, options: ["shape": "poster"])
      #expect(viaContent.isProblem(status), "\(path): \(viaContent.text)")
      #expect(viaContent.string("type") == viaArtwork.string("type"))
      #expect(viaContent.string("detail") == viaArtwork.string("detail"))
    }
    let isolated = try await URLSourceFixture.publicOnly.value
    let privateSource = try URLSourceFixture.url("/image.png")
    #expect(try await Self.post(isolated, Self.pushBody(privateSource)).isProblem(403))
  }
}
