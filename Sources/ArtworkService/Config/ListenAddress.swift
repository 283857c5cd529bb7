#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The address the HTTP server binds, from `ARTWORK_LISTEN`: `host:port` or `[v6]:port`.
///
/// `host` is always an IP literal (`localhost` becomes `127.0.0.1`), so the server binds exactly
/// what was validated without a name lookup. Port 0 asks the system for an ephemeral port.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
  /// An IPv4 or IPv6 literal, without brackets.
  public var host: String
  /// The TCP port (0 picks a free one).
  public var port: Int

  /// An address on `host` (an IP literal or `localhost`) and `port`; nil when either is invalid.
  init?(host: String, port: Int) {
    guard (0...65535).contains(port), Self.isIPv4(host) || Self.isIPv6(host) else { return nil }
    self.host = host
    self.port = port
  }

  /// Parses `host:port`, `[v6]:port` or `localhost:port`; nil for anything else.
  public init?(parsing text: String) {
    let host: Substring
    let portText: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      host = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      guard rest.hasPrefix(":"), Self.isIPv6(String(host)) else { return nil }
      portText = rest.dropFirst()
    } else {
      guard let colon = text.lastIndex(of: ":") else { return nil }
      host = text[..<colon]
      portText = text[text.index(after: colon)...]
      // An unbracketed IPv6 literal is ambiguous ("::1:80"): refused.
      guard !host.contains(":") else { return nil }
    }
    guard !portText.isEmpty, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
      let port = Int(portText)
    else { return nil }
    let literal = host.lowercased() == "localhost" ? "127.0.0.1" : String(host)
    self.init(host: literal, port: port)
  }

  var isIPv6: Bool { host.contains(":") }

  /// True for 127.0.0.0/8 and ::1: only processes on this machine can connect.
  var isLoopback: Bool {
    if isIPv6 {
      var address = in6_addr()
      guard inet_pton(AF_INET6, host, &address) == 1 else { return false }
      return withUnsafeBytes(of: &address) { bytes in
        bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
      }
    }
    return host.split(separator: ".").first == "127"
  }

  /// `host:port`, with brackets around an IPv6 host.
  public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

  static func isIPv4(_ text: String) -> Bool {
    var address = in_addr()
    return inet_pton(AF_INET, text, &address) == 1
  }

  static func isIPv6(_ text: String) -> Bool {
    var address = in6_addr()
    return inet_pton(AF_INET6, text, &address) == 1
  }
}
