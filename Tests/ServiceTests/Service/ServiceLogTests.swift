import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// Access logs are JSON lines with the request's facts; internal failures stay in the log.
@Suite struct ServiceLogTests {
  /// The JSON objects among `lines`.
  static func objects(_ lines: [String]) -> [[String: Any]] {
    lines.compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
  }

  @Test func requestsAreLoggedAsJSONLines() async throws {
    let lines = Locked<[String]>([])
    let sink: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
    try await ServiceHarness.run(logSink: sink) { service in
      let created = try await service.upload(Fixtures.bytes("coffee.jpg"), fields: [("size", "64")])
      #expect(created.status == 201)
      let missing = try await service.get("/v1/images/nothing.jpg")
      #expect(missing.status == 404)
      let requestID = try #require(missing.object["request_id"] as? String)

      // The access line is written when the connection finishes the request, which can be a
      // moment after the client has read the answer: wait (bounded) for both lines.
      var logged: [String] = []
      for _ in 0..<500 {
        logged = lines.withLock { $0 }
        let requests = Self.objects(logged).filter { $0["msg"] as? String == "request" }
        if requests.contains(where: { $0["status"] as? Int == 404 })
          && requests.contains(where: { $0["status"] as? Int == 201 })
        {
          break
        }
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(logged.allSatisfy { $0.hasSuffix("\n") && $0.filter { $0 == "\n" }.count == 1 })
      let requests = Self.objects(logged).filter { $0["msg"] as? String == "request" }
      let post = try #require(requests.first { $0["path"] as? String == "/v1/artwork" })
      #expect(post["method"] as? String == "POST")
      #expect(post["status"] as? Int == 201)
      #expect((post["request_id"] as? String)?.isEmpty == false)
      #expect(post["duration_ms"] is Double || post["duration_ms"] is Int)
      #expect((post["bytes"] as? Int ?? 0) > 0)
      #expect(post["level"] as? String == "info")
      #expect(post["ts"] is String)
      let get = try #require(requests.first { $0["status"] as? Int == 404 })
      #expect(get["method"] as? String == "GET")
      #expect(get["request_id"] as? String == requestID)
    }
  }

  /// A storage failure is logged with its internal detail; the client gets a generic problem.
  @Test func internalDetailNeverReachesTheClient() async throws {
    let lines = Locked<[String]>([])
    let sink: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
    try await ServiceHarness.run(logSink: sink) { service in
      try FileManager.default.removeItem(at: service.storage)
      #expect(FileManager.default.createFile(atPath: service.storage.path, contents: Data()))
      let failed = try await service.upload(Fixtures.bytes("coffee.jpg"), fields: [("size", "64")])
      #expect(failed.status >= 500, "\(failed.text)")
      expectProblem(failed, failed.status)
      #expect(!failed.text.contains(service.storage.path), "\(failed.text)")
      #expect(!failed.text.contains("errno") && !failed.text.contains("internal\""))
      let errors = Self.objects(lines.withLock { $0 }).filter { $0["level"] as? String == "error" }
      #expect(
        errors.contains { ($0["internal"] as? String)?.isEmpty == false },
        "\(lines.withLock { $0 })")
    }
  }
}
