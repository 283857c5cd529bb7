import ArtworkCore

/// Decides whether the service may connect to an address: an allow-list in which only globally
/// routable unicast addresses pass, plus what `ARTWORK_PRIVATE_SOURCES` lets in.
///
/// The fetcher applies it at connect time to the bytes curl is about to dial (the open-socket
/// callback), on every redirect hop, so DNS rebinding and odd URL spellings (`0x7f.1`,
/// `2130706433`) meet the same judgement as a plain `127.0.0.1`. Pure: no I/O.
public struct AddressPolicy: Sendable {
  /// Private hosts and blocks the operator lets the service fetch from.
  public var privateSources: PrivateSourceAllowList

  /// What a phone accepts: public addresses only.
  public static let publicOnly = AddressPolicy(privateSources: PrivateSourceAllowList())

  /// The public-only policy, opened for the hosts and networks `privateSources` lists.
  public init(privateSources: PrivateSourceAllowList) {
    self.privateSources = privateSources
  }

  /// Judges `address`, dialled on `port` (nil: not known yet, so only an entry without a port
  /// allows it) for a URL whose host is `host` (lower case, no brackets; nil when unknown).
  /// A host named in the allow-list lets through whatever it resolves to, for that connection
  /// only; addresses that are never unicast stay refused. `privateAllowed` false (a redirect
  /// from a public address, or from an allowed private host to another host) refuses every
  /// private address, listed or not: a private host is reached only where a caller named it.
  public func judge(
    _ address: IPAddress, host: String? = nil, port: Int? = nil, privateAllowed: Bool = true
  ) -> AddressVerdict {
    let verdict = Self.classify(address)
    if verdict.isAllowed || verdict.neverAllowed { return verdict }
    let named = privateSources.entries(naming: address, host: host)
    guard let first = named.first else { return verdict }
    guard privateAllowed else {
      return verdict.unmet(
        "ARTWORK_PRIVATE_SOURCES entry \(first) allows only as the URL a caller sent, or a "
          + "redirect from that host to itself, never after a redirect from elsewhere")
    }
    guard let entry = named.first(where: { $0.port == nil || $0.port == port }) else {
      let ports = named.compactMap(\.port).map(String.init).joined(separator: ", ")
      let dialled = port.map { " (not \($0))" } ?? ""
      return verdict.unmet(
        "ARTWORK_PRIVATE_SOURCES entry \(first) allows on port \(ports) only\(dialled)")
    }
    return verdict.allowed(by: entry.description)
  }

  /// Whether `address` is globally routable unicast, and if not, which class it is in.
  public static func classify(_ address: IPAddress) -> AddressVerdict {
    switch address {
    case .v4: return classifyV4(address)
    case .v6(let bits): return classifyV6(address, bits)
    }
  }

  private static func classifyV4(_ address: IPAddress) -> AddressVerdict {
    guard let range = SpecialPurposeRange.v4.first(where: { $0.network.contains(address) }) else {
      return .publicAddress(address)
    }
    return .refused(address, range.name, range.network, neverAllowed: range.neverAllowed)
  }

  private static func classifyV6(_ address: IPAddress, _ bits: UInt128) -> AddressVerdict {
    // IPv4 carried inside IPv6 reaches that IPv4 host: judge every embedding first, so that
    // ::ffff:10.0.0.1 is refused as the private address it is, whatever its IPv6 block says.
    for (form, inner) in embeddedIPv4(bits) {
      let innerVerdict = classifyV4(inner)
      guard !innerVerdict.isAllowed else { continue }
      return .refused(
        address, "\(form) of \(inner), \(innerVerdict.classification)", innerVerdict.range,
        neverAllowed: innerVerdict.neverAllowed)
    }
    // Mapped and well-known-prefix NAT64 addresses are the public IPv4 host they embed.
    if Self.mapped.contains(address) || Self.nat64.contains(address) {
      return .publicAddress(address)
    }
    if let range = SpecialPurposeRange.v6.first(where: { $0.network.contains(address) }) {
      return .refused(address, range.name, range.network, neverAllowed: range.neverAllowed)
    }
    guard SpecialPurposeRange.globalUnicast.contains(address) else {
      return .refused(
        address, "not a global unicast address (outside 2000::/3)", nil)
    }
    return .publicAddress(address)
  }

  /// Every IPv4 address `bits` carries, with the name of the form that carries it.
  static func embeddedIPv4(_ bits: UInt128) -> [(form: String, address: IPAddress)] {
    let address = IPAddress.v6(bits)
    let low32 = UInt32(truncatingIfNeeded: bits)
    var found: [(String, IPAddress)] = []
    if mapped.contains(address) {
      found.append(("an IPv4-mapped address", .v4(low32)))
    } else if compatible.contains(address) && bits > 1 {
      found.append(("an IPv4-compatible address", .v4(low32)))
    }
    if nat64.contains(address) || localNAT64.contains(address) {
      found.append(("a NAT64 address", .v4(low32)))
    }
    if sixToFour.contains(address) {
      found.append(("a 6to4 address", .v4(UInt32(truncatingIfNeeded: bits >> 80))))
    }
    if teredo.contains(address) {
      // RFC 4380: the server's IPv4 follows the prefix; the client's is the last 32 bits inverted.
      found.append(("a Teredo address", .v4(UInt32(truncatingIfNeeded: bits >> 64))))
      found.append(("a Teredo address", .v4(~low32)))
    }
    // ISATAP (RFC 5214): interface identifier 0000:5efe:a.b.c.d or 0200:5efe:a.b.c.d under any
    // prefix; the u/g bits (0x03 of the first byte) vary, so they are masked.
    if UInt32(truncatingIfNeeded: bits >> 32) & 0xFCFF_FFFF == 0x0000_5EFE {
      found.append(("an ISATAP address", .v4(low32)))
    }
    return found
  }

  private static let mapped = IPNetwork(parsing: "::ffff:0:0/96")!
  private static let compatible = IPNetwork(parsing: "::/96")!
  private static let nat64 = IPNetwork(parsing: "64:ff9b::/96")!
  private static let localNAT64 = IPNetwork(parsing: "64:ff9b:1::/48")!
  private static let sixToFour = IPNetwork(parsing: "2002::/16")!
  private static let teredo = IPNetwork(parsing: "2001::/32")!
}
