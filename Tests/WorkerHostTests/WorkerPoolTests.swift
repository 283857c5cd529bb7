import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ArtworkCore
@testable import WorkerHost

#if canImport(Glibc)
  import Glibc
#endif

/// The worker processes as the service drives them, observed from outside: a worker killed or
/// stopped from outside in the middle of a job is replaced and reported once, and its job is
/// tried again; its input is not blamed.
@Suite(.serialized) struct WorkerPoolTests {
  /// A pool of `count` workers started from the built `artwork`, with its events recorded.
  static func pool(
    count: Int = 1, timeout: Duration = .seconds(30), memory: Int = 512 << 20
  ) throws -> (WorkerPool, Locked<[WorkerEvent]>) {
    let events = Locked<[WorkerEvent]>([])
    var settings = WorkerSettings(
      executable: ServiceProcess.executable.path, count: count, queueLimit: 4,
      memoryBytes: memory, timeout: timeout)
    settings.startTimeout = .seconds(120)
    let pool = try WorkerPool(settings) { event in events.withLock { $0.append(event) } }
    return (pool, events)
  }

  static func processor(_ pool: WorkerPool) -> ArtworkProcessor {
    ArtworkProcessor(workers: pool, maxSourceBytes: 50_000_000, maxPixels: 40_000_000)
  }

  /// The error `work` throws, or nil when it succeeds.
  static func error<T>(_ work: () async throws(ArtworkError) -> T) async -> ArtworkError? {
    do {
      _ = try await work()
      return nil
    } catch {
      return error
    }
  }

  /// Waits (a bound against hangs, not a timing) until `condition` holds.
  static func waitUntil(_ condition: () -> Bool) async throws {
    for _ in 0..<2000 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
    #expect(condition())
  }

  /// The interruptions among `events`.
  static func interruptions(_ events: Locked<[WorkerEvent]>) -> [WorkerInterruption] {
    events.withLock { $0 }.compactMap { event -> WorkerInterruption? in
      if case .interrupted(let report) = event { return report }
      return nil
    }
  }

  /// Whether any of `events` is a failure blamed on an input.
  static func anyFailed(_ events: Locked<[WorkerEvent]>) -> Bool {
    events.withLock { $0 }.contains { if case .failed = $0 { true } else { false } }
  }

  /// `kill -9` from outside (as the kernel's OOM killer does) in the middle of a job blames
  /// nothing the job holds: the job is tried again in a new worker and succeeds, the input is
  /// not remembered, and the kill is reported once, as an interruption.
  @Test func aWorkerKilledFromOutsideInTheMiddleOfAJobIsTriedAgain() async throws {
    let (pool, events) = try Self.pool()
    defer { Task { _ = await pool.shutdown(within: .seconds(5)) } }
    let processor = Self.processor(pool)
    let worker = try #require(pool.idleWorkerIDs.first)
    let victim = Fixtures.bytes("coffee.jpg")
    // Stopped first, so that the job is surely in its hands when the kill comes.
    kill(worker, SIGSTOP)
    let job = Task {
      try await processor.render(victim, declaredType: nil, options: ArtworkOptions())
    }
    try await Self.waitUntil { pool.stats.busy == 1 }
    kill(worker, SIGKILL)
    let created = try await job.value
    #expect(created.width == 400)
    // Done by another process, which stays for the next job.
    let replacement = try #require(pool.idleWorkerIDs.first)
    #expect(replacement != worker && !ProcFS.isRunning(worker))
    #expect(pool.rememberedFailures == 0 && !Self.anyFailed(events))
    let interruptions = Self.interruptions(events)
    #expect(interruptions.count == 1)
    let report = try #require(interruptions.first)
    #expect(report.cause == .killed && report.retried && report.pid == worker)
    #expect(report.inputSHA256 == SHA256.hex(victim))
    #expect(report.details.contains("signal 9"), "\(report.details)")
    // The same input again goes to a worker, as any other.
    let again = try await processor.render(victim, declaredType: nil, options: ArtworkOptions())
    #expect(again.key == created.key)
    #expect(pool.idleWorkerIDs == [replacement])
  }

  /// A worker stopped (SIGSTOP) during a job is killed at the deadline having used next to no
  /// CPU time: the job is tried again in a new worker and succeeds; nothing is remembered.
  @Test func aStoppedWorkerIsKilledAtItsDeadlineAndItsJobTriedAgain() async throws {
    let (pool, events) = try Self.pool(timeout: .seconds(2))
    defer { Task { _ = await pool.shutdown(within: .seconds(5)) } }
    let processor = Self.processor(pool)
    let worker = try #require(pool.idleWorkerIDs.first)
    let job = Task {
      try await processor.render(
        Fixtures.bytes("coffee.jpg"), declaredType: nil, options: ArtworkOptions())
    }
    try await Self.waitUntil { pool.stats.busy == 1 }
    kill(worker, SIGSTOP)
    let created = try await job.value
    #expect(created.width == 400)
    #expect(!ProcFS.isRunning(worker))
    #expect(pool.rememberedFailures == 0 && !Self.anyFailed(events))
    let report = try #require(Self.interruptions(events).first)
    #expect(report.cause == .starved && report.retried)
    #expect(report.details.contains("killed by the pool at its deadline"), "\(report.details)")
    #expect(
      events.withLock { $0 }.contains { event in
        if case .replaced = event { return true }
        return false
      })
  }

  /// A worker that died between jobs (an operator's kill, the kernel's OOM killer) is replaced
  /// when the next job comes, and that job is not blamed for it.
  @Test func aWorkerGoneBetweenJobsIsReplacedWithoutBlamingTheNextInput() async throws {
    let (pool, events) = try Self.pool()
    defer { Task { _ = await pool.shutdown(within: .seconds(5)) } }
    let worker = try #require(pool.idleWorkerIDs.first)
    kill(worker, SIGKILL)
    try await Self.waitUntil { !ProcFS.isRunning(worker) }
    let created = try await Self.processor(pool).render(
      Fixtures.bytes("coffee.jpg"), declaredType: nil, options: ArtworkOptions())
    #expect(created.width == 400)
    #expect(pool.rememberedFailures == 0)
    #expect(!events.withLock { $0 }.contains { if case .failed = $0 { true } else { false } })
  }

  @Test func anImageOverTheMemoryLimitIsAMemoryFailure() async throws {
    let (pool, _) = try Self.pool(memory: 96 << 20)
    defer { Task { _ = await pool.shutdown(within: .seconds(5)) } }
    let processor = Self.processor(pool)
    let error = try #require(
      await Self.error { () async throws(ArtworkError) in
        try await processor.render(
          Fixtures.bytes("hostile/large-flat.png"), declaredType: nil,
          options: ArtworkOptions(shape: .poster))
      }, "a 120 MB picture framed in 96 MiB")
    #expect(error.kind == .decoderFailure)
    #expect(error.members == [.string("reason", "memory")])
    #expect(error.detail.contains("100,663,296 bytes"))
    let next = try await processor.render(
      Fixtures.bytes("coffee.jpg"), declaredType: nil, options: ArtworkOptions())
    #expect(next.width == 400)
  }
}
