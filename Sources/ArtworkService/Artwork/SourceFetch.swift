import ArtworkCore
import SafeFetch

/// Source URLs fetched for the routes that take one, each outcome counted for /metrics; a
/// failure's words carry no secret query value.
struct SourceFetch: Sendable {
  let fetcher: SourceFetcher
  let metrics: Metrics
  let secrets: SecretParameters

  /// `url` fetched now (conditionally with `validators`).
  func fetch(_ url: String, validators: Validators) async throws(ArtworkError) -> FetchedSource {
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
        let shown = ClientText.quoted(secrets.redacted(url))
        failure.detail = "\(shown): " + failure.detail
      }
      // Redacted here too, before the failure is remembered in a stored record.
      throw failure.redacting(secrets)
    }
  }
}
