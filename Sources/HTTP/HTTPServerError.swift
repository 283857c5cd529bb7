/// Why an `HTTPServer` could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `host` is not an IPv4 or IPv6 literal.
  case invalidHost(String)
  /// A configuration value is out of range.
  case invalidConfiguration(String)
  /// libmicrohttpd could not start (typically the address is in use or not available).
  case startFailed(host: String, port: Int)

  public var description: String {
    switch self {
    case .invalidHost(let host): "not an IP address literal: \(host)"
    case .invalidConfiguration(let detail): "invalid HTTP server configuration: \(detail)"
    case .startFailed(let host, let port): "could not listen on \(host) port \(port)"
    }
  }
}
