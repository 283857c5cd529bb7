import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// `GET|HEAD /v1/images/{id}.json`: the facts of a hosted image, kept at creation or worked out
/// from the bytes of an image stored before facts were kept.
@Suite struct ImageFactsTests {
  @Test func anUploadsFactsAreWhatItsCreationAnswered() async throws {
    let hosted = try await HostedImageService.start()
    let before = Date().timeIntervalSince1970.rounded(.down)
    let created = try await hosted.upload(size: 80, shape: "circle")
    #expect(created.status == 201, "\(created.text)")
    let facts = try await hosted.get(try #require(created.factsPath))
    #expect(facts.status == 200, "\(facts.text)")
    #expect(facts.header("Content-Type") == "application/json")
    for name in [
      "image_url", "image_shape", "image_thumbhash", "format", "average_color",
    ] {
      #expect(facts.string(name) != nil && facts.string(name) == created.string(name), "\(name)")
    }
    for name in ["width", "height", "bytes"] {
      #expect(facts.json[name] as? Int == created.json[name] as? Int, "\(name)")
    }
    #expect(facts.string("image_shape") == "circle")
    #expect(facts.json["source_url"] is NSNull)
    let stamp = try #require(facts.string("created_at"))
    let made = try #require(ISO8601DateFormatter().date(from: stamp)).timeIntervalSince1970
    #expect(made >= before && made <= Date().timeIntervalSince1970, "\(stamp)")
    await hosted.stop()
  }

  @Test func aURLsFactsNameItsSourceWithItsSecretsRedacted() async throws {
    let hosted = try await HostedImageService.start()
    let url = try URLSourceFixture.url("/image.jpg?sig=hush-123&v=\(UUID().uuidString.prefix(8))")
    let created = try await hosted.post(url: url)
    #expect(created.status == 201, "\(created.text)")
    let facts = try await hosted.get(try #require(created.factsPath))
    #expect(facts.status == 200, "\(facts.text)")
    let source = try #require(facts.string("source_url"))
    #expect(source == String(url.prefix { $0 != "?" }))
    #expect(!facts.text.contains("hush-123"))
    #expect(facts.string("image_thumbhash") == created.string("image_thumbhash"))
    await hosted.stop()
  }

  /// An image stored before facts were kept (its record removed here): the facts come from its
  /// bytes, the ThumbHash exactly the one its creation answered, no creation time.
  @Test func anImageWithoutFactsHasThemWorkedOutFromItsBytes() async throws {
    let hosted = try await HostedImageService.start()
    let created = try await hosted.upload(size: 72)
    let path = try #require(created.factsPath)
    let id = try #require(ArtworkID(hex: String(path.dropFirst("/v1/images/".count).prefix(64))))
    try await hosted.app.storage.deleteRecord(ImageFacts.recordName(id))
    let facts = try await hosted.get(path)
    #expect(facts.status == 200, "\(facts.text)")
    #expect(facts.string("image_thumbhash") == created.string("image_thumbhash"))
    #expect(facts.string("average_color") == created.string("average_color"))
    #expect(facts.string("image_shape") == "square")
    #expect(facts.json["width"] as? Int == 72 && facts.json["height"] as? Int == 72)
    #expect(facts.json["bytes"] as? Int == created.json["bytes"] as? Int)
    #expect(facts.json["created_at"] is NSNull)
    // Worked out once, then stored.
    #expect(try await hosted.app.storage.getRecord(ImageFacts.recordName(id)) != nil)
    await hosted.stop()
  }

  @Test func headAnswersTheFieldsWithoutTheBody() async throws {
    let hosted = try await HostedImageService.start()
    let created = try await hosted.upload()
    let path = try #require(created.factsPath)
    let (head, get) = try await ServiceHarness.exchange(port: hosted.port) { client in
      try await client.sendRaw(Array("HEAD \(path) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
      let head = try await client.readResponse(forHead: true)
      return (head, try await client.send(LoopbackHTTPRequest("GET", path)))
    }
    #expect(head.status == 200 && head.body.isEmpty)
    #expect(head.header("Content-Length") == "\(get.body.count)")
    #expect(head.header("Content-Type") == "application/json")
    await hosted.stop()
  }

  @Test func unknownAndMalformedIdsAre404() async throws {
    let hosted = try await HostedImageService.start()
    let created = try await hosted.upload()
    let path = try #require(created.factsPath)
    let hex = String(path.dropFirst("/v1/images/".count).prefix(64))
    for name in [
      String(repeating: "ab", count: 32) + ".json", hex.uppercased() + ".json",
      String(hex.dropLast()) + ".json", hex + ".jpg.json", ".json",
    ] {
      expectProblem(try await hosted.get("/v1/images/\(name)"), 404)
    }
    await hosted.stop()
  }
}
