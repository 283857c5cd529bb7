import Synchronization

/// A thread-safe counter, e.g. of handler calls.
public final class Counter: Sendable {
  private let value = Atomic<Int>(0)

  /// A counter at zero.
  public init() {}

  /// Adds one.
  public func increment() { value.add(1, ordering: .sequentiallyConsistent) }

  /// The current count.
  public var count: Int { value.load(ordering: .sequentiallyConsistent) }
}
