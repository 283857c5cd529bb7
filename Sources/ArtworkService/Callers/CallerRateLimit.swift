import ArtworkCore
import Synchronization

/// One caller's limit of `ARTWORK_API_RATE` requests a minute: a token bucket that holds a
/// minute's worth and refills one request every 60/N seconds, kept as the generic cell rate
/// algorithm's one number (the time at which the bucket would be full again), so admitting a
/// request is a compare-and-swap, with no lock that callers could contend on.
final class CallerRateLimit: Sendable {
  /// Requests a minute.
  let perMinute: Int
  /// Nanoseconds one request uses up.
  private let interval: Int64
  /// How far ahead of now the full-again time may run: the burst, less one request.
  private let tolerance: Int64
  /// The time, in nanoseconds since `origin`, at which the bucket is full again.
  private let fullAgain = Atomic<Int64>(0)
  /// Where the clock of every limit starts (only differences are compared).
  private static let origin = ContinuousClock.now

  /// A limit of `perMinute` requests a minute (more than zero).
  init(perMinute: Int) {
    precondition(perMinute > 0)
    _ = Self.origin  // started before any instant this limit is asked about
    self.perMinute = perMinute
    interval = 60_000_000_000 / Int64(perMinute)
    tolerance = interval * Int64(perMinute - 1)
  }

  /// Takes one request from the bucket at `now`: nil when admitted, or the whole seconds to
  /// wait (at least 1) before one would be.
  func admit(at now: ContinuousClock.Instant = .now) -> Int? {
    let time = (now - Self.origin).nanoseconds
    var current = fullAgain.load(ordering: .relaxed)
    while true {
      let start = max(current, time)
      let wait = start - tolerance - time
      if wait > 0 { return Int((wait + 999_999_999) / 1_000_000_000) }
      let (exchanged, found) = fullAgain.compareExchange(
        expected: current, desired: start + interval, ordering: .relaxed)
      if exchanged { return nil }
      current = found
    }
  }
}
