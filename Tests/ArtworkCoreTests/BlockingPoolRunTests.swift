import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing

@testable import ArtworkCore

/// Tracks how many jobs run at once, and the most ever seen.
private final class Occupancy: Sendable {
  private let counts = Mutex((now: 0, most: 0))
  var most: Int { counts.withLock { $0.most } }
  var count: Int { counts.withLock { $0.now } }
  func enter() {
    counts.withLock {
      $0.now += 1
      $0.most = max($0.most, $0.now)
    }
  }
  func leave() { counts.withLock { $0.now -= 1 } }
}

@Suite struct BlockingPoolRunTests {
  @Test func runsJobsOnItsOwnThreadsAndReturnsResultsAndErrors() async throws {
    let pool = BlockingPool<Void>(name: "t-pool", threads: 2, queueLimit: 100)
    let threads = try await withThrowingTaskGroup(of: UInt.self) { group in
      for _ in 0..<40 {
        group.addTask {
          try await pool.run { () throws(ArtworkError) -> UInt in UInt(pthread_self()) }
        }
      }
      var seen = Set<UInt>()
      for try await thread in group { seen.insert(thread) }
      return seen
    }
    // Whatever the cooperative pool did meanwhile, only the pool's two threads ran the jobs.
    #expect((1...2).contains(threads.count))
    await #expect(throws: ArtworkError(.unprocessableImage, "nope")) {
      try await pool.run { () throws(ArtworkError) -> Int in
        throw ArtworkError(.unprocessableImage, "nope")
      }
    }
    await pool.shutdown()
  }

  @Test func concurrencyNeverExceedsWorkersAndEveryJobCompletesOnce() async throws {
    let pool = BlockingPool<Void>(name: "t-pool", threads: 3, queueLimit: 1000)
    let occupancy = Occupancy()
    let results = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<200 {
        group.addTask {
          try await pool.run { () throws(ArtworkError) -> Int in
            occupancy.enter()
            defer { occupancy.leave() }
            // A little real work so that jobs overlap.
            var hash = index
            for step in 0..<20_000 { hash = hash &* 31 &+ step }
            _ = hash
            return index
          }
        }
      }
      var seen: [Int] = []
      for try await value in group { seen.append(value) }
      return seen
    }
    #expect(results.sorted() == Array(0..<200))
    #expect(occupancy.most <= 3)
    #expect(pool.stats == PoolStats(busy: 0, queued: 0))
    await pool.shutdown()
  }

  @Test func fullQueueIsRefusedImmediately() async throws {
    let workers = 2
    let queueLimit = 3
    let pool = BlockingPool<Void>(name: "t-pool", threads: workers, queueLimit: queueLimit)
    let gate = DispatchSemaphore(value: 0)
    let (started, startedSink) = AsyncStream.makeStream(of: Void.self)

    // Fill every worker (blocked on the gate) and the whole queue.
    let blocked = Task {
      try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<(workers + queueLimit) {
          group.addTask {
            try await pool.run { () throws(ArtworkError) -> Int in
              startedSink.yield()
              gate.wait()
              return index
            }
          }
        }
        var total = 0
        for try await value in group { total += value }
        return total
      }
    }
    var iterator = started.makeAsyncIterator()
    for _ in 0..<workers { await iterator.next() }
    // Both workers are inside a job; wait until the other jobs are queued too.
    while pool.stats != PoolStats(busy: workers, queued: queueLimit) { await Task.yield() }

    let error = await #expect(throws: ArtworkError.self) {
      try await pool.run { () throws(ArtworkError) -> Int in 0 }
    }
    #expect(error?.kind == .busy)
    #expect(error?.retryAfter == 1)

    for _ in 0..<(workers + queueLimit) { gate.signal() }
    #expect(try await blocked.value == 0 + 1 + 2 + 3 + 4)
    // Capacity is back once the backlog drained.
    #expect(try await pool.run { () throws(ArtworkError) -> Int in 7 } == 7)
    await pool.shutdown()
  }

  @Test func shutdownFinishesQueuedWorkThenRefuses() async throws {
    let pool = BlockingPool<Void>(name: "t-pool", threads: 1, queueLimit: 10)
    let gate = DispatchSemaphore(value: 0)
    let done = Occupancy()
    let jobs = Task {
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<5 {
          group.addTask {
            _ = try? await pool.run { () throws(ArtworkError) in
              gate.wait()
              done.enter()
            }
          }
        }
      }
    }
    while pool.stats != PoolStats(busy: 1, queued: 4) { await Task.yield() }
    pool.beginShutdown()
    let stopping = Task { await pool.shutdown() }
    let error = await #expect(throws: ArtworkError.self) {
      try await pool.run { () throws(ArtworkError) in }
    }
    #expect(error?.kind == .busy)
    for _ in 0..<5 { gate.signal() }
    await stopping.value
    await jobs.value
    #expect(done.count == 5)
    await pool.shutdown()
  }
}

/// A caller woken by a pool goes on on Swift's executor, never on the pool's thread: the pool
/// thread is free, and counted free, as soon as it has resumed the caller.
@Suite struct BlockingPoolResumeTests {
  /// The name of the calling thread, as the kernel has it.
  static func threadName() -> String {
    ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func callersGoOnOffThePoolsThreads() async throws {
    let pool = BlockingPool<Void>(name: "t-resume", threads: 1, queueLimit: 10)
    for _ in 0..<20 {
      let inside = try await pool.run { () throws(ArtworkError) in Self.threadName() }
      #expect(inside.hasPrefix("t-resume"))
      #expect(!Self.threadName().hasPrefix("t-resume"))
      // The thread that ran the job is free while its caller goes on.
      #expect(pool.stats.busy == 0)
    }
  }
}
