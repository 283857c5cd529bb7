import Synchronization

/// Counts the live connections and handler or stream tasks of one server, so tests can check
/// that every one was released.
final class LiveCount: Sendable {
  private let value = Atomic<Int>(0)

  /// One more object alive.
  func increment() { value.add(1, ordering: .relaxed) }
  /// One object gone.
  func decrement() { value.subtract(1, ordering: .relaxed) }
  /// Objects alive now.
  var count: Int { value.load(ordering: .relaxed) }
}
