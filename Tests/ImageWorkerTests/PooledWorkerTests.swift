import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ImageWorker
@testable import Imaging
@testable import WorkerHost
@testable import WorkerProtocol

#if canImport(Glibc)
  import Glibc
#endif

/// The worker process (`artwork __worker`, the built executable) as the service's pool drives
/// it: it says which libvips it decodes with, renders what this process would, and is locked
/// down.
@Suite(.serialized) struct PooledWorkerTests {
  /// A pool of `count` workers started from the built `artwork`.
  static func pool(count: Int = 1, memory: Int = 512 << 20) throws -> WorkerPool {
    var settings = WorkerSettings(
      executable: ServiceProcess.executable.path, count: count, queueLimit: 4,
      memoryBytes: memory, timeout: .seconds(30))
    settings.startTimeout = .seconds(120)
    return try WorkerPool(settings)
  }

  static func processor(_ pool: WorkerPool) -> ArtworkProcessor {
    ArtworkProcessor(workers: pool, maxSourceBytes: 50_000_000, maxPixels: 40_000_000)
  }

  /// The version in a worker's `ready` is the libvips this process would load.
  @Test func aWorkerSaysWhichLibvipsItDecodesWith() async throws {
    let pool = try Self.pool()
    defer { Task { _ = await pool.shutdown(within: .seconds(5)) } }
    #expect(pool.libvipsVersion == Vips.version)
    #expect(pool.libvipsVersion.hasPrefix("8."))
  }

  @Test func aWorkerRendersWhatTheProcessWouldAndStaysUp() async throws {
    let pool = try Self.pool()
    defer { Task { _ = await pool.shutdown(within: .seconds(5)) } }
    let worker = try #require(pool.idleWorkerIDs.first)
    let bytes = Fixtures.bytes("coffee.jpg")
    let options = ArtworkOptions(shape: .poster, size: 400, crop: .attention)
    let created = try await Self.processor(pool).render(
      bytes, declaredType: "image/jpeg", options: options)
    // The same bytes, ThumbHash and key as the work done in this process.
    let (facts, output) = try JobRunner.render(
      PinnedBytes(copying: bytes), options: options, limits: .standard)
    let local = try CreatedArtwork(facts, bytes: output, shape: options.shape)
    #expect(created.bytes == local.bytes)
    #expect(created.key == local.key && created.thumbHash == local.thumbHash)
    #expect(created.width == 400)
    #expect(pool.idleWorkerIDs == [worker])
  }

  /// Containment, from outside: every worker runs under a seccomp filter with no new
  /// privileges and its memory limit; asked to, it cannot open a file, create one, connect to
  /// a listening socket, start a program, signal its parent or raise its limit.
  @Test func workersAreLockedDown() async throws {
    let memory = 300 << 20
    let pool = try Self.pool(count: 2, memory: memory)
    defer { Task { _ = await pool.shutdown(within: .seconds(5)) } }
    let workers = pool.idleWorkerIDs
    #expect(workers.count == 2)
    #expect(ProcFS.children(of: getpid(), running: WorkerLaunch.command).contains(workers[0]))
    for worker in workers {
      let status = ProcFS.status(worker)
      #expect(status["Seccomp"] == "2", "\(status)")
      #expect(status["NoNewPrivs"] == "1")
      #expect(ProcFS.limit(worker, "Max data size") == String(memory))
      #expect(ProcFS.limit(worker, "Max core file size") == "0")
    }
    let listener = try LoopbackListener()
    let targets = ContainmentProbe.Targets(
      file: "/etc/hostname", host: "127.0.0.1", port: listener.port, program: "/bin/true")
    let report = try await Self.processor(pool).probeContainment(targets)
    #expect(report.attempts.count == 6)
    #expect(report.allRefused, "\(report.attempts)")
    for attempt in report.attempts {
      #expect(
        attempt.outcome.contains("Permission denied")
          || attempt.outcome.contains("Operation not permitted"), "\(attempt)")
    }
    #expect(listener.acceptedConnections() == 0)
    // The same probe in this (unconfined) process does what the worker could not.
    let unconfined = ContainmentProbe.run(targets)
    #expect(unconfined.attempts.filter(\.succeeded).count >= 4, "\(unconfined.attempts)")
    #expect(listener.acceptedConnections() == 1)
  }
}
