/// One block of the IANA IPv4 or IPv6 special-purpose address registry (or another range that
/// is not globally routable unicast), with the words a person reads in a refusal.
struct SpecialPurposeRange: Sendable {
  let network: IPNetwork
  /// "a private address": completes "10.1.2.3 is ...".
  let name: String
  /// Not unicast, or reaches the local host (0.0.0.0, multicast, broadcast): refused even when
  /// ARTWORK_PRIVATE_SOURCES lists it, because no configuration makes dialling them sensible.
  let neverAllowed: Bool

  init(_ cidr: String, _ name: String, neverAllowed: Bool = false) {
    self.network = IPNetwork(parsing: cidr)!
    self.name = name
    self.neverAllowed = neverAllowed
  }

  /// IPv4 blocks, most specific first where they nest (broadcast inside 240/4).
  /// NOTE: 192.0.0.0/24 is refused whole although 192.0.0.9 and 192.0.0.10 (PCP and TURN anycast)
  /// are marked globally reachable: they are service addresses, never image hosts. AS112
  /// (192.31.196/24, 192.175.48/24) and AMT (192.52.193/24) are globally reachable and pass.
  static let v4: [SpecialPurposeRange] = [
    .init("0.0.0.0/8", "a \"this network\" address", neverAllowed: true),
    .init("10.0.0.0/8", "a private address"),
    .init("100.64.0.0/10", "a CGNAT/Tailscale address"),
    .init("127.0.0.0/8", "a loopback address"),
    .init("169.254.0.0/16", "a link-local address"),
    .init("172.16.0.0/12", "a private address"),
    .init("192.0.0.0/24", "an IETF protocol assignment address"),
    .init("192.0.2.0/24", "a documentation address (TEST-NET-1)"),
    .init("192.88.99.0/24", "a 6to4 relay anycast address"),
    .init("192.168.0.0/16", "a private address"),
    .init("198.18.0.0/15", "a benchmarking address"),
    .init("198.51.100.0/24", "a documentation address (TEST-NET-2)"),
    .init("203.0.113.0/24", "a documentation address (TEST-NET-3)"),
    .init("224.0.0.0/4", "a multicast address", neverAllowed: true),
    .init("255.255.255.255/32", "the limited broadcast address", neverAllowed: true),
    .init("240.0.0.0/4", "a reserved address", neverAllowed: true),
  ]

  /// IPv6 blocks judged on the address itself, after any embedded IPv4 has been judged.
  /// Everything outside 2000::/3 is refused as well (see `AddressPolicy`).
  /// NOTE: 2001::/23 (IETF protocol assignments) is refused whole, including the few blocks the
  /// registry marks globally reachable (2001:1::1-3 anycast, 2001:3::/32 AMT, 2001:4:112::/48
  /// AS112, 2001:20::/28 ORCHIDv2, 2001:30::/28 drone DETs): none of them serves images, and an
  /// allow-list is safest when its exceptions are few. Teredo (2001::/32) is inside it.
  static let v6: [SpecialPurposeRange] = [
    .init("::/128", "the unspecified address", neverAllowed: true),
    .init("::1/128", "the loopback address"),
    .init("::ffff:0:0/96", "an IPv4-mapped address"),
    .init("::/96", "an IPv4-compatible address (deprecated)"),
    .init("64:ff9b:1::/48", "a local-use NAT64 address"),
    .init("100::/64", "a discard-only address"),
    .init("2001::/32", "a Teredo tunnel address"),
    .init("2001:2::/48", "a benchmarking address"),
    .init("2001:db8::/32", "a documentation address"),
    .init("2001::/23", "an IETF protocol assignment address"),
    .init("3fff::/20", "a documentation address"),
    .init("5f00::/16", "an SRv6 segment identifier address"),
    .init("fc00::/7", "a unique local (private) address"),
    .init("fe80::/10", "a link-local address"),
    .init("fec0::/10", "a site-local address (deprecated)"),
    .init("ff00::/8", "a multicast address", neverAllowed: true),
  ]

  /// The only IPv6 space with global unicast addresses.
  static let globalUnicast = IPNetwork(parsing: "2000::/3")!
}
