import ArtworkCore
import HTTP

/// Whose share of the service a request uses (`WorkShare`): its token's name, or for an
/// anonymous caller its client address. The workers' queue, their admissions, the fetch pool
/// and the pending waits are shared out by it.
enum CallerShare {
  static func of(_ head: HTTPRequestHead) -> String {
    if let caller = head.caller, caller != APIToken.anonymous { return caller }
    return "address " + (head.remoteAddress ?? "unknown")
  }
}

/// A route's handler whose work runs as its caller's (`WorkShare.current`, read by the pools).
struct CallerWork<Handler: RouteHandler>: RouteHandler where Handler.Failure == ArtworkError {
  let handler: Handler

  func check(_ head: inout HTTPRequestHead) throws(ArtworkError) -> Handler.Context {
    try handler.check(&head)
  }

  func answerFromMemory(_ request: HTTPRequest, _ context: inout Handler.Context) -> HTTPResponse? {
    handler.answerFromMemory(request, &context)
  }

  func handle(_ request: HTTPRequest, _ context: Handler.Context) async throws(ArtworkError)
    -> HTTPResponse
  {
    let result: Result<HTTPResponse, ArtworkError> = await WorkShare.$current.withValue(
      CallerShare.of(request.head)
    ) {
      do throws(ArtworkError) {
        return .success(try await handler.handle(request, context))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }
}
