import ArtworkCore

/// The operator's way in for private sources: `ARTWORK_PRIVATE_SOURCES`, a comma-separated list
/// of host names and CIDR blocks (IPv4 or IPv6; a bare address is a /32 or /128).
///
/// - An address inside a listed block may be dialled.
/// - A listed host name lets through the addresses it resolves to, for the connection to that
///   name only: a redirect from it to another private host is still refused, and the address
///   dialled is still judged at connect time (never-unicast addresses stay refused).
public struct PrivateSourceAllowList: Sendable, Equatable {
  /// Listed blocks, as parsed.
  public private(set) var networks: [IPNetwork] = []
  /// Listed host names, lower case, without a trailing dot.
  public private(set) var hostNames: Set<String> = []

  /// Nothing allowed: the public-only policy.
  public init() {}

  /// Parses the variable's value. Every invalid entry is appended to `problems` (one sentence
  /// each, naming the variable) so that a configuration loader reports them all at once; valid
  /// entries are kept.
  public init(parsing value: String, problems: inout [String]) {
    for rawEntry in value.split(separator: ",") {
      let entry = HeaderSyntax.trimmed(String(rawEntry)).lowercased()
      if entry.isEmpty { continue }
      if entry.contains(":") || entry.contains("/")
        || entry.allSatisfy({ "0123456789.".contains($0) })
      {
        switch IPNetwork.parse(entry) {
        case .success(let network): networks.append(network)
        case .failure(let error): problems.append("ARTWORK_PRIVATE_SOURCES: \(error)")
        }
        continue
      }
      let name = entry.hasSuffix(".") ? String(entry.dropLast()) : entry
      guard Self.isHostName(name) else {
        problems.append("ARTWORK_PRIVATE_SOURCES: \"\(entry)\" is not a host name or CIDR block")
        continue
      }
      hostNames.insert(name)
    }
  }

  /// The listed block containing `address` (an IPv4-mapped address is also looked up as IPv4).
  public func network(containing address: IPAddress) -> IPNetwork? {
    if let network = networks.first(where: { $0.contains(address) }) { return network }
    let inner = address.unmappedV4
    guard inner != address else { return nil }
    return networks.first(where: { $0.contains(inner) })
  }

  /// The listed name equal to `host` (compared lower case, trailing dot ignored).
  public func hostName(matching host: String) -> String? {
    var name = host.lowercased()
    if name.hasSuffix(".") { name.removeLast() }
    return hostNames.contains(name) ? name : nil
  }

  /// LDH labels of 1...63 characters, 253 at most in all (RFC 1123), at least one letter so that
  /// a mistyped address is not taken for a name.
  static func isHostName(_ name: String) -> Bool {
    guard !name.isEmpty, name.utf8.count <= 253 else { return false }
    for label in name.split(separator: ".", omittingEmptySubsequences: false) {
      guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-",
        label.utf8.allSatisfy({ isLDH($0) })
      else { return false }
    }
    return name.utf8.contains { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
  }

  private static func isLDH(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
  }
}
