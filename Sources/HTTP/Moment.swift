import ArtworkCore
import Glibc

/// A point on the monotonic clock, in nanoseconds from an arbitrary start: the time every
/// event of a connection carries, and what its deadlines are measured in.
///
/// NOTE: not `ContinuousClock.Instant`, whose layout the standard library keeps resilient: kept
/// in the connection's objects and in its phases, each copy, comparison and sum went through
/// runtime calls (`swift_getEnumCaseMultiPayload`, value witnesses) on every event of every
/// request. This one is a plain integer.
package struct Moment: Comparable, Hashable, Sendable {
  /// Nanoseconds since the clock's start.
  package var nanoseconds: Int64

  package init(nanoseconds: Int64) {
    self.nanoseconds = nanoseconds
  }

  /// The monotonic clock now.
  package static var now: Moment {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Moment(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
  }

  package static func < (left: Moment, right: Moment) -> Bool {
    left.nanoseconds < right.nanoseconds
  }

  /// Saturating: a deadline a very long way off stays the latest moment.
  package static func + (moment: Moment, duration: Duration) -> Moment {
    let (sum, overflow) = moment.nanoseconds.addingReportingOverflow(duration.nanoseconds)
    guard overflow else { return Moment(nanoseconds: sum) }
    return Moment(nanoseconds: duration < .zero ? .min : .max)
  }

  package static func += (moment: inout Moment, duration: Duration) { moment = moment + duration }

  package static func - (later: Moment, earlier: Moment) -> Duration {
    .nanoseconds(later.nanoseconds &- earlier.nanoseconds)
  }
}
