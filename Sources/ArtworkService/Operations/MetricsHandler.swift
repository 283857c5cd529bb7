import ArtworkCore
import HTTP
import ImageWorkers
import Observability
import Storage

/// `GET /metrics`: Prometheus text exposition, the gauges read at the scrape (storage's
/// readiness checked as `/readyz` checks it, so an alert needs no other probe).
struct MetricsHandler: RouteHandler {
  let metrics: Metrics
  let workers: WorkerPool
  let hotImages: HotImageCache
  let storage: any ArtworkStorage
  /// `ARTWORK_WORKERS` and `ARTWORK_QUEUE`.
  let capacity: Int
  let queueCapacity: Int

  func handle(_ request: HTTPRequest, _ context: Void) async -> HTTPResponse {
    let ready = await storage.readinessProblem() == nil
    metrics.updateStorage(ready: ready, space: storage.freeSpace())
    metrics.update(pool: workers.stats, capacity: capacity, queueCapacity: queueCapacity)
    metrics.updateAtScrape(process: ProcessStats.current(), hotImages: hotImages.stats)
    var headers = HTTPHeaders()
    headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
    headers.set("Cache-Control", "no-store")
    return HTTPResponse(status: 200, headers: headers, body: .bytes(Array(metrics.render().utf8)))
  }
}
