import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService
@testable import Imaging
@testable import Storage

extension ReplicaSuites {
  /// A DELETE through one replica takes effect on the other within the documented bound (2 s):
  /// its hot cache and its remembered URL results let go, through the deletion notices.
  @Suite(.seaweedFS) struct ReplicaDeletionTests {
    static let bound = Duration.seconds(2)

    @Test func aDeletionThroughOneReachesTheOtherWithinTheBound() async throws {
      let origin = try await OriginServer.start()
      let (one, other) = try await Replica.pair()
      let url = "http://127.0.0.1:\(origin.http)/image.jpg?replica=\(UUID().uuidString.prefix(8))"
      let created = try await one.post("/v1/artwork", url: url, options: ["size": 90])
      #expect(created.status == 201, "\(created.text)")
      let path = try #require(created.imagePath)
      let key = try #require(ArtworkKey(fileName: String(path.dropFirst("/v1/images/".count))))
      // The other replica serves it hot and remembers the URL's result in memory.
      #expect(try await other.get(path).status == 200)
      #expect(other.server.app.hotImages.bytes(key, countingMiss: false) != nil)
      let remembered = try await other.post("/v1/artwork", url: url, options: ["size": 90])
      #expect(remembered.string("image_url") == created.string("image_url"))
      #expect(try origin.counts().requests["/image.jpg"] == 1)

      let deleted = try await one.send(LoopbackHTTPRequest("DELETE", path))
      #expect(deleted.status == 204, "\(deleted.text)")
      let since = ContinuousClock.now
      var answer = try await other.get(path)
      while answer.status == 200, ContinuousClock.now - since < Self.bound * 3 {
        try await Task.sleep(for: .milliseconds(50))
        answer = try await other.get(path)
      }
      let took = ContinuousClock.now - since
      #expect(answer.isProblem(404), "\(answer.text)")
      #expect(took <= Self.bound, "the other replica served the deleted image for \(took)")
      #expect(other.server.app.hotImages.bytes(key, countingMiss: false) == nil)
      let variant = try ArtworkOptions(fields: ["size": "90"]).cacheKey
      #expect(try other.server.app.artworkResults.remembered(url: url, variant: variant) == nil)

      // The same source through the other replica makes the image again.
      let again = try await other.post("/v1/artwork", url: url, options: ["size": 90])
      #expect(again.status == 201, "\(again.text)")
      #expect(again.string("image_url") == created.string("image_url"))
      #expect(try origin.counts().requests["/image.jpg"] == 2)
      #expect(try await one.get(path).status == 200)
      await one.stop()
      await other.stop()
    }

    /// The notices on S3: listed in name order from the one after the cursor.
    @Test func deletionNoticesAreListedAfterTheCursor() async throws {
      let storage = try SeaweedFSScope.server.storage()
      let key = ArtworkKey(id: ArtworkID(hex: String(repeating: "cd", count: 32))!, format: .png)
      #expect(try await storage.deletionNotices(after: nil).isEmpty)
      let notices = [1_000, 2_000, 3_000].map { DeletionNotice(key: key, milliseconds: $0) }
      for notice in notices.reversed() { try await storage.putDeletionNotice(notice.name) }
      #expect(try await storage.deletionNotices(after: nil) == notices.map(\.name))
      #expect(
        try await storage.deletionNotices(after: DeletionNotice.cursor(2_000))
          == notices.dropFirst().map(\.name))
      #expect(try await storage.deletionNotices(after: notices[2].name).isEmpty)
      #expect(notices.map(\.name).compactMap(DeletionNotice.init(name:)) == notices)
    }
  }
}
