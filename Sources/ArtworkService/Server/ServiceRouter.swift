import ArtworkCore
import HTTP

/// The router as the service fills it: every route's throws answered by the one
/// `ErrorResponder`.
struct ServiceRouter {
  private(set) var router = Router()
  let errors: ErrorResponder

  init(errors: ErrorResponder) { self.errors = errors }

  /// Adds a route whose steps throw `ArtworkError` (see `Router.add(_:_:handler:failure:)`), its
  /// work done as its caller's (`CallerWork`).
  mutating func add<Handler: RouteHandler>(
    _ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int? = nil,
    bodyTooLarge: (@Sendable (_ declared: Int?) -> String)? = nil,
    authorize: CallerCheck? = nil, _ handler: Handler
  ) where Handler.Failure == ArtworkError {
    let errors = self.errors
    var preflight: Router.Preflight?
    if let authorize {
      preflight = { head in
        do throws(ArtworkError) {
          try authorize.authorize(&head)
          return nil
        } catch {
          var answer = errors.answer(error, to: head)
          // A media application's HTTP client may send Basic credentials only when asked.
          if authorize.webhook, error.kind == .unauthorized {
            answer.headers.set("WWW-Authenticate", #"Bearer, Basic realm="artwork""#)
          }
          return answer
        }
      }
    }
    let failure: @Sendable (ArtworkError, HTTPRequestHead) -> HTTPResponse = { error, head in
      errors.answer(error, to: head)
    }
    router.add(
      method, pattern, maxBodyBytes: maxBodyBytes, bodyTooLarge: bodyTooLarge,
      authorize: preflight, handler: CallerWork(handler: handler), failure: failure)
  }

  /// Adds a route that never fails.
  mutating func add<Handler: RouteHandler>(
    _ method: HTTPMethod, _ pattern: String, _ handler: Handler
  ) where Handler.Failure == Never {
    router.add(method, pattern, handler: handler)
  }
}
