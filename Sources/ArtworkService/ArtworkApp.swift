import HTTP

/// The service's dependencies, built once from the configuration, and its routes.
public final class ArtworkApp: Sendable {
  let config: ServiceConfig
  let logger: Logger
  let metrics: Metrics
  let storage: any ArtworkStorage
  let processor: ArtworkProcessor
  let authenticator: Authenticator
  let sources: SourceResolver

  /// Builds storage, the worker pool and the fetcher from `config`.
  public init(config: ServiceConfig, logger: Logger) async throws(ArtworkError) {
    self.config = config
    self.logger = logger
    self.metrics = Metrics()
    self.storage = try await StorageFactory.make(config: config, logger: logger)
    let pool = WorkerPool(workers: config.workers, queueLimit: config.queueLimit)
    self.processor = ArtworkProcessor(
      pool: pool, maxSourceBytes: config.maxSourceBytes,
      maxPixels: config.maxPixels)
    self.authenticator = Authenticator(tokens: config.apiTokens)
    self.sources = try SourceResolver(config: config, logger: logger)
  }

  /// The largest request body a POST with an image may have: the image limit plus room for
  /// multipart framing. Larger bodies are refused with 413 before they are read.
  var maxUploadBodyBytes: Int { config.maxSourceBytes + 64 * 1024 }

  /// Every route of the API.
  public func router() -> Router {
    var router = Router()
    let uploadPreflight: @Sendable (HTTPRequestHead) -> HTTPResponse? = { [self] head in
      preflightUpload(head)
    }
    router.add(.POST, "/v1/artwork", maxBodyBytes: maxUploadBodyBytes, preflight: uploadPreflight) {
      [self] request in await respond(request) { () throws(ArtworkError) in try await createArtwork(request) }
    }
    router.add(.POST, "/v1/thumbhash", maxBodyBytes: maxUploadBodyBytes, preflight: uploadPreflight) {
      [self] request in await respond(request) { () throws(ArtworkError) in try await computeThumbHash(request) }
    }
    router.add(.POST, "/v1/check", maxBodyBytes: 16 * 1024, preflight: { [self] head in preflightJSON(head) }) {
      [self] request in await respond(request) { () throws(ArtworkError) in try await checkURL(request) }
    }
    router.add(.GET, "/v1/images/{name}") { [self] request in
      await respond(request) { () throws(ArtworkError) in try await serveImage(request) }
    }
    router.add(.GET, "/v1/thumbhash/{name}") { [self] request in
      await respond(request) { () throws(ArtworkError) in try thumbHashPNG(request) }
    }
    router.add(.GET, "/healthz") { _ in JSONResponse.make(200, .object([("status", .string("ok"))])) }
    router.add(.GET, "/readyz") { [self] request in await readiness(request) }
    router.add(.GET, "/metrics") { [self] _ in metricsResponse() }
    return router
  }

  /// Runs a route body; any error becomes its problem response (the one mapping), logged by class.
  func respond(
    _ request: HTTPRequest, _ body: () async throws(ArtworkError) -> HTTPResponse
  ) async -> HTTPResponse {
    do {
      return try await body()
    } catch {
      log(error, request: request.head)
      return error.problemResponse(requestID: request.head.id)
    }
  }

  /// Client errors log quietly (debug), server errors loudly (error) with their internal detail.
  func log(_ error: ArtworkError, request: HTTPRequestHead) {
    var fields: [String: LogValue] = [
      "request_id": .string(request.id), "path": .string(request.path),
      "kind": .string(error.kind.rawValue), "detail": .string(error.detail),
    ]
    if let internalDetail = error.internalDetail { fields["internal"] = .string(internalDetail) }
    if error.isServerError {
      logger.error("request failed", fields)
    } else {
      logger.debug("request refused", fields)
    }
  }
}
