import ArtworkCore

/// The operator's way in for private sources: `ARTWORK_PRIVATE_SOURCES`, a comma-separated list
/// of host names and CIDR blocks (IPv4 or IPv6; a bare address is a /32 or /128), each host
/// name or address with an optional port (`jellyfin.lan:8096`, `192.168.1.10:32400`,
/// `[fd00::5]:8096`).
///
/// - An address inside a listed block may be dialled; a listed host name lets through the
///   addresses it resolves to, for the connection to that name only.
/// - An entry with a port allows that port only; one without allows every port.
/// - Either way, only where a caller named it: a redirect from a public address, or from an
///   allowed host to another host, never reaches a listed address (`AddressPolicy.judge`).
/// - The address dialled is still judged at connect time (never-unicast addresses stay
///   refused).
public struct PrivateSourceAllowList: Sendable, Equatable {
  /// One entry: what it names, and on which port.
  public struct Entry: Sendable, Equatable, CustomStringConvertible {
    public enum Target: Sendable, Equatable {
      case network(IPNetwork)
      /// Lower case, without a trailing dot.
      case hostName(String)
    }
    public let target: Target
    /// The one port it allows; nil: every port.
    public let port: Int?

    /// As an operator writes it: `10.0.0.0/8`, `media.lan:8096`, `[fd00::5]:8096`.
    public var description: String {
      switch target {
      case .hostName(let name): return name + (port.map { ":\($0)" } ?? "")
      case .network(let network):
        guard let port else { return network.description }
        let address = network.description.prefix { $0 != "/" }
        return (address.contains(":") ? "[\(address)]" : String(address)) + ":\(port)"
      }
    }
  }

  /// The entries, in the order listed.
  public private(set) var entries: [Entry] = []

  /// Listed blocks, whatever their port.
  public var networks: [IPNetwork] {
    entries.compactMap { if case .network(let network) = $0.target { network } else { nil } }
  }
  /// Listed host names, whatever their port.
  public var hostNames: Set<String> {
    Set(entries.compactMap { if case .hostName(let name) = $0.target { name } else { nil } })
  }

  /// Nothing allowed: the public-only policy.
  public init() {}

  /// Parses the variable's value. Every invalid entry is appended to `problems` (one sentence
  /// each, naming the variable) so that a configuration loader reports them all at once; valid
  /// entries are kept.
  public init(parsing value: String, problems: inout [String]) {
    for rawEntry in value.split(separator: ",") {
      let entry = HeaderSyntax.trimmed(String(rawEntry)).lowercased()
      if entry.isEmpty { continue }
      switch Self.parse(entry) {
      case .success(let parsed): entries.append(parsed)
      case .failure(let problem): problems.append("ARTWORK_PRIVATE_SOURCES: \(problem)")
      }
    }
  }

  /// Every entry naming `address` (inside its block; an IPv4-mapped address is also looked up
  /// as IPv4), or `host` (compared lower case, trailing dot ignored), whatever its port.
  public func entries(naming address: IPAddress, host: String?) -> [Entry] {
    let inner = address.unmappedV4
    var name = host?.lowercased()
    if name?.hasSuffix(".") == true { name?.removeLast() }
    return entries.filter { entry in
      switch entry.target {
      case .network(let network): network.contains(address) || network.contains(inner)
      case .hostName(let listed): listed == name
      }
    }
  }

  /// One entry: `[v6]:port`, `v4:port`, `name:port`, or a block, address or name alone.
  private static func parse(_ entry: String) -> Result<Entry, EntryProblem> {
    var text = Substring(entry)
    var port: Int?
    if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
      let after = text[text.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":"), let parsed = Self.port(after.dropFirst()) else {
          return .failure(EntryProblem("\"\(entry)\" has a bad port (1 to 65535)"))
        }
        port = parsed
      }
      text = text[text.index(after: text.startIndex)..<close]
    } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
      guard let parsed = Self.port(text[text.index(after: colon)...]) else {
        return .failure(EntryProblem("\"\(entry)\" has a bad port (1 to 65535)"))
      }
      port = parsed
      text = text[..<colon]
    }
    if text.contains(":") || text.contains("/") || text.allSatisfy({ "0123456789.".contains($0) }) {
      if port != nil, text.contains("/") {
        return .failure(EntryProblem("\"\(entry)\": a block takes no port; list an address"))
      }
      switch IPNetwork.parse(String(text)) {
      case .success(let network): return .success(Entry(target: .network(network), port: port))
      case .failure(let error): return .failure(EntryProblem("\(error)"))
      }
    }
    let name = text.hasSuffix(".") ? String(text.dropLast()) : String(text)
    guard Self.isHostName(name) else {
      return .failure(EntryProblem("\"\(entry)\" is not a host name or CIDR block"))
    }
    return .success(Entry(target: .hostName(name), port: port))
  }

  private struct EntryProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  /// Decimal digits naming a port, 1...65535.
  private static func port(_ text: Substring) -> Int? {
    guard (1...5).contains(text.count), text.allSatisfy({ ("0"..."9").contains($0) }),
      let value = Int(text), (1...65535).contains(value)
    else { return nil }
    return value
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
