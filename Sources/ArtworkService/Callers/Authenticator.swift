import ArtworkCore
import Synchronization

/// Bearer-token check for the write endpoints, and who called. With no token configured (and
/// no token file), everything passes as `anonymous`.
///
/// The tokens are one immutable `TokenSet`, swapped whole when the token file is re-read
/// (SIGHUP): a request sees the old set or the new one, never a mixture. Reading it takes a
/// lock held only to copy one reference; the comparison and the rate limit run outside it.
final class Authenticator: Sendable {
  /// What a recognised token stands for.
  struct Caller: Sendable {
    /// The token's name (`APIToken.name`), or `anonymous` when no token is required.
    let name: String
    /// The caller's `ARTWORK_API_RATE` limit; nil: none.
    let limit: CallerRateLimit?
  }

  /// The tokens of one moment, each with its caller.
  final class TokenSet: Sendable {
    let entries: [(secret: [UInt8], caller: Caller)]

    init(_ entries: [(secret: [UInt8], caller: Caller)]) {
      self.entries = entries
    }

    /// The set of `tokens`, each with a limit of `rate` a minute (0: none), keeping
    /// `previous`'s limit for a token that was there before under the same name (a reload
    /// refills nobody's bucket).
    static func make(_ tokens: [APIToken], rate: Int, previous: TokenSet?) -> TokenSet {
      TokenSet(
        tokens.map { token in
          let secret = Array(token.secret.utf8)
          let kept = previous?.entries.first { $0.secret == secret && $0.caller.name == token.name }
          let limit = kept?.caller.limit ?? (rate > 0 ? CallerRateLimit(perMinute: rate) : nil)
          return (secret, Caller(name: token.name, limit: limit))
        })
    }
  }

  /// The tokens from `ARTWORK_API_TOKENS`, which only a restart changes.
  private let fixed: [APIToken]
  /// `ARTWORK_API_TOKENS_FILE`, re-read by `reload()`.
  let file: String?
  /// `ARTWORK_API_RATE`.
  let rate: Int
  /// Whether a token is required (fixed for the process: see `ServiceConfig.requiresToken`).
  let isEnabled: Bool
  /// `ARTWORK_API_RATE` for requests with a missing or wrong token, per address (nil when
  /// there is no rate, or no token to get wrong).
  let failures: FailedTokenLimit?
  private let current: Mutex<TokenSet>

  /// Checks `tokens` and, when `file` is set, the tokens read from it (`fileTokens`), each
  /// caller limited to `rate` requests a minute (0: no limit).
  init(
    tokens: [APIToken], file: String? = nil, fileTokens: [APIToken] = [], rate: Int = 0,
    networks: ClientNetworks = .standard
  ) {
    fixed = tokens
    self.file = file
    self.rate = rate
    isEnabled = !tokens.isEmpty || file != nil
    failures =
      isEnabled && rate > 0 ? FailedTokenLimit(perMinute: rate, networks: networks) : nil
    current = Mutex(TokenSet.make(tokens + fileTokens, rate: rate, previous: nil))
  }

  /// The `.rateLimited` error when `address`'s network has sent more requests with a missing or
  /// wrong token than its `ARTWORK_API_RATE` allows: such requests from it are refused until
  /// `Retry-After` (a valid token is never asked about this: `CallerCheck`).
  func addressRefusal(_ address: String?) -> ArtworkError? {
    guard let failures, let wait = failures.wait(address) else { return nil }
    return Self.addressLimited(failures, wait: wait)
  }

  /// Counts `refusal` (a 401) against `address`: the 401 itself, or the `.rateLimited` error
  /// that replaces it when the address is past its limit.
  func counted(_ refusal: ArtworkError, from address: String?) -> ArtworkError {
    guard let failures, let wait = failures.fail(address) else { return refusal }
    return Self.addressLimited(failures, wait: wait)
  }

  private static func addressLimited(_ failures: FailedTokenLimit, wait: Int) -> ArtworkError {
    let rate = failures.perMinute
    return ArtworkError(
      .rateLimited,
      "Too many requests with a missing or wrong token came from this network: it may send "
        + "\(rate) such request\(rate == 1 ? "" : "s") a minute (ARTWORK_API_RATE), and none "
        + "more is taken from it until then (a valid token is); retry in \(wait) s.",
      retryAfter: wait, members: [.int("limit_per_minute", rate)])
  }

  /// The caller that `authorization` (the header's value) names, or `.unauthorized`.
  func authenticate(_ authorization: String?) throws(ArtworkError) -> Caller {
    guard isEnabled else { return Caller(name: APIToken.anonymous, limit: nil) }
    guard let authorization else {
      throw ArtworkError(.unauthorized, "This endpoint needs `Authorization: Bearer <token>`.")
    }
    guard let presented = Self.bearerToken(authorization) else {
      throw ArtworkError(.unauthorized, "The Authorization header must be `Bearer <token>`.")
    }
    guard let matched = match(presented) else {
      throw ArtworkError(.unauthorized, "The bearer token is not valid.")
    }
    return matched
  }

  /// The caller of a webhook route's credential (`WebhookCredential`: a bearer token, a Basic
  /// password, the `token` query parameter), or `.unauthorized`.
  func authenticate(webhookToken presented: [UInt8]?) throws(ArtworkError) -> Caller {
    guard isEnabled else { return Caller(name: APIToken.anonymous, limit: nil) }
    guard let presented else { throw ArtworkError(.unauthorized, WebhookCredential.missing) }
    guard let matched = match(presented) else {
      throw ArtworkError(.unauthorized, WebhookCredential.wrong)
    }
    return matched
  }

  /// The caller whose token is `presented`, compared against every token in full.
  private func match(_ presented: [UInt8]) -> Caller? {
    let tokens = current.withLock { $0 }
    // Compare against every token, always in full, so timing reveals neither which token nor
    // how much of one matched.
    var matched: Caller?
    for entry in tokens.entries where Authenticator.constantTimeEquals(entry.secret, presented) {
      matched = entry.caller
    }
    return matched
  }

  /// The `.rateLimited` error when `caller` is over its limit now, else nil (and the request is
  /// counted against it).
  func overLimit(_ caller: Caller) -> ArtworkError? {
    guard let limit = caller.limit, let wait = limit.admit() else { return nil }
    return ArtworkError(
      .rateLimited,
      "The token of \(caller.name) is limited to \(limit.perMinute) "
        + "request\(limit.perMinute == 1 ? "" : "s") a minute (ARTWORK_API_RATE); retry in "
        + "\(wait) s.",
      retryAfter: wait, members: [.int("limit_per_minute", limit.perMinute)])
  }

  /// Re-reads the token file: on success the new tokens (with `ARTWORK_API_TOKENS`) replace the
  /// old at once, and the answer is how many there are; on failure nothing changes. Nil when
  /// no file is configured.
  func reload() -> Result<Int, APITokenFile.Problems>? {
    guard let file else { return nil }
    let tokens: [APIToken]
    switch APITokenFile.read(file) {
    case .success(let read): tokens = fixed + read
    case .failure(let problems): return .failure(problems)
    }
    let conflicts = APIToken.conflicts(tokens)
    guard conflicts.isEmpty else { return .failure(APITokenFile.Problems(conflicts)) }
    current.withLock { current in
      current = TokenSet.make(tokens, rate: rate, previous: current)
    }
    return .success(tokens.count)
  }

  /// The names of every caller now, `anonymous` included (a bounded set of metric labels).
  var callerNames: [String] {
    current.withLock { $0 }.entries.map(\.caller.name) + [APIToken.anonymous]
  }

  /// Equality whose running time depends only on the lengths, not on where bytes differ.
  /// The token of an `Authorization: Bearer <token>` value (the scheme in any case), or nil.
  static func bearerToken(_ authorization: String?) -> [UInt8]? {
    let prefix = "bearer "
    guard let authorization, authorization.count > prefix.count,
      authorization.lowercased().hasPrefix(prefix)
    else { return nil }
    return Array(authorization.utf8.dropFirst(prefix.utf8.count))
  }

  static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
    if a.count != b.count { difference |= 1 }
    let n = max(a.count, b.count)
    for i in 0..<n {
      let x = i < a.count ? a[i] : 0
      let y = i < b.count ? b[i] : 0
      difference |= x ^ y
    }
    return difference == 0
  }
}
