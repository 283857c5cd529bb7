/// One route's behaviour, as a type that holds only what the route needs (its dependencies are
/// its stored properties): the one way a route is written. The router runs, in order, the
/// route's `authorize` (credentials), the check of the body's declared size, `check`, then once
/// the whole request is in `answerFromMemory`, and `handle` when that gave no answer.
public protocol RouteHandler: Sendable {
  /// What `check` found in the head and holds for the request (its parsed form, an admission),
  /// given to the later steps as it is.
  associatedtype Context: Sendable = Void
  /// What the steps throw; the router turns it into a response with the route's `failure`.
  associatedtype Failure: Error = Never

  /// Runs once the headers are complete, before any body byte is read, on a server thread:
  /// keep it quick and non-blocking. A throw refuses the request (if a body was on its way, it
  /// is read and dropped so the client reads the answer, and the connection closes). What it
  /// writes in `head` (its caller) is the request's.
  func check(_ head: inout HTTPRequestHead) throws(Failure) -> Context

  /// Runs on the server thread once the whole body is in: an answer that needs nothing but
  /// memory (a cache hit), sent at once without handing the request to a task. It must never
  /// block or wait; nil lets `handle` answer, with the context as refined here.
  func answerFromMemory(_ request: HTTPRequest, _ context: inout Context) -> HTTPResponse?

  /// Produces the response once the whole body has arrived.
  func handle(_ request: HTTPRequest, _ context: Context) async throws(Failure) -> HTTPResponse
}

extension RouteHandler where Context == Void {
  public func check(_ head: inout HTTPRequestHead) throws(Failure) {}
}

extension RouteHandler {
  public func answerFromMemory(_ request: HTTPRequest, _ context: inout Context) -> HTTPResponse? {
    nil
  }
}

/// A route written as closures (`Router.add(_:_:...)`): a check that may refuse the head, an
/// answer from memory, and the handler.
struct ClosureRoute: RouteHandler {
  typealias Failure = CheckRefusal

  let preflight: Router.Preflight?
  let immediate: Router.Immediate?
  let body: HTTPHandler

  func check(_ head: inout HTTPRequestHead) throws(CheckRefusal) {
    if let preflight, let refusal = preflight(&head) { throw CheckRefusal(refusal) }
  }

  func answerFromMemory(_ request: HTTPRequest, _ context: inout Void) -> HTTPResponse? {
    immediate?(request)
  }

  func handle(_ request: HTTPRequest, _ context: Void) async -> HTTPResponse {
    await body(request)
  }
}
