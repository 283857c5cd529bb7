/// An error the server answers by itself (no route, a malformed request, a body over its limit,
/// a timeout, overload...), handed to `HTTPServerConfiguration.problemResponder` for rendering.
public struct HTTPProblem: Sendable, Equatable {
  /// What the server refused, for an application that names its problems in its own terms.
  public enum Reason: String, Sendable, Equatable, CaseIterable {
    /// The bytes are not a well-framed HTTP/1.1 request (400).
    case malformed
    /// A CORS preflight from an origin the policy does not let in (403).
    case originNotAllowed
    /// No route has this path (404).
    case notFound
    /// Routes have this path, for other methods (405, with `Allow`).
    case methodNotAllowed
    /// The head or the body arrived too slowly (408).
    case timeout
    /// The body is over the route's limit (413).
    case bodyTooLarge
    /// The request-target is over its limit (414).
    case targetTooLong
    /// An `Expect` other than `100-continue` (417).
    case expectationFailed
    /// One client address holds too many connections (429).
    case tooManyConnections
    /// The request line and header fields are over their limit (431).
    case headTooLarge
    /// A handler produced a status that is not a final answer (500).
    case invalidAnswer
    /// A transfer coding or method the server does not implement (501).
    case notImplemented
    /// The server is at a limit (connections, body memory) or shutting down (503).
    case unavailable
    /// An HTTP version other than 1.0 and 1.1 (505).
    case versionNotSupported

    /// The reason behind a status the server answers by itself.
    init(status: Int) {
      switch status {
      case 403: self = .originNotAllowed
      case 404: self = .notFound
      case 405: self = .methodNotAllowed
      case 408: self = .timeout
      case 413: self = .bodyTooLarge
      case 414: self = .targetTooLong
      case 417: self = .expectationFailed
      case 429: self = .tooManyConnections
      case 431: self = .headTooLarge
      case 500: self = .invalidAnswer
      case 501: self = .notImplemented
      case 503: self = .unavailable
      case 505: self = .versionNotSupported
      default: self = .malformed
      }
    }
  }

  /// What was refused.
  public var reason: Reason
  /// The status to answer (400 or more).
  public var status: Int
  /// A sentence saying what is wrong and what to do; client values in it are cut short.
  public var detail: String
  /// The request id the answer and the access log carry.
  public var requestID: String

  /// A problem value; `reason` defaults to the one the status stands for.
  public init(status: Int, detail: String, requestID: String, reason: Reason? = nil) {
    self.reason = reason ?? Reason(status: status)
    self.status = status
    self.detail = detail
    self.requestID = requestID
  }
}
