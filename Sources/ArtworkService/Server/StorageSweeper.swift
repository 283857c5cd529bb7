import ArtworkCore
import Observability
import Storage

/// Background upkeep of storage: every `abandonedInterval` it removes what failed writes left
/// behind (whatever the retention), and with a retention it removes artwork not requested for
/// that long, a bounded number of objects per pass, so a large store is worked through over
/// several passes.
final class StorageSweeper: Sendable {
  private let task: Task<Void, Never>

  /// Starts sweeping `storage`. With `retention`, a retention pass runs every
  /// `retentionInterval` and removes at most `limit` objects.
  init(
    storage: any ArtworkStorage, retention: Duration?, retentionInterval: Duration,
    abandonedInterval: Duration = .seconds(300), limit: Int = 1000, logger: Logger
  ) {
    task = Task.detached(priority: .background) {
      let clock = ContinuousClock()
      var nextAbandoned = clock.now + abandonedInterval
      var nextRetention = clock.now + (retention == nil ? .seconds(86400 * 365) : .zero)
      while !Task.isCancelled {
        if clock.now >= nextAbandoned {
          let removed = await storage.removeAbandonedWrites()
          if removed > 0 { logger.info("abandoned writes removed", ["removed": .int(removed)]) }
          nextAbandoned = clock.now + abandonedInterval
        }
        if let retention, clock.now >= nextRetention {
          let removed = await storage.sweep(olderThan: retention, limit: limit)
          if removed > 0 { logger.info("retention sweep", ["removed": .int(removed)]) }
          // A full pass means more is waiting: go on soon rather than after a whole interval.
          nextRetention = clock.now + (removed >= limit ? .seconds(1) : retentionInterval)
        }
        try? await Task.sleep(until: min(nextAbandoned, nextRetention), clock: clock)
      }
    }
  }

  /// The pause between retention passes: a twenty-fourth of the retention, within 1 min...1 h.
  static func interval(for retention: Duration) -> Duration {
    min(max(retention / 24, .seconds(60)), .seconds(3600))
  }

  func stop() { task.cancel() }

  deinit { task.cancel() }
}
