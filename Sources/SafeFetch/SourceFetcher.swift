import ArtworkCore
import CurlClient

/// Fetches a source image over http(s) without letting a URL reach anything it should not.
///
/// Defences, each applied on the first request and on every redirect hop:
/// - URLs are parsed by curl's own parser and handed to curl as parsed; only http/https, no user
///   info (400); curl's protocol lists are http,https too.
/// - A host name is resolved once and judged on every answer before anything is dialled: one
///   refused answer refuses the host. curl is pinned to the judged addresses (`CURLOPT_RESOLVE`).
/// - The address actually dialled is judged at connect time (`CURLOPT_OPENSOCKETFUNCTION`): a
///   refused address gets no socket, so no packet leaves. This covers every spelling of an
///   address and DNS rebinding whatever the resolver does, because it judges the bytes dialled.
/// - Redirects are followed here, not by curl: at most `maxRedirects`, loops refused, each hop a
///   fresh handle (no connection opened under one hop's allowance serves another).
/// - Proxies from the environment are ignored; no Accept-Encoding is sent and nothing is decoded;
///   TLS is verified; one deadline bounds the whole fetch; the body is capped on the stream.
///
/// Blocking curl work runs on a `FetchPool` thread; `fetch` is async and never blocks its caller.
public struct SourceFetcher: Sendable {
  /// Everything a fetcher needs; read once at start-up.
  public struct Configuration: Sendable {
    /// Which addresses may be dialled (`ARTWORK_PRIVATE_SOURCES` lets private ones in).
    public var policy: AddressPolicy
    /// Largest body accepted, counted on the stream whatever Content-Length says.
    public var maxBytes: Int
    /// Deadline for the whole fetch, every hop included (a trickling source is cut here).
    public var fetchTimeout: Duration
    /// Deadline for each TCP/TLS connection (within `fetchTimeout`).
    public var connectTimeout: Duration
    /// Most redirects followed.
    public var maxRedirects: Int
    /// An extra PEM CA file trusted in addition to the system bundle (see `TrustBundle`).
    public var caFile: String?
    /// The `User-Agent` fetches send.
    public var userAgent: String

    /// Fetch settings; the defaults allow public sources only.
    public init(
      policy: AddressPolicy = .publicOnly, maxBytes: Int = 20_000_000,
      fetchTimeout: Duration = .seconds(8), connectTimeout: Duration = .seconds(3),
      maxRedirects: Int = 5, caFile: String? = nil, userAgent: String = "artwork/1"
    ) {
      self.policy = policy
      self.maxBytes = maxBytes
      self.fetchTimeout = fetchTimeout
      self.connectTimeout = connectTimeout
      self.maxRedirects = maxRedirects
      self.caFile = caFile
      self.userAgent = userAgent
    }
  }

  /// The settings every fetch applies.
  public let configuration: Configuration
  let trust: TrustBundle?
  let pool: FetchPool

  /// Longest URL accepted, in bytes.
  static let maxURLLength = 8192

  /// Reads the CA file now (throws a configuration error naming it when unusable).
  public init(_ configuration: Configuration, pool: FetchPool) throws(ArtworkError) {
    self.configuration = configuration
    self.pool = pool
    trust = try configuration.caFile.map { (file) throws(ArtworkError) in
      try TrustBundle(caFile: file)
    }
  }

  /// Fetches `url` (following redirects), on a pool thread. Errors: `.badRequest` (malformed URL,
  /// user info, scheme), `.forbiddenAddress` (the detail names the address and its class),
  /// `.payloadTooLarge`, `.unsupportedMediaType`, `.badGateway` (origin failure, error status,
  /// too many redirects, loop, TLS), `.gatewayTimeout` (deadline), `.busy` (pool full).
  /// With `validators` the request is conditional, and a 304 answer is a `FetchedSource` that
  /// `isNotModified`.
  public func fetch(_ url: String, validators: Validators = Validators())
    async throws(ArtworkError) -> FetchedSource
  {
    try await pool.run { isCancelled in
      let outcome = fetchBlocking(url, validators: validators, isCancelled: isCancelled)
      if let source = outcome.source { return .success(source) }
      return .failure((outcome.failure ?? .other("no result")).error)
    }
  }

  /// The whole fetch, synchronously, with a record of every hop even when it fails (the
  /// reachability check reports on them). Call only on a pool thread.
  func fetchBlocking(
    _ text: String, validators: Validators, isCancelled: @escaping () -> Bool
  ) -> FetchOutcome {
    let clock = ContinuousClock()
    let deadline = clock.now + configuration.fetchTimeout
    var outcome = FetchOutcome()
    guard let headers = validators.headerLines else { return outcome.failing(.badHeader) }
    guard text.utf8.count <= Self.maxURLLength else {
      return outcome.failing(.malformedURL("longer than \(Self.maxURLLength) bytes"))
    }
    guard var url = CurlURL(text) else {
      return outcome.failing(.malformedURL("it does not parse as an absolute URL"))
    }
    var visited: Set<String> = []
    // A private host is reached only where the caller named it (the first hop), or through a
    // redirect from an allowed private host to itself: never after a public hop.
    var privateAllowed = true
    while true {
      if let problem = Self.problem(with: url) { return outcome.failing(problem) }
      visited.insert(url.string)
      let remaining = deadline - clock.now
      guard remaining > .zero else {
        return outcome.failing(.timeout(seconds: configuration.fetchTimeout.seconds))
      }
      let hop = performHop(
        url, headers: headers, remaining: remaining, privateAllowed: privateAllowed,
        isCancelled: isCancelled)
      outcome.hops.append(hop.record)
      outcome.response = hop.response
      guard let response = hop.response, hop.failure == nil else {
        return outcome.failing(hop.failure ?? .other("no response"))
      }
      guard Self.redirectStatuses.contains(response.status) else {
        return outcome.finishing(url: url, response: response)
      }
      // A redirect: validate where it points before anything is dialled.
      guard let location = response.header("location"), !location.isEmpty else {
        return outcome.failing(.badRedirect("HTTP \(response.status) without a Location"))
      }
      guard let next = url.resolving(location) else {
        return outcome.failing(.badRedirect("Location does not parse as a URL"))
      }
      outcome.hops[outcome.hops.count - 1].location = next.string
      guard outcome.hops.count <= configuration.maxRedirects else {
        return outcome.failing(.tooManyRedirects(configuration.maxRedirects))
      }
      guard !visited.contains(next.string) else { return outcome.failing(.loop(next.string)) }
      privateAllowed =
        privateAllowed && hop.record.reachedPrivate
        && HostName.lookupForm(next.hostName) == HostName.lookupForm(url.hostName)
      url = next
    }
  }

  /// Why `url` may not be requested at all, before any connection.
  static func problem(with url: CurlURL) -> FetchFailure? {
    guard url.scheme == "http" || url.scheme == "https" else { return .scheme(url.scheme) }
    guard !url.hasUserInfo else { return .userInfo }
    guard !url.hostName.isEmpty else { return .malformedURL("it has no host") }
    guard (1...65535).contains(url.port) else {
      return .malformedURL("port \(url.port) is not a port to connect to")
    }
    return nil
  }

  static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
}

/// The record of a fetch: every hop, the last response seen, and how it ended.
struct FetchOutcome {
  var hops: [FetchHop] = []
  /// The last response (headers, and the body counted so far), even when the fetch failed.
  var response: HopResponse?
  /// Set when the fetch succeeded (2xx or 304).
  var source: FetchedSource?
  /// Set when it did not.
  var failure: FetchFailure?

  func failing(_ failure: FetchFailure) -> FetchOutcome {
    var copy = self
    copy.failure = failure
    return copy
  }

  func finishing(url: CurlURL, response: HopResponse) -> FetchOutcome {
    var copy = self
    if (200..<300).contains(response.status) || response.status == 304 {
      copy.source = FetchedSource(
        status: response.status, contentType: response.header("content-type"),
        validators: Validators(
          etag: response.header("etag"), lastModified: response.header("last-modified")),
        bytes: response.status == 304 ? [] : response.body, hops: hops)
    } else {
      copy.failure = .status(response.status)
    }
    return copy
  }
}
