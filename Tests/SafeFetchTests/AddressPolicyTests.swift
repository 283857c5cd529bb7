import Testing

@testable import ArtworkCore
@testable import SafeFetch

@Suite struct AddressPolicyTests {
  /// Every block of the IANA special-purpose registries (first, last and a middle address where
  /// it matters), each with the words its refusal must use.
  @Test(arguments: [
    ("0.0.0.0", "a \"this network\" address (0.0.0.0/8)"),
    ("0.255.255.255", "(0.0.0.0/8)"),
    ("10.0.0.0", "a private address (10.0.0.0/8)"),
    ("10.255.255.255", "a private address (10.0.0.0/8)"),
    ("100.64.0.0", "a CGNAT/Tailscale address (100.64.0.0/10)"),
    ("100.101.102.103", "a CGNAT/Tailscale address (100.64.0.0/10)"),
    ("100.127.255.255", "a CGNAT/Tailscale address (100.64.0.0/10)"),
    ("127.0.0.1", "a loopback address (127.0.0.0/8)"),
    ("127.255.255.254", "a loopback address (127.0.0.0/8)"),
    ("169.254.169.254", "a link-local address (169.254.0.0/16)"),
    ("172.16.0.1", "a private address (172.16.0.0/12)"),
    ("172.31.255.255", "a private address (172.16.0.0/12)"),
    ("192.0.0.9", "an IETF protocol assignment address (192.0.0.0/24)"),
    ("192.0.0.170", "(192.0.0.0/24)"),
    ("192.0.2.1", "a documentation address (TEST-NET-1) (192.0.2.0/24)"),
    ("192.88.99.1", "a 6to4 relay anycast address (192.88.99.0/24)"),
    ("192.168.0.1", "a private address (192.168.0.0/16)"),
    ("192.168.255.255", "(192.168.0.0/16)"),
    ("198.18.0.1", "a benchmarking address (198.18.0.0/15)"),
    ("198.19.255.255", "a benchmarking address (198.18.0.0/15)"),
    ("198.51.100.7", "a documentation address (TEST-NET-2) (198.51.100.0/24)"),
    ("203.0.113.9", "a documentation address (TEST-NET-3) (203.0.113.0/24)"),
    ("224.0.0.1", "a multicast address (224.0.0.0/4)"),
    ("239.255.255.250", "a multicast address (224.0.0.0/4)"),
    ("240.0.0.1", "a reserved address (240.0.0.0/4)"),
    ("255.255.255.254", "a reserved address (240.0.0.0/4)"),
    ("255.255.255.255", "the limited broadcast address (255.255.255.255/32)"),
    ("::", "the unspecified address (::/128)"),
    ("::1", "the loopback address (::1/128)"),
    ("fc00::1", "a unique local (private) address (fc00::/7)"),
    ("fd7a:115c:a1e0::1", "a unique local (private) address (fc00::/7)"),
    ("fe80::1", "a link-local address (fe80::/10)"),
    ("febf:ffff::1", "a link-local address (fe80::/10)"),
    ("fec0::1", "a site-local address (deprecated) (fec0::/10)"),
    ("ff02::1", "a multicast address (ff00::/8)"),
    ("ff0e::101", "a multicast address (ff00::/8)"),
    ("2001:db8::1", "a documentation address (2001:db8::/32)"),
    ("2001:db8:ffff::1", "(2001:db8::/32)"),
    ("100::1", "a discard-only address (100::/64)"),
    ("2001:2::1", "a benchmarking address (2001:2::/48)"),
    ("2001:1::1", "an IETF protocol assignment address (2001::/23)"),
    ("2001:3::1", "(2001::/23)"),
    ("2001:20::1", "(2001::/23)"),
    ("2001:1ff:ffff::1", "(2001::/23)"),
    ("3fff::1", "a documentation address (3fff::/20)"),
    ("3fff:fff:ffff::1", "(3fff::/20)"),
    ("5f00::1", "an SRv6 segment identifier address (5f00::/16)"),
    ("64:ff9b:1::808:808", "a local-use NAT64 address (64:ff9b:1::/48)"),
    ("::2", "(0.0.0.0/8)"),
    ("::8.8.8.8", "an IPv4-compatible address (deprecated) (::/96)"),
    ("1::1", "not a global unicast address (outside 2000::/3)"),
    ("4000::1", "not a global unicast address (outside 2000::/3)"),
    ("e000::1", "not a global unicast address (outside 2000::/3)"),
  ])
  func refusesSpecialPurposeAddresses(text: String, words: String) throws {
    let address = try #require(IPAddress(parsing: text))
    let verdict = AddressPolicy.publicOnly.judge(address)
    #expect(!verdict.isAllowed)
    #expect(verdict.description.contains(words), "\(verdict)")
    #expect(verdict.description.hasPrefix(address.description))
  }

  /// IPv4 inside IPv6 is unwrapped and judged as the IPv4 it reaches.
  @Test(arguments: [
    ("::ffff:10.0.0.1", "an IPv4-mapped address of 10.0.0.1, a private address (10.0.0.0/8)"),
    ("::ffff:127.0.0.1", "of 127.0.0.1, a loopback address"),
    ("::ffff:169.254.169.254", "of 169.254.169.254, a link-local address"),
    ("::ffff:0.0.0.0", "of 0.0.0.0"),
    ("::127.0.0.1", "an IPv4-compatible address of 127.0.0.1, a loopback address"),
    ("::10.0.0.1", "an IPv4-compatible address of 10.0.0.1"),
    ("64:ff9b::7f00:1", "a NAT64 address of 127.0.0.1, a loopback address"),
    ("64:ff9b::a00:1", "a NAT64 address of 10.0.0.1, a private address"),
    ("64:ff9b::6464:6464", "of 100.100.100.100, a CGNAT/Tailscale address"),
    ("64:ff9b:1::a00:1", "a NAT64 address of 10.0.0.1"),
    ("2002:7f00:1::", "a 6to4 address of 127.0.0.1, a loopback address"),
    ("2002:c0a8:101::1", "a 6to4 address of 192.168.1.1, a private address"),
    ("2002:a9fe:a9fe::", "of 169.254.169.254"),
    // Teredo: client 10.0.0.1 is carried inverted (f5ff:fffe); server 8.8.8.8 is public.
    ("2001:0:808:808::f5ff:fffe", "a Teredo address of 10.0.0.1, a private address"),
    ("2001:0:a00:1::f7f7:f7f7", "a Teredo address of 10.0.0.1"),
    ("2001:0:808:808::f7f7:f7f7", "a Teredo tunnel address (2001::/32)"),
    ("2001:4860:1::5efe:a00:1", "an ISATAP address of 10.0.0.1, a private address"),
    ("2606:4700::200:5efe:7f00:1", "an ISATAP address of 127.0.0.1"),
    ("2606:4700::100:5efe:c0a8:1", "an ISATAP address of 192.168.0.1"),
    ("fe80::5efe:a00:1", "an ISATAP address of 10.0.0.1"),
  ])
  func unwrapsEmbeddedIPv4(text: String, words: String) throws {
    let address = try #require(IPAddress(parsing: text))
    let verdict = AddressPolicy.publicOnly.judge(address)
    #expect(!verdict.isAllowed)
    #expect(verdict.description.contains(words), "\(verdict)")
  }

  @Test(arguments: [
    "8.8.8.8", "1.1.1.1", "9.9.9.9", "100.63.255.255", "100.128.0.0", "172.15.255.255",
    "172.32.0.0", "192.0.1.255", "192.0.3.0", "192.31.196.1", "192.52.193.1", "192.88.98.255",
    "192.169.0.0", "198.17.255.255", "198.20.0.0", "223.255.255.255", "11.0.0.1",
    "2606:4700::1111", "2001:4860:4860::8888", "2a00:1450:4001:80b::200e", "2620:fe::fe",
    "2001:200::1", "2001:db7:ffff::1", "2001:db9::1", "3ffe::1", "3fff:1000::1",
    "64:ff9b::808:808", "::ffff:8.8.8.8", "2002:808:808::1", "2606:4700::200:5efe:808:808",
  ])
  func letsPublicAddressesThrough(text: String) throws {
    let address = try #require(IPAddress(parsing: text))
    let verdict = AddressPolicy.publicOnly.judge(address)
    #expect(verdict.isAllowed, "\(verdict)")
    #expect(verdict.isPublic)
  }

  @Test func theAllowListLetsListedBlocksAndNamesThrough() throws {
    let policy = FetchTest.policy("10.0.0.0/8, fd00::/8, 192.168.1.20, media.LAN.")
    let inBlock = policy.judge(IPAddress(parsing: "10.1.2.3")!)
    #expect(inBlock.isAllowed && !inBlock.isPublic)
    #expect(inBlock.allowedBy == "10.0.0.0/8")
    #expect(policy.judge(IPAddress(parsing: "::ffff:10.1.2.3")!).isAllowed)
    #expect(policy.judge(IPAddress(parsing: "fd00::5")!).isAllowed)
    #expect(policy.judge(IPAddress(parsing: "192.168.1.20")!).isAllowed)
    #expect(!policy.judge(IPAddress(parsing: "192.168.1.21")!).isAllowed)
    #expect(!policy.judge(IPAddress(parsing: "127.0.0.1")!).isAllowed)
    // A listed name allows what it resolves to, for a connection to that name only.
    let named = policy.judge(IPAddress(parsing: "172.20.0.5")!, host: "Media.lan")
    #expect(named.isAllowed && named.allowedBy == "media.lan")
    #expect(!policy.judge(IPAddress(parsing: "172.20.0.5")!, host: "other.lan").isAllowed)
    // Never unicast: refused whatever the list says.
    let everything = FetchTest.policy("0.0.0.0/0, ::/0, anything.example")
    for text in ["0.0.0.0", "224.0.0.1", "255.255.255.255", "::", "ff02::1", "::ffff:0.0.0.0"] {
      #expect(!everything.judge(IPAddress(parsing: text)!, host: "anything.example").isAllowed)
    }
    #expect(everything.judge(IPAddress(parsing: "127.0.0.1")!).isAllowed)
  }

  /// An entry with a port allows that port only; one without, every port.
  @Test func anEntryWithAPortAllowsThatPortOnly() throws {
    var problems: [String] = []
    let list = PrivateSourceAllowList(
      parsing: "jellyfin.lan:8096, 192.168.1.10:32400, [fd00::5]:8920, 10.9.0.0/16, media.lan",
      problems: &problems)
    #expect(problems.isEmpty, "\(problems)")
    #expect(
      list.entries.map(\.description)
        == [
          "jellyfin.lan:8096", "192.168.1.10:32400", "[fd00::5]:8920", "10.9.0.0/16", "media.lan",
        ])
    let policy = AddressPolicy(privateSources: list)
    let lan = try #require(IPAddress(parsing: "192.168.1.10"))
    #expect(policy.judge(lan, port: 32400).allowedBy == "192.168.1.10:32400")
    let otherPort = policy.judge(lan, port: 80)
    #expect(!otherPort.isAllowed)
    #expect(
      otherPort.description.contains(
        "ARTWORK_PRIVATE_SOURCES entry 192.168.1.10:32400 allows on port 32400 only (not 80)"),
      "\(otherPort)")
    let jellyfin = try #require(IPAddress(parsing: "172.20.0.5"))
    #expect(policy.judge(jellyfin, host: "jellyfin.lan", port: 8096).isAllowed)
    #expect(!policy.judge(jellyfin, host: "jellyfin.lan", port: 22).isAllowed)
    #expect(policy.judge(IPAddress(parsing: "fd00::5")!, port: 8920).isAllowed)
    #expect(!policy.judge(IPAddress(parsing: "fd00::5")!, port: 8096).isAllowed)
    // Without a port: every port.
    #expect(policy.judge(IPAddress(parsing: "10.9.1.1")!, port: 65535).isAllowed)
    #expect(policy.judge(jellyfin, host: "media.lan", port: 1).isAllowed)
  }

  /// A redirect from a public address (or from an allowed host to another) reaches no private
  /// address, however the list names it.
  @Test func noPrivateAddressAfterAPublicHop() throws {
    let policy = FetchTest.policy("127.0.0.2, jellyfin.lan, 10.0.0.0/8")
    let lan = try #require(IPAddress(parsing: "127.0.0.2"))
    #expect(policy.judge(lan, port: 80).isAllowed)
    let redirected = policy.judge(lan, port: 80, privateAllowed: false)
    #expect(!redirected.isAllowed)
    #expect(
      redirected.description.contains(
        "which ARTWORK_PRIVATE_SOURCES entry 127.0.0.2/32 allows only as the URL a caller sent"),
      "\(redirected)")
    let named = policy.judge(
      IPAddress(parsing: "172.20.0.5")!, host: "jellyfin.lan", privateAllowed: false)
    #expect(!named.isAllowed)
    #expect(!policy.judge(IPAddress(parsing: "10.1.1.1")!, privateAllowed: false).isAllowed)
    // Public addresses are judged as ever.
    #expect(policy.judge(IPAddress(parsing: "8.8.8.8")!, privateAllowed: false).isAllowed)
  }

  @Test func reportsEveryInvalidAllowListEntryAtOnce() {
    var problems: [String] = []
    let list = PrivateSourceAllowList(
      parsing:
        "10.0.0.0/8, 10.0.0.1/8, 300.1.1.1, fd00::/129, -bad-.lan, ok.lan, 10.0.0, ,x_y, 1.2.3.4/,"
        + " a.lan:0, a.lan:65536, a.lan:http, 10.0.0.0/8:80, [fd00::1]80, [fd00::1]:",
      problems: &problems)
    #expect(list.networks.map(\.description) == ["10.0.0.0/8"])
    #expect(list.hostNames == ["ok.lan"])
    #expect(problems.count == 13, "\(problems)")
    #expect(problems.contains { $0.contains("\"a.lan:0\" has a bad port (1 to 65535)") })
    #expect(problems.contains { $0.contains("\"10.0.0.0/8:80\": a block takes no port") })
    #expect(problems.allSatisfy { $0.hasPrefix("ARTWORK_PRIVATE_SOURCES: ") })
    #expect(problems.contains { $0.contains("\"10.0.0.1/8\" has bits set after the /8 prefix") })
  }

  @Test(arguments: [
    ("::", "::"), ("::1", "::1"), ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
    ("2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"), ("fe80::", "fe80::"),
    ("1:0:1:0:1:0:1:0", "1:0:1:0:1:0:1:0"), ("::ffff:10.0.0.1", "::ffff:a00:1"),
    ("10.0.0.1", "10.0.0.1"),
  ])
  func formatsAddressesCanonically(text: String, canonical: String) throws {
    let address = try #require(IPAddress(parsing: text))
    #expect(address.description == canonical)
    #expect(IPAddress(bytes: address.bytes) == address)
  }

  @Test(arguments: ["127.1", "0x7f.0.0.1", "2130706433", "1.2.3.4.5", "[::1]", "::1%lo", ""])
  func theTextParserIsStrict(text: String) {
    #expect(IPAddress(parsing: text) == nil)
  }
}

/// Host names as written: one trailing dot is not part of the name, and `localhost` names are
/// loopback by definition (RFC 6761), never asked of a resolver.
@Suite struct HostNameTests {
  @Test(arguments: [
    ("example.com.", "example.com"), ("Example.COM", "example.com"), ("example.com", "example.com"),
    ("example.com..", "example.com."), (".", "."), ("localhost.", "localhost"),
  ])
  func oneTrailingDotIsDropped(written: String, looked: String) {
    #expect(HostName.lookupForm(written) == looked)
  }

  @Test(arguments: ["localhost", "LOCALHOST", "localhost.", "a.localhost", "x.y.localhost."])
  func localhostNamesAreLoopback(name: String) throws {
    let addresses = try #require(HostName.reservedLoopback(name))
    #expect(addresses.map { AddressPolicy.classify($0).isAllowed } == [false, false])
    #expect(addresses.map(\.description) == ["127.0.0.1", "::1"])
  }

  @Test(arguments: ["localhost.example.com", "notlocalhost", "mylocalhost", "localhost.com", ""])
  func otherNamesAreNotReserved(name: String) {
    #expect(HostName.reservedLoopback(name) == nil)
  }
}
