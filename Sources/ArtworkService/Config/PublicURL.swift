import ArtworkCore

/// The base URL phones use to fetch stored artwork, from `ARTWORK_PUBLIC_URL`.
struct PublicURL: Hashable {
  /// `scheme://host[:port][/path]`, scheme and host lowercased, without a trailing slash.
  var text: String
  var isHTTPS: Bool
  /// Without brackets for IPv6.
  var host: String

  /// The default: where the service listens, over http (a wildcard address as loopback, which
  /// is where a browser on the same machine reaches it). `port` is the bound one (the listen
  /// address's may be 0, for any free port).
  static func following(_ listen: ListenAddress, port: Int? = nil) -> PublicURL {
    let host =
      switch listen.host {
      case "0.0.0.0": "127.0.0.1"
      case "::": "[::1]"
      case let v6 where v6.contains(":"): "[\(v6)]"
      case let v4: v4
      }
    let chosen = port ?? listen.port
    // Port 0 (any free port) has no URL until the socket is bound; 80 stands in until then.
    return PublicURL(parsing: "http://\(host):\(chosen == 0 ? 80 : chosen)")
      ?? PublicURL(parsing: "http://127.0.0.1:8080")!
  }

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
