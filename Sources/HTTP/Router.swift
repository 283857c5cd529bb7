/// Maps a method and path to a handler.
///
/// Routes are tried in the order they were added. A GET route also answers HEAD unless a HEAD
/// route for the same path exists (the body is dropped, the headers kept). A path that matches
/// no route is a 404; a path that matches only routes of other methods is a 405 with `Allow`.
public struct Router: Sendable {
  /// One registered route: the single model every `add` builds from a `RouteHandler`. The
  /// machine runs `authorize`, checks the declared body size against `maxBodyBytes`, then
  /// `prepare`, all from the head; once the whole request is in, it runs the steps `prepare`
  /// accepted it with.
  ///
  /// NOTE: a class: a route is looked up, and held by its exchange, on every request, and a
  /// struct of six references was copied (retained and released whole) at each step.
  final class Route: Sendable {
    let method: HTTPMethod
    let pattern: RoutePattern
    let maxBodyBytes: Int?
    /// The 413 detail for a body over `maxBodyBytes`, given the declared length when known.
    let bodyTooLarge: (@Sendable (_ declared: Int?) -> String)?
    let authorize: Preflight?
    /// The rest of the head's check: a refusal, or the request's later steps (an answer from
    /// memory, or the handler to run).
    /// Given the steps the connection's last request of this route left (`spare`), which it
    /// fills again instead of making new ones when they are this route's.
    let prepare: @Sendable (HTTPRequestHead, _ spare: (any PreparedSteps)?) -> Prepared

    init(
      method: HTTPMethod, pattern: RoutePattern, maxBodyBytes: Int?,
      bodyTooLarge: (@Sendable (_ declared: Int?) -> String)?, authorize: Preflight?,
      prepare: @escaping @Sendable (HTTPRequestHead, (any PreparedSteps)?) -> Prepared
    ) {
      self.method = method
      self.pattern = pattern
      self.maxBodyBytes = maxBodyBytes
      self.bodyTooLarge = bodyTooLarge
      self.authorize = authorize
      self.prepare = prepare
    }
  }

  /// A check of the request head: a response refuses the request; nil lets it go on.
  public typealias Preflight = @Sendable (_ head: inout HTTPRequestHead) -> HTTPResponse?
  /// An answer from memory on the server thread, or nil to run the handler.
  public typealias Immediate = @Sendable (_ request: HTTPRequest) -> HTTPResponse?

  /// What a typed head check decided: a refusal, or the request's later steps.
  enum Prepared: Sendable {
    case refused(HTTPResponse)
    /// The steps to run once the whole request is in, holding the checked head and context.
    case accepted(any PreparedSteps)
  }

  /// What to do with a complete request: answer it now, or run its handler.
  enum Proceed: Sendable {
    case answer(HTTPResponse)
    case handle(@Sendable () async -> HTTPResponse)
  }

  /// What a lookup found.
  enum Resolution: Sendable {
    case route(Route, parameters: PathCaptures)
    case methodNotAllowed(allow: [String])
    case notFound
  }

  private var table: [Route] = []

  /// An empty router (everything is a 404).
  public init() {}

  /// Adds a route whose steps are `handler`'s (`RouteHandler`), a throw from them answered
  /// by `failure` (the application's one mapping of its errors to responses).
  ///
  /// - Parameters:
  ///   - method: the method it answers (GET also answers HEAD).
  ///   - pattern: the path, e.g. `/v1/images/{name}`; `{x}` captures one non-empty segment
  ///     into `HTTPRequest.pathParameter("x")`.
  ///   - maxBodyBytes: the largest request body accepted, overriding the server default.
  ///   - bodyTooLarge: the 413 detail for a larger body, given its declared length when it
  ///     has one (for a limit that the application documents in its own terms).
  ///   - authorize: the first check of a head (credentials), before the body's declared size is
  ///     checked against `maxBodyBytes` and before `handler.check`; a response it returns
  ///     refuses the request. Runs on a server thread: quick and non-blocking.
  public mutating func add<Handler: RouteHandler>(
    _ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int? = nil,
    bodyTooLarge: (@Sendable (_ declared: Int?) -> String)? = nil,
    authorize: Preflight? = nil, handler: Handler,
    failure: @escaping @Sendable (_ error: Handler.Failure, _ head: HTTPRequestHead) -> HTTPResponse
  ) {
    let owner = StepsOwner()
    let prepare: @Sendable (HTTPRequestHead, (any PreparedSteps)?) -> Prepared = { head, spare in
      var head = head
      let made: Handler.Context
      do throws(Handler.Failure) {
        made = try handler.check(&head)
      } catch {
        return .refused(failure(error, head))
      }
      // What `check` wrote in the head (its caller) is the request's. A connection that asks
      // this route again refills its steps: no allocation per request.
      // Steps of this route are of this type: compared by owner, not by a dynamic cast (which
      // looks the generic type up at run time on every request).
      let steps =
        if let spare, spare.owner === owner {
          unsafeDowncast(spare, to: HandlerSteps<Handler>.self)
        } else {
          HandlerSteps(owner: owner, handler: handler, failure: failure)
        }
      steps.fill(head: head, context: made)
      return .accepted(steps)
    }
    table.append(
      Route(
        method: method, pattern: RoutePattern(pattern), maxBodyBytes: maxBodyBytes,
        bodyTooLarge: bodyTooLarge, authorize: authorize, prepare: prepare))
  }

  /// Adds a route whose handler never fails.
  public mutating func add<Handler: RouteHandler>(
    _ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int? = nil,
    bodyTooLarge: (@Sendable (_ declared: Int?) -> String)? = nil,
    authorize: Preflight? = nil, handler: Handler
  ) where Handler.Failure == Never {
    add(
      method, pattern, maxBodyBytes: maxBodyBytes, bodyTooLarge: bodyTooLarge,
      authorize: authorize, handler: handler, failure: Self.noFailure)
  }

  /// The failure answer of a handler that never fails: a function of a value that cannot exist
  /// (a closure that switched over it was warned about as code never executed).
  @Sendable private static func noFailure(_ never: Never, _ head: HTTPRequestHead) -> HTTPResponse {
  }

  /// Adds a route written as closures (a `RouteHandler` made of them).
  ///
  /// - Parameters:
  ///   - preflight: `RouteHandler.check`: a response it returns is sent as is, before any body
  ///     byte is read.
  ///   - immediate: `RouteHandler.answerFromMemory`.
  ///   - handler: produces the response once the whole body has arrived.
  ///
  /// The other parameters are those of `add(_:_:handler:failure:)`.
  public mutating func add(
    _ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int? = nil,
    bodyTooLarge: (@Sendable (_ declared: Int?) -> String)? = nil,
    authorize: Preflight? = nil,
    preflight: Preflight? = nil,
    immediate: Immediate? = nil,
    _ handler: @escaping HTTPHandler
  ) {
    add(
      method, pattern, maxBodyBytes: maxBodyBytes, bodyTooLarge: bodyTooLarge,
      authorize: authorize,
      handler: ClosureRoute(preflight: preflight, immediate: immediate, body: handler),
      failure: { refusal, _ in refusal.response })
  }

  /// Every route as its method and pattern (`GET /v1/images/{name}`), in the order added: what
  /// a description of the API must list (GET routes answer HEAD too).
  public var routes: [(method: HTTPMethod, pattern: String)] {
    table.map { ($0.method, $0.pattern.text) }
  }

  /// Finds the route for `method` and the path of `target`.
  func resolve(_ method: HTTPMethod, _ target: RequestTarget) -> Resolution {
    var allowed: [String] = []
    var getFallback: (Route, PathCaptures)?
    for route in table {
      guard let parameters = route.pattern.match(target) else { continue }
      if route.method == method { return .route(route, parameters: parameters) }
      if method == .head, route.method == .get, getFallback == nil {
        getFallback = (route, parameters)
      }
      allowed.append(route.method.rawValue)
      if route.method == .get { allowed.append(HTTPMethod.head.rawValue) }
    }
    if let (route, parameters) = getFallback { return .route(route, parameters: parameters) }
    if allowed.isEmpty { return .notFound }
    var seen: Set<String> = []
    return .methodNotAllowed(allow: allowed.filter { seen.insert($0).inserted })
  }
}

extension Router.Route {
  /// The 413 detail for a body over `limit`.
  func tooLargeDetail(declared: Int?, limit: Int) -> String {
    if let bodyTooLarge { return bodyTooLarge(declared) }
    if let declared { return "The request body is \(declared) bytes; the limit is \(limit) bytes." }
    return "The request body is larger than the limit of \(limit) bytes."
  }
}

/// A typed head check's refusal: the response to send instead of running the route.
struct CheckRefusal: Error, Sendable {
  let response: HTTPResponse

  init(_ response: HTTPResponse) { self.response = response }
}
