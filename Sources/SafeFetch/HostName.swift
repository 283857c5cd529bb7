import ArtworkCore

/// How a URL's host name is judged and looked up: as written, less the one trailing dot that
/// makes it absolute (`example.com.` is `example.com`), and with the names RFC 6761 reserves for
/// loopback or for never resolving answered without asking any resolver. Pure: no I/O.
enum HostName {
  /// `host` lower case, without one trailing dot (a name of only a dot stays as it is).
  static func lookupForm(_ host: String) -> String {
    var name = host.lowercased()
    if name.count > 1 && name.hasSuffix(".") { name.removeLast() }
    return name
  }

  /// The loopback addresses of `localhost` and `*.localhost` (RFC 6761 section 6.3: loopback by
  /// name, whatever a resolver would say); nil for any other name.
  static func reservedLoopback(_ host: String) -> [IPAddress]? {
    let name = lookupForm(host)
    guard name == "localhost" || name.hasSuffix(".localhost") else { return nil }
    return [.v4(0x7F00_0001), .v6(1)]
  }

  /// Whether `host` is `invalid` or a name under it: RFC 6761 section 6.4 says such names never
  /// resolve and that resolvers answer so at once, so no query about them leaves the machine.
  static func isReservedInvalid(_ host: String) -> Bool {
    let name = lookupForm(host)
    return name == "invalid" || name.hasSuffix(".invalid")
  }
}
