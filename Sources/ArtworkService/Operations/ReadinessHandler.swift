import ArtworkCore
import HTTP
import Observability
import Storage

/// `GET /readyz`: 200 when storage can take a new object (as of at most
/// `ARTWORK_READINESS_INTERVAL` ago), else 503 saying why in words (the specifics go to the log,
/// at most once a minute while the problem lasts); within `ARTWORK_READINESS_TIMEOUT` whatever
/// the store does (`ReadinessProbe`).
struct ReadinessHandler: RouteHandler {
  let probe: ReadinessProbe
  /// Readiness failures: the storage problem's specifics, logged at most once a minute.
  let log: RateLimitedLog

  func handle(_ request: HTTPRequest, _ context: Void) async throws(ArtworkError) -> HTTPResponse {
    if let problem = await probe.problem() {
      log.note(["problem": .string(problem.detail)])
      throw ArtworkError(.storageUnavailable, "Not ready: \(problem.summary).", retryAfter: 5)
    }
    return JSONResponse.make(200, .object([("status", .string("ready"))]))
  }
}
