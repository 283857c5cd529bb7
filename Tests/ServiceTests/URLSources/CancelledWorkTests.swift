import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// A request whose `ARTWORK_HANDLER_TIMEOUT` passes is answered 503 and its work cancelled:
/// a cancelled fetch tells nothing of its origin, so nothing of it is remembered, and a request
/// that waited for the same result makes it itself.
@Suite struct CancelledWorkTests {
  @Test func aCancelledFetchIsNotRememberedAndItsWaiterMakesTheResult() async throws {
    // Its own origin: /held.png's release is per origin process.
    let origin = try await OriginServer.start()
    let service = try await RunningArtwork([
      "ARTWORK_PRIVATE_SOURCES": "127.0.0.1", "ARTWORK_HANDLER_TIMEOUT": "2s",
      "ARTWORK_FETCH_TIMEOUT": "60s", "ARTWORK_FAILURE_TTL": "1h",
    ])
    let url = "http://127.0.0.1:\(origin.http)/held.png?n=cancelled"
    let json = #"{"url":"\#(url)","size":64}"#
    // The first request fetches; the origin holds its answer past the handler's deadline.
    let first = Task { try await service.post("/v1/artwork", json: json) }
    #expect(try await Self.heldRequests(origin, reach: 1))
    // A second asks for the same result, in work that outlives its wait: it waits for the
    // first's fetch.
    let second = try await service.send(
      LoopbackHTTPRequest(
        "POST", "/v1/artwork",
        headers: [("Content-Type", "application/json"), ("Prefer", "wait=0")],
        body: .bytes(Array(json.utf8))))
    #expect(second.status == 202, "\(second.text)")
    let location = try #require(second.header("Location"))
    #expect(try await first.value.status == 503)
    // The first's work was cancelled: the waiting one fetches for itself rather than taking
    // its failure...
    #expect(try await Self.heldRequests(origin, reach: 2))
    try origin.release()
    var result = try await service.get(location)
    for _ in 0..<200 where result.status == 202 {
      try await Task.sleep(for: .milliseconds(50))
      result = try await service.get(location)
    }
    #expect(result.status == 200, "\(result.text)")
    // ...and what is remembered is the artwork, not the cancellation.
    let again = try await service.post("/v1/artwork", json: json)
    #expect(again.status == 201 || again.status == 200, "\(again.text)")
    #expect((again.object["image_url"] as? String)?.contains("/v1/images/") == true)
    #expect(try origin.counts().requests["/held.png"] == 2)
    await service.stop()
  }

  /// Waits (bounded) until the origin has been asked for `/held.png` `count` times.
  static func heldRequests(_ origin: OriginServer, reach count: Int) async throws -> Bool {
    for _ in 0..<400 {
      if try origin.counts().requests["/held.png"] ?? 0 >= count { return true }
      try await Task.sleep(for: .milliseconds(25))
    }
    return false
  }
}
