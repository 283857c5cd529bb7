import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// Slow sources never stall the service: fetches wait on their own threads, not on the image
/// workers or the HTTP server's.
@Suite struct SlowSourceTests {
  @Test func heldFetchesBlockNeitherHealthNorUploads() async throws {
    // Its own origin: /held.png's release is per origin process.
    let origin = try await OriginServer.start()
    let service = try await RunningArtwork([
      "ARTWORK_PRIVATE_SOURCES": "127.0.0.1", "ARTWORK_WORKERS": "1",
      "ARTWORK_FETCH_TIMEOUT": "60s",
      // Room for all twenty fetched images at once when the origin lets them go together (the
      // default queue, 16, would refuse three of them: what this test is not about).
      "ARTWORK_QUEUE": "20",
    ])
    let finished = Counter()
    let fetches = Task {
      try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<20 {
          group.addTask {
            let url = "http://127.0.0.1:\(origin.http)/held.png?n=\(index)"
            let answer = try await service.post("/v1/artwork", url: url, options: ["size": 64])
            finished.increment()
            return answer.status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
    }
    // Wait (bounded) until the origin holds as many requests as one caller may have fetch
    // threads (12 of 16: the rest are other callers'); the other eight wait in the fetch queue.
    var held = 0
    for _ in 0..<600 where held < 12 {
      held = try origin.counts().requests["/held.png"] ?? 0
      if held < 12 { try await Task.sleep(for: .milliseconds(50)) }
    }
    #expect(held == 12)
    let health = try await service.get("/healthz", timeout: .seconds(20))
    #expect(health.status == 200)
    let upload = try await service.upload(Fixtures.bytes("coffee.jpg"))
    #expect(upload.status == 201, "\(upload.text)")
    // Both answered while every slow fetch was still pending.
    #expect(finished.count == 0)
    try origin.release()
    let statuses = try await fetches.value
    #expect(statuses == Array(repeating: 201, count: 20))
    await service.stop()
  }
}
