import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ImageWorkers
@testable import Imaging

#if canImport(Glibc)
  import Glibc
#endif

/// The pool's verdicts on workers that misbehave on purpose: a small Python program speaks the
/// worker protocol (`ready`, then one behaviour per job) in place of `artwork __worker`. Each
/// verdict comes from the worker's code, its wait status and what the pool did to it, whatever
/// it writes on standard error.
@Suite(.serialized) struct ScriptedWorkerTests {
  /// A worker that says it is ready, then meets every job with `behaviour` (Python statements;
  /// `s` is its socket, `answer(code, detail, internal)` sends a failed answer).
  static func script(_ behaviour: String) -> String {
    """
    #!/usr/bin/python3
    import os, signal, socket, struct, sys, time
    MAGIC = 0x57545241
    s = socket.socket(fileno=3)
    def text(value):
        data = value.encode()
        return struct.pack('<I', len(data)) + data
    def answer(code, detail, internal):
        s.send(struct.pack('<IB', MAGIC, 5) + text(code) + text(detail) + text(internal))
    s.send(struct.pack('<III', MAGIC, \(WorkerMessages.version), os.getpid()))
    while True:
        job = s.recv(65536)
        if not job:
            os._exit(0)
        sys.stderr.write('out of memory: Could not allocate memory\\n')
        sys.stderr.flush()
    \(behaviour.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))

    """
  }

  /// A pool of one scripted worker, its events recorded.
  static func pool(_ behaviour: String) throws -> (WorkerPool, Locked<[WorkerEvent]>) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "artwork-scripted-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("worker.py").path
    // NOTE: written through a descriptor closed on exec: a process spawned meanwhile (another
    // pool's replacement worker) that kept it open would make this one's spawn fail with
    // ETXTBSY.
    let bytes = Array(Self.script(behaviour).utf8)
    let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
    try #require(file >= 0)
    let written = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
    close(file)
    try #require(written == bytes.count)
    let events = Locked<[WorkerEvent]>([])
    var settings = WorkerSettings(
      executable: path, count: 1, queueLimit: 4, memoryBytes: 256 << 20, timeout: .seconds(10))
    settings.startTimeout = .seconds(30)
    let pool = try WorkerPool(settings) { event in events.withLock { $0.append(event) } }
    return (pool, events)
  }

  /// The error a render job on a real JPEG meets in `pool`.
  static func failure(_ pool: WorkerPool) async throws -> ArtworkError {
    let processor = ArtworkProcessor(
      workers: pool, maxSourceBytes: 50_000_000, maxPixels: 40_000_000)
    return try #require(
      await WorkerPoolTests.error { () async throws(ArtworkError) in
        try await processor.render(
          Fixtures.bytes("coffee.jpg"), declaredType: nil, options: ArtworkOptions())
      })
  }

  /// The failure reports among `events`.
  static func reports(_ events: Locked<[WorkerEvent]>) -> [WorkerFailureReport] {
    events.withLock { $0 }.compactMap { event -> WorkerFailureReport? in
      if case .failed(let report) = event { return report }
      return nil
    }
  }

  /// Each misbehaviour, and what its report says: all are answered as a crash.
  static let deaths: [(behaviour: String, details: [String])] = [
    ("os.kill(os.getpid(), signal.SIGSEGV)", ["signal 11"]),
    ("os.abort()", ["signal 6"]),
    ("os.kill(os.getpid(), signal.SIGKILL)", ["signal 9"]),
    ("os._exit(70)", ["exit 70"]),
    (
      "s.send(b'x' * 70000)\ntime.sleep(60)",
      ["broke the protocol (a message over 65536 bytes", "signal 9"]
    ),
    ("s.send(b'ARTW garbage')\ntime.sleep(60)", ["broke the protocol (a malformed answer"]),
    (
      "answer('crash', 'I crashed', '')\ntime.sleep(60)",
      ["broke the protocol (a malformed answer: a worker cannot report its own crash"]
    ),
    ("s.close()\ntime.sleep(60)", ["broke the protocol (it closed its socket and lived on)"]),
  ]

  @Test(arguments: deaths.indices)
  func aMisbehavingWorkerIsACrashOfItsOwnKind(index: Int) async throws {
    let (behaviour, details) = Self.deaths[index]
    let (pool, events) = try Self.pool(behaviour)
    let worker = try #require(pool.idleWorkerIDs.first)
    let error = try await Self.failure(pool)
    #expect(error.kind == .decoderFailure, "\(behaviour)")
    #expect(error.members == [.string("reason", "crash")], "\(behaviour)")
    #expect(!ProcFS.isRunning(worker))
    let reports = Self.reports(events)
    #expect(reports.count == 1)
    let report = try #require(reports.first)
    #expect(report.reason == .crash)
    for words in details {
      #expect(report.details.contains(words), "\(behaviour): \(report.details)")
    }
    // Its words are in the report, and judged nothing.
    #expect(report.details.contains("stderr: out of memory: Could not allocate memory"))
    #expect(pool.rememberedFailures == 1)
    _ = await pool.shutdown(within: .seconds(5))
  }

  /// A worker that reports running out of memory lives on: the answer is the pool's memory
  /// problem, no worker is replaced, and nothing is remembered.
  @Test func aWorkerReportingMemoryIsAMemoryFailureAndLivesOn() async throws {
    let (pool, events) = try Self.pool(
      "answer('memory', 'The image could not be decoded.', 'vips_tracked: out of memory')")
    let worker = try #require(pool.idleWorkerIDs.first)
    let error = try await Self.failure(pool)
    #expect(error.kind == .decoderFailure)
    #expect(error.members == [.string("reason", "memory")])
    #expect(error.detail.contains("268,435,456 bytes"))
    #expect(error.internalDetail == "vips_tracked: out of memory")
    #expect(pool.idleWorkerIDs == [worker] && ProcFS.isRunning(worker))
    #expect(Self.reports(events).isEmpty && pool.rememberedFailures == 0)
    _ = await pool.shutdown(within: .seconds(5))
  }

  /// The codes that are not decoder failures carry the worker's words, whatever they say.
  @Test func aWorkerReportingADamagedImageIsUnprocessable() async throws {
    let (pool, events) = try Self.pool(
      "answer('unprocessable', 'The image is damaged.', 'out of memory, timeout, crash')")
    let error = try await Self.failure(pool)
    #expect(error.kind == .unprocessableImage)
    #expect(error.detail == "The image is damaged." && error.members.isEmpty)
    #expect(Self.reports(events).isEmpty && pool.rememberedFailures == 0)
    _ = await pool.shutdown(within: .seconds(5))
  }
}
