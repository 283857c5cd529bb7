import Foundation
import TestSupport
import Testing

@testable import ArtworkService
@testable import Imaging

extension ReplicaSuites {
  /// Two `ArtworkServer`s on one S3 prefix behave as one service.
  @Suite(.seaweedFS) struct ReplicaTests {
    @Test func artworkCreatedThroughOneIsServedByTheOther() async throws {
      let (one, other) = try await Replica.pair()
      let created = try await Replica.upload(one, size: 128)
      #expect(created.status == 201, "\(created.text)")
      let path = try #require(created.imagePath)
      let here = try await one.get(path)
      let there = try await other.get(path)
      #expect(here.status == 200 && there.status == 200, "\(there.text)")
      #expect(there.body == here.body)
      #expect(try ImagePipeline.inspect(there.body).width == 128)
      for name in ["ETag", "Content-Type", "Cache-Control", "Content-Length"] {
        #expect(there.header(name) != nil && there.header(name) == here.header(name), "\(name)")
      }
      let etag = try #require(there.header("ETag"))
      let notModified = try await other.get(path, headers: [("If-None-Match", etag)])
      #expect(notModified.status == 304)
      #expect(notModified.body.isEmpty)
      await one.stop()
      await other.stop()
    }

    @Test func aURLProcessedByOneIsACacheHitOnTheOther() async throws {
      let origin = try await OriginServer.start()
      let (one, other) = try await Replica.pair()
      let url = "http://127.0.0.1:\(origin.http)/image.jpg"
      let first = try await one.post("/v1/artwork", url: url, options: ["size": 90])
      #expect(first.status == 201, "\(first.text)")
      let second = try await other.post("/v1/artwork", url: url, options: ["size": 90])
      #expect(second.status == 201, "\(second.text)")
      #expect(second.string("image_url") == first.string("image_url"))
      #expect(second.string("image_thumbhash") == first.string("image_thumbhash"))
      #expect(try origin.counts().requests["/image.jpg"] == 1)
      await one.stop()
      await other.stop()
    }

    @Test func concurrentUploadsSplitAcrossBothAllSucceed() async throws {
      let (one, other) = try await Replica.pair()
      // 32 sizes: 32 different objects, each created through one replica or the other.
      let created = try await withThrowingTaskGroup(of: (Int, LoopbackHTTPResponse).self) {
        group in
        for index in 0..<32 {
          let size = 64 + index
          group.addTask {
            (size, try await Replica.upload(index.isMultiple(of: 2) ? one : other, size: size))
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(created.allSatisfy { $0.1.status == 201 }, "\(created.map { $0.1.status })")
      #expect(Set(created.compactMap { $0.1.string("image_url") }).count == 32)
      for (size, answer) in created {
        let path = try #require(answer.imagePath)
        let here = try await one.get(path)
        let there = try await other.get(path)
        #expect(here.status == 200 && there.status == 200)
        #expect(here.body == there.body)
        #expect(answer.json["bytes"] as? Int == here.body.count)
        #expect(try ImagePipeline.inspect(here.body).width == size)
      }
      await one.stop()
      await other.stop()
    }
  }
}
