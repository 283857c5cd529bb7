import ArtworkCore

/// Why a fetch failed, in enough detail for `/v1/check` to name the rule broken; `error` is the
/// `ArtworkError` a route answers with.
enum FetchFailure: Sendable, Equatable {
  /// Not a URL curl parses, or too long.
  case malformedURL(String)
  /// A scheme other than http/https (first request or redirect).
  case scheme(String)
  /// User name or password in the URL.
  case userInfo
  /// A request header value that would smuggle a header.
  case badHeader
  /// An address was refused by the policy: one curl was about to dial (`host` nil), or one
  /// of the addresses the host name resolves to (nothing was dialled then).
  case refused(AddressVerdict, host: String? = nil)
  /// The name did not resolve.
  case unresolved(host: String)
  /// No connection could be made (refused, unreachable).
  case unreachable(String)
  /// The connection broke or closed before the answer was whole.
  case broken(String)
  /// The TLS certificate was not valid for the host.
  case certificate(host: String, reason: String)
  /// The TLS handshake failed.
  case tls(host: String, reason: String)
  /// The total deadline passed.
  case timeout(seconds: Double)
  /// The body is larger than the cap (declared or counted).
  /// The source is over `limit`: `declared` by its Content-Length, or found sending more.
  case tooLarge(limit: Int, declared: Int?)
  /// A 2xx answer whose Content-Type is not image/*.
  case notImage(contentType: String?)
  /// A content coding was applied although none was asked for.
  case encoded(String)
  /// A status other than 2xx, 304 or a followed redirect.
  case status(Int)
  /// More redirects than allowed.
  case tooManyRedirects(Int)
  /// A redirect back to a URL already requested.
  case loop(String)
  /// More header bytes than a hop accepts.
  case headersTooLarge(limit: Int)
  /// A redirect without a usable Location.
  case badRedirect(String)
  /// The awaiting task was cancelled.
  case cancelled
  /// Anything else curl reported (detail is internal).
  case other(String)

  /// The error a route answers with: detail public and actionable, internals separate, and
  /// the stage that failed as `reason` (`dns`, `connect`, `tls`, `timeout`, `status`,
  /// `redirect`, `protocol`, `policy`, `url`, `size`, `type`, `other`).
  var error: ArtworkError {
    var error = publicError
    if let reason { error.members.insert(.string("reason", reason), at: 0) }
    return error
  }

  /// The stage that failed, for clients that branch on it; nil for a cancelled request.
  var reason: String? {
    switch self {
    case .malformedURL, .scheme, .userInfo, .badHeader: "url"
    case .refused: "policy"
    case .unresolved: "dns"
    case .unreachable, .broken: "connect"
    case .certificate, .tls: "tls"
    case .timeout: "timeout"
    case .tooLarge: "size"
    case .notImage: "type"
    case .status: "status"
    case .encoded, .headersTooLarge: "protocol"
    case .tooManyRedirects, .loop, .badRedirect: "redirect"
    case .cancelled: nil
    case .other: "other"
    }
  }

  private var publicError: ArtworkError {
    switch self {
    case .malformedURL(let why):
      return ArtworkError(.badRequest, "The URL is not valid (\(why)).")
    case .scheme(let scheme):
      return ArtworkError(
        .badRequest, "Only http and https URLs can be fetched, not \(ClientText.quoted(scheme)).")
    case .userInfo:
      return ArtworkError(
        .badRequest, "URLs with a user name or password are refused; use a URL without them.")
    case .badHeader:
      return ArtworkError(.badRequest, "A conditional request header contains a line break.")
    case .refused(let verdict, let host):
      return ArtworkError(
        .forbiddenAddress,
        "\(host.map(verdict.describing(host:)) ?? verdict.description); the service fetches only from public addresses unless ARTWORK_PRIVATE_SOURCES lists it."
      )
    case .unresolved(let host):
      return ArtworkError(
        .badGateway,
        "The host name \(ClientText.quoted(host)) does not resolve (name lookup failed).")
    case .unreachable(let why):
      return ArtworkError(
        .badGateway, "No connection to the source could be made: \(Self.connectFailure(why)).",
        internalDetail: why)
    case .broken(let why):
      return ArtworkError(
        .badGateway, "The source closed the connection before the whole image was sent.",
        internalDetail: why)
    case .certificate(let host, let reason):
      return ArtworkError(
        .badGateway, "The TLS certificate of \(ClientText.quoted(host)) is not valid.",
        internalDetail: reason)
    case .tls(let host, let reason):
      return ArtworkError(
        .badGateway, "The TLS handshake with \(ClientText.quoted(host)) failed.",
        internalDetail: reason)
    case .timeout(let seconds):
      return ArtworkError(
        .gatewayTimeout, "The source did not send the image within \(Self.format(seconds)) s.")
    case .tooLarge(let limit, let declared):
      let size = declared.map { "is \(ByteCount.text($0)) (its Content-Length)" } ?? "sent more"
      return ArtworkError(
        .payloadTooLarge,
        "The source image \(size); an image may be at most \(ByteCount.text(limit)) (ARTWORK_MAX_SOURCE_BYTES). The request itself was fine: the image at the source URL is too large, so sending the same URL again gets the same answer; make it smaller at the origin, or raise the limit."
      )
    case .notImage(let type):
      return ArtworkError(
        .unsupportedMediaType,
        "The source answered with Content-Type \(type.map(ClientText.quoted) ?? "(none)"), not an image/* type."
      )
    case .encoded(let coding):
      return ArtworkError(
        .badGateway,
        "The source sent a \(ClientText.quoted(coding))-encoded body although none was asked for.")
    case .status(let status) where (400..<500).contains(status):
      // The origin says the URL names nothing it will give: the request's fault, not ours.
      return ArtworkError(
        .sourceNotAvailable,
        "The source answered HTTP \(status) \(Self.reasonPhrase(status)); check the URL and any credentials it needs.",
        members: [.int("origin_status", status)])
    case .status(let status):
      return ArtworkError(
        .badGateway, "The source answered HTTP \(status) \(Self.reasonPhrase(status)).",
        members: [.int("origin_status", status)])
    case .tooManyRedirects(let limit):
      return ArtworkError(.badGateway, "The source redirected more than \(limit) times.")
    case .loop(let url):
      return ArtworkError(
        .badGateway, "The source redirects in a loop (back to \(ClientText.quoted(url))).")
    case .headersTooLarge(let limit):
      return ArtworkError(.badGateway, "The source sent more than \(limit) bytes of headers.")
    case .badRedirect(let why):
      return ArtworkError(.badGateway, "The source sent an unusable redirect (\(why)).")
    case .cancelled:
      return FetchPool.cancelledError
    case .other(let why):
      return ArtworkError(.badGateway, "The source could not be fetched.", internalDetail: why)
    }
  }

  /// Why a connection could not be made, in words, from curl's message (which also names
  /// addresses: those stay in the log).
  static func connectFailure(_ message: String) -> String {
    let text = message.lowercased()
    if text.contains("refused") { return "the connection was refused" }
    if text.contains("no route") || text.contains("unreachable") {
      return "there is no route to its address"
    }
    if text.contains("timed out") { return "the connection timed out" }
    if text.contains("reset") { return "the connection was reset" }
    return "every address failed"
  }

  private static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }

  /// An origin's status in words: its standard phrase, or its class.
  static func reasonPhrase(_ status: Int) -> String {
    ReasonPhrase.known(status)
      ?? (status >= 500 ? "(server error)" : status >= 400 ? "(client error)" : "(unexpected)")
  }
}
