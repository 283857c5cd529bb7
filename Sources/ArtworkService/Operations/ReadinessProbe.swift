import ArtworkCore
import Storage
import Synchronization

/// Storage's readiness as `/readyz` and `/metrics` report it: probed at most once per
/// `interval`, one probe at a time, whatever the request rate (anyone can send `/readyz`, and
/// each probe writes: an fsynced file, or an S3 LIST, PUT and DELETE). Callers within the
/// interval get the last verdict. A caller that needs a fresh one waits for the probe at most
/// `deadline`: a store that has not answered by then reads as not ready, so a load balancer
/// sees a stalled store within its timeout, never as ready on a probe queued behind it.
final class ReadinessProbe: Sendable {
  let storage: any ArtworkStorage
  /// How long a verdict holds (`ARTWORK_READINESS_INTERVAL`).
  let interval: Duration
  /// How long a caller waits for a probe (`ARTWORK_READINESS_TIMEOUT`).
  let deadline: Duration

  /// One verdict and when it was reached.
  struct Verdict: Sendable {
    /// Nil: ready.
    let problem: StorageProblem?
    let at: ContinuousClock.Instant
  }

  private struct State {
    var last: Verdict?
    /// Whether a probe runs now.
    var running = false
    /// The callers waiting for the running probe.
    var waiting: [Answer] = []

    /// Whether `last` is missing or older than `interval`.
    func isStale(_ interval: Duration) -> Bool {
      last.map { ContinuousClock.now - $0.at >= interval } ?? true
    }

    /// Marks a probe as running: true when the caller is to start it (none was).
    mutating func claimProbe() -> Bool {
      guard !running else { return false }
      running = true
      return true
    }
  }
  private let state = Mutex(State())

  init(storage: any ArtworkStorage, interval: Duration, deadline: Duration) {
    self.storage = storage
    self.interval = interval
    self.deadline = deadline
  }

  /// Nil when storage is ready, as of at most `interval` ago; else the problem. Waits at most
  /// `deadline` for a probe.
  func problem() async -> StorageProblem? {
    let answer = Answer()
    let (fresh, start) = state.withLock { state -> (Verdict?, Bool) in
      if !state.isStale(interval) { return (state.last, false) }
      state.waiting.append(answer)
      return (nil, state.claimProbe())
    }
    if let fresh { return fresh.problem }
    if start { probe() }
    let timer = Task { [deadline] in
      try? await Task.sleep(for: deadline)
      answer.give(nil)
    }
    defer { timer.cancel() }
    if let verdict = await answer.wait() { return verdict.problem }
    // The store has not answered: not ready, for every caller until the probe ends or the
    // interval passes (the probe goes on, and its verdict replaces this one).
    let problem = Self.silent(after: deadline)
    state.withLock { state in
      if state.isStale(interval) { state.last = Verdict(problem: problem, at: .now) }
    }
    return problem
  }

  /// The last verdict, never waiting: a stale one starts a probe for the next caller. Nil
  /// before the first probe ended.
  func lastVerdict() -> Verdict? {
    let (last, start) = state.withLock { state in
      (state.last, state.isStale(interval) && state.claimProbe())
    }
    if start { probe() }
    return last
  }

  /// Runs one probe (the caller claimed it), then answers everyone waiting for it.
  private func probe() {
    Task.detached { [self] in
      let verdict = Verdict(problem: await storage.readinessProblem(), at: .now)
      let waiting = state.withLock { state -> [Answer] in
        state.last = verdict
        state.running = false
        defer { state.waiting = [] }
        return state.waiting
      }
      for answer in waiting { answer.give(verdict) }
    }
  }

  static func silent(after deadline: Duration) -> StorageProblem {
    let seconds = (deadline.seconds * 1000).rounded() / 1000
    let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    return StorageProblem(
      summary: "storage did not answer within \(shown) s",
      detail: "storage did not answer the readiness probe within \(shown) s")
  }

  /// One caller's wait: the probe's verdict, or nil when its deadline came first.
  private final class Answer: Sendable {
    private let state = Mutex<
      (given: Bool, value: Verdict?, waiter: CheckedContinuation<Verdict?, Never>?)
    >((false, nil, nil))

    func give(_ value: Verdict?) {
      let waiter = state.withLock { state -> CheckedContinuation<Verdict?, Never>? in
        guard !state.given else { return nil }
        state.given = true
        state.value = value
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(returning: value)
    }

    func wait() async -> Verdict? {
      await withCheckedContinuation { continuation in
        let given = state.withLock { state -> (Bool, Verdict?) in
          if state.given { return (true, state.value) }
          state.waiter = continuation
          return (false, nil)
        }
        if given.0 { continuation.resume(returning: given.1) }
      }
    }
  }
}
