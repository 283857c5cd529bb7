import ArtworkCore
import HTTP
import Observability
import Storage
import WorkerHost

/// `GET /metrics`: Prometheus text exposition, the gauges read at the scrape. Storage's
/// readiness is `/readyz`'s last verdict (`ReadinessProbe`): a scrape never waits on storage,
/// so a stalled store reads as `artwork_ready 0`, not as a scrape that timed out.
struct MetricsHandler: RouteHandler {
  let metrics: Metrics
  let workers: WorkerPool
  let hotImages: HotImageCache
  /// Storage's readiness verdict, and the storage it judges (its free space is read here).
  let readiness: ReadinessProbe
  /// `ARTWORK_METRICS_TOKEN`, when set.
  let access: MetricsAccess

  func handle(_ request: HTTPRequest, _ context: Void) async throws(ArtworkError) -> HTTPResponse {
    try access.admit(request.head)
    let ready = readiness.lastVerdict().map { $0.problem == nil } ?? false
    metrics.updateStorage(ready: ready, space: readiness.storage.freeSpace())
    // `ARTWORK_WORKERS` and `ARTWORK_QUEUE`, as the pool was started with them.
    metrics.update(
      pool: workers.stats, capacity: workers.settings.count,
      queueCapacity: workers.settings.queueLimit)
    metrics.updateAtScrape(process: ProcessStats.current(), hotImages: hotImages.stats)
    var headers = HTTPHeaders()
    headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
    headers.set("Cache-Control", "no-store")
    return HTTPResponse(status: 200, headers: headers, body: .bytes(Array(metrics.render().utf8)))
  }
}
