import Dispatch
import Synchronization
import Testing

@testable import ArtworkCore

/// Counts the `Local` values that were dropped: a thread drops its own when it ends.
private final class Token: Sendable {
  static let dropped = Atomic<Int>(0)
  deinit { Self.dropped.add(1, ordering: .sequentiallyConsistent) }
}

@Suite(.serialized) struct BlockingPoolThreadTests {
  /// Waits up to 5 s for `condition`.
  private func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<500 {
      if condition() { return true }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
  }

  @Test func aThreadKeepsItsLocalValueFromJobToJob() async {
    let pool = BlockingPool<Int>(name: "t-local", threads: 1, queueLimit: 8, stackSize: 1 << 20)
    let seen = Mutex<[Int]>([])
    let done = DispatchSemaphore(value: 0)
    for _ in 0..<3 {
      let accepted = pool.submit { local in
        local = (local ?? 0) + 1
        seen.withLock { $0.append(local!) }
        done.signal()
      }
      #expect(accepted)
    }
    for _ in 0..<3 { done.wait() }
    #expect(seen.withLock { $0 } == [1, 2, 3])
  }

  @Test func runsAtMostThreadsJobsAndQueuesAtMostQueueLimit() async {
    let pool = BlockingPool<Void>(name: "t-bound", threads: 2, queueLimit: 1, stackSize: 1 << 20)
    let gate = DispatchSemaphore(value: 0)
    let running = Atomic<Int>(0)
    let most = Atomic<Int>(0)
    let finished = Atomic<Int>(0)
    let job: BlockingPool<Void>.Job = { _ in
      let now = running.add(1, ordering: .sequentiallyConsistent).newValue
      _ = most.max(now, ordering: .sequentiallyConsistent)
      gate.wait()
      running.subtract(1, ordering: .sequentiallyConsistent)
      finished.add(1, ordering: .sequentiallyConsistent)
    }
    #expect(pool.submit(job) && pool.submit(job))
    #expect(await eventually { running.load(ordering: .sequentiallyConsistent) == 2 })
    #expect(pool.submit(job), "one may wait")
    #expect(!pool.submit(job), "a second waiting job is refused")
    for _ in 0..<3 { gate.signal() }
    #expect(await eventually { finished.load(ordering: .sequentiallyConsistent) == 3 })
    #expect(most.load(ordering: .sequentiallyConsistent) == 2)
    // Capacity is back once the jobs are done.
    let again = DispatchSemaphore(value: 0)
    #expect(pool.submit { _ in again.signal() })
    again.wait()
  }

  @Test func threadsEndWhenThePoolIsReleased() async {
    let before = Token.dropped.load(ordering: .sequentiallyConsistent)
    let created = Atomic<Int>(0)
    var pool: BlockingPool<Token>? = BlockingPool(
      name: "t-end", threads: 2, queueLimit: 0, stackSize: 1 << 20)
    let done = DispatchSemaphore(value: 0)
    for _ in 0..<2 {
      _ = pool?.submit { local in
        if local == nil {
          local = Token()
          created.add(1, ordering: .sequentiallyConsistent)
        }
        done.signal()
      }
    }
    done.wait()
    done.wait()
    // Each thread holds its token while the pool lives.
    try? await Task.sleep(for: .milliseconds(50))
    #expect(Token.dropped.load(ordering: .sequentiallyConsistent) == before)
    pool = nil
    let tokens = created.load(ordering: .sequentiallyConsistent)
    #expect(tokens >= 1)
    #expect(
      await eventually { Token.dropped.load(ordering: .sequentiallyConsistent) == before + tokens })
    _ = pool
  }
}
