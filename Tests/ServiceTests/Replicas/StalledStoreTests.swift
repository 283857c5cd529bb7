import Foundation
import TestSupport
import Testing

@testable import ArtworkService

extension ReplicaSuites {
  /// The store stalls (SeaweedFS stopped with SIGSTOP: its connections stay open, unanswered).
  /// As it was tried: `/readyz` took 30 s and then said ready on a queued probe, `/metrics`
  /// timed out, and `/v1/content` with `Prefer: wait=2` took 20 s. Now every one answers
  /// within the deadlines, and readiness comes back with the store.
  @Suite(.seaweedFS) struct StalledStoreTests {
    /// One answer: its status, when it was asked (since the stall began) and how long it took.
    struct Timed: CustomStringConvertible {
      let status: Int
      let asked: Duration
      let took: Duration
      var description: String { "\(status) asked at \(asked), took \(took)" }
    }

    static func timed(
      since start: ContinuousClock.Instant, _ request: () async throws -> LoopbackHTTPResponse
    ) async throws -> (Timed, LoopbackHTTPResponse) {
      let asked = ContinuousClock.now
      let answer = try await request()
      return (Timed(status: answer.status, asked: asked - start, took: .now - asked), answer)
    }

    @Test func probesAndThePushPathAnswerInTimeWhileTheStoreStalls() async throws {
      let store = try SeaweedFSScope.server
      var environment = try Replica.environment(prefix: "stall-\(UUID().uuidString.prefix(8))")
      // The defaults, as shipped.
      environment["ARTWORK_READINESS_INTERVAL"] = "2s"
      environment["ARTWORK_READINESS_TIMEOUT"] = "2s"
      let service = try await RunningArtwork(environment)
      #expect(try await service.get("/readyz").status == 200)
      let source = try URLSourceFixture.url("/image.jpg" + URLSourceFixture.unique())
      let content = #"{"content": {"image_url": "\#(source)", "image_shape": "poster"}}"#

      store.pause()
      let stalled = ContinuousClock.now
      var probes: [Timed] = []
      var pushes: [(Timed, String?)] = []
      var scrapes: [(Timed, Bool)] = []
      while ContinuousClock.now - stalled < .seconds(12) {
        // Three at once, as load balancers and anyone else send them.
        async let first = Self.timed(since: stalled) { try await service.get("/readyz") }
        async let second = Self.timed(since: stalled) { try await service.get("/readyz") }
        async let third = Self.timed(since: stalled) { try await service.get("/readyz") }
        probes += [try await first.0, try await second.0, try await third.0]
        if pushes.count < 2, ContinuousClock.now - stalled > .seconds(3) {
          let (timed, answer) = try await Self.timed(since: stalled) {
            try await service.send(
              LoopbackHTTPRequest(
                "POST", "/v1/content",
                headers: [("Content-Type", "application/json"), ("Prefer", "wait=2")],
                body: .bytes(Array(content.utf8))))
          }
          pushes.append((timed, answer.header("Artwork-Status")))
          let (scrape, metrics) = try await Self.timed(since: stalled) {
            try await service.get("/metrics")
          }
          scrapes.append((scrape, metrics.text.contains("\nartwork_ready 0\n")))
        }
        try await Task.sleep(for: .milliseconds(300))
      }
      store.resume()
      let resumed = ContinuousClock.now
      var back: Duration?
      while back == nil, ContinuousClock.now - resumed < .seconds(30) {
        if try await service.get("/readyz").status == 200 { back = .now - resumed }
      }

      for probe in probes {
        #expect(probe.took < .seconds(3), "\(probe)")
        if probe.asked >= .seconds(5) { #expect(probe.status == 503, "\(probe)") }
      }
      #expect(probes.contains { $0.status == 503 })
      #expect(pushes.count == 2)
      for (push, status) in pushes {
        #expect(push.status == 200 && push.took < .seconds(3), "\(push)")
        #expect(status == "pending", "\(push)")
      }
      for (scrape, notReady) in scrapes {
        #expect(scrape.status == 200 && scrape.took < .seconds(3), "\(scrape)")
        if scrape.asked >= .seconds(5) { #expect(notReady, "\(scrape)") }
      }
      #expect(
        back.map { $0 < .seconds(3) } == true, "ready again after \(String(describing: back))")
      await service.stop()
    }
  }
}
