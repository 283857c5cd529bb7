import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// `DELETE /v1/images/{id}.{ext}`: the token, then everything that answers the image goes (the
/// object, its facts, its hot-cache entry, the URL results and the hosted URL's remembered
/// ThumbHash), and the next request for its source makes it again.
@Suite struct ImageDeletionTests {
  @Test func aDeletedURLImageIsGoneAndItsSourceMakesItAgain() async throws {
    let hosted = try await HostedImageService.start()
    let origin = try URLSourceFixture.origin.get()
    let target = "/image.jpg" + URLSourceFixture.unique()
    let url = try URLSourceFixture.url(target)
    let created = try await hosted.post(url: url)
    #expect(created.status == 201, "\(created.text)")
    let path = try #require(created.imagePath)
    let key = try #require(ArtworkKey(fileName: String(path.dropFirst("/v1/images/".count))))
    // Hot, remembered, and its hosted URL's ThumbHash remembered by /v1/content.
    #expect(try await hosted.get(path).status == 200)
    #expect(hosted.app.hotImages.bytes(key, countingMiss: false) != nil)
    #expect(try await hosted.post(url: url).string("image_url") == created.string("image_url"))
    let hostedURL = try #require(created.string("image_url"))
    let content = try await hosted.send(
      "POST", "/v1/content", json: #"{"image_url":"\#(hostedURL)"}"#)
    #expect(content.status == 200, "\(content.text)")
    #expect(try origin.requests(target) == 1)

    expectProblem(try await hosted.delete(path, authorised: false), 401)
    #expect(try await hosted.get(path).status == 200, "a refused DELETE removes nothing")

    let deleted = try await hosted.delete(path)
    #expect(deleted.status == 204, "\(deleted.text)")
    #expect(deleted.body.isEmpty)
    #expect(hosted.app.hotImages.bytes(key, countingMiss: false) == nil)
    expectProblem(try await hosted.get(path), 404)
    expectProblem(try await hosted.get(try #require(created.factsPath)), 404)
    // Idempotent in effect, not in answer: the second DELETE finds nothing.
    expectProblem(try await hosted.delete(path), 404)
    let stale = try await hosted.send(
      "POST", "/v1/content", json: #"{"image_url":"\#(hostedURL)"}"#)
    #expect(stale.isProblem(422), "\(stale.text)")
    #expect(try await hosted.app.imageIndex.names(key.id).isEmpty)

    // The same source in a relay's content makes the image again: fetched again, not
    // answered from memory; /v1/artwork then has it remembered.
    let refilled = try await hosted.send(
      "POST", "/v1/content?size=96", json: #"{"image_url":"\#(url)"}"#)
    #expect(refilled.status == 200, "\(refilled.text)")
    #expect(refilled.text.contains(hostedURL))
    #expect(try origin.requests(target) == 2)
    let again = try await hosted.post(url: url)
    #expect(again.status == 201, "\(again.text)")
    #expect(again.string("image_url") == created.string("image_url"))
    #expect(try origin.requests(target) == 2)
    #expect(try await hosted.get(path).status == 200)
    #expect(try await hosted.get(try #require(created.factsPath)).status == 200)

    let metrics = try await hosted.get("/metrics")
    #expect(metrics.text.contains("\nartwork_images_deleted_total 1\n"), "\(metrics.text)")
    await hosted.stop()
  }

  /// A result record left in storage without an index entry (an index update lost to a race)
  /// is not answered once its image is gone: the source is fetched again.
  @Test func aResultTheIndexMissedIsNotAnsweredForADeletedImage() async throws {
    let hosted = try await HostedImageService.start()
    let origin = try URLSourceFixture.origin.get()
    let target = "/image.png" + URLSourceFixture.unique()
    let url = try URLSourceFixture.url(target)
    let created = try await hosted.post(url: url, size: 88)
    #expect(created.status == 201, "\(created.text)")
    let path = try #require(created.imagePath)
    let key = try #require(ArtworkKey(fileName: String(path.dropFirst("/v1/images/".count))))
    // The index entry is lost: the deletion cannot find the result record, which stays in
    // storage (memory forgets it all the same, by its image).
    try await hosted.app.imageIndex.remove(key.id)
    #expect(try await hosted.delete(path).status == 204)
    let again = try await hosted.post(url: url, size: 88)
    #expect(again.status == 201, "\(again.text)")
    #expect(try origin.requests(target) == 2)
    #expect(try await hosted.get(path).status == 200)
    await hosted.stop()
  }

  @Test func unknownAndMalformedNamesAre404AndJSONCannotBeDeleted() async throws {
    let hosted = try await HostedImageService.start()
    let created = try await hosted.upload()
    let path = try #require(created.imagePath)
    let hex = String(path.dropFirst("/v1/images/".count).prefix(64))
    for name in [
      String(repeating: "ab", count: 32) + ".jpg", hex + ".png", hex + ".json", hex,
      hex.uppercased() + ".jpg",
    ] {
      expectProblem(try await hosted.delete("/v1/images/\(name)"), 404)
    }
    #expect(try await hosted.get(path).status == 200)
    await hosted.stop()
  }

  /// Without tokens configured, DELETE needs none (as the POST routes).
  @Test func withoutTokensNoneIsNeeded() async throws {
    let hosted = try await HostedImageService.start(["ARTWORK_API_TOKENS": ""])
    let created = try await hosted.upload()
    let path = try #require(created.imagePath)
    #expect(try await hosted.delete(path, authorised: false).status == 204)
    expectProblem(try await hosted.get(path), 404)
    await hosted.stop()
  }
}
