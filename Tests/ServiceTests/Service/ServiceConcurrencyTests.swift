import Foundation
import Glibc
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService
@testable import Imaging

/// Many uploads at once, and what a full queue answers.
@Suite struct ServiceConcurrencyTests {
  /// With room for them (2 workers and a queue of 30), 32 uploads at once all succeed.
  @Test func thirtyTwoConcurrentUploadsAllSucceed() async throws {
    try await ServiceHarness.run(["ARTWORK_WORKERS": "2", "ARTWORK_QUEUE": "30"]) { service in
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

  /// One worker and no queue: while it renders, further uploads get 503 with Retry-After from
  /// their heads, and health checks still answer. The worker is held stopped (SIGSTOP) so the
  /// accepted upload is surely in flight when /healthz and /metrics answer, then let go.
  @Test func fullQueueAnswers503WhileHealthAnswers() async throws {
    let environment = [
      "ARTWORK_WORKERS": "1", "ARTWORK_QUEUE": "0", "ARTWORK_WORKER_TIMEOUT": "60s",
    ]
    try await ServiceHarness.run(environment) { service in
      let workers = service.server.app.processor.workers
      let worker = try #require(workers.idleWorkerIDs.first)
      kill(worker, SIGSTOP)
      let photo = Fixtures.bytes("coffee.jpg")
      let uploads = Task {
        try await withThrowingTaskGroup(of: LoopbackHTTPResponse.self) { group in
          for _ in 0..<6 { group.addTask { try await service.upload(photo) } }
          return try await group.reduce(into: []) { $0.append($1) }
        }
      }
      // The one admitted upload is in its worker's hands.
      for _ in 0..<2000 where workers.stats.busy == 0 {
        try await Task.sleep(for: .milliseconds(5))
      }
      #expect(workers.stats.busy == 1)
      let health = try await service.get("/healthz")
      #expect(health.status == 200)
      let load = try await service.get("/metrics").text
      #expect(load.split(separator: "\n").contains("artwork_workers_busy 1"), "\(load)")
      kill(worker, SIGCONT)
      let responses = try await uploads.value
      let refused = responses.filter { $0.status == 503 }
      #expect(refused.count == 5)
      #expect(responses.filter { $0.status == 201 }.count == 1)
      for response in refused {
        expectProblem(response, 503)
        #expect(response.header("Retry-After") != nil)
      }
      // The refusals are counted, and the pool's gauges are exported (idle again by now). A
      // head that came while the admitted body was still arriving passed the queue's check and
      // met the caller's one arriving place (workers + queue) instead.
      let metrics = try await service.get("/metrics").text
      let lines = metrics.split(separator: "\n").map(String.init)
      let queue = try #require(Self.value("artwork_queue_rejections_total", in: lines))
      let arriving = try #require(
        Self.value(
          "artwork_http_overload_refusals_total{reason=\"bodies_arriving\"}", in: lines))
      #expect(queue + arriving == 5, "\(metrics)")
      #expect(lines.contains("artwork_workers_busy 0"), "\(metrics)")
      #expect(lines.contains("artwork_queue_waiting 0"), "\(metrics)")
    }
  }

  /// The value of the series `name` (with its labels) in a scrape's `lines`.
  private static func value(_ name: String, in lines: [String]) -> Int? {
    lines.first { $0.hasPrefix(name + " ") }.flatMap { Int($0.dropFirst(name.count + 1)) }
  }
}
