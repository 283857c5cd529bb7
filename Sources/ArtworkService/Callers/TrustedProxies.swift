import ArtworkCore
import HTTP
import SafeFetch

/// The reverse proxies whose `X-Forwarded-For` is believed (`ARTWORK_TRUSTED_PROXIES`; by
/// default loopback, `127.0.0.0/8` and `::1`: a proxy on the same host, as Caddy is deployed).
///
/// Each proxy appends the address it was connected from to the field, so reading it from the
/// right, every entry up to the first address that is not a trusted proxy was written by a
/// trusted proxy, and that first one is the client; whatever lies left of it the client wrote
/// itself, and is never read. From a peer that is not trusted the field is ignored: the peer
/// is the client. The client named this way is the access log's `client` and what the counts
/// per address (wrong tokens, an anonymous caller's share) are kept by.
struct TrustedProxies: Sendable {
  /// The networks (a bare address is a /32 or /128) trusted to name the client.
  let networks: [IPNetwork]

  /// No proxy is trusted: the peer is always the client (`ARTWORK_TRUSTED_PROXIES=none`).
  static let none = TrustedProxies(networks: [])

  /// What `ARTWORK_TRUSTED_PROXIES` is when unset: a proxy on the same host. Only a process
  /// on this host can connect from loopback, and one that can could do worse than name a
  /// client; many web frameworks trust loopback proxies by default for the same reason.
  static let loopback = ["127.0.0.0/8", "::1"]

  init(networks: [IPNetwork]) {
    self.networks = networks
  }

  /// `entries` as written (addresses or CIDR blocks), each one not understood named in
  /// `problems`.
  init(parsing entries: [String], problems: inout [String]) {
    var networks: [IPNetwork] = []
    for entry in entries {
      switch IPNetwork.parse(entry) {
      case .success(let network): networks.append(network)
      case .failure(let error): problems.append("ARTWORK_TRUSTED_PROXIES: \(error)")
      }
    }
    self.networks = networks
  }

  var isEmpty: Bool { networks.isEmpty }

  /// The networks, as the configuration summary and the warning write them (`none` for none).
  var description: String {
    networks.isEmpty ? "none" : networks.map(\.description).joined(separator: ",")
  }

  /// Whether the peer written as `peerText` is a trusted proxy (false for text that is not an
  /// address).
  func trusts(peerText: String) -> Bool {
    guard let address = IPAddress(parsing: peerText) else { return false }
    return trusts(address)
  }

  /// Whether `address` is one of the trusted proxies (an IPv4-mapped IPv6 address as its IPv4
  /// address, as a dual-stack socket reports an IPv4 peer).
  func trusts(_ address: IPAddress) -> Bool {
    let plain = address.unmappedV4
    return networks.contains { $0.contains(address) || $0.contains(plain) }
  }

  /// The client of a request that came from `peer` with `headers`: the peer itself unless it
  /// is trusted; otherwise the rightmost `X-Forwarded-For` address that is not trusted (every
  /// field line read, in order, as one list). When every entry is trusted, or one cannot be
  /// read as an address, the last trusted address before it: a proxy that wrote garbage is
  /// the nearest that can be told.
  ///
  /// A request without the field is the peer's own, answered as the peer's text without a look
  /// at it: with loopback trusted by default, every hosted GET from this host asks, and reading
  /// the address cost a quarter more CPU per GET (`bench/hot/at-once.sh`). The networks made of
  /// it read an IPv4-mapped address as its IPv4 address either way (`ClientNetworks`).
  func client(peer: String, headers: HTTPHeaders) -> String {
    guard headers.contains("X-Forwarded-For") else { return peer }
    guard let peerAddress = IPAddress(parsing: peer), trusts(peerAddress) else { return peer }
    var client = peerAddress.unmappedV4
    for line in headers.values("X-Forwarded-For").reversed() {
      for entry in line.split(separator: ",").reversed() {
        guard let address = Self.address(HeaderSyntax.trimmed(String(entry))) else {
          return client.description
        }
        client = address.unmappedV4
        if !trusts(address) { return client.description }
      }
    }
    return client.description
  }

  /// An entry of `X-Forwarded-For`: an IPv4 or IPv6 address, also in brackets or with a port
  /// (`203.0.113.7:4711`, `[2001:db8::1]:4711`), as some proxies write it.
  static func address(_ entry: String) -> IPAddress? {
    if let address = IPAddress(parsing: entry) { return address }
    if entry.hasPrefix("["), let close = entry.firstIndex(of: "]") {
      let rest = entry[entry.index(after: close)...]
      guard rest.isEmpty || Self.isPort(rest.dropFirst()) && rest.first == ":" else { return nil }
      return IPAddress(parsing: String(entry[entry.index(after: entry.startIndex)..<close]))
    }
    let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, isPort(parts[1]), let address = IPAddress(parsing: String(parts[0]))
    else { return nil }
    return address
  }

  private static func isPort(_ text: Substring) -> Bool {
    !text.isEmpty && text.count <= 5 && text.allSatisfy { $0.isASCII && $0.isNumber }
  }
}
