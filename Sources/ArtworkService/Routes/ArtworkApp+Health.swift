import ArtworkCore
import HTTP
import ImageWorkers

extension ArtworkApp {
  /// `GET /readyz`: 200 when storage can take a new object now, else 503 saying why in words
  /// (the specifics go to the log, at most once a minute while the problem lasts).
  func readiness(_ request: HTTPRequest) async throws(ArtworkError) -> HTTPResponse {
    if let problem = await storage.readinessProblem() {
      readinessLog.note(["problem": .string(problem.detail)])
      throw ArtworkError(.storageUnavailable, "Not ready: \(problem.summary).", retryAfter: 5)
    }
    return JSONResponse.make(200, .object([("status", .string("ready"))]))
  }

  /// `GET /metrics`: Prometheus text exposition.
  func metricsResponse() -> HTTPResponse {
    metrics.update(
      pool: processor.workers.stats, capacity: config.workers, queueCapacity: config.queueLimit)
    metrics.updateAtScrape(process: ProcessStats.current(), hotImages: hotImages.stats)
    var headers = HTTPHeaders()
    headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
    headers.set("Cache-Control", "no-store")
    return HTTPResponse(status: 200, headers: headers, body: .bytes(Array(metrics.render().utf8)))
  }
}
