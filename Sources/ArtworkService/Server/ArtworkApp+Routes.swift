import ArtworkCore
import HTTP
import Storage

extension ArtworkApp {
  /// Every route of the API: its handler built with the parts it needs, and nothing else.
  func router() -> Router {
    var routes = ServiceRouter(errors: errors)
    let urls = config.hostedURLs
    let forwarding = ForwardingNotice(proxies: config.trustedProxies, logger: logger)
    let caller = CallerCheck(
      authenticator: authenticator, metrics: metrics, networks: config.clientNetworks,
      forwarding: forwarding)
    let upload = UploadLimit(maxSourceBytes: config.maxSourceBytes)
    let tooLarge: @Sendable (Int?) -> String = { upload.tooLarge(declared: $0) }
    let facts = ImageFactsStore(storage: storage, processor: processor, logger: logger)
    let renderer = ArtworkRenderer(
      processor: processor, storage: storage, facts: facts, metrics: metrics,
      secrets: config.secretParameters, owners: imageOwners, locks: imageLocks)
    let urlArtwork = URLArtwork(
      results: artworkResults, fetch: sourceFetch, renderer: renderer, storage: storage,
      index: imageIndex, metrics: metrics)
    let wait = CallerWait(handlerTimeout: config.handlerTimeout, bounded: waits)
    let response = ArtworkResponse(urls: urls, secrets: config.secretParameters)

    routes.add(
      .post, "/v1/artwork", maxBodyBytes: upload.bodyBytes, bodyTooLarge: tooLarge,
      authorize: caller,
      CreateArtworkHandler(
        workers: processor.workers, renderer: renderer, urlArtwork: urlArtwork, wait: wait,
        response: response, metrics: metrics))
    routes.add(
      .post, "/v1/thumbhash", maxBodyBytes: upload.bodyBytes, bodyTooLarge: tooLarge,
      authorize: caller,
      ThumbHashHandler(
        workers: processor.workers,
        urlThumbHash: URLThumbHash(
          results: thumbHashResults, fetch: sourceFetch, processor: processor, metrics: metrics),
        secrets: config.secretParameters, metrics: metrics))
    routes.add(
      .get, "/v1/artwork/results/{id}", authorize: caller,
      ArtworkResultHandler(urlArtwork: urlArtwork, response: response))
    routes.add(
      .post, "/v1/check", maxBodyBytes: 16 * 1024, authorize: caller,
      CheckHandler(reachability: reachability, secrets: config.secretParameters))
    routes.add(
      .post, "/v1/content", maxBodyBytes: 256 * 1024, authorize: caller,
      ContentHandler(
        urlArtwork: urlArtwork,
        hostedThumbHash: HostedThumbHash(
          results: thumbHashResults, facts: facts, metrics: metrics, locks: imageLocks),
        wait: wait, urls: urls, metrics: metrics, logger: logger))
    routes.add(
      .post, "/v1/providers/{provider}", maxBodyBytes: upload.bodyBytes, bodyTooLarge: tooLarge,
      authorize: CallerCheck(
        authenticator: authenticator, metrics: metrics, networks: config.clientNetworks,
        forwarding: forwarding, webhook: true),
      ProviderHandler(
        workers: processor.workers,
        artwork: ProviderArtwork(
          urlArtwork: urlArtwork, renderer: renderer, wait: wait, urls: urls, logger: logger),
        metrics: metrics, uploadBodyBytes: upload.bodyBytes))
    routes.add(
      .get, "/v1/images/{name}",
      ImageHandler(
        storage: storage, files: storage as? any ObjectFiles, hotImages: hotImages, facts: facts,
        urls: urls))
    routes.add(
      .delete, "/v1/images/{name}", authorize: caller,
      DeleteImageHandler(
        storage: storage, index: imageIndex, memory: imageMemory, metrics: metrics,
        logger: logger, owners: imageOwners))
    routes.add(.get, "/v1/thumbhash/{name}", ThumbHashImageHandler())
    routes.add(.get, "/healthz", HealthHandler(libvips: processor.workers.libvipsVersion))
    routes.add(.get, "/readyz", ReadinessHandler(probe: readiness, log: readinessLog))
    routes.add(
      .get, "/metrics",
      MetricsHandler(
        metrics: metrics, workers: processor.workers, hotImages: hotImages,
        readiness: readiness,
        access: MetricsAccess(token: config.metricsToken.map { Array($0.utf8) })))
    routes.add(.get, "/openapi.json", OpenAPIHandler())
    if config.ui {
      routes.add(.get, "/", PageHandler(urls: urls))
      routes.add(.get, "/assets/{name}", PageAssetHandler())
    }
    return routes.router
  }
}
