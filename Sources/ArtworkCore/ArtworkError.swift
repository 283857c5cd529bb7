/// The one error type of the service. Every failure a request can meet is an `ArtworkError`;
/// `ArtworkError+Problem.swift` turns it into an HTTP response, and nowhere else maps errors to HTTP.
///
/// `detail` is public: it reaches the client and says what to do. `internalDetail` is for the log
/// only (library messages, paths, addresses of our own infrastructure).
public struct ArtworkError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, as a class of failure; each kind has one HTTP status.
  public enum Kind: String, Sendable, Equatable, CaseIterable {
    case badRequest = "bad-request"
    case unauthorized
    /// A caller's token is over its `ARTWORK_API_RATE` (429 with `Retry-After`).
    case rateLimited = "rate-limited"
    case forbiddenAddress = "forbidden-address"
    case notOwner = "not-owner"
    case originNotAllowed = "origin-not-allowed"
    case notFound = "not-found"
    case methodNotAllowed = "method-not-allowed"
    case payloadTooLarge = "payload-too-large"
    case headersTooLarge = "headers-too-large"
    case targetTooLong = "uri-too-long"
    case requestTimeout = "request-timeout"
    case expectationFailed = "expectation-failed"
    case tooManyConnections = "too-many-connections"
    case notImplemented = "not-implemented"
    case versionNotSupported = "http-version-not-supported"
    case unsupportedMediaType = "unsupported-media-type"
    case unprocessableImage = "unprocessable-image"
    /// The image made its decoder fail: it crashed its worker process, ran out of time or out
    /// of memory (`reason`: `crash`, `timeout`, `memory`).
    case decoderFailure = "decoder-failure"
    case sourceNotAvailable = "source-not-available"
    case unprocessableContent = "unprocessable-content"
    case badGateway = "bad-gateway"
    case gatewayTimeout = "gateway-timeout"
    case busy
    case storageUnavailable = "storage-unavailable"
    case insufficientStorage = "insufficient-storage"
    case `internal`
  }

  /// What went wrong, as a class of failure (one HTTP status each).
  public var kind: Kind
  /// A specific sentence a user can act on. Never contains internals.
  public var detail: String
  /// Library messages and other internals: logged, never sent.
  public var internalDetail: String?
  /// Seconds a client should wait before retrying (503 and 429 answers).
  public var retryAfter: Int?
  /// Machine-readable specifics, sent as extension members of the problem document (RFC 9457
  /// section 3.2): `reason` of a failed fetch, `origin_status` of an origin's refusal.
  public var members: [ProblemMember] = []
  /// Seconds since the origin last answered, when this failure is a remembered one (the `Age`
  /// header: the answer came from memory, not from asking now).
  public var age: Int?

  /// An error of `kind` with a public `detail`, internals for the log, and a retry hint.
  public init(
    _ kind: Kind, _ detail: String, internalDetail: String? = nil, retryAfter: Int? = nil,
    members: [ProblemMember] = []
  ) {
    self.kind = kind
    self.detail = detail
    self.internalDetail = internalDetail
    self.retryAfter = retryAfter
    self.members = members
  }

  public var description: String {
    if let internalDetail { return "\(kind.rawValue): \(detail) [\(internalDetail)]" }
    return "\(kind.rawValue): \(detail)"
  }
}
