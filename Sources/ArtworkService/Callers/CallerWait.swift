import ArtworkCore

/// The one wait flow of the routes that honour `Prefer: wait=N` (`POST /v1/artwork` with a
/// URL, `POST /v1/content`): the wait granted within the handler's deadline; an answer memory
/// holds, given at once without a race against the wait; else the work in a task of its own,
/// waited for at most the granted seconds.
struct CallerWait: Sendable {
  /// `ARTWORK_HANDLER_TIMEOUT`: a wait is cut to end two seconds before it.
  let handlerTimeout: Duration
  let bounded: BoundedWait

  /// The caller's wait within the handler's deadline, less two seconds to answer in: a wait the
  /// deadline would cut short gets the pushable answer, not a 503.
  func granted(_ wait: Int?) -> Int? {
    guard let wait, handlerTimeout > .zero else { return wait }
    return min(wait, max(0, Int(handlerTimeout.components.seconds) - 2))
  }

  /// What the caller gets within `seconds`: what `remembered` holds (its throw a remembered
  /// failure) without waiting on anything, else `work`'s end or `.pending`, the work going on.
  func outcome<Value: Sendable>(
    within seconds: Int, remembered: () throws(ArtworkError) -> Value?,
    _ work: @escaping @Sendable () async throws(ArtworkError) -> Value
  ) async -> BoundedWait.Outcome<Value> {
    await outcome(until: .now + .seconds(seconds), remembered: remembered, work)
  }

  /// `outcome(within:)` for a wait whose clock started earlier, at `deadline - N`: before any
  /// storage lookup the request makes, so a stalled store holds no caller past its N seconds.
  func outcome<Value: Sendable>(
    until deadline: ContinuousClock.Instant, remembered: () throws(ArtworkError) -> Value?,
    _ work: @escaping @Sendable () async throws(ArtworkError) -> Value
  ) async -> BoundedWait.Outcome<Value> {
    do throws(ArtworkError) {
      if let value = try remembered() { return .finished(.success(value)) }
    } catch {
      return .finished(.failure(error))
    }
    return await bounded.run(until: deadline, work)
  }

  /// How long past a caller's wait the source's last artwork may still be looked up (a
  /// remembered record and a HEAD of its object: well under this on a store that answers).
  static let handover: Duration = .milliseconds(250)

  /// `lookup`'s answer when it ends by `handover` past the wait that ends at `deadline`, else
  /// nil: what a caller whose wait ran out can still be given (a source's last artwork) without
  /// waiting on a stalled store. The lookup is left to end on its own.
  func answer<Value: Sendable>(
    afterWaitEnding deadline: ContinuousClock.Instant,
    _ lookup: @escaping @Sendable () async -> Value?
  ) async -> Value? {
    let end = deadline + Self.handover
    guard ContinuousClock.now < end,
      case .finished(.success(let value)) = await bounded.run(
        until: end, { () throws(ArtworkError) in await lookup() })
    else { return nil }
    return value
  }
}
