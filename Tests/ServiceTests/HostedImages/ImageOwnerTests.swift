import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// Images have owners. The attack as it was tried: image ids are public (every push carries
/// one), and Bob's token got 204 on `DELETE` of Alice's image, whose `image_url` was then 404.
@Suite struct ImageOwnerTests {
  static let alice = "alice-token-0123456789abcdef"
  static let bob = "bob-token-0123456789abcdef01"
  static let ops = "ops-token-0123456789abcdef012"

  /// Alice, Bob and `ops` (an admin), loopback sources allowed.
  static func start() async throws -> RunningArtwork {
    try await RunningArtwork([
      "ARTWORK_API_TOKENS": "alice:\(alice),bob:\(bob),ops:\(ops)",
      "ARTWORK_ADMIN_TOKENS": "ops", "ARTWORK_PRIVATE_SOURCES": "127.0.0.1/32",
      "ARTWORK_SOURCE_TTL": "1h",
    ])
  }

  static func upload(
    _ service: RunningArtwork, as token: String, shape: String = "square",
    image: String = "coffee.jpg", type: String = "image/jpeg"
  ) async throws -> LoopbackHTTPResponse {
    try await service.send(
      LoopbackHTTPRequest(
        "POST", "/v1/artwork?size=96&shape=\(shape)",
        headers: [("Content-Type", type), ("Authorization", "Bearer \(token)")],
        body: .bytes(Fixtures.bytes(image))))
  }

  static func create(_ service: RunningArtwork, url: String, as token: String) async throws
    -> LoopbackHTTPResponse
  {
    try await service.send(
      LoopbackHTTPRequest(
        "POST", "/v1/artwork",
        headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")],
        body: .bytes(Array(#"{"url":"\#(url)","size":96}"#.utf8))))
  }

  static func delete(_ service: RunningArtwork, _ path: String, as token: String) async throws
    -> LoopbackHTTPResponse
  {
    try await service.send(
      LoopbackHTTPRequest("DELETE", path, headers: [("Authorization", "Bearer \(token)")]))
  }

  @Test func anotherCallersDeleteIs403AndTheImageStays() async throws {
    let service = try await Self.start()
    let created = try await Self.upload(service, as: Self.alice)
    #expect(created.status == 201, "\(created.text)")
    let path = try #require(created.imagePath)
    let refused = try await Self.delete(service, path, as: Self.bob)
    #expect(refused.isProblem(403), "\(refused.text)")
    #expect(refused.json["type"] as? String == "urn:artwork:problem:not-owner")
    #expect((refused.json["detail"] as? String)?.contains("ARTWORK_ADMIN_TOKENS") == true)
    #expect(refused.json["request_id"] is String)
    #expect(try await service.get(path).status == 200)
    // The admin deletes any image.
    #expect(try await Self.delete(service, path, as: Self.ops).status == 204)
    #expect(try await service.get(path).status == 404)
    await service.stop()
  }

  /// Two callers that make the same bytes share one object: it goes with its last owner.
  @Test func sharedBytesGoWithTheLastOwner() async throws {
    let service = try await Self.start()
    let first = try await Self.upload(service, as: Self.alice)
    let second = try await Self.upload(service, as: Self.bob)
    let path = try #require(first.imagePath)
    #expect(second.imagePath == path, "\(second.text)")
    #expect(try await Self.delete(service, path, as: Self.alice).status == 204)
    #expect(try await service.get(path).status == 200, "Bob still holds it")
    // Alice's claim is gone: a second DELETE of hers is refused, and the image stays.
    #expect(try await Self.delete(service, path, as: Self.alice).isProblem(403))
    #expect(try await Self.delete(service, path, as: Self.bob).status == 204)
    #expect(try await service.get(path).status == 404)
    await service.stop()
  }

  /// A caller answered a URL's remembered result (made for another) holds the image too.
  @Test func aRememberedURLAnswerMakesItsCallerAnOwner() async throws {
    let service = try await Self.start()
    let url = try URLSourceFixture.url("/image.jpg" + URLSourceFixture.unique())
    let made = try await Self.create(service, url: url, as: Self.alice)
    #expect(made.status == 201, "\(made.text)")
    let remembered = try await Self.create(service, url: url, as: Self.bob)
    #expect(remembered.status == 201 && remembered.header("Age") != nil, "\(remembered.text)")
    let again = try await Self.create(service, url: url, as: Self.bob)
    #expect(again.status == 201)
    let path = try #require(made.imagePath)
    #expect(try await Self.delete(service, path, as: Self.alice).status == 204)
    #expect(try await service.get(path).status == 200, "Bob was answered it: his URL loads")
    #expect(try await Self.delete(service, path, as: Self.bob).status == 204)
    #expect(try await service.get(path).status == 404)
    await service.stop()
  }

  /// Bob making Alice's source in another shape never rewrites the facts her answer relies
  /// on: the first shape and time stay, and every shape made is listed. A source with alpha
  /// makes the same square PNG as a `square` and as a `circle` (the phone masks the circle).
  @Test func anotherShapeNeverRewritesTheFacts() async throws {
    let service = try await Self.start()
    let square = try await Self.upload(
      service, as: Self.alice, shape: "square", image: "grey-alpha.png", type: "image/png")
    let facts = try await service.get(try #require(square.factsPath))
    #expect(facts.json["image_shapes"] as? [String] == ["square"], "\(facts.text)")
    try await Task.sleep(for: .seconds(1.1))
    let circle = try await Self.upload(
      service, as: Self.bob, shape: "circle", image: "grey-alpha.png", type: "image/png")
    #expect(circle.status == 201, "\(circle.text)")
    #expect(circle.json["image_shape"] as? String == "circle")
    #expect(circle.imagePath == square.imagePath, "the same bytes, one object")
    let after = try await service.get(try #require(square.factsPath))
    #expect(after.json["image_shape"] as? String == "square")
    #expect(after.json["created_at"] as? String == facts.json["created_at"] as? String)
    #expect(after.json["image_shapes"] as? [String] == ["square", "circle"], "\(after.text)")
    // Bob holds it too: Alice's DELETE leaves it to him.
    let path = try #require(square.imagePath)
    #expect(try await Self.delete(service, path, as: Self.alice).status == 204)
    #expect(try await service.get(path).status == 200)
    await service.stop()
  }

  /// An image stored before owners were kept names none: only an admin deletes it, and a caller
  /// that makes it again holds a claim beside that unknown owner's, never in its place.
  @Test func anImageWithoutRecordedOwnersIsAnAdminsToDelete() async throws {
    let service = try await Self.start()
    let created = try await Self.upload(service, as: Self.alice)
    let path = try #require(created.imagePath)
    let name = try #require(path.split(separator: "/").last.map(String.init))
    let key = try #require(ArtworkKey(fileName: name))
    try await service.server.app.storage.deleteRecord(ImageFacts.recordName(key.id))
    service.server.app.imageOwners.forget(key.id)
    #expect(try await Self.delete(service, path, as: Self.alice).isProblem(403))
    #expect(try await Self.upload(service, as: Self.bob).imagePath == path)
    #expect(try await Self.delete(service, path, as: Self.bob).status == 204)
    #expect(try await service.get(path).status == 200, "the earlier owner still holds it")
    #expect(try await Self.delete(service, path, as: Self.ops).status == 204)
    #expect(try await service.get(path).status == 404)
    await service.stop()
  }

  /// Facts are public: they never name an owner.
  @Test func factsNameNoOwner() async throws {
    let service = try await Self.start()
    let created = try await Self.upload(service, as: Self.alice)
    let facts = try await service.get(try #require(created.factsPath))
    #expect(facts.status == 200)
    #expect(!facts.text.contains("alice") && facts.json["owners"] == nil, "\(facts.text)")
    await service.stop()
  }
}
