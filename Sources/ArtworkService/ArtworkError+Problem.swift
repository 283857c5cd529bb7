import ArtworkCore
import HTTP
import JSON

// The one place where errors become HTTP responses (RFC 9457 problem details).

extension ArtworkError.Kind {
  /// The HTTP status of each kind of failure.
  var status: Int {
    switch self {
    case .badRequest: 400
    case .unauthorized: 401
    case .forbiddenAddress, .originNotAllowed, .notOwner: 403
    case .notFound: 404
    case .methodNotAllowed: 405
    case .payloadTooLarge: 413
    case .headersTooLarge: 431
    case .targetTooLong: 414
    case .requestTimeout: 408
    case .expectationFailed: 417
    case .tooManyConnections, .rateLimited: 429
    case .notImplemented: 501
    case .versionNotSupported: 505
    case .unsupportedMediaType: 415
    case .unprocessableImage, .decoderFailure, .sourceNotAvailable, .unprocessableContent: 422
    case .internal: 500
    case .badGateway: 502
    case .busy, .storageUnavailable: 503
    case .gatewayTimeout: 504
    case .insufficientStorage: 507
    }
  }

  /// A short, fixed summary of the kind (the problem's `title`).
  var title: String {
    switch self {
    case .badRequest: "Bad request"
    case .unauthorized: "Unauthorized"
    case .forbiddenAddress: "Address not allowed"
    case .notOwner: "Not an owner of the image"
    case .originNotAllowed: "Origin not allowed"
    case .notFound: "Not found"
    case .methodNotAllowed: "Method not allowed"
    case .payloadTooLarge: "Payload too large"
    case .headersTooLarge: "Request headers too large"
    case .targetTooLong: "Request target too long"
    case .requestTimeout: "Request timeout"
    case .expectationFailed: "Expectation failed"
    case .tooManyConnections: "Too many connections"
    case .rateLimited: "Too many requests"
    case .notImplemented: "Not implemented"
    case .versionNotSupported: "HTTP version not supported"
    case .unsupportedMediaType: "Unsupported media type"
    case .unprocessableImage: "Unprocessable image"
    case .decoderFailure: "Image decoder failure"
    case .sourceNotAvailable: "Source not available"
    case .unprocessableContent: "Unprocessable content"
    case .internal: "Internal server error"
    case .badGateway: "Bad gateway"
    case .busy: "Service busy"
    case .storageUnavailable: "Storage unavailable"
    case .gatewayTimeout: "Gateway timeout"
    case .insufficientStorage: "Insufficient storage"
    }
  }
}

extension ArtworkError {
  /// The error behind an answer the HTTP layer gives by itself, named by what it refused.
  init(_ problem: HTTPProblem) {
    let kind: Kind =
      switch problem.reason {
      case .malformed: .badRequest
      case .notFound: .notFound
      case .originNotAllowed: .originNotAllowed
      case .methodNotAllowed: .methodNotAllowed
      case .timeout: .requestTimeout
      case .bodyTooLarge: .payloadTooLarge
      case .targetTooLong: .targetTooLong
      case .expectationFailed: .expectationFailed
      case .tooManyConnections: .tooManyConnections
      case .headTooLarge: .headersTooLarge
      case .invalidAnswer: .internal
      case .notImplemented: .notImplemented
      case .unavailable: .busy
      case .versionNotSupported: .versionNotSupported
      }
    self.init(kind, problem.detail)
  }

  /// Whether the failure is the server's (logged loudly) rather than the client's (logged quietly).
  var isServerError: Bool { kind.status >= 500 }

  /// The RFC 9457 problem object an answer carries for this error: `type`, `title`, `status`,
  /// `detail` and the extension members (the CLI writes the same object for an input that
  /// failed).
  public var problemJSON: JSONValue { .object(problemMembers) }

  private var problemMembers: [(String, JSONValue)] {
    let publicDetail =
      kind == .internal ? "The server failed to complete the request; it has been logged." : detail
    var members: [(String, JSONValue)] = [
      ("type", .string("urn:artwork:problem:\(kind.rawValue)")),
      ("title", .string(kind.title)),
      ("status", .int(kind.status)),
      ("detail", .string(publicDetail)),
    ]
    for member in self.members {
      switch member.value {
      case .string(let text): members.append((member.name, .string(text)))
      case .int(let number): members.append((member.name, .int(number)))
      }
    }
    return members
  }

  /// The problem+json response for this error. `internalDetail` never appears in it; an
  /// `.internal` error's detail is replaced by a generic sentence as well.
  func problemResponse(requestID: String? = nil) -> HTTPResponse {
    var members = problemMembers
    if let requestID { members.append(("request_id", .string(requestID))) }
    var headers = HTTPHeaders()
    headers.set("Content-Type", "application/problem+json")
    headers.set("Cache-Control", "no-store")
    if let retryAfter { headers.set("Retry-After", String(retryAfter)) }
    if let age { headers.set("Age", String(age)) }
    if kind == .unauthorized { headers.set("WWW-Authenticate", "Bearer") }
    return HTTPResponse(
      status: kind.status, headers: headers, body: .bytes(JSONValue.object(members).bytes))
  }
}
