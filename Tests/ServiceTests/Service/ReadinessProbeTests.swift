import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// `/readyz` and `/metrics` share one storage probe at a time, at most one per interval: as it
/// was tried, 50 addresses drove 3,000 probes a second, each a file written and fsynced (or an
/// S3 LIST, PUT and DELETE). And `ARTWORK_METRICS_TOKEN` keeps `/metrics` private.
@Suite struct ReadinessProbeTests {
  @Test func manyProbesFromManyAddressesMakeOneStorageProbeAnInterval() async throws {
    let trips = Locked<StorageTrips?>(nil)
    let service = try await RunningArtwork(["ARTWORK_READINESS_INTERVAL": "30s"]) { inner in
      let layer = StorageTrips(inner, latency: .milliseconds(100))
      trips.withLock { $0 = layer }
      return layer
    }
    let storage = try #require(trips.withLock { $0 })
    #expect(try await service.get("/readyz").status == 200)
    let before = storage.probes.load(ordering: .relaxed)
    // 240 probes and scrapes from 24 loopback addresses at once.
    let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
      for client in 0..<24 {
        group.addTask {
          var statuses: [Int] = []
          for round in 0..<10 {
            let path = round % 3 == 0 ? "/metrics" : "/readyz"
            let connection = try await LoopbackHTTPClient(
              port: service.port, source: "127.0.9.\(client + 1)")
            defer { connection.close() }
            statuses.append(try await connection.send(LoopbackHTTPRequest("GET", path)).status)
          }
          return statuses
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    #expect(statuses.count == 240 && statuses.allSatisfy { $0 == 200 }, "\(statuses)")
    #expect(storage.probes.load(ordering: .relaxed) == before, "one verdict holds 30 s")
    await service.stop()
  }

  @Test func theMetricsTokenKeepsMetricsPrivate() async throws {
    let token = "metrics-token-0123456789abcdef"
    let service = try await RunningArtwork(["ARTWORK_METRICS_TOKEN": token])
    let refused = try await service.get("/metrics")
    #expect(refused.isProblem(401), "\(refused.text)")
    #expect(refused.string("detail")?.contains("ARTWORK_METRICS_TOKEN") == true)
    #expect(!refused.text.contains("artwork_"))
    let wrong = try await service.get("/metrics", headers: [("Authorization", "Bearer nope")])
    #expect(wrong.isProblem(401))
    let scraped = try await service.get(
      "/metrics", headers: [("Authorization", "Bearer \(token)")])
    #expect(scraped.status == 200 && scraped.text.contains("artwork_ready 1"), "\(scraped.text)")
    // Without the setting, /metrics stays public.
    let open = try await RunningArtwork([:])
    #expect(try await open.get("/metrics").status == 200)
    await open.stop()
    await service.stop()
    #expect((try? ServiceConfig(environment: ["ARTWORK_METRICS_TOKEN": "short"])) == nil)
  }
}
