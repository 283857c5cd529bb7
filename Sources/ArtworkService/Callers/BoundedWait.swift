import ArtworkCore
import Synchronization

/// Work a caller waits for only so long (`Prefer: wait=N`): it runs in a task of its own and
/// goes on after the caller stops waiting, so its result is remembered for the next request.
/// One per service (`CallerWait`), so that its count of running works is the service's own.
final class BoundedWait: Sendable {
  /// Works going on at once, past their callers' waits included: beyond this many a new one is
  /// refused as busy, so that callers who do not wait cannot pile up work without bound.
  let maxRunning: Int
  /// The most of them one caller (`WorkShare`) has going on at once: a quarter, so one caller
  /// waiting on a hanging source cannot take every place from the others.
  let maxRunningPerShare: Int
  private let running = Mutex((total: 0, byShare: [String: Int]()))

  init(maxRunning: Int = 512) {
    self.maxRunning = maxRunning
    maxRunningPerShare = max(1, maxRunning / 4)
  }

  /// Takes a place for `share`'s work, or answers false.
  private func enter(_ share: String) -> Bool {
    running.withLock { running in
      guard running.total < maxRunning, running.byShare[share, default: 0] < maxRunningPerShare
      else { return false }
      running.total += 1
      running.byShare[share, default: 0] += 1
      return true
    }
  }

  private func leave(_ share: String) {
    running.withLock { running in
      running.total -= 1
      let left = running.byShare[share, default: 1] - 1
      running.byShare[share] = left > 0 ? left : nil
    }
  }

  /// What the caller got within its wait.
  enum Outcome<Value: Sendable>: Sendable {
    /// The work ended within the wait.
    case finished(Result<Value, ArtworkError>)
    /// It was still running when the wait ran out; it goes on.
    case pending
  }

  /// Starts `work` and answers its result if it ends within `seconds`, else `.pending`.
  func run<Value: Sendable>(
    atMost seconds: Int, _ work: @escaping @Sendable () async throws(ArtworkError) -> Value
  ) async -> Outcome<Value> {
    await run(until: .now + .seconds(seconds), work)
  }

  /// Starts `work` and answers its result if it ends before `deadline`, else `.pending`.
  func run<Value: Sendable>(
    until deadline: ContinuousClock.Instant,
    _ work: @escaping @Sendable () async throws(ArtworkError) -> Value
  ) async -> Outcome<Value> {
    let share = WorkShare.current
    guard enter(share ?? "") else {
      return .finished(
        .failure(
          ArtworkError(
            .busy, "Too much artwork is being made for callers who did not wait; retry shortly.",
            retryAfter: 1)))
    }
    let meeting = Meeting<Value>()
    Task.detached { [self] in
      defer { leave(share ?? "") }
      // Still the caller's work, in a task of its own.
      await WorkShare.$current.withValue(share) {
        do throws(ArtworkError) {
          meeting.arrive(.finished(.success(try await work())))
        } catch {
          meeting.arrive(.finished(.failure(error)))
        }
      }
    }
    let timer = Task.detached {
      try? await Task.sleep(until: deadline, clock: .continuous)
      meeting.arrive(.pending)
    }
    let outcome = await meeting.outcome()
    timer.cancel()
    return outcome
  }

  /// Where the work's end and the wait's end meet: the first to arrive is the outcome.
  private final class Meeting<Value: Sendable>: Sendable {
    private struct State {
      var outcome: Outcome<Value>?
      var waiter: CheckedContinuation<Outcome<Value>, Never>?
    }
    private let state = Mutex(State())

    func arrive(_ outcome: Outcome<Value>) {
      let waiter = state.withLock { state -> CheckedContinuation<Outcome<Value>, Never>? in
        guard case .none = state.outcome else { return nil }
        state.outcome = outcome
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(returning: outcome)
    }

    func outcome() async -> Outcome<Value> {
      await withCheckedContinuation { continuation in
        let ready = state.withLock { state -> Outcome<Value>? in
          if let outcome = state.outcome { return outcome }
          state.waiter = continuation
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    }
  }
}
