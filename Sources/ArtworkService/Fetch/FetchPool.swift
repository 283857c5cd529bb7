import Dispatch
import Foundation
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
/// `ArtworkError(.busy, retryAfter: 1)` at once. Threads start on demand and then stay.
public final class FetchPool: Sendable {
  private struct State {
    var queue: [@Sendable () -> Void] = []
    var started = 0
    var idle = 0
  }

  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  private let threads: Int
  private let queueLimit: Int

  /// - Parameters:
  ///   - threads: most jobs running at once.
  ///   - queueLimit: most jobs waiting for a thread.
  public init(threads: Int = 16, queueLimit: Int = 64) {
    precondition(threads > 0 && queueLimit >= 0)
    self.threads = threads
    self.queueLimit = queueLimit
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
        let job: @Sendable () -> Void = {
          if cancelled.isSet {
            continuation.resume(returning: .failure(Self.cancelledError))
          } else {
            continuation.resume(returning: work { cancelled.isSet })
          }
        }
        if !enqueue(job) {
          continuation.resume(
            returning: .failure(
              ArtworkError(
                .busy, "Too many source fetches are in progress; retry shortly.", retryAfter: 1)))
        }
      }
    } onCancel: {
      cancelled.set()
    }
    return try result.get()
  }

  static let cancelledError = ArtworkError(
    .badGateway, "The fetch was cancelled.", internalDetail: "task cancelled")

  private func enqueue(_ job: @escaping @Sendable () -> Void) -> Bool {
    let spawn: Bool? = state.withLock { state in
      // Jobs an idle or not-yet-started thread will take at once do not count as waiting.
      let capacity = queueLimit + state.idle + (threads - state.started)
      guard state.queue.count < capacity else { return nil }
      state.queue.append(job)
      guard state.idle < state.queue.count, state.started < threads else { return false }
      state.started += 1
      state.idle += 1
      return true
    }
    guard let spawn else { return false }
    if spawn {
      let thread = Thread { [self] in workLoop() }
      thread.name = "artwork-fetch"
      thread.stackSize = 1 << 20
      thread.start()
    }
    wake.signal()
    return true
  }

  private func workLoop() {
    while true {
      // `idle` already counts this thread (set when spawned, or at the end of the last job).
      wake.wait()
      let job = state.withLock { state in
        state.idle -= 1
        return state.queue.removeFirst()
      }
      job()
      state.withLock { $0.idle += 1 }
    }
  }
}

/// A one-way flag set when the awaiting task is cancelled, read by the pool thread.
private final class CancellationFlag: Sendable {
  private let value = Atomic(false)
  var isSet: Bool { value.load(ordering: .acquiring) }
  func set() { value.store(true, ordering: .releasing) }
}
