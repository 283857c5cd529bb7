import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService
@testable import WorkerHost

#if canImport(Glibc)
  import Glibc
#endif

/// Hostile images as the clients relays are written with send them (Python's urllib, Node's
/// fetch): each gets its own answer, nothing damaged is stored, and the service goes on serving;
/// a worker stopped in the middle of a job delays that request alone while `/healthz` answers
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
    // Strips of extreme aspect ratios: cropped in source pixels before they are scaled.
    ("strip-65535x1.gif", 201, nil), ("strip-1x65535.gif", 201, nil),
    ("strip-20000x10.png", 201, nil), ("strip-20000x10-alpha.png", 201, nil),
    ("strip-65500x1.jpg", 201, nil), ("strip-1x16383.webp", 201, nil),
    // Variants that look unusual but decode: not taken for unsupported ones.
    ("arithmetic.jpg", 201, nil), ("animated.webp", 201, nil), ("10-bit.heic", 201, nil),
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
      #expect(MetricsText(metrics).nonZero("artwork_worker_failures_total").isEmpty, "\(metrics)")
    }
  }

  /// A stopped worker holds one request until its deadline; meanwhile another connection's
  /// `/healthz` answers. The worker is then killed having used next to no CPU time: its image is
  /// not blamed but tried again in the replacement, and answered as usual; the interruption is
  /// counted and logged once, with the input's SHA-256; nothing is remembered.
  @Test(arguments: clients)
  func aStoppedWorkersRequestIsTriedAgainInAnother(client: String) async throws {
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
      // Every file of the batch got its usual answer, the held one included.
      for (name, status, _) in Self.cases {
        #expect(results[name]?.status == status, "\(name): \(results[name]?.body ?? [:])")
      }
      #expect(!ProcFS.isRunning(worker))
      let metrics = try await service.get("/metrics").text
      #expect(
        metrics.contains(#"artwork_worker_interruptions_total{cause="starved"} 1"#), "\(metrics)")
      #expect(MetricsText(metrics).nonZero("artwork_worker_failures_total").isEmpty)
      #expect(metrics.contains("artwork_worker_restarts_total 1"))
      let digest = SHA256.hex(try [UInt8](Data(contentsOf: file)))
      let logged = lines.withLock { $0 }.filter { $0.contains("ended from outside") }
      #expect(logged.count == 1)
      #expect(logged.first?.contains(#""input_sha256":"\#(digest)""#) == true, "\(logged)")
      #expect(!lines.withLock { $0 }.contains { $0.contains("an image made its worker fail") })
      // Nothing is remembered: the same image again is framed.
      let again = try await service.upload(
        try [UInt8](Data(contentsOf: file)), fields: [("shape", "poster")])
      #expect(again.status == 201)
      #expect(workers.rememberedFailures == 0)
    }
  }

  /// The report's file, 147 KB of 883 scans over a 6320x6320 picture, held a worker for the
  /// whole timeout: now each route refuses it with a 422 that names the limit, before a worker
  /// is used, and ordinary progressive JPEGs frame as before.
  @Test func aJPEGOfTooManyScansIsRefusedBeforeAWorkerIsUsed() async throws {
    try await ServiceHarness.run(["ARTWORK_WORKERS": "1"]) { service in
      let bytes = ProgressiveJPEG.grey(width: 6320, height: 6320, scans: 883)
      for path in ["/v1/artwork", "/v1/thumbhash"] {
        let answer = try await service.upload(bytes, path: path)
        expectProblem(answer, 422)
        #expect(answer.object["type"] as? String == "urn:artwork:problem:unprocessable-image")
        #expect(
          answer.object["detail"] as? String
            == "The image is a progressive JPEG of 883 scans; at most 100 are decoded.")
      }
      let within = try await service.upload(
        ProgressiveJPEG.grey(width: 1600, height: 1200, scans: 60), fields: [("shape", "poster")])
      #expect(within.status == 201, "\(within.text)")
      let real = try await service.upload(Fixtures.bytes("progressive.jpg"))
      #expect(real.status == 201, "\(real.text)")
      let metrics = try await service.get("/metrics").text
      #expect(MetricsText(metrics).nonZero("artwork_worker_failures_total").isEmpty)
      #expect(MetricsText(metrics).nonZero("artwork_worker_interruptions_total").isEmpty)
    }
  }

  /// An image that uses up its worker's time on the CPU (100 scans of a 10000x10000 progressive
  /// JPEG, which libjpeg reads in one call before the first row) is the image's timeout.
  /// Through a URL, as a relay sends it in `/v1/content`, the failure is remembered, so the
  /// relay's retries do not take down worker after worker; `Cache-Control: no-cache` tries it
  /// again.
  @Test func aURLWhoseImageUsesUpItsWorkerIsNotRetriedIntoAnotherOne() async throws {
    let origin = try await OriginServer.start()
    let directory = Fixtures.temporaryDirectory("artwork-scans")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("scans.jpg")
    try Data(ProgressiveJPEG.grey(width: 10000, height: 10000, scans: 100)).write(to: file)
    let environment = [
      "ARTWORK_WORKERS": "1", "ARTWORK_WORKER_TIMEOUT": "1s",
      "ARTWORK_PRIVATE_SOURCES": "127.0.0.1/32", "ARTWORK_FAILURE_TTL": "1h",
      "ARTWORK_MAX_PIXELS": "1000000000",
    ]
    try await ServiceHarness.run(environment) { service in
      let url = "http://127.0.0.1:\(origin.http)/file?path=\(file.path)"
      let document = #"{"template":"generic","image_url":"\#(url)","image_shape":"poster"}"#
      func send(_ headers: [(String, String)] = []) async throws -> LoopbackHTTPResponse {
        try await service.send(
          LoopbackHTTPRequest(
            "POST", "/v1/content", headers: [("Content-Type", "application/json")] + headers,
            body: .bytes(Array(document.utf8))))
      }
      for attempt in 0..<3 {
        let answer = try await send()
        expectProblem(answer, 422)
        #expect(answer.object["reason"] as? String == "timeout", "attempt \(attempt)")
      }
      let metrics = try await service.get("/metrics").text
      #expect(metrics.contains(#"artwork_worker_failures_total{reason="timeout"} 1"#), "\(metrics)")
      #expect(metrics.contains(#"artwork_worker_refusals_total{reason="timeout"} 2"#))
      #expect(try await service.get("/healthz").status == 200)
      // Asked to, the service tries it again: the same verdict, from a second worker.
      let retried = try await send([("Cache-Control", "no-cache")])
      expectProblem(retried, 422)
      #expect(retried.object["reason"] as? String == "timeout")
      let after = try await service.get("/metrics").text
      #expect(after.contains(#"artwork_worker_failures_total{reason="timeout"} 2"#), "\(after)")
      #expect(after.contains(#"artwork_worker_refusals_total{reason="timeout"} 2"#))
    }
  }
}
