import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A point-in-time view of a pool's load, for metrics and admission.
public struct PoolStats: Sendable, Equatable {
  /// Jobs running now.
  public var busy: Int
  /// Jobs accepted and waiting for a thread.
  public var queued: Int

  /// A view of `busy` running and `queued` waiting jobs.
  public init(busy: Int, queued: Int) {
    self.busy = busy
    self.queued = queued
  }
}

/// The one pool type for blocking work (libvips, libcurl, getaddrinfo, file I/O): at most
/// `threads` jobs run at once on threads of the pool's own, started on demand and then kept, and
/// at most `queueLimit` wait in a FIFO queue in front of them. A job past that is refused at once
/// instead of queueing without bound. The service runs named instances of it (image work,
/// source fetches, name lookups, storage), each sized by the configuration, so that a storm of
/// one kind of work never queues another behind it.
///
/// Each thread keeps a `Local` value of its own from one job to the next (the S3 backend's curl
/// handle, so its connection to the store stays open); a `Local` is never seen by another thread.
///
/// Async code hands work over with `run` (for `Local == Void`) and suspends until a thread has
/// run it: the cooperative pool never blocks on image or network work. `shutdown` refuses new
/// jobs and waits for the accepted ones; when the pool is released its threads end once the
/// queue is empty.
public final class BlockingPool<Local>: Sendable {
  /// A job: runs on a pool thread with that thread's `Local` (nil until a job leaves one).
  public typealias Job = @Sendable (_ local: inout Local?) -> Void

  /// A queued job: runs the work and answers what to do once its thread counts as free again.
  private typealias Queued = @Sendable (_ local: inout Local?) -> (@Sendable () -> Void)?

  private struct State {
    /// FIFO of waiting jobs: `queue[head...]` are pending. A taken job's slot is cleared at once
    /// (a job's closure may hold its request's source bytes); the empty prefix is dropped lazily.
    var queue: [Queued?] = []
    var head = 0
    var started = 0
    var idle = 0
    var busy = 0
    var stopping = false
    var finished: [CheckedContinuation<Void, Never>] = []

    var queued: Int { queue.count - head }

    mutating func take() -> Queued? {
      guard head < queue.count else { return nil }
      let job = queue[head]
      // NOTE: without this, up to 64+ finished jobs stayed referenced until the next compaction,
      // each keeping its upload (up to 2 MB) alive: about 100 MB of RSS (BENCHMARKS.md, uploads).
      queue[head] = nil
      head += 1
      if head >= 64 && head * 2 >= queue.count {
        queue.removeFirst(head)
        head = 0
      }
      return job
    }
  }

  /// Shared with the threads; the pool object itself is not, so its `deinit` can stop them.
  private final class Shared: Sendable {
    let state = Mutex(State())
    let wake = DispatchSemaphore(value: 0)
  }

  /// The pool's name: its threads are called `name-n` (Linux keeps 15 bytes of a thread name).
  public let name: String
  /// The most jobs running at once.
  public let threads: Int
  /// The most jobs waiting for a thread.
  public let queueLimit: Int
  private let stackSize: Int
  private let refusal: String
  private let shared = Shared()

  /// - Parameters:
  ///   - name: the threads' name prefix.
  ///   - threads: most jobs running at once (at least 1).
  ///   - queueLimit: most jobs waiting for a thread.
  ///   - stackSize: bytes of stack per thread (libvips, libcurl and OpenSSL want more than the
  ///     512 KiB default of secondary threads).
  ///   - refusal: the `.busy` error's detail when `run` is refused.
  ///   - prestart: start every thread now rather than on demand (for a pool that is busy from
  ///     the first request: a job then never waits for its thread to start).
  public init(
    name: String, threads: Int, queueLimit: Int, stackSize: Int = 8 << 20,
    refusal: String = "the service is busy; try again shortly", prestart: Bool = false
  ) {
    self.name = name
    self.threads = max(1, threads)
    self.queueLimit = max(0, queueLimit)
    self.stackSize = stackSize
    self.refusal = refusal
    guard prestart else { return }
    shared.state.withLock { state in
      state.started = self.threads
      state.idle = self.threads
    }
    for number in 1...self.threads { startThread(number: number) }
  }

  deinit {
    let running = shared.state.withLock { state in
      state.stopping = true
      return state.started
    }
    for _ in 0..<running { shared.wake.signal() }
  }

  /// Queues `job`; false (and `job` never runs) when the queue is full or the pool is stopping.
  public func submit(_ job: @escaping Job) -> Bool {
    enqueue { local in
      job(&local)
      return nil
    }
  }

  private func enqueue(_ job: @escaping Queued) -> Bool {
    let spawn: Int? = shared.state.withLock { state in
      // Jobs an idle or not-yet-started thread takes at once do not count as waiting.
      let capacity = queueLimit + state.idle + (threads - state.started)
      guard !state.stopping, state.queued < capacity else { return nil }
      state.queue.append(job)
      guard state.idle < state.queued, state.started < threads else { return 0 }
      state.started += 1
      state.idle += 1
      return state.started
    }
    guard let spawn else { return false }
    if spawn > 0 { startThread(number: spawn) }
    shared.wake.signal()
    return true
  }

  /// Whether a job submitted now would be refused: every thread busy and the queue full.
  public var isFull: Bool {
    shared.state.withLock { $0.stopping || $0.busy + $0.queued >= threads + queueLimit }
  }

  /// Whether `beginShutdown` was called.
  var isStopping: Bool { shared.state.withLock { $0.stopping } }

  /// The current load.
  public var stats: PoolStats {
    shared.state.withLock { PoolStats(busy: $0.busy, queued: $0.queued) }
  }

  /// Refuses new jobs from now on; jobs already accepted still run. Returns at once.
  func beginShutdown() {
    let running = shared.state.withLock { state -> Int in
      guard !state.stopping else { return 0 }
      state.stopping = true
      return state.started
    }
    // One wake-up per thread: each ends when it wakes to an empty queue.
    for _ in 0..<running { shared.wake.signal() }
  }

  /// Refuses new jobs, lets the threads finish every job already accepted, and returns once all
  /// of them have ended. Calling it again waits the same way.
  public func shutdown() async {
    beginShutdown()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let done = shared.state.withLock { state in
        if state.started == 0 { return true }
        state.finished.append(continuation)
        return false
      }
      if done { continuation.resume() }
    }
  }

  /// `shutdown()` bounded by `grace`: answers whether every accepted job finished in time (the
  /// others finish on their own later).
  public func shutdown(within grace: Duration) async -> Bool {
    beginShutdown()
    let deadline = ContinuousClock.now + grace
    while shared.state.withLock({ $0.started > 0 }) {
      guard ContinuousClock.now < deadline else { return false }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return true
  }

  private func startThread(number: Int) {
    let shared = self.shared
    let name = "\(self.name)-\(number - 1)"
    let thread = Thread {
      // NOTE: on Linux a name set before `start()` is not applied to the thread.
      Thread.current.name = name
      Self.workLoop(shared)
    }
    thread.stackSize = stackSize
    thread.start()
  }

  /// Whether the calling thread is one of this pool's.
  var isCurrentThread: Bool {
    pthread_getspecific(PoolThread.key) == Unmanaged.passUnretained(shared).toOpaque()
  }

  /// One thread's life: take jobs in order until the pool stops and the queue is empty.
  private static func workLoop(_ shared: Shared) {
    pthread_setspecific(PoolThread.key, Unmanaged.passUnretained(shared).toOpaque())
    var local: Local?
    while true {
      // `idle` already counts this thread (set when spawned, or at the end of the last job).
      shared.wake.wait()
      let job: Queued? = shared.state.withLock { state in
        guard let job = state.take() else { return nil }
        state.idle -= 1
        state.busy += 1
        return job
      }
      guard let job else {
        // No job behind this wake-up: it is a shutdown signal (jobs are always signalled after
        // they are queued, so none can be left behind).
        let stop = shared.state.withLock { state -> [CheckedContinuation<Void, Never>]? in
          guard state.stopping, state.queued == 0 else { return nil }
          state.started -= 1
          state.idle -= 1
          guard state.started == 0 else { return [] }
          defer { state.finished = [] }
          return state.finished
        }
        guard let waiters = stop else { continue }
        for waiter in waiters { waiter.resume() }
        return
      }
      let then = job(&local)
      // The thread counts as free before its caller resumes, so a caller that goes on to
      // submit again (or reads `stats`) sees the capacity it just released.
      shared.state.withLock { state in
        state.busy -= 1
        state.idle += 1
      }
      then?()
    }
  }
}

extension BlockingPool where Local == Void {
  /// Runs `work` on a pool thread and answers its result or error.
  ///
  /// Throws `ArtworkError(.busy)` with `retryAfter: 1` without waiting when the queue is full or
  /// the pool is shutting down. The continuation is resumed exactly once: here on refusal, or by
  /// the one thread that takes the job. A cancelled task still waits for its job (the work may
  /// hold C resources that must be released on its own thread). The caller goes on on its own
  /// executor: the pool thread only resumes it, and is free (and counted free) at once.
  public func run<T: Sendable>(
    _ work: @escaping @Sendable () throws(ArtworkError) -> T
  ) async throws(ArtworkError) -> T {
    let refusal = self.refusal
    let result: Result<T, ArtworkError> = await withCheckedContinuation { continuation in
      let accepted = enqueue { _ in
        let result = Result { () throws(ArtworkError) -> T in try work() }
        return { continuation.resume(returning: result) }
      }
      if !accepted {
        let detail = isStopping ? "the service is shutting down" : refusal
        continuation.resume(returning: .failure(ArtworkError(.busy, detail, retryAfter: 1)))
      }
    }
    return try result.get()
  }
}

/// The thread-specific slot that tells which pool a thread belongs to.
private enum PoolThread {
  static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()
}
