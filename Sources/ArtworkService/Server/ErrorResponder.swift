import ArtworkCore
import HTTP
import Observability

// The one error boundary: route code throws `ArtworkError`; here every failure is logged by
// class, counted, and answered as its problem document (`ArtworkError+Problem.swift`). The
// router calls `answer` for every throw of a route's steps.

/// Turns a route's `ArtworkError` into its response.
struct ErrorResponder: Sendable {
  let secrets: SecretParameters
  let logger: Logger
  let metrics: Metrics
  /// Refusals of a full queue: counted in /metrics, logged at most once a second.
  let busyLog: RateLimitedLog

  /// The answer to `error` for the request `head`: logged (client errors at info, server errors
  /// at error, queue refusals once a second with a count), counted, rendered.
  /// Secret query values (a media server's `api_key`) are redacted first, whatever the error
  /// quotes.
  func answer(_ error: ArtworkError, to head: HTTPRequestHead) -> HTTPResponse {
    let error = error.redacting(secrets)
    log(error, request: head)
    return error.problemResponse(requestID: head.id)
  }

  /// Client errors log quietly (info), server errors loudly (error); both with internal detail.
  private func log(_ error: ArtworkError, request: HTTPRequestHead) {
    var fields: [String: LogValue] = [
      "request_id": .string(request.id), "path": .string(request.path),
      "kind": .string(error.kind.rawValue), "detail": .string(error.detail),
    ]
    if let internalDetail = error.internalDetail { fields["internal"] = .string(internalDetail) }
    // `.busy` only ever comes from a full worker or fetch queue refusing the job: thousands a
    // second under overload, so one line a second says how many.
    if error.kind == .busy {
      metrics.recordQueueRejection(caller: request.caller ?? APIToken.anonymous)
      busyLog.note(["path": .string(request.path), "detail": .string(error.detail)])
      return
    }
    if error.isServerError {
      logger.error("request failed", fields)
    } else {
      logger.info("request refused", fields)
    }
  }
}
