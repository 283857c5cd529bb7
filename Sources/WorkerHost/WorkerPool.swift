import ArtworkCore
import Synchronization
import WorkerProtocol

/// The service's image workers: `settings.count` processes, each doing one job at a time, with
/// at most `settings.queueLimit` jobs waiting for one.
///
/// A job goes to an idle worker on a thread of the pool's own (`BlockingPool`, which gives the
/// queue, its bound and the counts `/metrics` reads); that thread waits for the answer or the
/// deadline. A worker that dies or is killed costs its job alone. When its input is to blame
/// (`WorkerDeath.verdict`), the job's caller gets a `decoder-failure` problem at once, the
/// input is remembered (`FailedInputs`) and the event reported once (`WorkerEvent.failed`);
/// when something outside ended it, the job is tried once more in another worker, and the
/// event reported (`WorkerEvent.interrupted`). Either way the same thread starts a replacement
/// before it takes another job.
public final class WorkerPool: Sendable {
  /// How the workers run.
  public let settings: WorkerSettings
  /// The libvips version the workers decode with, as the first said in its `ready` (`8.14.1`):
  /// this process never loads libvips, so only a worker can tell (`/healthz`, `build_info`).
  public let libvipsVersion: String
  private let threads: BlockingPool<Void>
  private let idle = Mutex<[WorkerProcess]>([])
  private let failed: FailedInputs
  private let events: @Sendable (WorkerEvent) -> Void

  /// Starts every worker and waits until each is ready (locked down); throws when one cannot
  /// start, so that a service never runs without containment.
  public init(
    _ settings: WorkerSettings, events: @escaping @Sendable (WorkerEvent) -> Void = { _ in }
  )
    throws(ArtworkError)
  {
    self.settings = settings
    self.events = events
    failed = FailedInputs(lifetime: settings.failureMemory)
    threads = BlockingPool(
      name: "artwork-img", threads: settings.count, queueLimit: settings.queueLimit,
      refusal: "the image queue is full; retry in a second", prestart: true)
    var started: [WorkerProcess] = []
    for _ in 0..<max(1, settings.count) { started.append(try WorkerProcess(settings)) }
    for worker in started { try worker.waitUntilReady(within: settings.startTimeout) }
    libvipsVersion = started[0].libvipsVersion
    idle.withLock { $0 = started }
  }

  /// Whether a job of `share` (its caller) would be taken now: a worker or a place in the queue
  /// is free, or the queue holds a job of another share with more waiting that gives way
  /// (`BlockingPool.wouldAccept`). An upload asks from its head, so that one refused anyway is
  /// refused before its body comes; its job is queued once the body is in.
  public func wouldAccept(share: String?) -> Bool { threads.wouldAccept(share: share) }

  /// Jobs running and waiting.
  public var stats: PoolStats { threads.stats }

  /// The process ids of the workers not in a job now (for tests that observe them).
  public var idleWorkerIDs: [Int32] { idle.withLock { $0.map(\.pid) } }

  /// How many inputs are remembered as having made a worker fail.
  public var rememberedFailures: Int { failed.count }

  /// Runs `job` on `bytes` in a worker, within `limits` (their time budget is the pool's).
  /// Throws `.busy` when the queue is full or the job was interrupted twice from outside
  /// (`WorkerInterruption`), `.decoderFailure` when the input made its worker die, use up its
  /// CPU budget or run out of memory (or did so on these very bytes before: with
  /// `retryingRemembered`, the caller's `Cache-Control: no-cache`, such bytes are tried again),
  /// and the problem of the failure a worker reported (`JobFailure`): the answer is never
  /// `.failed`.
  func run(
    _ job: WorkerJob, on bytes: ArraySlice<UInt8>, limits: ImageLimits,
    retryingRemembered: Bool = false
  ) async throws(ArtworkError) -> (answer: WorkerAnswer, output: [UInt8]) {
    var limits = limits
    limits.maxSeconds = settings.softSeconds
    let budget = limits
    let result: Result<(answer: WorkerAnswer, output: [UInt8]), ArtworkError> =
      await withCheckedContinuation { continuation in
        // Refused later to make room for another caller's job: answered as a full queue.
        let refused: @Sendable () -> Void = { continuation.resume(returning: .failure(Self.full)) }
        let accepted = threads.submit(refused: refused) { [self] _ in
          work(job, on: bytes, limits: budget, retryingRemembered: retryingRemembered) {
            continuation.resume(returning: $0)
          }
        }
        if !accepted { continuation.resume(returning: .failure(Self.full)) }
      }
    return try result.get()
  }

  /// A job refused for a full queue (or to make room for another caller's: `BlockingPool`).
  static let full = ArtworkError(
    .busy, "The image queue is full; retry in a second.", retryAfter: 1)

  /// One job on a pool thread: `answer` is called once, as soon as the outcome is known; a
  /// replacement for a worker that died is started after it.
  ///
  /// A job whose worker was ended by something other than its input (`WorkerDeath.verdict`:
  /// killed from outside, or out of time with little CPU time used) is tried once more: in a
  /// new worker when the old one was killed, in any idle one when its own deadline ended the
  /// job (it lives on). The input is never remembered for it.
  private func work(
    _ job: WorkerJob, on bytes: ArraySlice<UInt8>, limits: ImageLimits, retryingRemembered: Bool,
    answer: (Result<(answer: WorkerAnswer, output: [UInt8]), ArtworkError>) -> Void
  ) {
    var digest: String?
    if failed.mightHold(count: bytes.count) {
      let hex = SHA256.hex(bytes)
      digest = hex
      if let record = failed.failure(of: hex) {
        guard retryingRemembered else {
          events(.refused(record.reason))
          return answer(.failure(failure(record.reason, remembered: true)))
        }
        failed.forget(hex)
      }
    }
    var interruptions: [String] = []
    while true {
      let worker: WorkerProcess
      let outcome: WorkerProcess.Outcome
      switch handOver(job, on: bytes, limits: limits) {
      case .failure(let error): return answer(.failure(error))
      case .success(let taken): (worker, outcome) = taken
      }
      let cause: WorkerInterruption.Cause
      let details: String
      var replace = false
      switch outcome {
      case .unavailable(let death):
        answer(
          .failure(
            ArtworkError(
              .busy, "No image worker is available; retry in a second.",
              internalDetail: "\(death)", retryAfter: 1)))
        return restock()
      case .notHandedOver(let error):
        idle.withLock { $0.append(worker) }
        return answer(.failure(error))
      case .answered(.failed(let failure), _) where failure.code == .timeout:
        // The worker's own deadline, a little before the pool's: the input's only when the
        // worker had the CPU time to use it.
        let cpu = worker.cpuSecondsInJob
        idle.withLock { $0.append(worker) }
        guard cpu < limits.maxSeconds * WorkerDeath.blamedCPUShare else {
          return answer(.failure(error(for: failure)))
        }
        cause = .starved
        details =
          "it ran out of its \(WorkerDeath.seconds(limits.maxSeconds)) s with CPU "
          + "\(WorkerDeath.seconds(cpu)) s, and lives on"
      case .answered(.failed(let failure), _):
        idle.withLock { $0.append(worker) }
        return answer(.failure(error(for: failure)))
      case .answered(let reply, let output):
        idle.withLock { $0.append(worker) }
        return answer(.success((reply, output)))
      // A worker that broke the protocol is answered like one that crashed: a worker says what
      // it must not only when it is broken, or when an image took it over.
      case .died(let death), .brokeProtocol(let death):
        switch death.verdict(timeout: settings.timeout) {
        case .input(let reason):
          let hex = digest ?? SHA256.hex(bytes)
          failed.remember(hex, count: bytes.count, reason: reason)
          events(
            .failed(
              WorkerFailureReport(
                reason: reason, job: job.name, inputSHA256: hex, inputBytes: bytes.count,
                pid: worker.pid, details: "\(reason.rawValue): \(death)")))
          answer(.failure(failure(reason, remembered: false)))
          return restock()
        case .outside(let outside):
          cause = outside
          details = death.description
          replace = true
        }
      }
      let hex = digest ?? SHA256.hex(bytes)
      digest = hex
      interruptions.append("worker \(worker.pid): \(cause.rawValue): \(details)")
      let retried = interruptions.count < 2
      events(
        .interrupted(
          WorkerInterruption(
            cause: cause, job: job.name, inputSHA256: hex, inputBytes: bytes.count,
            pid: worker.pid, details: details, retried: retried)))
      guard retried else {
        answer(.failure(interrupted(cause, internalDetail: interruptions.joined(separator: "; "))))
        if replace { restock() }
        return
      }
      // The second try takes the replacement (or another idle worker).
      if replace { restock() }
    }
  }

  /// `job` handed to an idle worker, or to a new one when none is idle, and its outcome. A
  /// worker found gone before it took the job (it died between jobs) is replaced, and the job
  /// goes to the replacement: at most twice, then the pool is in trouble.
  private func handOver(_ job: WorkerJob, on bytes: ArraySlice<UInt8>, limits: ImageLimits)
    -> Result<(WorkerProcess, WorkerProcess.Outcome), ArtworkError>
  {
    var attempts = 0
    while true {
      attempts += 1
      let worker: WorkerProcess
      do throws(ArtworkError) {
        if let waiting = idle.withLock({ $0.popLast() }) {
          worker = waiting
        } else {
          worker = try replacement()
        }
      } catch {
        return .failure(
          ArtworkError(
            .busy, "No image worker is available; retry in a second.",
            internalDetail: error.internalDetail, retryAfter: 1))
      }
      let outcome = worker.perform(job, on: bytes, limits: limits, deadline: settings.timeout)
      if attempts < 3 && outcome.wasUnavailable { continue }
      return .success((worker, outcome))
    }
  }

  /// A worker started in place of one that is gone, waiting for the next job (when it starts).
  private func restock() {
    if let fresh = try? replacement() { idle.withLock { $0.append(fresh) } }
  }

  /// The answer to a job interrupted from outside twice: what happened, not what the image is.
  /// The detail says when to retry in the words `Retry-After` carries: a few seconds after a
  /// kill (a fresh worker is ready by then), a worker's time limit on a starved machine.
  private func interrupted(_ cause: WorkerInterruption.Cause, internalDetail: String)
    -> ArtworkError
  {
    let wait: Int
    let detail: String
    switch cause {
    case .killed:
      wait = Self.retryAfterKill
      detail =
        "The image's worker process was ended by a signal from outside the service, and so "
        + "was the one it was tried again in; the image is not to blame. Retry in "
        + Self.count(wait, "second") + "."
    case .starved:
      wait = max(1, Int(settings.timeout.seconds.rounded(.up)))
      detail =
        "The machine is too busy: the image's worker ran out of its "
        + "\(Self.seconds(settings.timeout)) seconds with little CPU time (it was stopped, or "
        + "starved), and so did the one it was tried again in; the image is not to blame. "
        + "Retry in " + Self.count(wait, "second") + "."
    }
    return ArtworkError(.busy, detail, internalDetail: internalDetail, retryAfter: wait)
  }

  /// `Retry-After` after a doubled kill: a replacement worker starts in well under this.
  static let retryAfterKill = 3

  /// "1 second", "3 seconds".
  static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  /// A duration in seconds, as a client reads it (`5`, `0.5`).
  private static func seconds(_ duration: Duration) -> String {
    let value = duration.seconds
    return value == value.rounded() ? "\(Int(value))" : "\(value)"
  }

  /// A failure a worker reported, as the caller gets it, decided by its code alone. Running out
  /// of memory (libvips fails a refused allocation cleanly, and the worker lives) is a
  /// `decoder-failure` like a worker killed for it, and the worker's own time limit (a little
  /// under the pool's) is quoted as the pool's; the other codes carry the worker's words.
  private func error(for failure: JobFailure) -> ArtworkError {
    switch failure.code {
    case .timeout: self.failure(.timeout, remembered: false)
    case .memory: self.failure(.memory, remembered: false, internalDetail: failure.internalDetail)
    case .crash: self.failure(.crash, remembered: false, internalDetail: failure.internalDetail)
    case .unprocessable, .unsupported, .internal:
      ArtworkError(failure.code.kind, failure.detail, internalDetail: failure.internalDetail)
    }
  }

  private func failure(_ reason: DecoderFailure, remembered: Bool, internalDetail: String? = nil)
    -> ArtworkError
  {
    let budget: Double? =
      switch reason {
      case .timeout:
        settings.timeout.seconds
      case .memory: Double(settings.memoryBytes)
      case .crash, .unprocessable, .unsupported, .internal: nil
      }
    return reason.error(budget: budget, remembered: remembered, internalDetail: internalDetail)
  }

  /// A new worker, started and ready; reported either way.
  private func replacement() throws(ArtworkError) -> WorkerProcess {
    do {
      let worker = try WorkerProcess(settings)
      try worker.waitUntilReady(within: settings.startTimeout)
      events(.replaced(pid: worker.pid))
      return worker
    } catch {
      events(.replacementFailed(error.internalDetail ?? error.detail))
      throw error
    }
  }

  /// Holds one of the pool's threads with `work` (no worker involved), as a job would: for the
  /// tests of admission, which need the queue full on purpose.
  func occupy(_ work: @escaping @Sendable () -> Void) async throws(ArtworkError) {
    try await threads.run { () throws(ArtworkError) in work() }
  }

  /// Refuses new jobs, lets the accepted ones finish within `grace`, then ends every worker.
  /// Answers whether every job finished in time.
  public func shutdown(within grace: Duration) async -> Bool {
    let finished = await threads.shutdown(within: grace)
    let workers = idle.withLock { workers in
      defer { workers = [] }
      return workers
    }
    for worker in workers { worker.stop() }
    return finished
  }

  deinit {
    for worker in idle.withLock({ $0 }) { worker.stop() }
  }
}
