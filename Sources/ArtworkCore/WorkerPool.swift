import Dispatch
import Foundation
import Synchronization

/// A fixed set of dedicated threads for blocking work (libvips, libcurl), with a bounded FIFO
/// queue in front. Async code hands a job over with `run` and suspends until a worker has run it;
/// the cooperative thread pool never blocks on image or network work.
///
/// Admission is immediate: when every worker is busy and `queueLimit` jobs are already waiting,
/// `run` throws `.busy` (503 + Retry-After) at once instead of queueing without bound.
public final class WorkerPool: Sendable {
  /// A point-in-time view of the pool's load, for metrics.
  public struct Stats: Sendable, Equatable {
    /// Workers running a job now.
    public var busy: Int
    /// Jobs accepted and waiting for a worker.
    public var queued: Int
  }

  /// The number of worker threads: at most this many jobs run at once.
  public let workers: Int
  /// How many accepted jobs may wait while every worker is busy.
  public let queueLimit: Int

  /// A queued job: runs the work on a worker thread and answers how to resume its caller.
  private typealias Job = @Sendable () -> @Sendable () -> Void

  private struct State {
    /// FIFO of waiting jobs: `jobs[head...]` are pending. A taken job's slot is cleared at once
    /// (the closure holds its request's source bytes); the empty prefix is dropped lazily.
    var jobs: [Job?] = []
    var head = 0
    var busy = 0
    var stopping = false
    var running = 0
    var stopped: [CheckedContinuation<Void, Never>] = []

    var queued: Int { jobs.count - head }

    mutating func take() -> Job? {
      guard head < jobs.count else { return nil }
      let job = jobs[head]
      // NOTE: without this, up to 64+ finished jobs stayed referenced until the next compaction,
      // each keeping its upload (up to 2 MB) alive: about 100 MB of RSS (BENCHMARKS.md, uploads).
      jobs[head] = nil
      head += 1
      // Compact once the consumed prefix dominates, so the array does not grow forever.
      if head >= 64 && head * 2 >= jobs.count {
        jobs.removeFirst(head)
        head = 0
      }
      return job
    }
  }

  private let state = Mutex(State())
  /// Counts jobs available to take (plus one wake-up per worker at shutdown).
  private let available = DispatchSemaphore(value: 0)

  /// Starts `workers` threads (at least one). `queueLimit` jobs may wait beyond those running.
  /// Threads are named `name-index`; Linux keeps 15 bytes of a thread name, so keep it short.
  public init(workers: Int, queueLimit: Int, name: String = "artwork-w") {
    self.workers = max(1, workers)
    self.queueLimit = max(0, queueLimit)
    state.withLock { $0.running = self.workers }
    for index in 0..<self.workers {
      let threadName = "\(name)-\(index)"
      let thread = Thread { [self] in
        // NOTE: on Linux a name set before `start()` is not applied to the thread, so it is set
        // here. Best effort: names only help debuggers and `top -H`.
        Thread.current.name = threadName
        self.workLoop()
      }
      // libvips and libcurl use plenty of stack; match the usual 8 MiB main-thread stack.
      thread.stackSize = 8 << 20
      thread.start()
    }
  }

  /// Runs `work` on a worker thread and answers its result or error.
  ///
  /// Throws `ArtworkError(.busy)` with `retryAfter: 1` without waiting when the queue is full or
  /// the pool is shutting down. The continuation is resumed exactly once: either here on
  /// refusal, or by the one worker that takes the job. A cancelled task still waits for its
  /// job (the work may hold C resources that must be released on its own thread).
  public func run<T: Sendable>(
    _ work: @escaping @Sendable () throws(ArtworkError) -> T
  ) async throws(ArtworkError) -> T {
    let result: Result<T, ArtworkError> = await withCheckedContinuation { continuation in
      let job: Job = {
        let result = Result { () throws(ArtworkError) -> T in try work() }
        return { continuation.resume(returning: result) }
      }
      let refusal: String? = state.withLock { state in
        if state.stopping { return "the service is shutting down" }
        guard state.queued + state.busy < workers + queueLimit else {
          return "the service is busy; try again shortly"
        }
        state.jobs.append(job)
        return nil
      }
      if let refusal {
        continuation.resume(returning: .failure(ArtworkError(.busy, refusal, retryAfter: 1)))
      } else {
        available.signal()
      }
    }
    return try result.get()
  }

  /// Whether a job submitted now would be refused: every worker busy and the queue full.
  public var isFull: Bool {
    state.withLock { $0.queued + $0.busy >= workers + queueLimit }
  }

  /// The current load.
  public var stats: Stats {
    state.withLock { Stats(busy: $0.busy, queued: $0.queued) }
  }

  /// Refuses new jobs from now on (they get `.busy`); jobs already accepted still run.
  /// Returns at once; `shutdown()` waits for the workers to finish.
  public func beginShutdown() {
    let first = state.withLock { state in
      defer { state.stopping = true }
      return !state.stopping
    }
    // One wake-up per worker: each ends when it wakes to an empty queue.
    if first {
      for _ in 0..<workers { available.signal() }
    }
  }

  /// Refuses new jobs, lets the workers finish every job already accepted, and returns once all
  /// worker threads have ended. Calling it again waits the same way.
  public func shutdown() async {
    beginShutdown()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let done = state.withLock { state in
        if state.running == 0 { return true }
        state.stopped.append(continuation)
        return false
      }
      if done { continuation.resume() }
    }
  }

  /// One worker: take jobs in order until the pool stops and the queue is empty.
  private func workLoop() {
    while true {
      available.wait()
      let job = state.withLock { state -> Job? in
        guard let job = state.take() else { return nil }
        state.busy += 1
        return job
      }
      guard let job else {
        // No job behind this wake-up: it is a shutdown signal (jobs are always signalled
        // after they are queued, so none can be left behind).
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
          state.running -= 1
          guard state.running == 0 else { return [] }
          defer { state.stopped = [] }
          return state.stopped
        }
        for waiter in waiters { waiter.resume() }
        return
      }
      let finish = job()
      // The worker counts as free before its caller resumes, so a caller that goes on to
      // submit again (or reads `stats`) sees the capacity it just released.
      state.withLock { $0.busy -= 1 }
      finish()
    }
  }
}
