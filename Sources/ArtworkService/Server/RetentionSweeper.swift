import ArtworkCore
import Storage

/// Removes artwork not requested for the retention period, in the background, a bounded number
/// of objects per pass, so that a large store is worked through over several passes.
final class RetentionSweeper: Sendable {
  private let task: Task<Void, Never>

  /// Starts sweeping `storage` every `interval`, removing at most `limit` objects per pass.
  init(
    storage: any ArtworkStorage, retention: Duration, interval: Duration, limit: Int = 1000,
    logger: Logger
  ) {
    task = Task.detached(priority: .background) {
      while !Task.isCancelled {
        let removed = await storage.sweep(olderThan: retention, limit: limit)
        if removed > 0 { logger.info("retention sweep", ["removed": .int(removed)]) }
        // A full pass means more is waiting: go on soon rather than after a whole interval.
        let pause = removed >= limit ? Duration.seconds(1) : interval
        try? await Task.sleep(for: pause)
      }
    }
  }

  /// The pause between passes for a retention period: a twenty-fourth of it, within 1 min...1 h.
  static func interval(for retention: Duration) -> Duration {
    min(max(retention / 24, .seconds(60)), .seconds(3600))
  }

  func stop() { task.cancel() }

  deinit { task.cancel() }
}
