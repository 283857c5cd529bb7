import ArtworkCore
import Foundation
import HTTP
import Observability
import SafeFetch
import Storage
import WorkerHost

/// The composition root: builds the service's parts once from the configuration, and the
/// router whose handlers each hold only the parts their route needs (`ArtworkApp+Routes.swift`).
public final class ArtworkApp: Sendable {
  let config: ServiceConfig
  let logger: Logger
  let metrics: Metrics
  let storage: any ArtworkStorage
  let processor: ArtworkProcessor
  let authenticator: Authenticator
  /// Fetches source URLs under the address policy and limits, counted.
  let sourceFetch: SourceFetch
  /// Answers `POST /v1/check` with a phone's rules.
  let reachability: ReachabilityCheck
  /// The remembered result of each source URL and options.
  let artworkResults: ResultCache<ArtworkAnswer>
  /// The remembered ThumbHash of each source URL (and of each hosted URL, variant `stored`).
  let thumbHashResults: ResultCache<ThumbHashAnswer>
  let hotImages: HotImageCache
  /// The URL results that answer each hosted image, for its deletion.
  let imageIndex: ImageIndex
  /// One image's store and deletion at a time.
  let imageLocks = ImageLocks()
  /// Who holds each image, and who may delete it.
  let imageOwners: ImageOwners
  /// The one mapping of route errors to responses.
  let errors: ErrorResponder
  /// The service's one count of work going on past its callers' waits.
  let waits: BoundedWait
  /// Readiness failures: the storage problem's specifics, logged at most once a minute.
  let readinessLog: RateLimitedLog
  /// Storage's readiness, probed once per interval for `/readyz` and `/metrics`.
  let readiness: ReadinessProbe

  /// Builds storage (wrapped in `storageLayer`), the worker pool and the fetcher from `config`.
  init(
    config: ServiceConfig, logger: Logger,
    storageLayer: @Sendable (any ArtworkStorage) -> any ArtworkStorage = { $0 }
  ) async throws(StartupError) {
    self.config = config
    self.logger = logger
    let metrics = Metrics()
    self.metrics = metrics
    self.errors = ErrorResponder(
      secrets: config.secretParameters, logger: logger, metrics: metrics,
      busyLog: RateLimitedLog(logger: logger, message: "requests refused: a queue is full"))
    self.waits = BoundedWait()
    self.readinessLog = RateLimitedLog(
      logger: logger, message: "not ready: storage cannot take new objects",
      interval: .seconds(60))
    self.storage = storageLayer(try await StorageFactory.make(config: config, logger: logger))
    self.imageIndex = ImageIndex(storage: storage)
    self.readiness = ReadinessProbe(
      storage: storage, interval: config.readinessInterval, deadline: config.readinessTimeout)
    _ = readiness.lastVerdict()  // the first probe, so the first scrape has a verdict
    self.imageOwners = ImageOwners(
      storage: storage, locks: imageLocks, admins: Set(config.adminTokens),
      callersHaveTokens: config.requiresToken)
    let workers: WorkerPool
    do {
      workers = try WorkerPool(config.workerSettings()) { event in
        metrics.record(event)
        WorkerEventLog.log(event, to: logger)
      }
    } catch {
      throw StartupError(
        "cannot start the image workers: \(error.internalDetail ?? error.detail)")
    }
    // The libvips version is the workers' to tell: this process never loads libvips.
    metrics.recordBuild(version: BuildInfo.version, libvips: workers.libvipsVersion)
    self.processor = ArtworkProcessor(
      workers: workers, maxSourceBytes: config.maxSourceBytes, maxPixels: config.maxPixels)
    self.authenticator = Authenticator(
      tokens: config.apiTokens, file: config.apiTokensFile, fileTokens: config.fileTokens,
      rate: config.apiRate, networks: config.clientNetworks)
    self.hotImages = HotImageCache(budget: config.imageCacheBytes)
    // Fetches wait on the network on their own threads, never on the image workers.
    let fetchPool = FetchPool(threads: config.fetchThreads, queueLimit: config.fetchThreads * 16)
    do {
      self.sourceFetch = SourceFetch(
        fetcher: try SourceFetcher(config.fetchConfiguration(), pool: fetchPool),
        metrics: metrics, secrets: config.secretParameters)
    } catch {
      throw StartupError("cannot set up source fetching: \(error.internalDetail ?? error.detail)")
    }
    let processor = self.processor
    // The check judges as a phone; the service's own policy only words its advice.
    self.reachability = ReachabilityCheck(
      pool: fetchPool, fetchTimeout: config.fetchTimeout,
      servicePolicy: config.fetchConfiguration().policy
    ) { bytes in
      // The header is parsed in a worker too: no decoder runs in this process.
      guard let info = await processor.inspect(bytes) else { return nil }
      return (info.format.rawValue, info.width, info.height)
    }
    let now: @Sendable () -> Double = { Date().timeIntervalSince1970 }
    // Result ids: under a key derived from ARTWORK_CACHE_KEY when one is set (replicas that
    // share it answer each other's ids), else under a key of this process's own.
    let ids =
      config.cacheKey == ServiceConfig.defaultCacheKey
      ? ResultID.random() : ResultID.derived(from: config.cacheKey)
    let ttl = config.sourceTTL.seconds
    let failureTTL = config.failureTTL.seconds
    self.artworkResults = ResultCache(
      storage: storage, namespace: "artwork", ttl: ttl, failureTTL: failureTTL,
      recordKey: config.cacheKey, secrets: config.secretParameters, ids: ids,
      configuration: config.resultSettings, clock: now)
    self.thumbHashResults = ResultCache(
      storage: storage, namespace: "thumbhash", ttl: ttl, failureTTL: failureTTL,
      recordKey: config.cacheKey, secrets: config.secretParameters, ids: ids,
      configuration: config.resultSettings, clock: now)
  }

  /// What this process remembers of a hosted image, for its deletion here or on another
  /// replica (`DeletionFollower`).
  var imageMemory: DeletedImageMemory {
    DeletedImageMemory(
      hotImages: hotImages, artworkResults: artworkResults, thumbHashResults: thumbHashResults,
      urls: config.hostedURLs, owners: imageOwners)
  }
}
