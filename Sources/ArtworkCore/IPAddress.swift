import Glibc

/// An IPv4 or IPv6 address as its bits, built from the raw bytes of a socket address (the bytes
/// curl is about to dial, or the bytes `getaddrinfo` answered), never from URL text.
///
/// The textual parser (`init?(parsing:)`) is strict `inet_pton` and is meant for configuration
/// (`ARTWORK_PRIVATE_SOURCES`) and tests, not for judging what a URL points at: curl's URL parser
/// and resolver decide that, and the policy then judges the bytes curl actually dials.
public enum IPAddress: Hashable, Sendable, CustomStringConvertible {
  case v4(UInt32)
  case v6(UInt128)

  /// 4 bytes make an IPv4 address, 16 bytes an IPv6 address (network order); anything else nil.
  public init?(bytes: some Collection<UInt8>) {
    switch bytes.count {
    case 4:
      self = .v4(bytes.reduce(0) { $0 << 8 | UInt32($1) })
    case 16:
      self = .v6(bytes.reduce(0) { $0 << 8 | UInt128($1) })
    default:
      return nil
    }
  }

  /// Strict dotted-quad IPv4 or RFC 4291 IPv6 text (`inet_pton`); no brackets, zones or the
  /// legacy IPv4 forms (`127.1`, `0x7f.1`, `2130706433`).
  public init?(parsing text: String) {
    var buffer = [UInt8](repeating: 0, count: 16)
    if text.contains(":") {
      guard inet_pton(AF_INET6, text, &buffer) == 1 else { return nil }
      self.init(bytes: buffer)
    } else {
      guard inet_pton(AF_INET, text, &buffer) == 1 else { return nil }
      self.init(bytes: buffer[0..<4])
    }
  }

  /// The address in network byte order: 4 or 16 bytes.
  public var bytes: [UInt8] {
    switch self {
    case .v4(let bits): return (0..<4).map { UInt8(truncatingIfNeeded: bits >> (24 - 8 * $0)) }
    case .v6(let bits): return (0..<16).map { UInt8(truncatingIfNeeded: bits >> (120 - 8 * $0)) }
    }
  }

  /// Dotted quad, or RFC 5952 canonical IPv6 (lower case, longest run of zero groups as `::`).
  public var description: String {
    switch self {
    case .v4(let bits):
      return (0..<4).map { String(UInt8(truncatingIfNeeded: bits >> (24 - 8 * $0))) }
        .joined(separator: ".")
    case .v6(let bits):
      let groups = (0..<8).map { UInt16(truncatingIfNeeded: bits >> (112 - 16 * $0)) }
      return Self.format(groups: groups)
    }
  }

  /// Host text for a URL: IPv6 in brackets.
  public var urlHost: String {
    switch self {
    case .v4: return description
    case .v6: return "[\(description)]"
    }
  }

  private static func format(groups: [UInt16]) -> String {
    // Find the longest run (length >= 2) of zero groups; the first one wins a tie (RFC 5952 4.2.3).
    var best = (start: -1, length: 0)
    var index = 0
    while index < groups.count {
      guard groups[index] == 0 else {
        index += 1
        continue
      }
      var end = index
      while end < groups.count && groups[end] == 0 { end += 1 }
      if end - index > best.length && end - index >= 2 { best = (index, end - index) }
      index = end
    }
    let hex = groups.map { String($0, radix: 16) }
    guard best.start >= 0 else { return hex.joined(separator: ":") }
    let head = hex[0..<best.start].joined(separator: ":")
    let tail = hex[(best.start + best.length)...].joined(separator: ":")
    return "\(head)::\(tail)"
  }

  /// An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) as its IPv4 address, as a dual-stack
  /// socket reports an IPv4 peer; any other address as it is.
  public var unmappedV4: IPAddress {
    guard case .v6(let bits) = self, bits >> 32 == 0xFFFF else { return self }
    return .v4(UInt32(truncatingIfNeeded: bits))
  }
}
