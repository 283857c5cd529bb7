import Foundation
import TestSupport
import Testing
import ThumbHashCodec

@testable import ArtworkCore
@testable import ArtworkService
@testable import Imaging

/// `POST /v1/thumbhash` and `GET /v1/thumbhash/{hash}.png`.
@Suite struct ServiceThumbHashTests {
  @Test func hashesAnUploadAndStoresNothing() async throws {
    try await ServiceHarness.run { service in
      let source = Fixtures.bytes("chelsea.png")
      let multipart = try await service.upload(source, type: "image/png", path: "/v1/thumbhash")
      #expect(multipart.status == 200, "\(multipart.text)")
      let answer = multipart.object
      let hash = try #require(answer["thumbhash"] as? String)
      #expect(answer["width"] as? Int == 451)
      #expect(answer["height"] as? Int == 300)
      #expect((answer["average_color"] as? String)?.hasPrefix("#") == true)
      let ratio = try #require(answer["aspect_ratio"] as? Double)
      // The image's own ratio, not the hash's approximation of it.
      #expect(ratio == 1.5033)
      let positions = multipart.positions(of: [
        "thumbhash", "width", "height", "average_color", "aspect_ratio",
      ])
      #expect(!positions.contains(-1) && positions == positions.sorted())

      // The same hash the pipeline computes from the source, whichever way it is sent.
      let pixels = try ImagePipeline.thumbnailPixels(source).pixels
      let expected = try ThumbHash.encode(
        width: pixels.width, height: pixels.height, rgba: pixels.rgba)
      #expect(hash == ThumbHashBase64.encode(expected))
      let raw = try await service.uploadRaw(source, type: "image/png", path: "/v1/thumbhash")
      #expect(raw.status == 200 && raw.object["thumbhash"] as? String == hash)

      #expect(service.objectFiles().isEmpty)
      let options = try await service.upload(
        source, type: "image/png", fields: [("size", "64")], path: "/v1/thumbhash")
      expectProblem(options, 400)
    }
  }

  /// A hash from the encoder decodes to a PNG of the size it encodes, in each spelling.
  @Test func decodesAHashToAPNG() async throws {
    try await ServiceHarness.run { service in
      // A hash whose base64 has both a `+` and a `/`, so every spelling is exercised.
      var found: (bytes: [UInt8], text: String)?
      for seed in 0..<200 where found == nil {
        var rgba: [UInt8] = []
        for index in 0..<(16 * 12) {
          let value = (index * 37 + seed * 101) % 256
          rgba += [UInt8(value), UInt8((value * 3) % 256), UInt8(255 - value), 255]
        }
        let hash = try ThumbHash.encode(width: 16, height: 12, rgba: rgba)
        let text = ThumbHashBase64.encode(hash)
        if text.contains("+"), text.contains("/") { found = (hash, text) }
      }
      let (hash, text) = try #require(found)
      let image = try ThumbHash.decode(hash)
      let spellings = [
        text.replacingOccurrences(of: "/", with: "%2F").replacingOccurrences(of: "+", with: "%2B"),
        text.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "+", with: "-"),
        text.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "+", with: "-")
          .replacingOccurrences(of: "=", with: ""),
      ]
      for spelling in spellings {
        let response = try await service.get("/v1/thumbhash/\(spelling).png")
        #expect(response.status == 200, "\(spelling): \(response.text)")
        #expect(response.header("Content-Type") == "image/png")
        let info = try ImagePipeline.inspect(response.body)
        #expect(info.format == .png, "\(spelling)")
        #expect(info.width == image.width && info.height == image.height, "\(spelling)")
      }
      for bad in ["AAAA", "!!!!", "x", String(repeating: "A", count: 400)] {
        expectProblem(try await service.get("/v1/thumbhash/\(bad).png"), 400)
      }
    }
  }

  /// What a scrape says after one upload and two GETs of its image: each stage timed once, the
  /// scrape itself in flight, the hot-image cache's hit, build and process facts.
  static func expectRuntimeMetrics(_ service: ServiceHarness) async throws {
    let created = try await service.upload(Fixtures.bytes("coffee.jpg"), fields: [("size", "72")])
    let path = try #require(created.path(ofURLIn: "image_url"))
    #expect(try await service.get(path).status == 200)
    #expect(try await service.get(path).status == 200)
    let text = try await service.get("/metrics").text
    var values: [String: Double] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let parts = line.split(separator: " ")
      if parts.count == 2 { values[String(parts[0])] = Double(parts[1]) }
    }
    for stage in ["decode_frame", "encode", "thumbhash", "store"] {
      // Two uploads so far in this test: each timed its stages once.
      #expect(values[#"artwork_stage_duration_seconds_count{stage="\#(stage)"}"#] == 2, "\(stage)")
      #expect((values[#"artwork_stage_duration_seconds_sum{stage="\#(stage)"}"#] ?? 0) > 0)
    }
    #expect(values[#"artwork_stage_duration_seconds_count{stage="fetch"}"#] == 0)
    #expect(values["artwork_http_requests_in_flight"] == 1)  // this scrape
    #expect(values["artwork_http_illegal_transitions_total"] == 0)
    #expect((values["artwork_image_cache_hits_total"] ?? 0) >= 1)
    // Filesystem storage: the hosted image is its stored file, kept open, not bytes in memory.
    #expect(values["artwork_image_cache_files"] == 1)
    #expect(values["artwork_image_cache_entries"] == 1)
    #expect(values["artwork_image_cache_bytes"] == 0)
    #expect(values["artwork_queue_capacity"] == 16)  // ARTWORK_QUEUE's default
    #expect((values["process_resident_memory_bytes"] ?? 0) > 1_048_576)
    #expect((values["process_open_fds"] ?? 0) > 2)
    let build = values.keys.first { $0.hasPrefix("artwork_build_info{") } ?? ""
    #expect(build.contains(#"version="\#(BuildInfo.version)""#))
    #expect(build.contains(#"libvips="\#(Vips.version)""#), "\(build)")
  }

  /// `/healthz` names the libvips the workers decode with, as they said when they started: the
  /// service's process never loads libvips to ask.
  @Test func healthNamesTheWorkersLibvips() async throws {
    try await ServiceHarness.run { service in
      let health = try await service.get("/healthz")
      #expect(health.status == 200)
      #expect(health.text == #"{"status":"ok","libvips":"\#(Vips.version)"}"#, "\(health.text)")
    }
  }

  /// Health, readiness (including storage that broke after start) and metrics.
  @Test func healthReadinessAndMetrics() async throws {
    try await ServiceHarness.run { service in
      let health = try await service.get("/healthz")
      #expect(health.status == 200)
      #expect(try await service.get("/readyz").status == 200)
      _ = try await service.upload(Fixtures.bytes("coffee.jpg"), fields: [("size", "64")])

      // A request is counted when its connection finishes it, which can be a moment after the
      // client has read the answer: read the metrics again (bounded) until the upload shows.
      var metrics = try await service.get("/metrics")
      var counters: [Substring] = []
      for _ in 0..<200 {
        metrics = try await service.get("/metrics")
        counters = metrics.text.split(separator: "\n").filter {
          $0.hasPrefix("artwork_http_requests_total{") && $0.contains("status=\"201\"")
        }
        if !counters.isEmpty { break }
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(metrics.status == 200)
      #expect(metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
      #expect(!counters.isEmpty, "\(metrics.text)")
      try await Self.expectRuntimeMetrics(service)

      // Storage replaced by a plain file: not ready, but still alive.
      try FileManager.default.removeItem(at: service.storage)
      #expect(
        FileManager.default.createFile(atPath: service.storage.path, contents: Data("x".utf8)))
      let broken = try await service.get("/readyz")
      expectProblem(broken, 503)
      #expect(broken.header("Retry-After") != nil)
      #expect(try await service.get("/healthz").status == 200)
    }
  }
}
