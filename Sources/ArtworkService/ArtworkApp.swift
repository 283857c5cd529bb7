import ArtworkCore
import Foundation
import HTTP
import ImageWorkers
import SafeFetch
import Storage

/// The service's dependencies, built once from the configuration, and its routes.
public final class ArtworkApp: Sendable {
  let config: ServiceConfig
  let logger: Logger
  let metrics: Metrics
  let storage: any ArtworkStorage
  let processor: ArtworkProcessor
  let authenticator: Authenticator
  /// Fetches source URLs under the address policy and limits.
  let fetcher: SourceFetcher
  /// Answers `POST /v1/check` with a phone's rules.
  let reachability: ReachabilityCheck
  /// The remembered result of each source URL and options.
  let artworkResults: ResultCache<ArtworkAnswer>
  /// The remembered ThumbHash of each source URL.
  let thumbHashResults: ResultCache<ThumbHashAnswer>
  let hotImages: HotImageCache
  /// The URL results that answer each hosted image, for its deletion.
  let imageIndex: ImageIndex
  /// Refusals of a full queue: counted in /metrics, logged at most once a second.
  let busyLog: RateLimitedLog
  /// Readiness failures: the storage problem's specifics, logged at most once a minute.
  let readinessLog: RateLimitedLog

  /// Builds storage, the worker pool and the fetcher from `config`.
  init(config: ServiceConfig, logger: Logger) async throws(StartupError) {
    self.config = config
    self.logger = logger
    self.metrics = Metrics()
    metrics.recordBuild(version: BuildInfo.version, libvips: ImageLibrary.version)
    self.busyLog = RateLimitedLog(logger: logger, message: "requests refused: a queue is full")
    self.readinessLog = RateLimitedLog(
      logger: logger, message: "not ready: storage cannot take new objects",
      interval: .seconds(60))
    self.storage = try await StorageFactory.make(config: config, logger: logger)
    self.imageIndex = ImageIndex(storage: storage)
    let workers: WorkerPool
    do {
      let metrics = self.metrics
      workers = try WorkerPool(config.workerSettings()) { event in
        metrics.record(event)
        Self.log(event, to: logger)
      }
    } catch {
      throw StartupError(
        "cannot start the image workers: \(error.internalDetail ?? error.detail)")
    }
    self.processor = ArtworkProcessor(
      workers: workers, maxSourceBytes: config.maxSourceBytes, maxPixels: config.maxPixels)
    self.authenticator = Authenticator(
      tokens: config.apiTokens, file: config.apiTokensFile, fileTokens: config.fileTokens,
      rate: config.apiRate)
    self.hotImages = HotImageCache(budget: config.imageCacheBytes)
    // Fetches wait on the network on their own threads, never on the image workers.
    let fetchPool = FetchPool(threads: config.fetchThreads, queueLimit: config.fetchThreads * 16)
    do {
      self.fetcher = try SourceFetcher(config.fetchConfiguration(), pool: fetchPool)
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
    let ttl = config.sourceTTL.seconds
    let failureTTL = config.failureTTL.seconds
    self.artworkResults = ResultCache(
      storage: storage, namespace: "artwork", ttl: ttl, failureTTL: failureTTL,
      recordKey: config.cacheKey, secrets: config.secretParameters,
      configuration: config.resultSettings, clock: now)
    self.thumbHashResults = ResultCache(
      storage: storage, namespace: "thumbhash", ttl: ttl, failureTTL: failureTTL,
      recordKey: config.cacheKey, secrets: config.secretParameters,
      configuration: config.resultSettings, clock: now)
  }

  /// Logs a worker event once: a failure at error level with the input's SHA-256 (the image is
  /// what to look at), a refusal of a remembered input at info, a replacement at info.
  static func log(_ event: WorkerEvent, to logger: Logger) {
    switch event {
    case .failed(let report):
      logger.log(
        .error, "an image made its worker fail",
        [
          "reason": .string(report.reason.rawValue), "job": .string(report.job),
          "input_sha256": .string(report.inputSHA256), "input_bytes": .int(report.inputBytes),
          "worker_pid": .int(Int(report.pid)), "details": .string(report.details),
        ])
    case .refused(let reason):
      logger.log(
        .info, "refused an image that made a worker fail before",
        ["reason": .string(reason.rawValue)])
    case .replaced(let pid):
      logger.log(.info, "image worker started", ["worker_pid": .int(Int(pid))])
    case .replacementFailed(let why):
      logger.log(.error, "image worker could not be started", ["error": .string(why)])
    }
  }

  /// The largest request body a POST with an image may have: the image limit plus room for
  /// multipart framing. Larger bodies are refused with 413 before they are read.
  var maxUploadBodyBytes: Int { config.maxSourceBytes + ServiceConfig.formOverhead }

  /// Every route of the API.
  func router() -> Router {
    var router = Router()
    let credentials = preflight { [self] (head) throws(ArtworkError) in
      try checkCredentials(&head)
    }
    let upload = checked { [self] (head) throws(ArtworkError) in try checkUploadHead(head) }
    let json = checked { [self] (head) throws(ArtworkError) in
      try checkJSONHead(
        head, refusal: "Send JSON {\"url\": \"https://...\"} with Content-Type application/json.")
    }
    let content = checked { [self] (head) throws(ArtworkError) in
      try checkJSONHead(
        head,
        refusal: "Send the activity's content object as JSON, with Content-Type application/json.")
    }
    let uploadLimit = maxUploadBodyBytes
    let tooLarge: @Sendable (Int?) -> String = { [self] in uploadTooLarge(declared: $0) }
    router.add(
      .post, "/v1/artwork", maxBodyBytes: uploadLimit, bodyTooLarge: tooLarge,
      authorize: credentials, check: upload,
      immediate: { [self] in rememberedArtwork($0, &$1) }, handler: handled(createArtwork))
    router.add(
      .post, "/v1/thumbhash", maxBodyBytes: uploadLimit, bodyTooLarge: tooLarge,
      authorize: credentials, check: upload,
      immediate: { [self] in rememberedThumbHash($0, &$1) }, handler: handled(computeThumbHash))
    router.add(.get, "/v1/artwork/results/{id}", authorize: credentials, handler(artworkResult))
    router.add(
      .post, "/v1/check", maxBodyBytes: 16 * 1024, authorize: credentials, check: json,
      handler: handled(checkURL))
    router.add(
      .post, "/v1/content", maxBodyBytes: 256 * 1024, authorize: credentials, check: content,
      handler: handled(fillContent))
    router.add(
      .get, "/v1/images/{name}", immediate: { [self] in rememberedImage($0) },
      handler(serveImage))
    router.add(.delete, "/v1/images/{name}", authorize: credentials, handler(deleteImage))
    router.add(.get, "/v1/thumbhash/{name}", handler(thumbHashPNG))
    router.add(.get, "/healthz") { _ in JSONResponse.make(200, .object([("status", .string("ok"))]))
    }
    router.add(.get, "/readyz", handler(readiness))
    router.add(.get, "/metrics") { [self] _ in metricsResponse() }
    router.add(.get, "/openapi.json") { [self] in openAPIDocument($0) }
    if config.ui {
      router.add(.get, "/") { [self] in page($0) }
      router.add(.get, "/assets/{name}", handler(pageAsset))
    }
    return router
  }
}
