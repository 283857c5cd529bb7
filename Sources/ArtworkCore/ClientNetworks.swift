/// How client addresses are grouped into the networks that hold a share of the service: an
/// IPv4 address by its first `v4Prefix` bits (a /24 by default), an IPv6 address by its first
/// `v6Prefix` bits (a /64: the block one host is given, and can fill with addresses at will).
///
/// One attacker with a hundred addresses of one /24 is one client, not a hundred: anonymous
/// callers' shares of the workers, fetches, waits and body memory, the connections one client
/// may hold, and the count of wrong tokens are all kept by this key
/// (`ARTWORK_CLIENT_PREFIX_V4`, `ARTWORK_CLIENT_PREFIX_V6`).
public struct ClientNetworks: Sendable, Equatable {
  /// Bits of an IPv4 address that name its network (0 to 32).
  public let v4Prefix: Int
  /// Bits of an IPv6 address that name its network (0 to 128).
  public let v6Prefix: Int

  /// A /24 and a /64.
  public static let standard = ClientNetworks(v4Prefix: 24, v6Prefix: 64)

  /// Each address its own network (/32 and /128).
  public static let addresses = ClientNetworks(v4Prefix: 32, v6Prefix: 128)

  /// Networks of the given prefix lengths, each clamped to its family's range.
  public init(v4Prefix: Int, v6Prefix: Int) {
    self.v4Prefix = min(32, max(0, v4Prefix))
    self.v6Prefix = min(128, max(0, v6Prefix))
  }

  /// The network of `address` (a peer's or a client's address as text), written as a CIDR
  /// block: `192.0.2.0/24`, `2001:db8:0:1::/64`. An IPv4-mapped IPv6 address is its IPv4
  /// address, as a dual-stack socket reports an IPv4 peer. Text that is not an address (a
  /// peer the socket could not name) is its own network, as it is.
  public func key(_ address: String) -> String {
    guard let parsed = IPAddress(parsing: address) else { return address }
    switch parsed.unmappedV4 {
    case .v4(let bits):
      let mask: UInt32 = v4Prefix == 0 ? 0 : UInt32.max << (32 - v4Prefix)
      return "\(IPAddress.v4(bits & mask))/\(v4Prefix)"
    case .v6(let bits):
      let mask: UInt128 = v6Prefix == 0 ? 0 : UInt128.max << (128 - v6Prefix)
      return "\(IPAddress.v6(bits & mask))/\(v6Prefix)"
    }
  }
}
