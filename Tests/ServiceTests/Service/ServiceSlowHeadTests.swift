import TestSupport
import Testing

@testable import ArtworkService

/// The connection limit under a slow-head attack, with the service's limit per client (256) and
/// `ARTWORK_MAX_CONNECTIONS` at 512 (its default under the classic 1,024 descriptors; the default
/// follows `RLIMIT_NOFILE`, so the test sets it).
@Suite struct ServiceSlowHeadTests {
  static let slowHead = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "

  /// 600 slow request heads from three networks (200 each: under the limit per client, over
  /// the limit in all), and the attack going on meanwhile: `/healthz` from a fourth network is
  /// answered 200 every time, as the slow heads give their slots away.
  @Test func slowHeadsFromThreeAddressesCannotTakeTheConnectionLimit() async throws {
    // A head deadline longer than the test: the attack lasts the whole time.
    try await ServiceHarness.run(["ARTWORK_HEAD_TIMEOUT": "120s", "ARTWORK_MAX_CONNECTIONS": "512"])
    { service in
      var attack: [SlowClients] = []
      for source in ["127.0.2.2", "127.0.3.2", "127.0.4.2"] {
        attack.append(
          try await SlowClients(
            count: 200, port: service.port, source: source, prefix: Self.slowHead))
      }
      var statuses: [Int] = []
      for round in 0..<30 {
        // The attack goes on: 20 more slow heads between probes.
        attack.append(
          try await SlowClients(
            count: 20, port: service.port, source: "127.0.\(2 + round % 3).2",
            prefix: Self.slowHead))
        let probe = try await LoopbackHTTPClient(
          port: service.port, timeout: .seconds(5), source: "127.0.5.5")
        statuses.append((try? await probe.send(LoopbackHTTPRequest("GET", "/healthz")).status) ?? 0)
        probe.close()
      }
      #expect(statuses == Array(repeating: 200, count: 30), "\(statuses)")
      // The first 600 overflowed 512 slots from addresses under their own limit: the oldest gave
      // way, and the metric counts them. (Later ones may meet the limit per client: a 429.)
      let shed = try await ServiceCallerTests.metrics(service.port)
        .first { $0.hasPrefix(#"artwork_http_connections_shed_total{state="waiting_head"} "#) }
      let count = shed.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
      #expect(count >= 600 - 512, "\(shed ?? "no artwork_http_connections_shed_total")")
      let closed = attack.reduce(0) { $0 + $1.closedByServer }
      #expect(closed >= 600 - 512)
      for clients in attack { clients.close() }
    }
  }
}
