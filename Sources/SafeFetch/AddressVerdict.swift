import ArtworkCore

/// What the address policy decided about one address, in words a person can act on.
public struct AddressVerdict: Sendable, Equatable, CustomStringConvertible {
  /// The address judged (as dialled: an IPv4-mapped address stays IPv6 here).
  public let address: IPAddress
  /// Whether a connection to it may be made.
  public let isAllowed: Bool
  /// The class in words, completing "<address> is ...": "a CGNAT/Tailscale address",
  /// "an IPv4-mapped address of 10.0.0.1, a private address", "a public address".
  let classification: String
  /// The special-purpose block that decided a refusal (for embedded IPv4, the IPv4 block).
  public let range: IPNetwork?
  /// Set when the address is not public but ARTWORK_PRIVATE_SOURCES lets it through:
  /// the entry that did (`10.0.0.0/8`, `media.lan`).
  let allowedBy: String?
  /// Refused whatever the configuration says (unspecified, multicast, broadcast).
  let neverAllowed: Bool
  /// Set when an ARTWORK_PRIVATE_SOURCES entry names the address but not this way of reaching
  /// it: "which ARTWORK_PRIVATE_SOURCES entry jellyfin.lan:8096 allows on port 8096 only".
  var unmetEntry: String? = nil

  /// Allowed because the address is globally routable unicast, not because of configuration.
  var isPublic: Bool { isAllowed && allowedBy == nil }

  /// "100.101.102.103 is a CGNAT/Tailscale address (100.64.0.0/10)".
  public var description: String { "\(address) is \(explanation)" }

  /// The verdict after a host name: "media.example resolves to 100.101.102.103, a
  /// CGNAT/Tailscale address (100.64.0.0/10)".
  func describing(host: String) -> String {
    "\(host) resolves to \(address), \(explanation)"
  }

  /// "a CGNAT/Tailscale address (100.64.0.0/10)", and the entry that allowed it, if one did.
  private var explanation: String {
    let block = range.map { " (\($0))" } ?? ""
    let by = allowedBy.map { ", allowed by ARTWORK_PRIVATE_SOURCES entry \($0)" } ?? ""
    let unmet = unmetEntry.map { ", which \($0)" } ?? ""
    return "\(classification)\(block)\(by)\(unmet)"
  }

  static func publicAddress(_ address: IPAddress) -> AddressVerdict {
    AddressVerdict(
      address: address, isAllowed: true, classification: "a public address", range: nil,
      allowedBy: nil, neverAllowed: false)
  }

  static func refused(
    _ address: IPAddress, _ classification: String, _ range: IPNetwork?, neverAllowed: Bool = false
  ) -> AddressVerdict {
    AddressVerdict(
      address: address, isAllowed: false, classification: classification, range: range,
      allowedBy: nil, neverAllowed: neverAllowed)
  }

  /// This refusal, saying which entry names the address and what it does not allow.
  func unmet(_ words: String) -> AddressVerdict {
    var verdict = self
    verdict.unmetEntry = words
    return verdict
  }

  func allowed(by entry: String) -> AddressVerdict {
    AddressVerdict(
      address: address, isAllowed: true, classification: classification, range: range,
      allowedBy: entry, neverAllowed: false)
  }
}
