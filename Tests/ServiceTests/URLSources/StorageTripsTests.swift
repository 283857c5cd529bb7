import Foundation
import Storage
import TestSupport
import Testing

@testable import ArtworkService

/// What a URL costs the store: on S3 each storage call is a round trip, so the calls that do
/// not depend on each other go out side by side.
@Suite struct StorageTripsTests {
  /// A URL that is not remembered, whose image is new: the result looked up, then the object
  /// stored while the image's index is read, then the facts, the index and the result written
  /// side by side. Three round trips, where one after another they were six.
  @Test func aURLMissTakesThreeStorageRoundTrips() async throws {
    let origin = try URLSourceFixture.origin.get()
    let trips = Locked<StorageTrips?>(nil)
    let service = try await RunningArtwork(
      ["ARTWORK_PRIVATE_SOURCES": "127.0.0.1/32"],
      storageLayer: { inner in
        let recorder = StorageTrips(inner)
        trips.withLock { $0 = recorder }
        return recorder
      })
    defer { Task { await service.stop() } }
    let recorder = try #require(trips.withLock { $0 })
    let url = "http://127.0.0.1:\(origin.http)/image.jpg" + URLSourceFixture.unique()
    let (created, calls) = try await recorder.calls {
      try await service.post("/v1/artwork", url: url, options: ["size": 120])
    }
    #expect(created.status == 201, "\(created.text)")
    let made = StorageTrips.trips(calls)
    #expect(made.count == 3, "\(made)")
    #expect(made.first == ["get source-cache"], "\(made)")
    #expect(made.dropFirst().first?.sorted() == ["get image-results", "put object"], "\(made)")
    #expect(
      made.last?.sorted() == ["put image-facts", "put image-results", "put source-cache"],
      "\(made)")
    // The same bytes from another URL: the object is stored already, so no facts are written.
    let other = "http://127.0.0.1:\(origin.http)/image.jpg" + URLSourceFixture.unique("other")
    let (again, moreCalls) = try await recorder.calls {
      try await service.post("/v1/artwork", url: other, options: ["size": 120])
    }
    #expect(again.string("image_url") == created.string("image_url"))
    let remade = StorageTrips.trips(moreCalls)
    #expect(remade.count == 3, "\(remade)")
    #expect(remade.last?.sorted() == ["put image-results", "put source-cache"], "\(remade)")
  }
}
