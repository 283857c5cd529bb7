import ArtworkCore
import HTTP
import ImageWorkers

/// `GET /metrics`: Prometheus text exposition, the gauges read at the scrape.
struct MetricsHandler: RouteHandler {
  let metrics: Metrics
  let workers: WorkerPool
  let hotImages: HotImageCache
  /// `ARTWORK_WORKERS` and `ARTWORK_QUEUE`.
  let capacity: Int
  let queueCapacity: Int

  func handle(_ request: HTTPRequest, _ context: Void) -> HTTPResponse {
    metrics.update(pool: workers.stats, capacity: capacity, queueCapacity: queueCapacity)
    metrics.updateAtScrape(process: ProcessStats.current(), hotImages: hotImages.stats)
    var headers = HTTPHeaders()
    headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
    headers.set("Cache-Control", "no-store")
    return HTTPResponse(status: 200, headers: headers, body: .bytes(Array(metrics.render().utf8)))
  }
}
