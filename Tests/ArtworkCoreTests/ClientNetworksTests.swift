import Testing

@testable import ArtworkCore

/// Client addresses grouped into networks: the key every share and count is kept by.
@Suite struct ClientNetworksTests {
  @Test(arguments: [
    ("127.0.0.1", "127.0.0.0/24"), ("127.0.0.255", "127.0.0.0/24"), ("127.0.1.1", "127.0.1.0/24"),
    ("203.0.113.77", "203.0.113.0/24"), ("::ffff:203.0.113.77", "203.0.113.0/24"),
    ("2001:db8:0:1::1", "2001:db8:0:1::/64"),
    ("2001:db8:0:1:ffff:ffff:ffff:ffff", "2001:db8:0:1::/64"),
    ("2001:db8:0:2::1", "2001:db8:0:2::/64"), ("::1", "::/64"),
    ("fd00:a:b:c:d::9", "fd00:a:b:c::/64"),
  ])
  func theStandardNetworksAreA24AndA64(address: String, network: String) {
    #expect(ClientNetworks.standard.key(address) == network)
  }

  @Test func everyAddressOfOneNetworkHasItsKeyAndNoOther() {
    let networks = ClientNetworks.standard
    let keys = Set((0...255).map { networks.key("198.51.100.\($0)") })
    #expect(keys == ["198.51.100.0/24"])
    let v6 = Set((0..<200).map { networks.key("2001:db8:5:6:\(String($0, radix: 16))::\($0 + 1)") })
    #expect(v6 == ["2001:db8:5:6::/64"])
    #expect(networks.key("198.51.101.0") != networks.key("198.51.100.255"))
  }

  @Test(arguments: [
    (16, 48, "10.1.2.3", "10.1.0.0/16"), (16, 48, "2001:db8:1:2::3", "2001:db8:1::/48"),
    (32, 128, "10.1.2.3", "10.1.2.3/32"), (32, 128, "2001:db8::3", "2001:db8::3/128"),
    (0, 0, "10.1.2.3", "0.0.0.0/0"), (0, 0, "2001:db8::3", "::/0"),
    (25, 56, "10.1.2.200", "10.1.2.128/25"), (25, 56, "2001:db8:1:2ff::", "2001:db8:1:200::/56"),
  ])
  func theLengthsAreSettings(v4: Int, v6: Int, address: String, network: String) {
    #expect(ClientNetworks(v4Prefix: v4, v6Prefix: v6).key(address) == network)
  }

  @Test func textThatIsNotAnAddressIsItsOwnKey() {
    #expect(ClientNetworks.standard.key("unknown") == "unknown")
    #expect(ClientNetworks.standard.key("") == "")
    #expect(ClientNetworks.standard.key("127.1") == "127.1")
  }

  @Test func lengthsOutOfRangeAreClamped() {
    let networks = ClientNetworks(v4Prefix: 40, v6Prefix: -3)
    #expect(networks.v4Prefix == 32 && networks.v6Prefix == 0)
  }
}
