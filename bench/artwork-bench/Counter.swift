import Synchronization

/// A shared request counter for the ceiling's tasks.
final class Counter: Sendable {
  private let count = Atomic<Int>(0)

  /// The next request number (0, 1, 2, ...).
  func next() -> Int { count.wrappingAdd(1, ordering: .relaxed).oldValue }

  /// How many numbers were handed out.
  var value: Int { count.load(ordering: .relaxed) }
}
