/// Maps a method and path to a handler.
///
/// Routes are tried in the order they were added. A GET route also answers HEAD unless a HEAD
/// route for the same path exists (the body is dropped, the headers kept). A path that matches
/// no route is a 404; a path that matches only routes of other methods is a 405 with `Allow`.
public struct Router: Sendable {
  /// One registered route: the single model both `add` forms build. The machine runs
  /// `authorize`, checks the declared body size against `maxBodyBytes`, then `prepare`, all from
  /// the head; once the whole request is in, it runs the steps `prepare` accepted it with.
  struct Route: Sendable {
    let method: HTTPMethod
    let pattern: RoutePattern
    let maxBodyBytes: Int?
    /// The 413 detail for a body over `maxBodyBytes`, given the declared length when known.
    let bodyTooLarge: (@Sendable (_ declared: Int?) -> String)?
    let authorize: Preflight?
    /// The rest of the head's check: a refusal, or the request's later steps (an answer from
    /// memory, or the handler to run).
    let prepare: @Sendable (HTTPRequestHead) -> Prepared
  }

  /// A check of the request head: a response refuses the request; nil lets it go on.
  public typealias Preflight = @Sendable (_ head: inout HTTPRequestHead) -> HTTPResponse?
  /// An answer from memory on the server thread, or nil to run the handler.
  public typealias Immediate = @Sendable (_ request: inout HTTPRequest) -> HTTPResponse?

  /// What a typed head check decided: a refusal, or the request's later steps.
  enum Prepared: Sendable {
    case refused(HTTPResponse)
    /// The steps to run once the whole request is in, the context captured.
    case accepted(@Sendable (HTTPRequest) -> Proceed)
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

  /// Adds a route.
  ///
  /// - Parameters:
  ///   - method: the method it answers (GET also answers HEAD).
  ///   - pattern: the path, e.g. `/v1/images/{name}`; `{x}` captures one non-empty segment
  ///     into `HTTPRequest.pathParameter("x")`.
  ///   - maxBodyBytes: the largest request body accepted, overriding the server default.
  ///   - bodyTooLarge: the 413 detail for a larger body, given its declared length when it
  ///     has one (for a limit that the application documents in its own terms).
  ///   - authorize: the first check of a head (credentials), before the body's declared size is
  ///     checked against `maxBodyBytes`; like `preflight` otherwise.
  ///   - preflight: runs once the headers are complete, after `authorize` and the size check,
  ///     before any body byte is read; a
  ///     response it returns is sent as is and the body is never kept (if one was on its way,
  ///     it is read and dropped so the client reads the answer, and the connection closes).
  ///     Runs on a server thread: keep it quick and non-blocking. (A check whose findings the
  ///     later steps need makes a typed context: `add(_:_:check:immediate:handler:)`.)
  ///   - immediate: runs once the whole body has arrived, before `handler`, on the server
  ///     thread; a response it returns is sent at once and `handler` is not run. For answers
  ///     that need nothing but memory (a cache hit): it saves handing the request to a task and
  ///     back. It must never block or wait; return nil to let `handler` answer.
  ///   - handler: produces the response once the whole body has arrived.
  public mutating func add(
    _ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int? = nil,
    bodyTooLarge: (@Sendable (_ declared: Int?) -> String)? = nil,
    authorize: Preflight? = nil,
    preflight: Preflight? = nil,
    immediate: Immediate? = nil,
    _ handler: @escaping HTTPHandler
  ) {
    let prepare: @Sendable (HTTPRequestHead) -> Prepared = { head in
      var head = head
      if let preflight, let refusal = preflight(&head) { return .refused(refusal) }
      // What `preflight` wrote in the head (its caller) is the request's.
      let checked = head
      return .accepted { request in
        var request = request
        request.head = checked
        if let immediate, let answer = immediate(&request) { return .answer(answer) }
        // A constant for the task: a `var` captured by an escaping closure lives in a box of
        // its own.
        let ready = request
        return .handle { await handler(ready) }
      }
    }
    table.append(
      Route(
        method: method, pattern: RoutePattern(pattern), maxBodyBytes: maxBodyBytes,
        bodyTooLarge: bodyTooLarge, authorize: authorize, prepare: prepare))
  }

  /// Adds a route whose head check makes a typed per-request `Context` (what it parsed, what
  /// it holds for the request: an admission, say), which the later steps are given as it is,
  /// never as a value to cast back.
  ///
  /// - Parameters:
  ///   - check: runs once the headers are complete, after `authorize` and the size check,
  ///     before any body byte is read, on a server thread (quick, non-blocking): the context,
  ///     or a response that refuses the request (as `preflight`'s).
  ///   - immediate: runs on the server thread once the whole body is in: an answer from
  ///     memory, or nil to run `handler`, having refined the context for it (what it parsed).
  ///   - handler: produces the response from the request and its context.
  ///
  /// The other parameters are `add`'s.
  public mutating func add<Context: Sendable>(
    _ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int? = nil,
    bodyTooLarge: (@Sendable (_ declared: Int?) -> String)? = nil,
    authorize: Preflight? = nil,
    check: @escaping @Sendable (_ head: HTTPRequestHead) -> Result<Context, CheckRefusal>,
    immediate: (@Sendable (_ request: HTTPRequest, _ context: inout Context) -> HTTPResponse?)? =
      nil,
    handler:
      @escaping @Sendable (_ request: HTTPRequest, _ context: Context) async
      -> HTTPResponse
  ) {
    let prepare: @Sendable (HTTPRequestHead) -> Prepared = { head in
      switch check(head) {
      case .failure(let refusal): return .refused(refusal.response)
      case .success(let made):
        return .accepted { request in
          var context = made
          if let immediate, let answer = immediate(request, &context) { return .answer(answer) }
          let ready = context
          return .handle { await handler(request, ready) }
        }
      }
    }
    table.append(
      Route(
        method: method, pattern: RoutePattern(pattern), maxBodyBytes: maxBodyBytes,
        bodyTooLarge: bodyTooLarge, authorize: authorize, prepare: prepare))
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
public struct CheckRefusal: Error, Sendable {
  public let response: HTTPResponse

  public init(_ response: HTTPResponse) { self.response = response }
}
