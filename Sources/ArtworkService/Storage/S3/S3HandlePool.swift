import Dispatch
import Foundation
import Synchronization

/// A small, fixed set of threads for the S3 backend's blocking curl transfers, each owning one
/// `CurlEasy` handle that it reuses (keeping its connection to the store alive between requests).
/// Handles are never shared between threads; a thread drops its handle after a transport
/// failure and makes a fresh one for the next job, so no broken state outlives a failure.
///
/// Why not the fetcher's `FetchPool`: a bulkhead (a storm of slow origins must not queue the
/// store's requests behind it, nor the reverse), and the store is one trusted host worth a
/// kept-alive connection per thread, while source fetches use a fresh handle per origin.
///
/// At most `threads` transfers run at once and at most `queueLimit` wait; past that `run`
/// answers nil at once (the caller reports the store as unavailable). Threads start on demand
/// and end when the pool is released.
final class S3HandlePool: Sendable {
  /// A job: gets the thread's handle (nil after a failure), leaves the handle to keep (or nil).
  typealias Job = @Sendable (_ handle: inout CurlEasy?) -> Void

  private struct State {
    var queue: [Job] = []
    var started = 0
    var idle = 0
    var closed = false
  }

  /// Shared with the threads; the pool itself is not, so its `deinit` can stop them.
  private final class Shared: Sendable {
    let state = Mutex(State())
    let wake = DispatchSemaphore(value: 0)
  }

  private let shared = Shared()
  private let threads: Int
  private let queueLimit: Int

  init(threads: Int, queueLimit: Int = 256) {
    precondition(threads > 0 && queueLimit >= 0)
    self.threads = threads
    self.queueLimit = queueLimit
  }

  deinit {
    let running = shared.state.withLock { state in
      state.closed = true
      return state.started
    }
    for _ in 0..<running { shared.wake.signal() }
  }

  /// Runs `work` on a pool thread with that thread's handle and returns its result; nil when
  /// too many transfers are waiting already. The continuation is resumed exactly once: by the
  /// pool thread after `work`, or here when the job is refused.
  func run<T: Sendable>(_ work: @escaping @Sendable (_ handle: CurlEasy) -> (T, keepHandle: Bool))
    async -> T?
  {
    await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
      let job: Job = { handle in
        let easy = handle ?? CurlEasy()
        let (result, keep) = work(easy)
        handle = keep ? easy : nil
        continuation.resume(returning: result)
      }
      if !enqueue(job) { continuation.resume(returning: nil) }
    }
  }

  private func enqueue(_ job: @escaping Job) -> Bool {
    let spawn: Bool? = shared.state.withLock { state in
      // Jobs an idle or not-yet-started thread takes at once do not count as waiting.
      let capacity = queueLimit + state.idle + (threads - state.started)
      guard !state.closed, state.queue.count < capacity else { return nil }
      state.queue.append(job)
      guard state.idle < state.queue.count, state.started < threads else { return false }
      state.started += 1
      state.idle += 1
      return true
    }
    guard let spawn else { return false }
    if spawn {
      let shared = self.shared
      let thread = Thread { Self.workLoop(shared) }
      thread.name = "artwork-s3"
      thread.stackSize = 1 << 20
      thread.start()
    }
    shared.wake.signal()
    return true
  }

  /// One thread's life: take jobs until the pool is released, with one handle of its own.
  private static func workLoop(_ shared: Shared) {
    var handle: CurlEasy?
    while true {
      // `idle` already counts this thread (set when spawned, or at the end of the last job).
      shared.wake.wait()
      let job: Job? = shared.state.withLock { state in
        guard !state.queue.isEmpty else { return nil }  // a wake-up from `deinit`
        state.idle -= 1
        return state.queue.removeFirst()
      }
      guard let job else {
        if shared.state.withLock({ $0.closed && $0.queue.isEmpty }) { return }
        continue
      }
      job(&handle)
      shared.state.withLock { $0.idle += 1 }
    }
  }
}
