import ArtworkCore
import CurlClient

/// Answers "would a phone load this URL?" (`POST /v1/check`) with one named verdict per rule.
///
/// It looks as a phone does: every address the host resolves to must be public, the fetch uses
/// the public-only policy (so a private address is judged, and refused at connect time, never
/// dialled), TLS is verified against the system CAs only, and the body is capped at the phone's
/// 2,000,000 bytes on the stream.
public struct ReachabilityCheck: Sendable {
  /// Recognises a format the phone decodes from the bytes, with its dimensions; nil otherwise.
  public typealias FormatSniffer =
    @Sendable ([UInt8]) async -> (format: String, width: Int, height: Int)?

  /// The most a Live Activity image may weigh (the conservative reading of "2 MB").
  static let phoneMaxBytes = 2_000_000

  let fetcher: SourceFetcher
  let sniff: FormatSniffer
  /// What the service itself may fetch (`ARTWORK_PRIVATE_SOURCES`): never used to judge a
  /// rule, only to word the advice so that it fits the configuration (whether
  /// `POST /v1/artwork` could re-host a private image).
  let servicePolicy: AddressPolicy

  /// A check that fetches as a phone would, within `fetchTimeout`, on `pool`; `servicePolicy`
  /// is the service's own address policy, for the advice.
  public init(
    pool: FetchPool, fetchTimeout: Duration = .seconds(8),
    servicePolicy: AddressPolicy = .publicOnly, sniff: @escaping FormatSniffer
  ) {
    let configuration = SourceFetcher.Configuration(
      policy: .publicOnly, maxBytes: Self.phoneMaxBytes, fetchTimeout: fetchTimeout)
    // No CA file, so the initialiser cannot fail.
    self.init(
      fetcher: try! SourceFetcher(configuration, pool: pool), servicePolicy: servicePolicy,
      sniff: sniff)
  }

  /// For tests: a fetcher whose policy and trust stand in for the internet's.
  init(
    fetcher: SourceFetcher, servicePolicy: AddressPolicy = .publicOnly,
    sniff: @escaping FormatSniffer
  ) {
    self.fetcher = fetcher
    self.servicePolicy = servicePolicy
    self.sniff = sniff
  }

  /// What the rules that run on the fetch thread found.
  struct Findings {
    var checks: [ReachabilityReport.Check]
    var outcome: FetchOutcome
    /// What the address rule found, for the advice.
    var address: AddressFinding
  }

  /// Runs every check on `url`. Throws `.badRequest` only when the URL cannot be checked at all
  /// (malformed, a scheme other than http/https, user info), and `.busy` when the pool is full.
  public func check(_ url: String) async throws(ArtworkError) -> ReachabilityReport {
    let findings = try await fetcher.pool.run { isCancelled in
      checkBlocking(url, isCancelled: isCancelled)
    }
    // The bytes' format is judged off the fetch thread: the sniffer may wait for an image
    // worker.
    let (formatCheck, sniffed) = await self.formatCheck(findings.outcome)
    let all = findings.checks + [formatCheck]
    return ReachabilityReport(
      url: url, ok: all.allSatisfy { $0.ok == true }, checks: all,
      advice: Self.advice(for: all, address: findings.address),
      format: sniffed?.format, width: sniffed?.width, height: sniffed?.height)
  }

  /// Every rule but the format's, on the fetch thread, and what the fetch gave.
  func checkBlocking(_ text: String, isCancelled: @escaping () -> Bool) -> Result<
    Findings, ArtworkError
  > {
    guard text.utf8.count <= SourceFetcher.maxURLLength, let url = CurlURL(text) else {
      return .failure(FetchFailure.malformedURL("it does not parse as an absolute URL").error)
    }
    if let problem = SourceFetcher.problem(with: url) { return .failure(problem.error) }
    let outcome = fetcher.fetchBlocking(
      text, validators: Validators(), isCancelled: isCancelled)
    if outcome.failure == .cancelled { return .failure(FetchPool.cancelledError) }
    var checks: [ReachabilityReport.Check] = []
    checks.append(httpsCheck(url))
    let (address, finding) = addressCheck(url, resolved: outcome.hops.first?.resolution)
    checks.append(address)
    checks.append(redirectCheck(outcome))
    checks.append(tlsCheck(url, outcome))
    checks.append(statusCheck(outcome))
    checks.append(contentTypeCheck(outcome))
    checks.append(sizeCheck(outcome))
    return .success(Findings(checks: checks, outcome: outcome, address: finding))
  }
}
