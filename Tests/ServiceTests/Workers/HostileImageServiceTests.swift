import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService
@testable import ImageWorkers

#if canImport(Glibc)
  import Glibc
#endif

/// Hostile images as the clients relays are written with send them (Python's urllib, Node's
/// fetch): each gets its own answer, nothing damaged is stored, and the service goes on serving;
/// a worker stopped in the middle of a job costs that request alone while `/healthz` answers
/// from another connection.
@Suite(.serialized) struct HostileImageServiceTests {
  static let fixtures = Repository.root.appendingPathComponent(
    "Tests/ServiceTests/Workers/Fixtures")
  static let images = Repository.root.appendingPathComponent("testimages/hostile")

  /// Each hostile file and what `POST /v1/artwork` answers it: 201, or a 422 of this type.
  static let cases: [(file: String, status: Int, type: String?)] = [
    ("components-2.jpg", 201, nil), ("components-3.jpg", 201, nil),
    ("components-4.jpg", 201, nil), ("stray-before-scan.jpg", 201, nil),
    ("ztxt-bomb.png", 201, nil), ("iccp-bomb.png", 201, nil),
    ("cut-40-with-eoi.jpg", 422, "unprocessable-image"),
    ("cut-80-with-eoi.jpg", 422, "unprocessable-image"),
    ("middle-cut.jpg", 422, "unprocessable-image"),
    ("flipped-scan.jpg", 422, "unprocessable-image"),
    ("icc-cut-with-eoi.jpg", 422, "unprocessable-image"),
    ("icc-flipped-scan.jpg", 422, "unprocessable-image"),
    ("png-cut-with-iend.png", 422, "unprocessable-image"),
    ("webp-cut.webp", 422, "unprocessable-image"),
  ]

  /// The client's results, by file: status, content type, parsed body.
  static func send(
    _ client: String, port: Int, path: String, shape: String = "poster"
  ) async throws -> [String: (status: Int, type: String, body: [String: Any])] {
    parse(try await run(client, port: port, path: path, shape: shape))
  }

  /// What the client printed for every case's file.
  static func run(_ client: String, port: Int, path: String, shape: String = "poster")
    async throws -> String
  {
    let files = cases.map { images.appendingPathComponent($0.file).path }
    let run =
      client == "node"
      ? try await ServiceProcess.runProgram(
        "node",
        [fixtures.appendingPathComponent("upload.mjs").path, String(port), path, shape] + files)
      : try await ServiceProcess.runProgram(
        "python3",
        [fixtures.appendingPathComponent("upload.py").path, String(port), path, shape] + files)
    #expect(run.status == 0, "\(run.error)")
    return run.output
  }

  static func parse(_ output: String) -> [String: (status: Int, type: String, body: [String: Any])]
  {
    let array =
      (try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]]) ?? []
    var results: [String: (Int, String, [String: Any])] = [:]
    for entry in array {
      results[entry["file"] as? String ?? ""] = (
        entry["status"] as? Int ?? 0, entry["type"] as? String ?? "",
        entry["body"] as? [String: Any] ?? [:]
      )
    }
    return results
  }

  static let clients = ["urllib"] + (ServiceProcess.which("node") != nil ? ["node"] : [])

  @Test(arguments: clients)
  func eachHostileImageGetsItsOwnAnswer(client: String) async throws {
    try await ServiceHarness.run { service in
      let artwork = try await Self.send(client, port: service.port, path: "/v1/artwork")
      let thumbhash = try await Self.send(
        client, port: service.port, path: "/v1/thumbhash", shape: "-")
      for (file, status, type) in Self.cases {
        let answer = try #require(artwork[file], "\(client): no answer for \(file)")
        #expect(answer.status == status, "\(client) \(file): \(answer.body)")
        let hashed = try #require(thumbhash[file])
        #expect(hashed.status == (status == 201 ? 200 : status), "\(file): \(hashed.body)")
        if let type {
          for problem in [answer, hashed] {
            #expect(problem.type == "application/problem+json")
            #expect(problem.body["type"] as? String == "urn:artwork:problem:\(type)", "\(file)")
            #expect((problem.body["request_id"] as? String)?.isEmpty == false)
          }
        } else {
          #expect((answer.body["image_thumbhash"] as? String)?.isEmpty == false)
          #expect(answer.body["width"] as? Int == 400 && answer.body["height"] as? Int == 600)
        }
      }
      // Nothing damaged was stored: exactly one object per image that was answered 201.
      let stored = Set(
        Self.cases.filter { $0.status == 201 }.compactMap {
          (artwork[$0.file]?.body["image_url"] as? String)?.split(separator: "/").last
        })
      let objects = try FileManager.default.subpathsOfDirectory(
        atPath: service.storage.appendingPathComponent("objects").path
      ).filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }
      #expect(Set(objects.compactMap { $0.split(separator: "/").last }) == stored)
      // The service is up, no worker failed on any of them.
      #expect(try await service.get("/healthz").status == 200)
      let metrics = try await service.get("/metrics").text
      #expect(!metrics.contains("artwork_worker_failures_total{"), "\(metrics)")
    }
  }

  /// A stopped worker holds one request until its deadline; meanwhile another connection's
  /// `/healthz` answers. That request then gets a problem of its own, the worker is replaced, the
  /// event is counted and logged once with the input's SHA-256, and the same image sent again
  /// is refused from memory without another worker's death.
  @Test(arguments: clients)
  func aStoppedWorkerCostsOneRequest(client: String) async throws {
    let lines = Locked<[String]>([])
    let environment = ["ARTWORK_WORKERS": "1", "ARTWORK_WORKER_TIMEOUT": "2s"]
    let sink: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
    try await ServiceHarness.run(environment, logSink: sink) { service in
      let workers = service.server.app.processor.workers
      let worker = try #require(workers.idleWorkerIDs.first)
      kill(worker, SIGSTOP)
      let file = Self.images.appendingPathComponent("components-2.jpg")
      let held = Task { try await Self.run(client, port: service.port, path: "/v1/artwork") }
      for _ in 0..<2000 where workers.stats.busy == 0 {
        try await Task.sleep(for: .milliseconds(5))
      }
      // The held request is in the worker's hands; another connection is answered meanwhile.
      let health = try await service.get("/healthz")
      #expect(health.status == 200)
      #expect(workers.stats.busy == 1)
      let results = Self.parse(try await held.value)
      let first = try #require(results["components-2.jpg"])
      #expect(first.status == 422)
      #expect(first.body["type"] as? String == "urn:artwork:problem:decoder-failure")
      #expect(first.body["reason"] as? String == "timeout")
      // Every other file of the batch went to the replacement and got its usual answer.
      for (name, status, _) in Self.cases where name != "components-2.jpg" {
        #expect(results[name]?.status == status, "\(name)")
      }
      #expect(!ProcFS.isRunning(worker))
      let metrics = try await service.get("/metrics").text
      #expect(metrics.contains(#"artwork_worker_failures_total{reason="timeout"} 1"#), "\(metrics)")
      #expect(metrics.contains("artwork_worker_restarts_total 1"))
      let digest = SHA256.hex(try [UInt8](Data(contentsOf: file)))
      let logged = lines.withLock { $0 }.filter { $0.contains("an image made its worker fail") }
      #expect(logged.count == 1)
      #expect(logged.first?.contains(#""input_sha256":"\#(digest)""#) == true, "\(logged)")
      // Again: refused from memory, no worker asked.
      let again = try await service.upload(
        try [UInt8](Data(contentsOf: file)), fields: [("shape", "poster")])
      expectProblem(again, 422)
      #expect(again.object["reason"] as? String == "timeout")
      let after = try await service.get("/metrics").text
      #expect(after.contains(#"artwork_worker_failures_total{reason="timeout"} 1"#))
      #expect(after.contains(#"artwork_worker_refusals_total{reason="timeout"} 1"#))
    }
  }

  /// Through a URL, as a relay sends it in `/v1/content`: the failure is remembered for the
  /// URL, so the relay's retries do not take down worker after worker.
  @Test func aURLWhoseImageFailsItsWorkerIsNotRetriedIntoAnotherOne() async throws {
    let origin = try await OriginServer.start()
    let environment = [
      "ARTWORK_WORKERS": "1", "ARTWORK_WORKER_TIMEOUT": "1s",
      "ARTWORK_PRIVATE_SOURCES": "127.0.0.1/32", "ARTWORK_FAILURE_TTL": "1h",
    ]
    try await ServiceHarness.run(environment) { service in
      let workers = service.server.app.processor.workers
      kill(try #require(workers.idleWorkerIDs.first), SIGSTOP)
      let url = "http://127.0.0.1:\(origin.http)/image.jpg?t=\(UUID().uuidString.prefix(8))"
      let document = #"{"template":"generic","image_url":"\#(url)","image_shape":"poster"}"#
      for attempt in 0..<3 {
        let answer = try await service.send(
          LoopbackHTTPRequest(
            "POST", "/v1/content", headers: [("Content-Type", "application/json")],
            body: .bytes(Array(document.utf8))))
        expectProblem(answer, 422)
        #expect(answer.object["reason"] as? String == "timeout", "attempt \(attempt)")
      }
      let metrics = try await service.get("/metrics").text
      #expect(metrics.contains(#"artwork_worker_failures_total{reason="timeout"} 1"#), "\(metrics)")
      #expect(try await service.get("/healthz").status == 200)
    }
  }
}
