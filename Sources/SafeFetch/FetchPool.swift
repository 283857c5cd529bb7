import ArtworkCore
import Synchronization

/// A bounded pool of threads for blocking network work (`curl_easy_perform`, `getaddrinfo`), kept
/// apart from the image workers and from the async executors: a slow origin holds one of these
/// threads, never a cooperative-pool thread.
///
/// Why threads and not one curl-multi loop: every fetch here is a short sequence of blocking hops
/// with per-hop decisions (policy, redirects) that read naturally as straight-line code, and the
/// bound (a few dozen concurrent fetches) is far below where a thread per transfer costs anything.
///
/// At most `threads` jobs run at once and at most `queueLimit` wait; past that, `run` answers
/// `ArtworkError(.busy, retryAfter: 1)` at once. Each caller (`WorkShare`) holds at most three in
/// four threads, and waits in a queue of its own (`BlockingPool`). Threads start on demand, stay, and end when the
/// pool is released (`BlockingPool`).
public final class FetchPool: Sendable {
  private let threads: BlockingPool<Void>
  /// Threads for name lookups, which a fetch thread waits on with its deadline (getaddrinfo has
  /// none of its own): as many as fetch threads, so each fetch can wait on one.
  let lookups: BlockingPool<Void>

  /// - Parameters:
  ///   - threads: most jobs running at once.
  ///   - queueLimit: most jobs waiting for a thread.
  public init(threads: Int = 16, queueLimit: Int = 64) {
    // A fetch mostly waits on its origin: one caller's slow sources may hold at most three in
    // four threads, so that other callers' fetches always find one.
    self.threads = BlockingPool(
      name: "artwork-fetch", threads: threads, queueLimit: queueLimit, stackSize: 2 << 20,
      maxRunningPerShare: threads - max(1, threads / 4))
    self.lookups = BlockingPool(
      name: "artwork-dns", threads: threads, queueLimit: threads, stackSize: 256 << 10)
  }

  /// Runs `work` on a pool thread and returns its result. `work` receives a closure telling it
  /// whether the awaiting task was cancelled, to poll between blocking steps. The continuation is
  /// resumed exactly once: by the pool thread after `work`, or here when the queue is full.
  public func run<T: Sendable>(
    _ work:
      @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) -> Result<T, ArtworkError>
  ) async throws(ArtworkError) -> T {
    let cancelled = CancellationFlag()
    let result: Result<T, ArtworkError> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let accepted = threads.submit(
          refused: { continuation.resume(returning: .failure(Self.full)) }
        ) { _ in
          if cancelled.isSet {
            continuation.resume(returning: .failure(Self.cancelledError))
          } else {
            continuation.resume(returning: work { cancelled.isSet })
          }
        }
        if !accepted { continuation.resume(returning: .failure(Self.full)) }
      }
    } onCancel: {
      cancelled.set()
    }
    return try result.get()
  }

  static let full = ArtworkError(
    .busy, "Too many source fetches are in progress; retry shortly.", retryAfter: 1)

  static let cancelledError = ArtworkError(
    .badGateway, "The fetch was cancelled.", internalDetail: "task cancelled")
}

/// A one-way flag set when the awaiting task is cancelled, read by the pool thread.
private final class CancellationFlag: Sendable {
  private let value = Atomic(false)
  var isSet: Bool { value.load(ordering: .acquiring) }
  func set() { value.store(true, ordering: .releasing) }
}
