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
  /// The time, in nanoseconds since `origin`, at which the bucket is full again. It starts far
  /// in the past, not at zero: an instant taken before `origin` was first read is negative
  /// here, and a bucket starting at zero refused it (a test that took `now` first saw it).
  private let fullAgain = Atomic<Int64>(Int64.min / 2)
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
      if wait > 0 { return Self.seconds(wait) }
      let (exchanged, found) = fullAgain.compareExchange(
        expected: current, desired: start + interval, ordering: .relaxed)
      if exchanged { return nil }
      current = found
    }
  }

  /// What `admit` would answer at `now`, without taking a request from the bucket.
  func wait(at now: ContinuousClock.Instant = .now) -> Int? {
    let time = (now - Self.origin).nanoseconds
    let wait = max(fullAgain.load(ordering: .relaxed), time) - tolerance - time
    return wait > 0 ? Self.seconds(wait) : nil
  }

  /// Whether the bucket is full at `now`: as good as a new one, so it can be forgotten.
  func isFull(at now: ContinuousClock.Instant = .now) -> Bool {
    fullAgain.load(ordering: .relaxed) <= (now - Self.origin).nanoseconds
  }

  /// The time at which the bucket is full again (for comparing buckets only).
  var fullAgainTime: Int64 { fullAgain.load(ordering: .relaxed) }

  /// Whole seconds, rounded up, of `nanoseconds` (more than zero).
  private static func seconds(_ nanoseconds: Int64) -> Int {
    Int((nanoseconds + 999_999_999) / 1_000_000_000)
  }
}
