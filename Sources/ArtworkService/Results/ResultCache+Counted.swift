import ArtworkCore

extension ResultCache {
  /// The remembered result of `url` under `variant`, or the lease to produce it, counted as a
  /// cache hit or miss for /metrics. `revalidate` (the caller's `Cache-Control: no-cache`) asks
  /// the origin again.
  func begin(url: String, variant: String, revalidate: Bool = false, counting metrics: Metrics)
    async throws(ArtworkError) -> Start
  {
    let start = try await begin(url: url, variant: variant, revalidate: revalidate)
    switch start {
    case .answer(_, let age): metrics.recordCacheLookup(hit: age != nil)
    case .produce: metrics.recordCacheLookup(hit: false)
    }
    return start
  }
}
