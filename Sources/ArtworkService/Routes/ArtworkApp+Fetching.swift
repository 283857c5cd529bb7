import ArtworkCore
import SafeFetch

extension ArtworkApp {
  /// The remembered result of `url` under `variant`, or the lease to produce it, counted as a
  /// cache hit or miss for /metrics.
  /// `revalidate` (the caller's `Cache-Control: no-cache`) asks the origin again.
  func lookUp<Payload>(
    _ url: String, variant: String, in cache: ResultCache<Payload>, revalidate: Bool = false
  ) async throws(ArtworkError) -> ResultCache<Payload>.Start {
    let start = try await cache.begin(url: url, variant: variant, revalidate: revalidate)
    switch start {
    case .answer(_, let age): metrics.recordCacheLookup(hit: age != nil)
    case .produce: metrics.recordCacheLookup(hit: false)
    }
    return start
  }

  /// A source URL fetched now (conditionally with `validators`), its outcome counted for
  /// /metrics; a failure's words carry no secret query value.
  func fetchSource(_ url: String, validators: Validators) async throws(ArtworkError)
    -> FetchedSource
  {
    let started = ContinuousClock.now
    defer { metrics.recordStage("fetch", ContinuousClock.now - started) }
    do {
      let fetched = try await fetcher.fetch(url, validators: validators)
      metrics.recordFetch(outcome: fetched.isNotModified ? "not_modified" : "ok")
      return fetched
    } catch {
      metrics.recordFetch(outcome: error.kind.rawValue)
      var failure = error
      // Which image was too large: the source's, not the caller's body.
      if failure.kind == .payloadTooLarge {
        // Redacted before it is clipped, so that no cut can leave part of a secret behind.
        let shown = ClientText.quoted(config.secretParameters.redacted(url))
        failure.detail = "\(shown): " + failure.detail
      }
      // Redacted here too, before the failure is remembered in a stored record.
      throw failure.redacting(config.secretParameters)
    }
  }
}
