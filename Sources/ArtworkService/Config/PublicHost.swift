#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A start-up sanity check of the host in `ARTWORK_PUBLIC_URL`: would a phone on the open
/// internet reach it? Only a warning source; the fetcher's address policy is the real gate for
/// sources and is stricter (it checks resolved addresses).
enum PublicHost {
  /// Nil when `host` looks publicly reachable; otherwise why a phone would not reach it.
  /// No name lookup happens here (start-up must not depend on DNS).
  static func whyNotPublic(_ host: String) -> String? {
    let name = host.lowercased()
    var v4 = in_addr()
    if inet_pton(AF_INET, name, &v4) == 1 {
      let value = UInt32(bigEndian: v4.s_addr)
      return whyNotPublic(ipv4: value).map { "\(host) is \($0)" }
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, name, &v6) == 1 {
      let bytes = withUnsafeBytes(of: &v6) { Array($0) }
      return whyNotPublic(ipv6: bytes).map { "\(host) is \($0)" }
    }
    if name == "localhost" || name.hasSuffix(".localhost") {
      return "\(host) names this machine"
    }
    for suffix in [".local", ".lan", ".home", ".internal", ".home.arpa", ".test", ".invalid"]
    where name.hasSuffix(suffix) {
      return "\(host) is a local network name (\(suffix)) that the internet cannot resolve"
    }
    if name.hasSuffix(".ts.net") {
      return "\(host) is a Tailscale name that resolves to a private 100.64.0.0/10 address"
    }
    if !name.contains(".") {
      return "\(host) is a single-label name that only a local network resolves"
    }
    return nil
  }

  /// Why an IPv4 address (host byte order) is not globally reachable, or nil.
  static func whyNotPublic(ipv4 a: UInt32) -> String? {
    func within(_ base: UInt32, _ bits: UInt32) -> Bool {
      let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
      return a & mask == base & mask
    }
    let ranges: [(UInt32, UInt32, String)] = [
      (0x0000_0000, 8, "an unspecified \"this network\" address (0.0.0.0/8)"),
      (0x0A00_0000, 8, "a private address (10.0.0.0/8)"),
      (0x6440_0000, 10, "a carrier-grade NAT or Tailscale address (100.64.0.0/10)"),
      (0x7F00_0000, 8, "a loopback address (127.0.0.0/8)"),
      (0xA9FE_0000, 16, "a link-local address (169.254.0.0/16)"),
      (0xAC10_0000, 12, "a private address (172.16.0.0/12)"),
      (0xC000_0000, 24, "an IETF protocol address (192.0.0.0/24)"),
      (0xC000_0200, 24, "a documentation address (192.0.2.0/24)"),
      (0xC0A8_0000, 16, "a private address (192.168.0.0/16)"),
      (0xC612_0000, 15, "a benchmarking address (198.18.0.0/15)"),
      (0xC633_6400, 24, "a documentation address (198.51.100.0/24)"),
      (0xCB00_7100, 24, "a documentation address (203.0.113.0/24)"),
      (0xE000_0000, 4, "a multicast address (224.0.0.0/4)"),
      (0xF000_0000, 4, "a reserved address (240.0.0.0/4)"),
    ]
    return ranges.first { within($0.0, $0.1) }?.2
  }

  /// Why an IPv6 address (16 bytes, network order) is not globally reachable, or nil.
  static func whyNotPublic(ipv6 b: [UInt8]) -> String? {
    if b.prefix(10).allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF {
      let v4 = b[12...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      return whyNotPublic(ipv4: v4).map { "an IPv4-mapped address of \($0)" }
    }
    if b.prefix(15).allSatisfy({ $0 == 0 }) {
      return b[15] == 1 ? "the IPv6 loopback address" : "the unspecified IPv6 address"
    }
    if b[0] & 0xFE == 0xFC { return "a unique local IPv6 address (fc00::/7)" }
    if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return "a link-local IPv6 address (fe80::/10)" }
    if b[0] == 0xFF { return "a multicast IPv6 address (ff00::/8)" }
    if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8 {
      return "a documentation IPv6 address (2001:db8::/32)"
    }
    // Global unicast is 2000::/3; everything else is reserved or special-purpose.
    if b[0] & 0xE0 != 0x20 { return "outside global unicast IPv6 (2000::/3)" }
    return nil
  }
}
