import Dispatch
import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService
@testable import WorkerHost

/// Overload is decided from the head: when the image queue is full an upload is answered 503
/// with Retry-After before its body is read into memory or any decoding starts, and the answer
/// reaches the client.
@Suite struct ServiceAdmissionTests {
  @Test func anUploadFindingTheQueueFullIs503FromItsHead() async throws {
    let environment = ["ARTWORK_WORKERS": "1", "ARTWORK_QUEUE": "0"]
    let lines = Locked<[String]>([])
    let sink: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
    try await ServiceHarness.run(environment, logSink: sink) { service in
      let pool = service.server.app.processor.workers
      // Hold the only worker (one worker, no queue), as an image in progress would.
      let gate = DispatchSemaphore(value: 0)
      let holding = Task { try await pool.occupy { gate.wait() } }
      while pool.stats.busy < 1 { try await Task.sleep(for: .milliseconds(5)) }
      #expect(!pool.wouldAccept(share: "network 127.0.0.0/24"))

      let image = Fixtures.bytes("coffee.jpg")
      // Three at once: each is held for its Retry-After, then answered.
      let refusals = try await withThrowingTaskGroup(of: LoopbackHTTPResponse.self) { group in
        for _ in 0..<3 { group.addTask { try await service.upload(image) } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      for refused in refusals {
        expectProblem(refused, 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.header("Connection")?.lowercased() == "close")
      }
      // Nothing was decoded or stored, and the refusals were counted.
      #expect(pool.stats.busy == 1 && pool.stats.queued == 0)
      let objects = service.storage.appendingPathComponent("objects")
      #expect(
        ((try? FileManager.default.subpathsOfDirectory(atPath: objects.path)) ?? []).filter {
          $0.hasSuffix(".jpg")
        }.isEmpty)
      let metrics = try await service.send(.init("GET", "/metrics")).text
      #expect(metrics.contains("artwork_queue_rejections_total 3"), "\(metrics)")
      // One warn line for the burst, with its count, not one error line per refusal.
      let logged = lines.withLock { $0 }.filter { $0.contains("a queue is full") }
      #expect(logged.count == 1)
      #expect(!lines.withLock { $0 }.contains { $0.contains(#""level":"error""#) })

      gate.signal()
      try await holding.value
      #expect(pool.wouldAccept(share: "network 127.0.0.0/24"))
      let accepted = try await service.upload(image)
      #expect(accepted.status == 201, "\(accepted.text)")
      #expect(pool.stats.busy == 0 && pool.stats.queued == 0)
    }
  }
}
