import ArtworkCore
import Synchronization

/// Inputs that made a worker fail (crash, use up its CPU budget), remembered by their
/// SHA-256 for a while: a relay that retries the same poster, or a batch that meets the same
/// file twice, gets the same answer at once instead of killing another worker.
///
/// Bounded: the oldest record goes when `capacity` are held. A lookup costs nothing while
/// nothing is remembered, and a SHA-256 only when an input's size matches a remembered one.
final class FailedInputs: Sendable {
  struct Record: Sendable {
    var reason: DecoderFailure
    var at: ContinuousClock.Instant
  }

  private struct State {
    var records: [String: Record] = [:]
    var order: [String] = []
    /// The sizes of the inputs remembered, with how many of each.
    var sizes: [Int: Int] = [:]
    var sizeOf: [String: Int] = [:]
  }

  private let state = Mutex(State())
  private let lifetime: Duration
  private let capacity: Int

  init(lifetime: Duration, capacity: Int = 1024) {
    self.lifetime = lifetime
    self.capacity = max(1, capacity)
  }

  /// Whether an input of `count` bytes might be remembered (then its SHA-256 is worth taking).
  func mightHold(count: Int) -> Bool {
    state.withLock { $0.sizes[count] != nil }
  }

  /// The remembered failure of the input whose SHA-256 is `digest`, if still fresh.
  func failure(of digest: String) -> Record? {
    state.withLock { state in
      guard let record = state.records[digest] else { return nil }
      guard record.at.duration(to: .now) < lifetime else {
        forget(digest, in: &state)
        return nil
      }
      return record
    }
  }

  /// Remembers that the input `digest` of `count` bytes failed for `reason`.
  func remember(_ digest: String, count: Int, reason: DecoderFailure) {
    state.withLock { state in
      if state.records[digest] == nil {
        state.order.append(digest)
        state.sizes[count, default: 0] += 1
        state.sizeOf[digest] = count
      }
      state.records[digest] = Record(reason: reason, at: .now)
      while state.order.count > capacity, let oldest = state.order.first {
        forget(oldest, in: &state)
      }
    }
  }

  /// Forgets the input `digest` (its caller asked for it to be tried again).
  func forget(_ digest: String) {
    state.withLock { state in
      guard state.records[digest] != nil else { return }
      forget(digest, in: &state)
    }
  }

  /// How many inputs are remembered.
  var count: Int { state.withLock { $0.records.count } }

  private func forget(_ digest: String, in state: inout State) {
    state.records[digest] = nil
    state.order.removeAll { $0 == digest }
    if let count = state.sizeOf.removeValue(forKey: digest) {
      state.sizes[count, default: 1] -= 1
      if state.sizes[count] == 0 { state.sizes[count] = nil }
    }
  }
}
