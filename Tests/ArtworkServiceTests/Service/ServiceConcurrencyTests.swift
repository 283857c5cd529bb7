import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService
@testable import Imaging

/// Many uploads at once, and what a full queue answers.
@Suite struct ServiceConcurrencyTests {
  @Test func thirtyTwoConcurrentUploadsAllSucceed() async throws {
    try await ServiceHarness.run { service in
      let source = Fixtures.bytes("coffee.jpg")
      let results = try await withThrowingTaskGroup(of: (Int, LoopbackHTTPResponse).self) { group in
        for index in 0..<32 {
          group.addTask {
            let size = 64 + index * 8
            return (size, try await service.upload(source, fields: [("size", "\(size)")]))
          }
        }
        var results: [(Int, LoopbackHTTPResponse)] = []
        for try await result in group { results.append(result) }
        return results
      }
      #expect(results.count == 32)
      for (size, created) in results {
        #expect(created.status == 201, "\(size): \(created.text)")
        let path = try #require(created.path(ofURLIn: "image_url"))
        let served = try await service.get(path)
        let info = try ImagePipeline.inspect(served.body)
        #expect(info.width == size && info.height == size)
        let hex = path.split(separator: "/").last!.split(separator: ".")[0]
        #expect(SHA256.hex(served.body) == String(hex))
      }
      #expect(service.objectFiles().count == 32)
    }
  }

  /// One worker and no queue: while it renders, further uploads get 503 with Retry-After, and
  /// health checks still answer. Asserted as an order of events: the health answer arrives
  /// while an accepted upload is still in flight.
  @Test func fullQueueAnswers503WhileHealthAnswers() async throws {
    let environment = ["ARTWORK_WORKERS": "1", "ARTWORK_QUEUE": "0"]
    try await ServiceHarness.run(environment) { service in
      let photo = Fixtures.bytes("photo-large.jpg")
      let fields = [("shape", "poster"), ("size", "1200")]
      // A render on a fast machine could end before the health check; then try again.
      var observed = false
      var refusedInAll = 0
      for _ in 0..<4 where !observed {
        let events = Locked<[String]>([])
        let busy = Gate()
        let gotBusy = Locked(false)
        let uploads = Task {
          try await withThrowingTaskGroup(of: LoopbackHTTPResponse.self) { group in
            for _ in 0..<6 {
              group.addTask {
                let response = try await service.upload(photo, fields: fields)
                events.withLock { $0.append("upload \(response.status)") }
                if response.status == 503 {
                  let first = gotBusy.withLock { seen in
                    defer { seen = true }
                    return !seen
                  }
                  if first { busy.open() }
                }
                return response
              }
            }
            var responses: [LoopbackHTTPResponse] = []
            for try await response in group { responses.append(response) }
            if !gotBusy.withLock({ $0 }) { busy.open() }
            return responses
          }
        }
        await busy.wait()
        let health = try await service.get("/healthz")
        events.withLock { $0.append("healthz \(health.status)") }
        let load = try await service.get("/metrics").text
        events.withLock { $0.append("metrics") }
        let responses = try await uploads.value

        #expect(health.status == 200)
        let refused = responses.filter { $0.status == 503 }
        refusedInAll += refused.count
        #expect(!refused.isEmpty)
        for response in refused {
          expectProblem(response, 503)
          #expect(response.header("Retry-After") != nil)
        }
        #expect(responses.contains { $0.status == 201 })
        #expect(responses.allSatisfy { $0.status == 201 || $0.status == 503 })
        let log = events.withLock { $0 }
        let metricsIndex = log.firstIndex(of: "metrics") ?? log.count
        observed = log[metricsIndex...].contains("upload 201")
        if observed {
          // Read while the accepted render was running: the gauge saw the busy worker.
          #expect(load.split(separator: "\n").contains("artwork_workers_busy 1"), "\(load)")
        }
      }
      #expect(observed, "no upload was still in flight when /healthz and /metrics answered")

      // The refusals are counted, and the pool's gauges are exported (idle again by now).
      let metrics = try await service.get("/metrics").text
      let lines = metrics.split(separator: "\n").map(String.init)
      let rejections = lines.first { $0.hasPrefix("artwork_queue_rejections_total ") }
      let count = rejections.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
      // Each refusal counted exactly once.
      #expect(count == Double(refusedInAll), "\(metrics)")
      #expect(lines.contains("artwork_workers_busy 0"), "\(metrics)")
      #expect(lines.contains("artwork_queue_waiting 0"), "\(metrics)")
    }
  }
}
