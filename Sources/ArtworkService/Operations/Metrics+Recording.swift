import ArtworkCore
import Observability
import WorkerHost

extension Metrics {
  /// A request refused because its caller was over `ARTWORK_API_RATE`.
  func recordRateLimited(caller: String) {
    increment(Self.rateLimited, [caller])
  }

  /// A write request refused for its token, with `status` 401 or 429 (`FailedTokenLimit`).
  func recordTokenRefusal(status: Int) {
    increment(Self.tokenRefusals, [String(status)])
  }

  /// One re-read of the token file: `ok` or `refused`.
  func recordTokenReload(accepted: Bool) {
    increment(Self.tokenReloads, [accepted ? "ok" : "refused"])
  }

  /// A newly stored artwork object of `bytes` bytes (not counted when it existed already).
  func recordArtworkCreated(bytes: Int) {
    increment(Self.artworkCreated)
    increment(Self.bytesStored, by: Double(bytes))
  }

  /// One hosted image deleted on request.
  /// A `/v1/content` answer's `Artwork-Status` (`ready`, `pending`, `failed`; no parameters).
  func recordContentArtwork(status: String) {
    increment(Self.contentArtwork, [String(status.prefix { $0 != ";" })])
  }

  /// A `/v1/providers/{provider}` answer: its provider (a canonical name) and `Artwork-Status`
  /// (`ready`, `pending`, `failed`, `none`; no parameters).
  func recordProviderEvent(provider: String, status: String) {
    increment(Self.providerEvents, [provider, String(status.prefix { $0 != ";" })])
  }

  func recordImageDeleted() {
    increment(Self.imagesDeleted)
  }

  /// One source fetch and how it ended (`ok`, `timeout`, `forbidden-address`, ...: a short,
  /// bounded vocabulary such as an `ArtworkError.Kind` raw value).
  func recordFetch(outcome: String) {
    increment(Self.fetches, [outcome])
  }

  /// One lookup in the source result cache.
  func recordCacheLookup(hit: Bool) {
    increment(Self.cacheLookups, [hit ? "hit" : "miss"])
  }

  /// A request of `caller` refused because a queue (or the caller's share of it) was full.
  func recordQueueRejection(caller: String) {
    increment(Self.queueRejections)
    increment(Self.callerRefusals, [caller])
  }

  /// What happened to the image workers (`WorkerPool`'s events).
  func record(_ event: WorkerEvent) {
    switch event {
    case .failed(let report): increment(Self.workerFailures, [report.reason.rawValue])
    case .interrupted(let report): increment(Self.workerInterruptions, [report.cause.rawValue])
    case .refused(let reason): increment(Self.workerRefusals, [reason.rawValue])
    case .replaced: increment(Self.workerRestarts)
    case .replacementFailed: increment(Self.workerRestartFailures)
    }
  }

  /// The time one stage of making artwork took (`stage` one of `Metrics.stages`).
  func recordStage(_ stage: String, _ duration: Duration) {
    observe(Self.stageDuration, [stage], duration.seconds)
  }

  /// The stages a rendering timed on its worker thread.
  func recordStages(_ timings: StageTimings) {
    recordStage("decode_frame", timings.decodeFrame)
    recordStage("encode", timings.encode)
    recordStage("thumbhash", timings.thumbHash)
  }

  /// Copies the pool's current load and size into the gauges (call just before `render()`).
  func update(pool stats: PoolStats, capacity: Int, queueCapacity: Int) {
    set(Self.workersBusy, to: Double(stats.busy))
    set(Self.queueWaiting, to: Double(stats.queued))
    set(Self.workers, to: Double(capacity))
    set(Self.queueCapacity, to: Double(queueCapacity))
  }

  /// Copies what is read at scrape time: the process, the hot-image cache, requests in flight.
  func updateAtScrape(
    process: ProcessStats, hotImages: (hits: Int, misses: Int, bytes: Int, entries: Int, files: Int)
  ) {
    set(Self.residentMemory, to: process.residentBytes)
    set(Self.virtualMemory, to: process.virtualBytes)
    set(Self.cpuSeconds, to: process.cpuSeconds)
    set(Self.openDescriptors, to: process.openDescriptors)
    set(Self.maxDescriptors, to: process.maxDescriptors)
    set(Self.startTime, to: process.startTime)
    set(Self.imageCacheHits, to: Double(hotImages.hits))
    set(Self.imageCacheMisses, to: Double(hotImages.misses))
    set(Self.imageCacheBytes, to: Double(hotImages.bytes))
    set(Self.imageCacheEntries, to: Double(hotImages.entries))
    set(Self.imageCacheFiles, to: Double(hotImages.files))
    set(Self.logLinesDropped, to: Double(Logger.droppedLines))
    if let source = inFlightSource.withLock({ $0 }) { set(Self.inFlight, to: Double(source())) }
    if let source = illegalTransitionSource.withLock({ $0 }) {
      set(Self.illegalTransitions, to: Double(source()))
    }
    if let source = connectionsShedSource.withLock({ $0 }) {
      let shed = source()
      set(Self.connectionsShed, ["waiting_head"], to: Double(shed.waitingHead))
      set(Self.connectionsShed, ["idle"], to: Double(shed.idle))
    }
    if let source = overloadRefusalSource.withLock({ $0 }) {
      let refused = source()
      set(Self.overloadRefusals, ["bodies_arriving"], to: Double(refused.bodiesArriving))
      set(Self.overloadRefusals, ["body_memory"], to: Double(refused.bodyMemory))
      set(Self.overloadRefusals, ["crowded"], to: Double(refused.crowded))
    }
    if let source = resultFailureSource.withLock({ $0 }) {
      let failures = source()
      set(Self.resultCacheFailures, ["read"], to: Double(failures.reads))
      set(Self.resultCacheFailures, ["write"], to: Double(failures.writes))
    }
  }

  /// Copies what storage says at the scrape: whether it could take an object now, and on a
  /// filesystem its free bytes and the margin kept (nil: no such bound, the series stay out).
  func updateStorage(ready: Bool, space: (free: Int, kept: Int)?) {
    set(Self.ready, to: ready ? 1 : 0)
    if let space {
      set(Self.storageFreeBytes, to: Double(space.free))
      set(Self.storageMinFreeBytes, to: Double(space.kept))
    }
  }

  /// Marks what runs: this build's version and libvips'.
  func recordBuild(version: String, libvips: String) {
    set(Self.buildInfo, [version, libvips], to: 1)
  }
}
