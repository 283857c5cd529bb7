import ArtworkCore

/// A CIDR block: a network address and a prefix length, host bits zero.
public struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
  /// The network address (host bits are always zero).
  public let address: IPAddress
  /// 0...32 for IPv4, 0...128 for IPv6.
  public let prefixLength: Int

  /// A block from a network address and prefix; nil when the prefix is out of range or the
  /// address has host bits set (a configuration mistake worth reporting, not silently masking).
  public init?(_ address: IPAddress, prefixLength: Int) {
    switch address {
    case .v4(let bits):
      guard (0...32).contains(prefixLength), bits & ~Self.mask32(prefixLength) == 0 else {
        return nil
      }
    case .v6(let bits):
      guard (0...128).contains(prefixLength), bits & ~Self.mask128(prefixLength) == 0 else {
        return nil
      }
    }
    self.address = address
    self.prefixLength = prefixLength
  }

  /// `10.0.0.0/8`, `fd00::/8`, or a bare address (a /32 or /128). See `parse` for why not.
  public init?(parsing text: String) {
    guard case .success(let network) = Self.parse(text) else { return nil }
    self = network
  }

  /// Parses CIDR text, or explains in words why it is not one.
  public static func parse(_ text: String) -> Result<IPNetwork, CIDRError> {
    let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    guard let address = IPAddress(parsing: String(parts[0])) else {
      return .failure(CIDRError(text: text, problem: "is not an IP address or CIDR block"))
    }
    let maximum = address.isV4 ? 32 : 128
    var prefix = maximum
    if parts.count == 2 {
      guard let value = Int(parts[1]), (0...maximum).contains(value), parts[1].first != "+" else {
        return .failure(
          CIDRError(text: text, problem: "has a prefix length outside 0...\(maximum)"))
      }
      prefix = value
    }
    guard let network = IPNetwork(address, prefixLength: prefix) else {
      return .failure(CIDRError(text: text, problem: "has bits set after the /\(prefix) prefix"))
    }
    return .success(network)
  }

  /// Whether `other` lies in this block. Families never mix: an IPv4-mapped IPv6 address is not
  /// inside an IPv4 block (callers unwrap embedded IPv4 explicitly).
  public func contains(_ other: IPAddress) -> Bool {
    switch (address, other) {
    case (.v4(let network), .v4(let bits)): return bits & Self.mask32(prefixLength) == network
    case (.v6(let network), .v6(let bits)): return bits & Self.mask128(prefixLength) == network
    default: return false
    }
  }

  public var description: String { "\(address)/\(prefixLength)" }

  private static func mask32(_ prefix: Int) -> UInt32 {
    prefix == 0 ? 0 : UInt32.max << (32 - prefix)
  }

  private static func mask128(_ prefix: Int) -> UInt128 {
    prefix == 0 ? 0 : UInt128.max << (128 - prefix)
  }
}

/// Why a piece of text is not a CIDR block, in words for a configuration error.
public struct CIDRError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The entry as written.
  public let text: String
  /// Why it is not a CIDR.
  public let problem: String
  public var description: String { "\"\(text)\" \(problem)" }
}

extension IPAddress {
  /// True for IPv4.
  var isV4: Bool {
    if case .v4 = self { return true }
    return false
  }
}
