import Dispatch
import Glibc
import Synchronization
import Testing

@testable import ArtworkCore

/// Shares (`WorkShare`): a queue per caller, the next job from the share with the fewest
/// running, a full queue making room by refusing the longest share's newest job, and a bound on
/// the threads one share holds.
@Suite struct BlockingPoolShareTests {
  /// What ran, in order.
  private final class Log: Sendable {
    private let entries = Mutex<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
    var last: String? { entries.withLock { $0.last } }
  }

  /// Holds the pool's one thread until opened, so that jobs queue behind it.
  private static func blocked(_ pool: BlockingPool<Void>, share: String) -> DispatchSemaphore {
    let gate = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    #expect(
      pool.submit(share: share) { _ in
        started.signal()
        gate.wait()
      })
    started.wait()
    return gate
  }

  @Test func aShareQueuedLaterIsServedInTurnNotBehindAnother() async throws {
    let pool = BlockingPool<Void>(name: "t-share", threads: 1, queueLimit: 100)
    let gate = Self.blocked(pool, share: "gate")
    let log = Log()
    let done = DispatchSemaphore(value: 0)
    for name in ["a1", "a2", "a3", "a4", "a5", "b1", "b2"] {
      #expect(
        pool.submit(share: String(name.prefix(1))) { _ in
          log.add(name)
          done.signal()
        })
    }
    gate.signal()
    for _ in 0..<7 { done.wait() }
    let order = log.all
    // In turns while both wait (FIFO would have run b1 sixth), each share in its own order.
    let b = order.indices.filter { order[$0].hasPrefix("b") }
    #expect(b.allSatisfy { $0 <= 3 }, "\(order)")
    #expect(order.filter { $0.hasPrefix("a") } == ["a1", "a2", "a3", "a4", "a5"])
    #expect(order.filter { $0.hasPrefix("b") } == ["b1", "b2"])
    await pool.shutdown()
  }

  @Test func aFullQueueRefusesTheLongestSharesNewestJobToTakeAnothers() async throws {
    let pool = BlockingPool<Void>(name: "t-share", threads: 1, queueLimit: 4)
    let gate = Self.blocked(pool, share: "gate")
    let log = Log()
    let ran = DispatchSemaphore(value: 0)
    func submit(_ name: String) -> Bool {
      let refused: @Sendable () -> Void = { log.add("refused " + name) }
      return pool.submit(share: String(name.prefix(1)), refused: refused) { _ in
        log.add(name)
        ran.signal()
      }
    }
    for name in ["a1", "a2", "a3", "a4"] { #expect(submit(name)) }
    // Full: the same share is refused at once; another takes a4's place.
    #expect(!submit("a5"))
    #expect(submit("b1"))
    #expect(log.all == ["refused a4"])
    #expect(submit("c1"))
    #expect(log.all == ["refused a4", "refused a3"])
    // A share is refused only for one that has fewer waiting: b (1) may take from a (2), and
    // then nobody waits with more than another by two.
    #expect(submit("b2"))
    #expect(log.all == ["refused a4", "refused a3", "refused a2"])
    // c (1) takes from b (2) in turn: the longest share gives way, never an equal one.
    #expect(submit("c2"))
    #expect(log.last == "refused b2")
    #expect(pool.stats.queued == 4)
    gate.signal()
    for _ in 0..<4 { ran.wait() }
    #expect(log.all.filter { !$0.hasPrefix("refused") }.sorted() == ["a1", "b1", "c1", "c2"])
    await pool.shutdown()
  }

  @Test func wouldAcceptAnswersWhatSubmitWouldDoAndChangesNothing() async throws {
    let pool = BlockingPool<Void>(name: "t-share", threads: 1, queueLimit: 2)
    let gate = Self.blocked(pool, share: "gate")
    let ran = DispatchSemaphore(value: 0)
    let refusals = Mutex(0)
    func submit(_ share: String) -> Bool {
      let refused: @Sendable () -> Void = { refusals.withLock { $0 += 1 } }
      return pool.submit(share: share, refused: refused) { _ in ran.signal() }
    }
    #expect(pool.wouldAccept(share: "a"))
    #expect(submit("a"))
    #expect(submit("a"))
    // Full of a's jobs: a itself would be refused; b would take the place of a's newest.
    #expect(!pool.wouldAccept(share: "a"))
    #expect(pool.wouldAccept(share: "b"))
    #expect(pool.wouldAccept(share: nil))
    // Asking took nobody's place.
    #expect(pool.stats.queued == 2 && refusals.withLock { $0 } == 0)
    #expect(submit("b"))
    #expect(refusals.withLock { $0 } == 1)
    // a and b wait one each: neither would now take the other's place; a third share, with
    // none waiting, would take one of theirs, as submit then does.
    #expect(!pool.wouldAccept(share: "a"))
    #expect(!pool.wouldAccept(share: "b"))
    #expect(pool.wouldAccept(share: "c"))
    #expect(submit("c"))
    #expect(refusals.withLock { $0 } == 2)
    gate.signal()
    for _ in 0..<2 { ran.wait() }
    await pool.shutdown()
    #expect(!pool.wouldAccept(share: "a"), "a stopped pool takes nothing")
  }

  @Test func aNewShareGetsTheNextThreadAheadOfManySharesServedBefore() async throws {
    // A hundred shares of one job each hold the queue; a newcomer, never served, is taken
    // before the shares that were served already, and never waits behind all of them.
    let pool = BlockingPool<Void>(name: "t-share", threads: 1, queueLimit: 300)
    let log = Log()
    let done = DispatchSemaphore(value: 0)
    let gate = Self.blocked(pool, share: "gate")
    for round in 0..<2 {
      for index in 0..<100 {
        #expect(
          pool.submit(share: "s\(index)") { _ in
            log.add("s\(index)-\(round)")
            usleep(2000)
            done.signal()
          })
      }
    }
    gate.signal()
    // Let part of the first round run, then the newcomer arrives.
    while log.all.count < 120 { try await Task.sleep(for: .milliseconds(1)) }
    #expect(
      pool.submit(share: "new") { _ in
        log.add("new")
        done.signal()
      })
    for _ in 0..<201 { done.wait() }
    let order = log.all
    let position = try #require(order.firstIndex(of: "new"))
    #expect(position <= 123, "the newcomer ran \(position)th of \(order.count)")
    await pool.shutdown()
  }

  @Test func aJobThatCannotBeRefusedStaysQueued() async throws {
    let pool = BlockingPool<Void>(name: "t-share", threads: 1, queueLimit: 1)
    let gate = Self.blocked(pool, share: "gate")
    let done = DispatchSemaphore(value: 0)
    #expect(pool.submit(share: "a") { _ in done.signal() })
    #expect(!pool.submit(share: "b") { _ in done.signal() })
    gate.signal()
    done.wait()
    await pool.shutdown()
  }

  @Test func oneShareHoldsAtMostItsThreadsAndAnotherStillRuns() async throws {
    let pool = BlockingPool<Void>(
      name: "t-share", threads: 4, queueLimit: 100, maxRunningPerShare: 3)
    let gate = DispatchSemaphore(value: 0)
    let running = Mutex((now: 0, most: 0))
    let finished = DispatchSemaphore(value: 0)
    for _ in 0..<6 {
      #expect(
        pool.submit(share: "a") { _ in
          running.withLock {
            $0.now += 1
            $0.most = max($0.most, $0.now)
          }
          gate.wait()
          running.withLock { $0.now -= 1 }
          finished.signal()
        })
    }
    // A holds three threads; the fourth stays free although A has three more waiting.
    let deadline = ContinuousClock.now + .seconds(30)
    while running.withLock({ $0.now }) < 3, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    try await Task.sleep(for: .milliseconds(50))
    #expect(pool.stats == PoolStats(busy: 3, queued: 3))
    // B's job runs on the thread A may not take, while A's three hold theirs.
    let bDone = DispatchSemaphore(value: 0)
    #expect(pool.submit(share: "b") { _ in bDone.signal() })
    #expect(bDone.wait(timeout: .now() + 30) == .success, "b waited behind a")
    for _ in 0..<6 { gate.signal() }
    for _ in 0..<6 { finished.wait() }
    #expect(running.withLock { $0.most } == 3)
    await pool.shutdown()
  }

  @Test func runTakesItsShareFromTheTaskAndAnswersBusyWhenRefusedLater() async throws {
    let pool = BlockingPool<Void>(
      name: "t-share", threads: 1, queueLimit: 1, refusal: "the test pool is full")
    let gate = Self.blocked(pool, share: "gate")
    let first = Task {
      try await WorkShare.$current.withValue("a") {
        try await pool.run { () throws(ArtworkError) -> Int in 1 }
      }
    }
    while pool.stats.queued < 1 { await Task.yield() }
    // B's job takes A's place: A's `run` answers busy.
    let second = Task {
      try await WorkShare.$current.withValue("b") {
        try await pool.run { () throws(ArtworkError) -> Int in 2 }
      }
    }
    await #expect(throws: ArtworkError(.busy, "the test pool is full", retryAfter: 1)) {
      _ = try await first.value
    }
    gate.signal()
    #expect(try await second.value == 2)
    await pool.shutdown()
  }
}
