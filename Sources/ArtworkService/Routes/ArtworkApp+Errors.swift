import ArtworkCore
import HTTP

// The one error boundary: route code throws `ArtworkError`; here every failure is logged by
// class, counted, and answered as its problem document (`ArtworkError+Problem.swift`).

extension ArtworkApp {
  /// The answer to `error` for the request `head`: logged (client errors at info, server errors
  /// at error, queue refusals once a second with a count), counted, rendered.
  /// Secret query values (a media server's `api_key`) are redacted first, whatever the error
  /// quotes.
  func answer(_ error: ArtworkError, to head: HTTPRequestHead) -> HTTPResponse {
    let error = error.redacting(config.secretParameters)
    log(error, request: head)
    return error.problemResponse(requestID: head.id)
  }

  /// A route body as the router's handler.
  func handler(
    _ body: @escaping @Sendable (HTTPRequest) async throws(ArtworkError) -> HTTPResponse
  ) -> HTTPHandler {
    { [self] request in
      do throws(ArtworkError) {
        return try await body(request)
      } catch {
        return answer(error, to: request.head)
      }
    }
  }

  /// A typed route's handler: a throw is answered as its problem.
  func handled<Context: Sendable>(
    _ body:
      @escaping @Sendable (HTTPRequest, Context) async throws(ArtworkError) -> HTTPResponse
  ) -> @Sendable (HTTPRequest, Context) async -> HTTPResponse {
    { [self] request, context in
      do throws(ArtworkError) {
        return try await body(request, context)
      } catch {
        return answer(error, to: request.head)
      }
    }
  }

  /// A typed head check as the router's: the context it makes, or its throw as the refusal,
  /// before any body byte is read.
  func checked<Context: Sendable>(
    _ check: @escaping @Sendable (HTTPRequestHead) throws(ArtworkError) -> Context
  ) -> @Sendable (HTTPRequestHead) -> Result<Context, CheckRefusal> {
    { [self] head in
      do throws(ArtworkError) {
        return .success(try check(head))
      } catch {
        return .failure(CheckRefusal(answer(error, to: head)))
      }
    }
  }

  /// A check of the request head as the router's preflight: a throw refuses the request before
  /// any body byte is read.
  func preflight(
    _ check: @escaping @Sendable (inout HTTPRequestHead) throws(ArtworkError) -> Void
  ) -> Router.Preflight {
    { [self] head in
      do throws(ArtworkError) {
        try check(&head)
        return nil
      } catch {
        return answer(error, to: head)
      }
    }
  }

  /// Client errors log quietly (info), server errors loudly (error); both with internal detail.
  func log(_ error: ArtworkError, request: HTTPRequestHead) {
    var fields: [String: LogValue] = [
      "request_id": .string(request.id), "path": .string(request.path),
      "kind": .string(error.kind.rawValue), "detail": .string(error.detail),
    ]
    if let internalDetail = error.internalDetail { fields["internal"] = .string(internalDetail) }
    // `.busy` only ever comes from a full worker or fetch queue refusing the job: thousands a
    // second under overload, so one line a second says how many.
    if error.kind == .busy {
      metrics.recordQueueRejection()
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
