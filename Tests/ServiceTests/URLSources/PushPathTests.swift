import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// The relay's push path, as a relay meets it through urllib and Node's fetch: a push never
/// waits longer than `Prefer: wait` allows, the update form applies the relay's rules, and
/// remembered results tell the truth, against loopback origins that are slow, failing and
/// recovering.
@Suite struct PushPathTests {
  static func service() async throws -> (RunningArtwork, String) {
    let service = try await URLSourceFixture.allowing.value
    return (service, "http://127.0.0.1:\(service.port)")
  }

  /// The relay's Generic example with artwork, as a push body.
  static func push(_ source: String) -> String {
    #"{"state":"ongoing","content":{"template":"generic","progress":0.35,"state":"Playing","image_url":"\#(source)","image_shape":"poster","accent_color":"indigo","end_date":1750003600}}"#
  }

  /// A slow origin does not hold the push: past the wait the document comes back without the
  /// image, `pending`; the work goes on, and the next update gets the artwork without asking
  /// the origin again.
  @Test(arguments: RelayClient.all)
  func aSlowOriginDoesNotHoldThePush(client: RelayClient) async throws {
    let (service, base) = try await Self.service()
    let origin = try URLSourceFixture.origin.get()
    let target = "/slow.jpg" + URLSourceFixture.unique() + "&delay=3"
    let sent = Self.push(try URLSourceFixture.url(target))
    let first = try await client.send(
      "POST", base + "/v1/content", headers: ["Prefer": "wait=1"], body: sent)
    #expect(first.status == 200, "\(first.body)")
    #expect(first.headers["artwork-status"] == "pending")
    #expect(first.headers["preference-applied"] == "wait=1")
    // Pushable as it is: the image left out, every other field as sent.
    #expect(
      first.body
        == #"{"state":"ongoing","content":{"template":"generic","progress":0.35,"state":"Playing","accent_color":"indigo","end_date":1750003600}}"#
    )

    let later = try await client.send(
      "POST", base + "/v1/content", headers: ["Prefer": "wait=20"], body: sent)
    #expect(later.status == 200, "\(later.body)")
    #expect(later.headers["artwork-status"] == "ready")
    let url = try #require(later.content["image_url"] as? String)
    #expect(url.hasPrefix("http://127.0.0.1:9/v1/images/"))
    #expect((later.content["image_thumbhash"] as? String)?.count ?? 0 > 20)
    #expect(try origin.requests(target) == 1)
    // Remembered now: even a wait of 0 gets it.
    let instant = try await client.send(
      "POST", base + "/v1/content", headers: ["Prefer": "wait=0"], body: sent)
    #expect(instant.headers["artwork-status"] == "ready")
    #expect(instant.content["image_url"] as? String == url)
    #expect(instant.headers["age"] != nil)
    let metrics = try await client.send("GET", base + "/metrics")
    #expect(!metrics.body.contains(#"artwork_content_artwork_total{status="pending"} 0"#))
    _ = service
  }

  /// A failing origin: a pushable document, `failed` with the reason; without a wait the
  /// failure is the answer, as before, now with `Retry-After`.
  @Test(arguments: RelayClient.all)
  func aFailingOriginStillGivesAPushableDocument(client: RelayClient) async throws {
    let (_, base) = try await Self.service()
    let source = try URLSourceFixture.url("/status/500" + URLSourceFixture.unique())
    let answer = try await client.send(
      "POST", base + "/v1/content", headers: ["Prefer": "wait=10"], body: Self.push(source))
    #expect(answer.status == 200, "\(answer.body)")
    #expect(answer.headers["artwork-status"] == #"failed; reason="bad-gateway""#)
    #expect(answer.content["image_url"] == nil && answer.content["progress"] as? Double == 0.35)

    let strict = try await client.send("POST", base + "/v1/content", body: Self.push(source))
    #expect(strict.status == 502, "\(strict.body)")
    #expect(Int(strict.headers["retry-after"] ?? "") ?? 0 > 0)
    #expect(strict.headers["age"] != nil, "a remembered failure says how old it is")
  }

  /// A media server coming back: the remembered failure holds until the relay asks with
  /// `Cache-Control: no-cache`, which asks the origin again.
  @Test(arguments: RelayClient.all)
  func noCacheAsksARecoveredOriginAgain(client: RelayClient) async throws {
    let (_, base) = try await Self.service()
    let origin = try URLSourceFixture.origin.get()
    let target = "/recovering.jpg" + URLSourceFixture.unique() + "&fail=1"
    let sent = Self.push(try URLSourceFixture.url(target))
    let down = try await client.send(
      "POST", base + "/v1/content", headers: ["Prefer": "wait=10"], body: sent)
    #expect(down.headers["artwork-status"] == #"failed; reason="bad-gateway""#)
    let remembered = try await client.send(
      "POST", base + "/v1/content", headers: ["Prefer": "wait=10"], body: sent)
    #expect(remembered.headers["artwork-status"] == #"failed; reason="bad-gateway""#)
    #expect(try origin.requests(target) == 1)

    let fresh = try await client.send(
      "POST", base + "/v1/content", headers: ["Prefer": "wait=10", "Cache-Control": "no-cache"],
      body: sent)
    #expect(fresh.headers["artwork-status"] == "ready", "\(fresh.body)")
    #expect(fresh.content["image_url"] is String)
    #expect(try origin.requests(target) == 2)
    // Now remembered: answered with its age, without the origin.
    let again = try await client.send("POST", base + "/v1/content", body: sent)
    #expect(again.headers["age"] != nil)
    #expect(again.content["image_url"] as? String == fresh.content["image_url"] as? String)
    #expect(try origin.requests(target) == 2)
  }

  /// The update form: the stored artwork carries forward, the same source again is no change
  /// (no high-priority push), a new one is, and a switch to a template without an image slot
  /// drops the inherited artwork.
  @Test(arguments: RelayClient.all)
  func theUpdateFormAppliesTheRelaysRules(client: RelayClient) async throws {
    let (service, base) = try await Self.service()
    let source = try URLSourceFixture.url("/image.jpg" + URLSourceFixture.unique())
    let created = try await service.post(
      "/v1/artwork", url: source, options: ["shape": "poster"])
    let hosted = try #require(created.string("image_url"))
    let hash = try #require(created.string("image_thumbhash"))
    let stored =
      #"{"template":"generic","state":"Playing","progress":0.35,"image_url":"\#(hosted)","image_shape":"poster","image_thumbhash":"\#(hash)"}"#
    func update(_ patch: String) async throws -> RelayClient.Answer {
      try await client.send(
        "POST", base + "/v1/content", body: #"{"stored":\#(stored),"patch":\#(patch)}"#)
    }

    // The media server sends its source URL on every update: the same artwork, no change.
    let same = try await update(#"{"image_url":"\#(source)","progress":0.5}"#)
    #expect(same.status == 200, "\(same.body)")
    #expect(same.headers["artwork-changed"] == "false")
    #expect(
      same.body
        == #"{"template":"generic","state":"Playing","progress":0.5,"image_url":"\#(hosted)","image_shape":"poster","image_thumbhash":"\#(hash)"}"#
    )

    let next = try URLSourceFixture.url("/image.png" + URLSourceFixture.unique())
    let changed = try await update(#"{"image_url":"\#(next)"}"#)
    #expect(changed.headers["artwork-changed"] == "true")
    let nextURL = try #require(changed.json["image_url"] as? String)
    #expect(nextURL != hosted && nextURL.contains("/v1/images/"))
    #expect(changed.json["image_thumbhash"] as? String != hash)

    let alert = try await update(#"{"template":"alert","state":"Done"}"#)
    #expect(alert.status == 200, "\(alert.body)")
    #expect(alert.headers["artwork-changed"] == "true")
    #expect(alert.body == #"{"template":"alert","state":"Done","progress":0.35}"#)

    let contradiction = try await update(#"{"template":"alert","image_url":"\#(next)"}"#)
    #expect(contradiction.status == 422)
    #expect(contradiction.headers["content-type"] == "application/problem+json")
    #expect((contradiction.json["detail"] as? String)?.contains("alert") == true)

    let carried = try await update(#"{"progress":1}"#)
    #expect(carried.headers["artwork-changed"] == "false")
    #expect(carried.json["image_url"] as? String == hosted)
  }

  /// An update whose new source is not ready in time keeps the stored artwork and says so.
  @Test(arguments: RelayClient.all)
  func anUpdateNotReadyInTimeKeepsTheStoredArtwork(client: RelayClient) async throws {
    let (service, base) = try await Self.service()
    let uploaded = try await service.upload(Fixtures.bytes("coffee.jpg"))
    let hosted = try #require(uploaded.string("image_url"))
    let hash = try #require(uploaded.string("image_thumbhash"))
    let stored = #"{"template":"media","image_url":"\#(hosted)","image_thumbhash":"\#(hash)"}"#
    let slow = try URLSourceFixture.url("/slow.jpg" + URLSourceFixture.unique() + "&delay=3")
    let answer = try await client.send(
      "POST", base + "/v1/content", headers: ["Prefer": "wait=1"],
      body: #"{"stored":\#(stored),"patch":{"image_url":"\#(slow)","title":"next"}}"#)
    #expect(answer.status == 200, "\(answer.body)")
    #expect(answer.headers["artwork-status"] == "pending")
    #expect(answer.headers["artwork-changed"] == "false")
    #expect(
      answer.body
        == #"{"template":"media","image_url":"\#(hosted)","image_thumbhash":"\#(hash)","title":"next"}"#
    )
  }

  /// A source hosted before whose origin has become slow: past the wait, the last artwork is
  /// answered (pending), not nothing.
  @Test(arguments: RelayClient.all)
  func theLastArtworkOfASlowSourceIsKept(client: RelayClient) async throws {
    let service = try await RunningArtwork([
      "ARTWORK_PRIVATE_SOURCES": "127.0.0.1/32", "ARTWORK_SOURCE_TTL": "1s",
    ])
    let base = "http://127.0.0.1:\(service.port)"
    let target = "/slow.jpg" + URLSourceFixture.unique() + "&fast=1&delay=3"
    let sent = Self.push(try URLSourceFixture.url(target))
    let first = try await client.send(
      "POST", base + "/v1/content", headers: ["Prefer": "wait=10"], body: sent)
    #expect(first.headers["artwork-status"] == "ready", "\(first.body)")
    let hosted = try #require(first.content["image_url"] as? String)
    try await Task.sleep(for: .milliseconds(1100))  // past ARTWORK_SOURCE_TTL
    let kept = try await client.send(
      "POST", base + "/v1/content", headers: ["Prefer": "wait=1"], body: sent)
    #expect(kept.headers["artwork-status"] == "pending", "\(kept.body)")
    #expect(kept.content["image_url"] as? String == hosted)
    #expect(
      kept.content["image_thumbhash"] as? String == first.content["image_thumbhash"] as? String)
    await service.stop()
  }

  /// A wait longer than the handler's deadline allows is granted within it: the pushable
  /// answer, not a 503.
  @Test func aWaitIsGrantedWithinTheHandlerDeadline() async throws {
    let service = try await RunningArtwork([
      "ARTWORK_PRIVATE_SOURCES": "127.0.0.1/32", "ARTWORK_HANDLER_TIMEOUT": "4s",
    ])
    let slow = try URLSourceFixture.url("/slow.jpg" + URLSourceFixture.unique() + "&delay=6")
    let answer = try await service.send(
      LoopbackHTTPRequest(
        "POST", "/v1/content",
        headers: [("Content-Type", "application/json"), ("Prefer", "wait=100")],
        body: .bytes(Array(Self.push(slow).utf8))))
    #expect(answer.status == 200, "\(answer.text)")
    #expect(answer.header("Preference-Applied") == "wait=2")
    #expect(answer.header("Artwork-Status") == "pending")
    await service.stop()
  }

  /// `POST /v1/artwork` with a wait: 202 with where to look, then the artwork there.
  @Test(arguments: RelayClient.all)
  func artworkNotReadyInTimeIsA202WithItsLocation(client: RelayClient) async throws {
    let (_, base) = try await Self.service()
    let source = try URLSourceFixture.url("/slow.jpg" + URLSourceFixture.unique() + "&delay=2")
    let accepted = try await client.send(
      "POST", base + "/v1/artwork", headers: ["Prefer": "wait=0"],
      body: #"{"url":"\#(source)","shape":"poster"}"#)
    #expect(accepted.status == 202, "\(accepted.body)")
    #expect(accepted.headers["retry-after"] == "1")
    let location = try #require(accepted.headers["location"])
    #expect(location.hasPrefix("/v1/artwork/results/") && !location.contains("slow"))
    var result = try await client.send("GET", base + location)
    for _ in 0..<40 where result.status == 202 {
      try await Task.sleep(for: .milliseconds(250))
      result = try await client.send("GET", base + location)
    }
    #expect(result.status == 200, "\(result.body)")
    #expect(result.json["image_shape"] as? String == "poster")
    #expect((result.json["image_url"] as? String)?.contains("/v1/images/") == true)

    let unknown = try await client.send(
      "GET", base + "/v1/artwork/results/" + String(repeating: "0", count: 64))
    #expect(unknown.status == 404)
  }

  /// One of our hosted URLs is never left out, however short the wait: it is what a phone
  /// loads already; only its hash may not be filled in time.
  @Test(arguments: RelayClient.all)
  func aHostedURLStaysWhateverTheWait(client: RelayClient) async throws {
    let (service, base) = try await Self.service()
    let uploaded = try await service.upload(Fixtures.bytes("coffee.jpg"))
    let hosted = try #require(uploaded.string("image_url"))
    let answer = try await client.send(
      "POST", base + "/v1/content", headers: ["Prefer": "wait=0"],
      body: #"{"template":"media","image_url":"\#(hosted)"}"#)
    #expect(answer.status == 200, "\(answer.body)")
    #expect(["ready", "pending"].contains(answer.headers["artwork-status"] ?? ""))
    #expect(answer.content["image_url"] as? String == hosted)
    if answer.headers["artwork-status"] == "ready" {
      #expect(answer.content["image_thumbhash"] as? String == uploaded.string("image_thumbhash"))
    }
  }

  /// A failure remembered in memory is the answer to a waiting /v1/artwork at once, even with
  /// a wait of 0 (not a 202 for something already known to fail).
  @Test func aRememberedFailureIsAnsweredNotPending() async throws {
    let (service, _) = try await Self.service()
    let source = try URLSourceFixture.url("/status/500" + URLSourceFixture.unique())
    let first = try await service.post("/v1/artwork", url: source)
    #expect(first.isProblem(502), "\(first.text)")
    let data = try JSONSerialization.data(withJSONObject: ["url": source])
    let waited = try await service.send(
      LoopbackHTTPRequest(
        "POST", "/v1/artwork",
        headers: [("Content-Type", "application/json"), ("Prefer", "wait=0")],
        body: .bytes([UInt8](data))))
    #expect(waited.isProblem(502), "\(waited.status) \(waited.text)")
    #expect(waited.header("Age") != nil)
  }

  /// A stored shape written in another case is the same shape: no change, no high-priority
  /// push; the answer writes it as the relay does.
  @Test func aShapeInAnotherCaseIsNoChange() async throws {
    let (service, _) = try await Self.service()
    let answer = try await service.post(
      "/v1/content",
      json: #"{"stored":{"template":"generic","image_shape":"Poster"},"patch":{"progress":1}}"#)
    #expect(answer.status == 200, "\(answer.text)")
    #expect(answer.header("Artwork-Changed") == "false")
    #expect(answer.text == #"{"template":"generic","image_shape":"poster","progress":1}"#)
  }

  /// A BlurHash (what Jellyfin stores) in image_thumbhash is refused and named.
  @Test(arguments: RelayClient.all)
  func aBlurHashIsRefusedByName(client: RelayClient) async throws {
    let (_, base) = try await Self.service()
    let answer = try await client.send(
      "POST", base + "/v1/content",
      body: #"{"template":"generic","image_thumbhash":"LEHV6nWB2yk8pyo0adR*.7kCMdnj"}"#)
    #expect(answer.status == 422)
    #expect(answer.json["reason"] as? String == "blurhash")
    #expect((answer.json["detail"] as? String)?.contains("BlurHash") == true)
  }
}

/// Remembered results across restarts: a refusal by policy is decided afresh, and a record
/// made under other settings is not answered.
@Suite(.serialized) struct RememberedTruthTests {
  @Test func aPrivateOriginAllowedAfterARestartIsAskedAtOnce() async throws {
    let origin = try URLSourceFixture.origin.get()
    let target = "/image.jpg" + URLSourceFixture.unique()
    let source = try URLSourceFixture.url(target)
    let strict = try await RunningArtwork([
      "ARTWORK_CA_FILE": TestCertificates.caFile, "ARTWORK_FAILURE_TTL": "1h",
    ])
    let refused = try await strict.post("/v1/artwork", url: source)
    #expect(refused.isProblem(403), "\(refused.text)")
    await strict.stop(keepingStorage: true)
    let storage = try #require(strict.environment["ARTWORK_STORAGE"])
    defer { try? FileManager.default.removeItem(atPath: storage) }

    let allowing = try await RunningArtwork([
      "ARTWORK_STORAGE": storage, "ARTWORK_CA_FILE": TestCertificates.caFile,
      "ARTWORK_PRIVATE_SOURCES": "127.0.0.1/32", "ARTWORK_FAILURE_TTL": "1h",
    ])
    let created = try await allowing.post("/v1/artwork", url: source)
    #expect(created.status == 201, "\(created.text)")
    #expect(try origin.requests(target) == 1)
    await allowing.stop()
  }

  @Test func aFailureUnderOtherLimitsIsNotAnswered() async throws {
    let target = "/image.jpg" + URLSourceFixture.unique()
    let source = try URLSourceFixture.url(target)
    let base = [
      "ARTWORK_CA_FILE": TestCertificates.caFile, "ARTWORK_PRIVATE_SOURCES": "127.0.0.1/32",
      "ARTWORK_FAILURE_TTL": "1h",
    ]
    let small = try await RunningArtwork(base.merging(["ARTWORK_MAX_SOURCE_BYTES": "100"]) { $1 })
    let tooLarge = try await small.post("/v1/artwork", url: source)
    #expect(tooLarge.isProblem(413), "\(tooLarge.text)")
    let again = try await small.post("/v1/artwork", url: source)
    #expect(again.isProblem(413) && again.header("Age") != nil, "remembered, and says so")
    await small.stop(keepingStorage: true)
    let storage = try #require(small.environment["ARTWORK_STORAGE"])
    defer { try? FileManager.default.removeItem(atPath: storage) }

    let larger = try await RunningArtwork(base.merging(["ARTWORK_STORAGE": storage]) { $1 })
    let created = try await larger.post("/v1/artwork", url: source)
    #expect(created.status == 201, "\(created.text)")
    #expect(created.header("Age") == nil)
    await larger.stop()
  }
}
