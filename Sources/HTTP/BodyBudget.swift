import Synchronization

/// The memory all request bodies held at once may use: reserved when a body is about to be
/// read (its declared length, or piece by piece for a chunked body) and given back when its
/// exchange ends, so memory stays bounded however many uploads arrive.
final class BodyBudget: Sendable {
  /// The most bytes reserved at once.
  let limit: Int
  private let used = Atomic<Int>(0)

  init(limit: Int) {
    self.limit = limit
  }

  /// Reserves `bytes`; false (and nothing reserved) when that would pass the limit.
  func reserve(_ bytes: Int) -> Bool {
    guard bytes > 0 else { return true }
    var current = used.load(ordering: .relaxed)
    while true {
      guard current + bytes <= limit else { return false }
      let (exchanged, original) = used.compareExchange(
        expected: current, desired: current + bytes, ordering: .relaxed)
      if exchanged { return true }
      current = original
    }
  }

  /// Gives back bytes `reserve` granted.
  func release(_ bytes: Int) {
    guard bytes > 0 else { return }
    used.subtract(bytes, ordering: .relaxed)
  }

  /// Bytes reserved now.
  var reserved: Int { used.load(ordering: .relaxed) }
}
