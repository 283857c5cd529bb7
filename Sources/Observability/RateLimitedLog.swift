import ArtworkCore
import Synchronization

/// A log line for an event that can happen thousands of times a second (a full queue refusing
/// requests): written at most once per interval, with the number of events since the last line.
public final class RateLimitedLog: Sendable {
  private struct State {
    var unreported = 0
    var lastLine: ContinuousClock.Instant?
  }

  private let logger: Logger
  private let message: String
  private let interval: Duration
  private let state = Mutex(State())

  /// Lines of `message` to `logger`, at most one per `interval`.
  public init(logger: Logger, message: String, interval: Duration = .seconds(1)) {
    self.logger = logger
    self.message = message
    self.interval = interval
  }

  /// Counts one event; writes the line (at warn) when the interval has passed since the last.
  public func note(_ fields: [String: LogValue]) {
    let now = ContinuousClock.now
    let count = state.withLock { state -> Int? in
      state.unreported += 1
      if let last = state.lastLine, now - last < interval { return nil }
      defer {
        state.unreported = 0
        state.lastLine = now
      }
      return state.unreported
    }
    guard let count else { return }
    var fields = fields
    fields["count"] = .int(count)
    logger.warn(message, fields)
  }
}
