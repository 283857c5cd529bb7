import ArtworkCore

extension Metrics {
  /// One answered request. `route` is the route pattern (e.g. `/v1/images/{id}`), never the raw
  /// path, so that the number of series stays bounded.
  func recordRequest(route: String, status: Int, duration: Duration) {
    increment(Self.requests, [route, String(status)])
    observe(Self.requestDuration, [route], duration.seconds)
  }

  /// A newly stored artwork object of `bytes` bytes (not counted when it existed already).
  func recordArtworkCreated(bytes: Int) {
    increment(Self.artworkCreated)
    increment(Self.bytesStored, by: Double(bytes))
  }

  /// One source fetch and how it ended (`ok`, `timeout`, `forbidden-address`, ...: a short,
  /// bounded vocabulary such as an `ArtworkError.Kind` raw value).
  func recordFetch(outcome: String) {
    increment(Self.fetches, [outcome])
  }

  /// One lookup in the source result cache.
  func recordCacheLookup(hit: Bool) {
    increment(Self.cacheLookups, [hit ? "hit" : "miss"])
  }

  /// A request refused because the worker queue was full.
  func recordQueueRejection() {
    increment(Self.queueRejections)
  }

  /// Copies the pool's current load into the gauges (call just before `render()`).
  func update(pool stats: PoolStats) {
    set(Self.workersBusy, to: Double(stats.busy))
    set(Self.queueWaiting, to: Double(stats.queued))
  }
}
