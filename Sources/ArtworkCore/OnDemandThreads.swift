import Dispatch
import Foundation
import Synchronization

/// Threads for blocking network work, started on demand up to `threads` and then kept, with a
/// bounded FIFO queue in front. Each thread keeps a `Local` value of its own from one job to the
/// next (the S3 backend's curl handle, so its connection to the store stays open); a `Local` is
/// never seen by another thread.
///
/// `submit` refuses a job at once (answers false) when `queueLimit` jobs are already waiting
/// beyond what idle and not-yet-started threads will take. When the pool is released, its
/// threads end once the queue is empty.
///
/// The source fetcher's `FetchPool` and the S3 backend's `S3HandlePool` are built on it (two
/// pools: a storm of slow origins must not queue the store's requests, nor the reverse). The
/// image `WorkerPool` is not: it starts all its threads at once and drains on shutdown.
public final class OnDemandThreads<Local>: Sendable {
  /// A job: runs on a pool thread with that thread's `Local` (nil until a job leaves one).
  public typealias Job = @Sendable (_ local: inout Local?) -> Void

  private struct State {
    var queue: [Job] = []
    var started = 0
    var idle = 0
    var closed = false
  }

  /// Shared with the threads; the pool object itself is not, so its `deinit` can stop them.
  private final class Shared: Sendable {
    let state = Mutex(State())
    let wake = DispatchSemaphore(value: 0)
  }

  private let shared = Shared()
  private let threads: Int
  private let queueLimit: Int
  private let name: String
  private let stackSize: Int

  /// - Parameters:
  ///   - threads: most jobs running at once.
  ///   - queueLimit: most jobs waiting for a thread.
  ///   - name: the threads' name (Linux keeps 15 bytes).
  ///   - stackSize: bytes of stack per thread (libcurl and OpenSSL want more than 512 KiB).
  public init(threads: Int, queueLimit: Int, name: String, stackSize: Int) {
    precondition(threads > 0 && queueLimit >= 0)
    self.threads = threads
    self.queueLimit = queueLimit
    self.name = name
    self.stackSize = stackSize
  }

  deinit {
    let running = shared.state.withLock { state in
      state.closed = true
      return state.started
    }
    for _ in 0..<running { shared.wake.signal() }
  }

  /// Queues `job`; false (and `job` never runs) when the queue is full.
  public func submit(_ job: @escaping Job) -> Bool {
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
      let name = self.name
      let thread = Thread {
        // NOTE: on Linux a name set before `start()` is not applied to the thread.
        Thread.current.name = name
        Self.workLoop(shared)
      }
      thread.stackSize = stackSize
      thread.start()
    }
    shared.wake.signal()
    return true
  }

  /// One thread's life: take jobs until the pool is released and the queue is empty.
  private static func workLoop(_ shared: Shared) {
    var local: Local?
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
      job(&local)
      shared.state.withLock { $0.idle += 1 }
    }
  }
}
