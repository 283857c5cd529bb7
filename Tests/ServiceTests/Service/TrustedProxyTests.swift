import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// `ARTWORK_TRUSTED_PROXIES` over real sockets: 127.0.0.2 stands for the reverse proxy and
/// 127.0.0.3 for a client that reaches the service directly. The proxy's `X-Forwarded-For`
/// names the client in the access log and in the count of wrong tokens per address; the same
/// field from anyone else is ignored.
@Suite struct TrustedProxyTests {
  static let proxy = "127.0.0.2"
  static let direct = "127.0.0.3"
  /// One wrong token a minute per client address (`ARTWORK_API_RATE`): the second is a 429.
  static let environment = [
    "ARTWORK_TRUSTED_PROXIES": proxy, "ARTWORK_API_TOKENS": "relay:relay-token-0123456789",
    "ARTWORK_API_RATE": "1",
  ]

  /// A write request with a wrong token from `source`, claiming `forwardedFor`.
  static func wrongToken(_ service: ServiceHarness, from source: String, forwardedFor: String)
    async throws -> LoopbackHTTPResponse
  {
    let client = try await LoopbackHTTPClient(
      port: service.port, timeout: .seconds(30), source: source)
    defer { client.close() }
    return try await client.send(
      LoopbackHTTPRequest(
        "POST", "/v1/thumbhash",
        headers: [
          ("Authorization", "Bearer wrong-token-0123456789"), ("X-Forwarded-For", forwardedFor),
          ("Content-Type", "image/png"), ("X-Request-Id", "proxy-\(UUID().uuidString.prefix(8))"),
        ],
        body: .bytes([1, 2, 3])))
  }

  /// The access-log lines logged so far for `requestID` (bounded wait: the line is written
  /// once the connection has finished the exchange).
  static func logged(_ lines: Locked<[String]>, requestID: String) async throws -> [String: Any] {
    for _ in 0..<500 {
      let found = ServiceLogTests.objects(lines.withLock { $0 }).first {
        $0["msg"] as? String == "request" && $0["request_id"] as? String == requestID
      }
      if let found { return found }
      try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("no access line for \(requestID)")
    return [:]
  }

  @Test func theTrustedProxyNamesTheClient() async throws {
    let lines = Locked<[String]>([])
    let sink: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
    try await ServiceHarness.run(Self.environment, logSink: sink) { service in
      // The client's own claim (198.51.100.1) lies left of what the proxy appended.
      let first = try await Self.wrongToken(
        service, from: Self.proxy, forwardedFor: "198.51.100.1, 203.0.113.7")
      #expect(first.status == 401, "\(first.text)")
      let line = try await Self.logged(lines, requestID: try #require(first.header("X-Request-Id")))
      #expect(line["client"] as? String == "203.0.113.7", "\(line)")

      // The second wrong token of that client's network is over its count; a client of another
      // network behind the same proxy has a count of its own, and the relay's valid token is
      // taken from the locked-out network as from any other.
      let again = try await Self.wrongToken(service, from: Self.proxy, forwardedFor: "203.0.113.8")
      #expect(again.status == 429, "\(again.text)")
      let other = try await Self.wrongToken(service, from: Self.proxy, forwardedFor: "203.0.114.8")
      #expect(other.status == 401, "\(other.text)")
      let relay = try await LoopbackHTTPClient(port: service.port, source: Self.proxy)
      defer { relay.close() }
      // (Three bytes that are no image: a 4xx of the image's own, past the token's check.)
      let valid = try await relay.send(
        LoopbackHTTPRequest(
          "POST", "/v1/thumbhash",
          headers: [
            ("Authorization", "Bearer relay-token-0123456789"),
            ("X-Forwarded-For", "203.0.113.7"), ("Content-Type", "image/png"),
          ],
          body: .bytes([1, 2, 3])))
      #expect(
        (400..<500).contains(valid.status) && valid.status != 429 && valid.status != 401,
        "\(valid.status) \(valid.text)")
      // The trusted proxy's field is believed: nothing to warn about.
      #expect(!lines.withLock { $0 }.contains { $0.contains("not a trusted proxy") })

      // A read through the proxy is logged under its client too.
      let client = try await LoopbackHTTPClient(port: service.port, source: Self.proxy)
      defer { client.close() }
      let health = try await client.send(
        LoopbackHTTPRequest(
          "GET", "/healthz",
          headers: [("X-Forwarded-For", "2001:DB8::7"), ("X-Request-Id", "proxied-health")]))
      #expect(health.status == 200)
      let read = try await Self.logged(lines, requestID: "proxied-health")
      #expect(read["client"] as? String == "2001:db8::7", "\(read)")
    }
  }

  @Test func aForgedHeaderFromAnyoneElseIsIgnored() async throws {
    let lines = Locked<[String]>([])
    let sink: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
    try await ServiceHarness.run(Self.environment, logSink: sink) { service in
      let first = try await Self.wrongToken(service, from: Self.direct, forwardedFor: "203.0.113.9")
      #expect(first.status == 401, "\(first.text)")
      let line = try await Self.logged(lines, requestID: try #require(first.header("X-Request-Id")))
      #expect(line["client"] as? String == Self.direct, "\(line)")

      // A new claim does not buy a new count: the peer's is over.
      let forged = try await Self.wrongToken(
        service, from: Self.direct, forwardedFor: "203.0.113.10")
      #expect(forged.status == 429, "\(forged.text)")
      // The proxy's clients are counted apart from it.
      let proxied = try await Self.wrongToken(service, from: Self.proxy, forwardedFor: Self.direct)
      #expect(proxied.status == 429, "\(proxied.text)")
      let elsewhere = try await Self.wrongToken(
        service, from: Self.proxy, forwardedFor: "203.0.113.9")
      #expect(elsewhere.status == 401, "\(elsewhere.text)")
      // The field from a peer that is not trusted is warned about once, naming the peer.
      let warnings = ServiceLogTests.objects(lines.withLock { $0 }).filter {
        ($0["msg"] as? String)?.contains("not a trusted proxy") == true
      }
      #expect(warnings.count == 1, "\(warnings)")
      #expect(warnings.first?["peer"] as? String == Self.direct)
      #expect(warnings.first?["level"] as? String == "warn")
    }
  }
}
