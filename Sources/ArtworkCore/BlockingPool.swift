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
/// at most `queueLimit` wait in front of them. A job past that is refused at once instead of
/// queueing without bound.
///
/// Jobs are queued by share (`WorkShare.current` when queued: the caller they are done for), in
/// order within a share. A free thread takes the next job of the share with the fewest running
/// (the one served longest ago among equals), so one caller's queue never stands in front of
/// another's, and with `maxRunningPerShare` no share holds more threads than that. A full queue
/// still takes a job of a share with fewer waiting than the longest: that share's newest
/// refusable job is refused in its place (its `refused` runs), so a flood from one caller cannot
/// push another's request out. One caller alone uses every thread and every place. The service runs named instances of it (image work,
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

  /// A waiting job, and what tells its caller when it is refused to make room for another
  /// share's (nil: it is never refused once queued).
  private struct Waiting {
    var job: Queued
    var refused: (@Sendable () -> Void)?
  }

  private struct State {
    /// Waiting jobs by share, each in order (a taken job leaves its queue at once: a job's
    /// closure may hold its request's source bytes).
    var waiting: [String: [Waiting]] = [:]
    /// Jobs running by share (only shares with some).
    var running: [String: Int] = [:]
    /// When each share was last served (`served` then), for turns among equals.
    var lastServed: [String: UInt64] = [:]
    var served: UInt64 = 0
    var queued = 0
    var started = 0
    var idle = 0
    var busy = 0
    var stopping = false
    var finished: [CheckedContinuation<Void, Never>] = []

    /// The next job: of the share with the fewest running, served longest ago among equals,
    /// and below `limit` running; nil when no share may run one now.
    mutating func take(limit: Int) -> (job: Queued, share: String)? {
      var best: (share: String, running: Int, served: UInt64)?
      for share in waiting.keys {
        let count = running[share, default: 0]
        guard count < limit else { continue }
        let last = lastServed[share, default: 0]
        if let current = best, (current.running, current.served) <= (count, last) { continue }
        best = (share, count, last)
      }
      guard let share = best?.share, var jobs = waiting[share], !jobs.isEmpty else { return nil }
      let next = jobs.removeFirst()
      waiting[share] = jobs.isEmpty ? nil : jobs
      queued -= 1
      running[share, default: 0] += 1
      served += 1
      lastServed[share] = served
      return (next.job, share)
    }

    /// A job of `share` ended.
    mutating func ended(_ share: String) {
      let left = running[share, default: 1] - 1
      running[share] = left > 0 ? left : nil
      if left <= 0, waiting[share] == nil { lastServed[share] = nil }
    }

    /// The job that would make room for one of `share` in a full queue: the newest refusable
    /// job of the share with the most waiting, when that is more than `share` has.
    func victim(for share: String) -> (share: String, index: Int)? {
      let mine = waiting[share]?.count ?? 0
      var longest: (share: String, count: Int)?
      for (other, jobs) in waiting where other != share && jobs.count > mine {
        if let current = longest, current.count >= jobs.count { continue }
        longest = (other, jobs.count)
      }
      guard let victim = longest?.share,
        let index = waiting[victim]?.lastIndex(where: { $0.refused != nil })
      else { return nil }
      return (victim, index)
    }

    /// Makes room for a job of `share` in a full queue (`victim`). Answers its `refused`.
    mutating func evict(for share: String) -> (@Sendable () -> Void)? {
      guard let (victim, index) = victim(for: share), var jobs = waiting[victim] else {
        return nil
      }
      let refused = jobs.remove(at: index).refused
      waiting[victim] = jobs.isEmpty ? nil : jobs
      queued -= 1
      return refused
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
  /// The most threads one share holds at once (`threads` unless set lower).
  public let maxRunningPerShare: Int
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
  ///   - maxRunningPerShare: the most threads one share holds at once, leaving the others free
  ///     for other callers (for work that mostly waits: fetches); nil for all of them.
  public init(
    name: String, threads: Int, queueLimit: Int, stackSize: Int = 8 << 20,
    refusal: String = "the service is busy; try again shortly", prestart: Bool = false,
    maxRunningPerShare: Int? = nil
  ) {
    self.name = name
    self.threads = max(1, threads)
    self.queueLimit = max(0, queueLimit)
    self.maxRunningPerShare = max(1, min(self.threads, maxRunningPerShare ?? self.threads))
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

  /// Queues `job` under the running task's `WorkShare` (or `share`); false (and `job` never runs)
  /// when the queue is full or the pool is stopping. With `refused`, a queued job may be refused
  /// later to make room for another share's (`refused` runs instead of `job`).
  public func submit(
    share: String? = WorkShare.current, refused: (@Sendable () -> Void)? = nil,
    _ job: @escaping Job
  ) -> Bool {
    enqueue(share: share, refused: refused) { local in
      job(&local)
      return nil
    }
  }

  private func enqueue(
    share: String?, refused: (@Sendable () -> Void)? = nil, _ job: @escaping Queued
  ) -> Bool {
    let share = share ?? ""
    let outcome: (spawn: Int, evicted: (@Sendable () -> Void)?)? = shared.state.withLock {
      state in
      guard !state.stopping else { return nil }
      // Jobs an idle or not-yet-started thread takes at once do not count as waiting.
      let capacity = queueLimit + state.idle + (threads - state.started)
      var evicted: (@Sendable () -> Void)?
      if state.queued >= capacity {
        guard let refusal = state.evict(for: share) else { return nil }
        evicted = refusal
      }
      state.waiting[share, default: []].append(Waiting(job: job, refused: refused))
      state.queued += 1
      guard state.idle < state.queued, state.started < threads else { return (0, evicted) }
      state.started += 1
      state.idle += 1
      return (state.started, evicted)
    }
    guard let outcome else { return false }
    outcome.evicted?()
    if outcome.spawn > 0 { startThread(number: outcome.spawn) }
    shared.wake.signal()
    return true
  }

  /// Whether a job of `share` submitted now would be queued: a thread or a place in the queue
  /// is free, or the queue holds a refusable job of a share with more waiting, which would be
  /// refused in its place (`submit`). Nothing changes.
  public func wouldAccept(share: String? = WorkShare.current) -> Bool {
    shared.state.withLock { state in
      guard !state.stopping else { return false }
      let capacity = queueLimit + state.idle + (threads - state.started)
      return state.queued < capacity || state.victim(for: share ?? "") != nil
    }
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
    let limit = maxRunningPerShare < threads ? maxRunningPerShare : Int.max
    let thread = Thread {
      // NOTE: on Linux a name set before `start()` is not applied to the thread.
      Thread.current.name = name
      Self.workLoop(shared, limit: limit)
    }
    thread.stackSize = stackSize
    thread.start()
  }

  /// One thread's life: take jobs in order until the pool stops and the queue is empty.
  private static func workLoop(_ shared: Shared, limit: Int) {
    var local: Local?
    while true {
      // `idle` already counts this thread (set when spawned, or at the end of the last job).
      shared.wake.wait()
      let taken: (job: Queued, share: String)? = shared.state.withLock { state in
        guard let taken = state.take(limit: limit) else { return nil }
        state.idle -= 1
        state.busy += 1
        return taken
      }
      guard let taken else {
        // No job behind this wake-up: a shutdown signal (jobs are always signalled after they
        // are queued, so none can be left behind), or a job whose share holds its most threads
        // (the end of one of them wakes a thread again).
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
      let then = taken.job(&local)
      // The thread counts as free before its caller resumes, so a caller that goes on to
      // submit again (or reads `stats`) sees the capacity it just released.
      let waiting = shared.state.withLock { state -> Bool in
        state.busy -= 1
        state.idle += 1
        state.ended(taken.share)
        return state.queued > 0
      }
      // A job held back by its share's limit may run now.
      if waiting, limit < Int.max { shared.wake.signal() }
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
      let accepted = enqueue(
        share: WorkShare.current,
        refused: {
          continuation.resume(returning: .failure(ArtworkError(.busy, refusal, retryAfter: 1)))
        }
      ) { _ in
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
