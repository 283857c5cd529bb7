import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// The per-URL cache as clients see it: repeats answer without asking the origin, options make
/// new renders, stale results revalidate, failures are remembered, concurrent requests share one
/// fetch, and records survive a restart.
@Suite struct URLSourceCacheTests {
  /// The JSON that must be identical between a fresh answer and a cached one.
  static func answer(_ response: LoopbackHTTPResponse) -> String {
    let object = response.json
    let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return data.map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  /// The value of `artwork_cache_lookups_total{result="<result>"}` on the service's /metrics.
  static func cacheLookups(_ service: RunningArtwork, _ result: String) async throws -> Int {
    let text = try await service.get("/metrics").text
    let prefix = "artwork_cache_lookups_total{result=\"\(result)\"} "
    let line = text.split(separator: "\n").first { $0.hasPrefix(prefix) }
    return line.flatMap { Int(Double($0.dropFirst(prefix.count)) ?? -1) } ?? 0
  }

  @Test func aRepeatAsksTheOriginNothingAndAnswersTheSame() async throws {
    let service = try await URLSourceFixture.allowing.value
    let origin = try URLSourceFixture.origin.get()
    let target = "/image.png" + URLSourceFixture.unique()
    let url = try URLSourceFixture.url(target)
    let (hits, misses) = (
      try await Self.cacheLookups(service, "hit"), try await Self.cacheLookups(service, "miss")
    )
    let first = try await service.post("/v1/artwork", url: url, options: ["size": 96])
    #expect(first.status == 201, "\(first.text)")
    // The repeats are answered from memory; the same options in another order or spelling
    // are the same request.
    let again = try await service.post("/v1/artwork", url: url, options: ["size": 96])
    let spelled = try await service.post(
      "/v1/artwork", url: url, options: ["size": "96", "shape": "square", "crop": "attention"])
    #expect(again.status == 201 && spelled.status == 201)
    #expect(Self.answer(again) == Self.answer(first))
    #expect(Self.answer(spelled) == Self.answer(first))
    #expect(again.header("Location") == first.string("image_url"))
    #expect(try origin.requests(target) == 1)
    let hash = try await service.post("/v1/thumbhash", url: url)
    let hashAgain = try await service.post("/v1/thumbhash", url: url)
    #expect(hash.status == 200 && Self.answer(hashAgain) == Self.answer(hash))
    #expect(try origin.requests(target) == 2)
    #expect(try await Self.cacheLookups(service, "hit") == hits + 3)
    #expect(try await Self.cacheLookups(service, "miss") == misses + 2)
  }

  @Test func differentOptionsMakeANewRender() async throws {
    let service = try await URLSourceFixture.allowing.value
    let url = try URLSourceFixture.url("/image.jpg" + URLSourceFixture.unique())
    let square = try await service.post("/v1/artwork", url: url, options: ["size": 100])
    let poster = try await service.post(
      "/v1/artwork", url: url, options: ["size": 100, "shape": "poster"])
    let larger = try await service.post("/v1/artwork", url: url, options: ["size": 140])
    #expect([square.status, poster.status, larger.status].allSatisfy { $0 == 201 })
    #expect(poster.string("image_shape") == "poster")
    #expect(poster.json["height"] as? Int == 150)
    #expect(larger.json["width"] as? Int == 140)
    let urls = Set([square, poster, larger].compactMap { $0.string("image_url") })
    #expect(urls.count == 3)
  }

  @Test func failuresAreRememberedForTheFailureTTL() async throws {
    let service = try await URLSourceFixture.allowing.value
    let origin = try URLSourceFixture.origin.get()
    let target = "/status/500" + URLSourceFixture.unique()
    let url = try URLSourceFixture.url(target)
    for _ in 0..<3 {
      let refused = try await service.post("/v1/artwork", url: url)
      #expect(refused.isProblem(502), "\(refused.text)")
    }
    #expect(try origin.requests(target) == 1)
  }

  @Test func concurrentIdenticalRequestsMakeOneOriginRequest() async throws {
    let service = try await URLSourceFixture.allowing.value
    let origin = try URLSourceFixture.origin.get()
    let target = "/image.jpg" + URLSourceFixture.unique()
    let url = try URLSourceFixture.url(target)
    let answers = try await withThrowingTaskGroup(of: LoopbackHTTPResponse.self) { group in
      for _ in 0..<50 {
        group.addTask { try await service.post("/v1/artwork", url: url, options: ["size": 80]) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(answers.allSatisfy { $0.status == 201 }, "\(answers.map(\.status))")
    #expect(Set(answers.map(Self.answer)).count == 1)
    #expect(try origin.requests(target) == 1)
  }

  @Test func theCacheSurvivesARestart() async throws {
    let origin = try URLSourceFixture.origin.get()
    let first = try await RunningArtwork(["ARTWORK_PRIVATE_SOURCES": "127.0.0.1"])
    let target = "/image.png" + URLSourceFixture.unique()
    let url = try URLSourceFixture.url(target)
    let created = try await first.post("/v1/artwork", url: url)
    #expect(created.status == 201, "\(created.text)")
    await first.stop(keepingStorage: true)
    let second = try await RunningArtwork(first.environment)
    let again = try await second.post("/v1/artwork", url: url)
    #expect(again.status == 201)
    #expect(Self.answer(again) == Self.answer(created))
    #expect(try origin.requests(target) == 1)
    let image = try await second.get(try #require(again.imagePath))
    #expect(image.status == 200)
    await second.stop()
    if let directory = first.directory { try? FileManager.default.removeItem(at: directory) }
  }

  /// With a 1 s TTL: an unchanged origin is asked with `If-None-Match` and answers 304 (result
  /// unchanged); a changed one (new bytes, new ETag) is picked up.
  @Test func staleResultsRevalidateWithTheOrigin() async throws {
    let origin = try await OriginServer.start()
    let service = try await RunningArtwork([
      "ARTWORK_PRIVATE_SOURCES": "127.0.0.1", "ARTWORK_SOURCE_TTL": "1s",
    ])
    let url = "http://127.0.0.1:\(origin.http)/mutable.png"
    let first = try await service.post("/v1/artwork", url: url, options: ["size": 64])
    #expect(first.status == 201, "\(first.text)")
    #expect((first.json["source"] as? [String: Any])?["width"] as? Int == 5)
    try await Task.sleep(for: .milliseconds(1_300))
    let revalidated = try await service.post("/v1/artwork", url: url, options: ["size": 64])
    #expect(Self.answer(revalidated) == Self.answer(first))
    var counts = try origin.targets()
    #expect(counts.requests["/mutable.png"] == 2)
    #expect(counts.conditionals["/mutable.png"] == 1)
    try origin.setMutable(version: 2)
    try await Task.sleep(for: .milliseconds(1_300))
    let changed = try await service.post("/v1/artwork", url: url, options: ["size": 64])
    #expect(changed.status == 201)
    #expect((changed.json["source"] as? [String: Any])?["width"] as? Int == 6)
    #expect(changed.string("image_url") != first.string("image_url"))
    counts = try origin.targets()
    #expect(counts.requests["/mutable.png"] == 3)
    #expect(counts.conditionals["/mutable.png"] == 2)
    await service.stop()
  }

  /// With a 1 s failure TTL, a failure is answered from memory within it and asked again after.
  @Test func failuresAreForgottenAfterTheFailureTTL() async throws {
    let origin = try URLSourceFixture.origin.get()
    let service = try await RunningArtwork([
      "ARTWORK_PRIVATE_SOURCES": "127.0.0.1", "ARTWORK_FAILURE_TTL": "1s",
    ])
    let target = "/status/404" + URLSourceFixture.unique()
    let url = try URLSourceFixture.url(target)
    #expect(try await service.post("/v1/thumbhash", url: url).isProblem(422))
    try await Task.sleep(for: .milliseconds(1_300))
    #expect(try await service.post("/v1/thumbhash", url: url).isProblem(422))
    #expect(try origin.requests(target) == 2)
    await service.stop()
  }
}
