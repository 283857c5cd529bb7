import Synchronization

/// Counts of the requests the server refuses by itself for load (503 with `Retry-After`,
/// decided from the head or as a chunked body grows), by reason: what an operator reads to
/// tell a full worker queue from full body limits.
public final class OverloadRefusals: Sendable {
  /// Why a request was refused.
  public enum Reason: Sendable {
    /// Its share already had as many bodies arriving as one share may.
    case bodiesArriving
    /// The memory for request bodies was spoken for.
    case bodyMemory
    /// The connection table was near its limit and the request, a write without a
    /// credential, came from a network holding more than an equal share of it.
    case crowded
  }

  /// The counts since start.
  public struct Counts: Sendable, Equatable {
    public var bodiesArriving = 0
    public var bodyMemory = 0
    public var crowded = 0

    public init(bodiesArriving: Int = 0, bodyMemory: Int = 0, crowded: Int = 0) {
      self.bodiesArriving = bodiesArriving
      self.bodyMemory = bodyMemory
      self.crowded = crowded
    }
  }

  private let bodiesArriving = Atomic<Int>(0)
  private let bodyMemory = Atomic<Int>(0)
  private let crowded = Atomic<Int>(0)

  init() {}

  /// One more refusal for `reason`.
  func note(_ reason: Reason) {
    switch reason {
    case .bodiesArriving: bodiesArriving.add(1, ordering: .relaxed)
    case .bodyMemory: bodyMemory.add(1, ordering: .relaxed)
    case .crowded: crowded.add(1, ordering: .relaxed)
    }
  }

  public var counts: Counts {
    Counts(
      bodiesArriving: bodiesArriving.load(ordering: .relaxed),
      bodyMemory: bodyMemory.load(ordering: .relaxed), crowded: crowded.load(ordering: .relaxed))
  }
}
