import ArtworkCore
import HTTP

/// Whose share of the service a request uses (`WorkShare`): its token's name, from any address,
/// or for an anonymous caller its client's network (`ClientNetworks`: a /24 or a /64 by
/// default), so that a hundred addresses of one network are one share. The workers' queue, the
/// bodies arriving and their memory, the fetch pool and the pending waits are shared out by
/// it. `CallerCheck` names it on the head (`HTTPRequestHead.share`) for every write route.
enum CallerShare {
  /// The share of a caller named `caller` (a token's name, or nil) whose client is `address`.
  static func named(_ caller: String?, address: String?, networks: ClientNetworks) -> String {
    if let caller, caller != APIToken.anonymous { return caller }
    return "network " + networks.key(address ?? "unknown")
  }

  /// The share `CallerCheck` named on `head` (else the client's network by the standard
  /// prefixes).
  static func of(_ head: HTTPRequestHead) -> String {
    head.share ?? named(head.caller, address: head.remoteAddress, networks: .standard)
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
