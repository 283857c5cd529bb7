import ArtworkCore

/// The base URL phones use to fetch stored artwork, from `ARTWORK_PUBLIC_URL`.
struct PublicURL: Hashable {
  /// `scheme://host[:port][/path]`, scheme and host lowercased, without a trailing slash.
  var text: String
  var isHTTPS: Bool
  /// Without brackets for IPv6.
  var host: String

  /// Parses an absolute http(s) URL without user info, query or fragment; nil otherwise.
  init?(parsing raw: String) {
    guard let (scheme, rest) = splitHTTPScheme(raw) else { return nil }
    guard !rest.contains("?"), !rest.contains("#"),
      rest.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "\\" })
    else { return nil }
    let authority = rest.prefix { $0 != "/" }
    var path = String(rest.dropFirst(authority.count))
    while path.hasSuffix("/") { path.removeLast() }
    guard !authority.contains("@"), let (host, port) = Self.split(authority: authority) else {
      return nil
    }
    self.host = host
    self.isHTTPS = scheme == "https"
    let shownHost = host.contains(":") ? "[\(host)]" : host
    self.text = "\(scheme)://\(shownHost)\(port.map { ":\($0)" } ?? "")\(path)"
  }

  /// Splits `host[:port]` or `[v6][:port]` into a lowercased host and an optional port.
  private static func split(authority: Substring) -> (String, Int?)? {
    var hostPart = authority
    var portPart: Substring?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return nil }
      hostPart = authority[authority.index(after: authority.startIndex)..<close]
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { return nil }
        portPart = after.dropFirst()
      }
      guard ListenAddress.isIPv6(String(hostPart)) else { return nil }
    } else if let colon = authority.firstIndex(of: ":") {
      hostPart = authority[..<colon]
      portPart = authority[authority.index(after: colon)...]
    }
    let host = hostPart.lowercased()
    guard !host.isEmpty,
      host.contains(":")
        || host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." })
    else { return nil }
    guard let portPart else { return (host, nil) }
    guard !portPart.isEmpty, portPart.allSatisfy(\.isNumber), let port = Int(portPart),
      (1...65535).contains(port)
    else { return nil }
    return (host, port)
  }
}
