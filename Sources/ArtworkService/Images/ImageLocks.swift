import ArtworkCore
import Synchronization

/// One image at a time on this replica: storing an image and remembering what answers it, and
/// deleting it, each hold its lock for the whole of their work, so a deletion and a create of
/// the same image are ordered. A create that finished first has everything it stored and
/// remembered removed by the deletion; one that comes after stores the object again before it
/// answers. (Replicas sharing S3 are ordered by the deletion notices instead: docs/S3.md.)
final class ImageLocks: Sendable {
  /// The images held, each with the tasks waiting for it, in the order they came.
  private let held = Mutex<[ArtworkID: [CheckedContinuation<Void, Never>]]>([:])

  init() {}

  /// Runs `body` holding `id`'s lock, waiting for it first when another holds it.
  func holding<Value>(
    _ id: ArtworkID, _ body: () async throws(ArtworkError) -> Value
  ) async throws(ArtworkError) -> Value {
    await acquire(id)
    defer { release(id) }
    return try await body()
  }

  private func acquire(_ id: ArtworkID) async {
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      let free = held.withLock { held -> Bool in
        guard held[id] != nil else {
          held[id] = []
          return true
        }
        held[id]?.append(waiter)
        return false
      }
      if free { waiter.resume() }
    }
  }

  /// Hands the lock to the first waiter, or frees it.
  private func release(_ id: ArtworkID) {
    let next = held.withLock { held -> CheckedContinuation<Void, Never>? in
      guard var waiters = held[id], !waiters.isEmpty else {
        held[id] = nil
        return nil
      }
      let first = waiters.removeFirst()
      held[id] = waiters
      return first
    }
    next?.resume()
  }
}
