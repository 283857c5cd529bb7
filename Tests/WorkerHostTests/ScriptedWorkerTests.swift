import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import WorkerHost
@testable import WorkerProtocol

#if canImport(Glibc)
  import Glibc
#endif

/// The pool's verdicts on workers that misbehave on purpose: a small Python program speaks the
/// worker protocol (`ready` with a libvips version of its own, then one behaviour per job) in
/// place of `artwork __worker`. Each
/// verdict comes from the worker's code, its wait status, what the pool did to it and the CPU
/// time it used, whatever it writes on standard error.
@Suite(.serialized) struct ScriptedWorkerTests {
  /// The libvips version the scripted workers say they decode with.
  static let libvips = "8.99.7-scripted"

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
    s.send(struct.pack('<III', MAGIC, \(WorkerMessages.version), os.getpid()) + text('\(libvips)'))
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
  static func pool(_ behaviour: String, timeout: Duration = .seconds(10)) throws -> (
    WorkerPool, Locked<[WorkerEvent]>
  ) {
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
      executable: path, count: 1, queueLimit: 4, memoryBytes: 256 << 20, timeout: timeout)
    settings.startTimeout = .seconds(30)
    let pool = try WorkerPool(settings) { event in events.withLock { $0.append(event) } }
    return (pool, events)
  }

  /// The error a render job on a real JPEG meets in `pool` (`retryingRemembered` as the
  /// caller's `Cache-Control: no-cache` asks).
  static func failure(_ pool: WorkerPool, retryingRemembered: Bool = false) async throws
    -> ArtworkError
  {
    let processor = ArtworkProcessor(
      workers: pool, maxSourceBytes: 50_000_000, maxPixels: 40_000_000)
    return try #require(
      await WorkerPoolTests.error { () async throws(ArtworkError) in
        try await processor.render(
          Fixtures.bytes("coffee.jpg")[...], declaredType: nil, options: ArtworkOptions(),
          retryingRemembered: retryingRemembered)
      })
  }

  /// The failure reports among `events`.
  static func reports(_ events: Locked<[WorkerEvent]>) -> [WorkerFailureReport] {
    events.withLock { $0 }.compactMap { event -> WorkerFailureReport? in
      if case .failed(let report) = event { return report }
      return nil
    }
  }

  /// The interruptions among `events`.
  static func interruptions(_ events: Locked<[WorkerEvent]>) -> [WorkerInterruption] {
    events.withLock { $0 }.compactMap { event -> WorkerInterruption? in
      if case .interrupted(let report) = event { return report }
      return nil
    }
  }

  /// Python statements that keep four threads hashing (hashlib lets go of the interpreter's
  /// lock for long inputs) until the worker has used `seconds` of CPU time, or forever.
  static func burn(_ seconds: Double? = nil) -> String {
    """
    import hashlib, threading
    data = b'x' * (1 << 20)
    start = time.process_time()
    def burn():
        while \(seconds.map { "time.process_time() - start < \($0)" } ?? "True"):
            hashlib.sha256(data).digest()
    threads = [threading.Thread(target=burn, daemon=True) for _ in range(4)]
    for thread in threads: thread.start()
    for thread in threads: thread.join()
    """
  }

  /// The pool keeps the libvips version its worker's `ready` named: the service, which never
  /// loads libvips, reports it (`/healthz`, `artwork_build_info`).
  @Test func theVersionAWorkerIsReadyWithIsThePools() async throws {
    let (pool, events) = try Self.pool("answer('internal', 'Never asked.', '')")
    #expect(pool.libvipsVersion == Self.libvips)
    #expect(events.withLock { $0 }.isEmpty)
    _ = await pool.shutdown(within: .seconds(5))
  }

  /// Each misbehaviour of the worker's own, and what its report says: all are answered as a
  /// crash, and remembered.
  static let deaths: [(behaviour: String, details: [String])] = [
    ("os.kill(os.getpid(), signal.SIGSEGV)", ["signal 11"]),
    ("os.abort()", ["signal 6"]),
    ("os.kill(os.getpid(), signal.SIGBUS)", ["signal 7"]),
    ("os.kill(os.getpid(), signal.SIGSYS)", ["signal 31"]),
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

  /// A worker ended by a signal its own code does not raise (the kernel's OOM killer, an
  /// operator's `kill`) does not blame its input: the job is tried once more in a new worker,
  /// and when that one is ended too the answer is a 503 that says what happened.
  ///
  /// NOTE: a worker inherits the signal mask of the thread that started it (Dispatch's block
  /// SIGTERM), so the script unblocks the signal before sending it to itself.
  @Test(arguments: ["SIGKILL", "SIGTERM"])
  func aWorkerKilledFromOutsideIsTriedAgainAndItsInputNotBlamed(signal: String) async throws {
    let (pool, events) = try Self.pool(
      """
      signal.signal(signal.\(signal), signal.SIG_DFL) if signal.\(signal) != signal.SIGKILL else None
      signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.\(signal)])
      os.kill(os.getpid(), signal.\(signal))
      """)
    let first = try #require(pool.idleWorkerIDs.first)
    let error = try await Self.failure(pool)
    #expect(error.kind == .busy && error.members.isEmpty)
    // Retry-After says what the detail says (it was the 10 s worker timeout, under "a few
    // seconds").
    #expect(error.retryAfter == WorkerPool.retryAfterKill)
    #expect(error.detail.hasSuffix("Retry in \(WorkerPool.retryAfterKill) seconds."), "\(error)")
    #expect(error.detail.contains("ended by a signal from outside the service"), "\(error)")
    #expect(error.detail.contains("tried again in") && error.detail.contains("not to blame"))
    let interruptions = Self.interruptions(events)
    #expect(interruptions.map(\.cause) == [.killed, .killed])
    #expect(interruptions.map(\.retried) == [true, false])
    #expect(interruptions.first?.pid == first)
    #expect(Set(interruptions.map(\.pid)).count == 2)
    let digest = SHA256.hex(Fixtures.bytes("coffee.jpg"))
    #expect(interruptions.allSatisfy { $0.inputSHA256 == digest })
    #expect(Self.reports(events).isEmpty && pool.rememberedFailures == 0)
    // The input is not refused from memory: the next try reaches a (new) worker again.
    _ = try await Self.failure(pool)
    #expect(Self.interruptions(events).count == 4)
    _ = await pool.shutdown(within: .seconds(5))
  }

  /// A worker that used no CPU time up to the deadline (it slept, as a stopped worker or one
  /// starved on a busy machine does) is killed there, and its input not blamed either.
  @Test func aWorkerOutOfTimeWithLittleCPUTimeIsStarvedNotTheInputs() async throws {
    let (pool, events) = try Self.pool("time.sleep(60)", timeout: .seconds(1))
    let error = try await Self.failure(pool)
    #expect(error.kind == .busy && error.retryAfter == 1)
    #expect(error.detail.contains("The machine is too busy"), "\(error)")
    #expect(error.detail.hasSuffix("Retry in 1 second."), "\(error)")
    #expect(error.detail.contains("ran out of its 1 seconds with little CPU time"))
    let interruptions = Self.interruptions(events)
    #expect(interruptions.map(\.cause) == [.starved, .starved])
    #expect(interruptions.allSatisfy { $0.details.contains("killed by the pool at its deadline") })
    #expect(Self.reports(events).isEmpty && pool.rememberedFailures == 0)
    _ = await pool.shutdown(within: .seconds(5))
  }

  /// A worker that spent its time on the CPU (four threads hashing) until the deadline kill is
  /// a timeout of its input's: answered so, and remembered.
  @Test func aWorkerOutOfTimeOnTheCPUIsTheInputsTimeout() async throws {
    let (pool, events) = try Self.pool(Self.burn(), timeout: .seconds(1))
    let error = try await Self.failure(pool)
    #expect(error.kind == .decoderFailure, "\(error)")
    #expect(error.members == [.string("reason", "timeout")])
    let report = try #require(Self.reports(events).first)
    #expect(report.reason == .timeout && report.details.contains("killed by the pool"))
    #expect(Self.interruptions(events).isEmpty && pool.rememberedFailures == 1)
    _ = await pool.shutdown(within: .seconds(5))
  }

  /// A worker's own deadline (it answers `timeout` and lives on) is judged the same way: the
  /// input's after a second of CPU time in a 2-second budget; tried again after none.
  @Test func aWorkersOwnTimeoutIsTheInputsOnlyWhenItUsedTheCPU() async throws {
    let (busy, busyEvents) = try Self.pool(
      Self.burn(1.0) + "\nanswer('timeout', 'The image took too long.', '')",
      timeout: .seconds(2))
    let worker = try #require(busy.idleWorkerIDs.first)
    let blamed = try await Self.failure(busy)
    #expect(blamed.kind == .decoderFailure && blamed.members == [.string("reason", "timeout")])
    #expect(blamed.detail.contains("longer than 2 seconds"))
    #expect(Self.interruptions(busyEvents).isEmpty && busy.idleWorkerIDs == [worker])
    _ = await busy.shutdown(within: .seconds(5))

    let (idle, idleEvents) = try Self.pool(
      "answer('timeout', 'The image took too long.', '')", timeout: .seconds(2))
    let starved = try await Self.failure(idle)
    #expect(starved.kind == .busy && starved.detail.contains("too busy"), "\(starved)")
    let interruptions = Self.interruptions(idleEvents)
    #expect(interruptions.map(\.cause) == [.starved, .starved])
    #expect(interruptions.allSatisfy { $0.details.contains("lives on") })
    #expect(Self.reports(idleEvents).isEmpty && idle.rememberedFailures == 0)
    _ = await idle.shutdown(within: .seconds(5))
  }

  /// A remembered input is refused without another try, unless the caller asks for one
  /// (`Cache-Control: no-cache`): then it reaches a worker, and what that answers holds.
  @Test func aRememberedInputIsTriedAgainWhenTheCallerAsks() async throws {
    let (pool, events) = try Self.pool(
      """
      flag = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'crashed')
      if not os.path.exists(flag):
          open(flag, 'w').close()
          os.kill(os.getpid(), signal.SIGSEGV)
      answer('unprocessable', 'Tried again.', '')
      """)
    let crashed = try await Self.failure(pool)
    #expect(crashed.members == [.string("reason", "crash")])
    #expect(pool.rememberedFailures == 1)
    let refused = try await Self.failure(pool)
    #expect(refused.detail.contains("refused without another try"))
    let tried = try await Self.failure(pool, retryingRemembered: true)
    #expect(tried.kind == .unprocessableImage && tried.detail == "Tried again.")
    #expect(pool.rememberedFailures == 0)
    #expect(Self.reports(events).count == 1)
    _ = await pool.shutdown(within: .seconds(5))
  }

  /// A JPEG whose scans would cost seconds is refused in the service's process, before a
  /// worker is used: this worker would crash on any job, and none reaches it.
  @Test func aJPEGOfTooManyScansNeverReachesAWorker() async throws {
    let (pool, events) = try Self.pool("os.kill(os.getpid(), signal.SIGSEGV)")
    let worker = try #require(pool.idleWorkerIDs.first)
    let processor = ArtworkProcessor(
      workers: pool, maxSourceBytes: 50_000_000, maxPixels: 40_000_000)
    let bytes = ProgressiveJPEG.grey(width: 6320, height: 6320, scans: 883)
    let rendered = await WorkerPoolTests.error { () async throws(ArtworkError) in
      try await processor.render(bytes, declaredType: "image/jpeg", options: ArtworkOptions())
    }
    let hashed = await WorkerPoolTests.error { () async throws(ArtworkError) in
      try await processor.thumbHash(bytes, declaredType: nil)
    }
    for error in [rendered, hashed] {
      #expect(error?.kind == .unprocessableImage)
      #expect(
        error?.detail == "The image is a progressive JPEG of 883 scans; at most 100 are decoded.")
    }
    #expect(events.withLock { $0 }.isEmpty && pool.idleWorkerIDs == [worker])
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
