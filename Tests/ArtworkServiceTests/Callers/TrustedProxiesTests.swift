import HTTP
import Testing

@testable import ArtworkCore
@testable import ArtworkService

@Suite struct TrustedProxiesTests {
  static func proxies(_ entries: [String]) -> TrustedProxies {
    var problems: [String] = []
    let proxies = TrustedProxies(parsing: entries, problems: &problems)
    #expect(problems.isEmpty, "\(problems)")
    return proxies
  }

  /// (trusted, peer, X-Forwarded-For lines, the client named)
  static let cases: [([String], String, [String], String)] = [
    // No proxy trusted: the field is never read.
    ([], "127.0.0.1", ["203.0.113.7"], "127.0.0.1"),
    // A peer that is not trusted forges the field: ignored.
    (["127.0.0.2"], "127.0.0.3", ["203.0.113.7"], "127.0.0.3"),
    // The trusted proxy names the client it was connected from.
    (["127.0.0.2"], "127.0.0.2", ["203.0.113.7"], "203.0.113.7"),
    // The client's own forgery lies left of what the proxy appended: never read.
    (["127.0.0.2"], "127.0.0.2", ["198.51.100.1, 203.0.113.7"], "203.0.113.7"),
    // A chain of trusted proxies: the rightmost address not trusted.
    (
      ["10.0.0.0/8", "127.0.0.2"], "127.0.0.2", ["198.51.100.1, 203.0.113.7, 10.1.2.3"],
      "203.0.113.7"
    ),
    // Several field lines are one list, in order.
    (
      ["10.0.0.0/8", "127.0.0.2"], "127.0.0.2", ["198.51.100.1", "203.0.113.7, 10.1.2.3"],
      "203.0.113.7"
    ),
    // No field from a trusted proxy: the proxy itself.
    (["127.0.0.2"], "127.0.0.2", [], "127.0.0.2"),
    // Every entry trusted: the leftmost of them.
    (["10.0.0.0/8", "127.0.0.2"], "127.0.0.2", ["10.0.0.9, 10.1.2.3"], "10.0.0.9"),
    // An entry that is no address stops the walk at the last trusted one.
    (["10.0.0.0/8", "127.0.0.2"], "127.0.0.2", ["203.0.113.7, unknown, 10.1.2.3"], "10.1.2.3"),
    (["127.0.0.2"], "127.0.0.2", [""], "127.0.0.2"),
    // Ports and brackets, as some proxies write them; IPv6 in canonical form.
    (["127.0.0.2"], "127.0.0.2", ["203.0.113.7:4711"], "203.0.113.7"),
    (["127.0.0.2"], "127.0.0.2", ["[2001:DB8::1]:4711"], "2001:db8::1"),
    (["::1"], "::1", ["2001:db8:0:0::1"], "2001:db8::1"),
    // A dual-stack socket reports an IPv4 peer as IPv4-mapped IPv6.
    (["127.0.0.0/8"], "::ffff:127.0.0.2", ["203.0.113.7"], "203.0.113.7"),
  ]

  @Test(arguments: cases)
  func theClientIsTheRightmostUntrustedAddress(
    trusted: [String], peer: String, lines: [String], client: String
  ) {
    let headers = HTTPHeaders(lines.map { ("X-Forwarded-For", $0) })
    #expect(Self.proxies(trusted).client(peer: peer, headers: headers) == client)
  }

  /// A request without the field is the peer's, named by the peer's text as it came (it is
  /// not read, which costs every hosted GET from a trusted proxy); its network is the same as
  /// if it had been read.
  @Test func withoutTheFieldThePeerIsTheClientAsItCame() {
    let proxies = Self.proxies(["127.0.0.0/8"])
    let mapped = proxies.client(peer: "::ffff:127.0.0.2", headers: HTTPHeaders())
    #expect(mapped == "::ffff:127.0.0.2")
    #expect(ClientNetworks.standard.key(mapped) == ClientNetworks.standard.key("127.0.0.2"))
  }

  @Test func badEntriesAreNamed() {
    var problems: [String] = []
    _ = TrustedProxies(parsing: ["127.0.0.1", "proxy.lan", "10.0.0.1/8"], problems: &problems)
    #expect(problems.count == 2)
    #expect(problems.allSatisfy { $0.hasPrefix("ARTWORK_TRUSTED_PROXIES: ") })
    #expect(problems.first?.contains("proxy.lan") == true)
  }

  @Test func theConfigurationReadsTheList() throws {
    let config = try ServiceConfig(environment: ["ARTWORK_TRUSTED_PROXIES": "127.0.0.2, fd00::/8"])
    #expect(config.trustedProxies.networks.map(\.description) == ["127.0.0.2/32", "fd00::/8"])
    // Unset: a proxy on the same host; `none`: nobody.
    let loopback = try ServiceConfig(environment: [:]).trustedProxies
    #expect(loopback.networks.map(\.description) == ["127.0.0.0/8", "::1/128"])
    #expect(loopback.trusts(peerText: "127.0.0.1") && loopback.trusts(peerText: "::1"))
    #expect(loopback.trusts(peerText: "::ffff:127.0.0.1"))
    #expect(!loopback.trusts(peerText: "192.0.2.1") && !loopback.trusts(peerText: "fe80::1"))
    #expect(!loopback.trusts(peerText: "unknown"))
    for none in ["none", "NONE", " none "] {
      #expect(
        try ServiceConfig(environment: ["ARTWORK_TRUSTED_PROXIES": none]).trustedProxies.isEmpty)
    }
    #expect(throws: ConfigError.self) {
      try ServiceConfig(environment: ["ARTWORK_TRUSTED_PROXIES": "everyone"])
    }
  }
}
