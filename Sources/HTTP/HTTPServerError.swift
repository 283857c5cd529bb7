/// Why an `HTTPServer` could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `host` is not an IPv4 or IPv6 literal.
  case invalidHost(String)
  /// A configuration value is out of range.
  case invalidConfiguration(String)
  /// The system refused to listen; `reason` is its own words ("Address already in use").
  case startFailed(host: String, port: Int, reason: String)

  public var description: String {
    switch self {
    case .invalidHost(let host): "not an IP address literal: \(host)"
    case .invalidConfiguration(let detail): "invalid HTTP server configuration: \(detail)"
    case .startFailed(let host, let port, let reason):
      "could not listen on \(host) port \(port): \(reason)"
    }
  }
}
