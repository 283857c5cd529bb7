extension ConnectionMachine {
  /// The head is complete: its framing is judged, then it is routed and checked, all before any
  /// body byte is read, so a refusal costs no body in memory; then the body may come.
  func headArrived() {
    guard exchange != nil else { return }
    let headers = HTTPHeaders(wire: parser.fields)
    let asker = noteHead(headers)
    let framing = FramingRules.framing(
      version: parser.version, fields: parser.fields, declared: parser.declaredLength,
      isChunked: parser.isChunked)
    if case .refused(let breach) = framing {
      refuseAndClose(breach)
      return
    }
    let check = checkHead(headers, asker, framing: framing)
    guard enter(.readingBody) else { return }
    // Consumed: the accepted head moves on into the exchange, not copied (a retain for each of
    // its references).
    switch consume check {
    case .refused(let response):
      reject(response)
    case .accepted(let accepted, let limit):
      let expects100 = parser.version.minor == 1 && headers.contains("Expect")
      admit(accepted, framing: framing, limit: limit, expects100: expects100)
    }
  }

  /// Who asks, as the check of a head needs it.
  private typealias Asker = (id: RequestID, method: HTTPMethod, client: String)

  /// What the check of a head decided.
  private enum HeadCheck {
    case refused(HTTPResponse)
    /// Accepted by its route, its body (if any) held to `limit` bytes.
    case accepted(Exchange.Accepted, limit: Int)
  }

  /// Notes what the head said in the exchange, which counts in flight from now on.
  private func noteHead(_ headers: HTTPHeaders) -> Asker {
    let id = RequestID.accept(headers.valueBytes("X-Request-Id"))
    let method = parser.method
    let isHTTP10 = parser.version.minor == 0
    let keepAlive =
      !parser.isUpgrade
      && (isHTTP10
        ? headers.lists("Connection", "keep-alive") : !headers.lists("Connection", "close"))
    let client = client(of: headers)
    updateExchange(
      .headRead(
        id: id,
        Exchange.Said(
          method: method, isHead: method == .head, origin: headers["Origin"],
          client: client == address ? nil : client, isHTTP10: isHTTP10, keepAlive: keepAlive)))
    core.inFlight.add(1, ordering: .relaxed)
    return (id, method, client)
  }

  /// Routes a head whose framing passed, and runs the checks of its route in order: who may
  /// ask, then whether the connections left may go to it, then how much it sends, then what.
  /// An `OPTIONS` is answered here.
  private func checkHead(_ headers: HTTPHeaders, _ asker: Asker, framing: BodyFraming)
    -> HeadCheck
  {
    let method = asker.method
    if parser.target == [UInt8(ascii: "*")] { return .refused(serverWideAnswer(method)) }
    guard let target = RequestTarget(parser.target) else {
      return .refused(
        problem(ServerAnswer(status: 400, detail: "The request target is malformed.")))
    }
    updateExchange(.targetParsed(target))
    let route: Router.Route
    let parameters: PathCaptures
    switch core.router.resolve(method, target) {
    case .route(let found, let captures):
      (route, parameters) = (found, captures)
    case .notFound:
      return .refused(notFoundAnswer(target))
    case .methodNotAllowed(let allow) where method == .options:
      return .refused(optionsAnswer(allow: allow, headers: headers))
    case .methodNotAllowed(let allow):
      return .refused(notAllowedAnswer(method, allow: allow))
    }
    var head = HTTPRequestHead(
      id: asker.id, method: method, target: target, headers: headers,
      remoteAddress: asker.client, peerAddress: address)
    let refusal = route.authorize?(&head)
    // Who called is known even when refused (over a rate limit): the access log says so.
    updateExchange(.routed(route, caller: head.caller))
    if let refusal { return .refused(refusal) }
    // Near the connection limit, a write without a credential from a network that holds more
    // than an equal share of the connections: a caller with a token, or from a network that
    // holds few, is never refused for other clients' sockets.
    if method != .get, method != .head, !head.hasCredential,
      let crowded = core.limits.crowdedRefusal(network: network)
    {
      core.overloadRefusals.note(.crowded)
      return .refused(problem(crowded))
    }
    let limit = route.maxBodyBytes ?? core.configuration.defaultMaxBodyBytes
    if let tooLarge = framing.tooLarge(limit: limit, route: route) {
      return .refused(problem(tooLarge))
    }
    switch route.prepare(head, exchange?.spareSteps) {
    case .refused(let response):
      return .refused(response)
    case .accepted(let steps):
      let accepted = Exchange.Accepted(head: head, parameters: parameters, steps: steps)
      return .accepted(accepted, limit: limit)
    }
  }

  /// The answer to the asterisk form (RFC 9112 3.2.4), which asks about the server as a whole,
  /// with OPTIONS only.
  private func serverWideAnswer(_ method: HTTPMethod) -> HTTPResponse {
    guard method == .options else {
      return problem(
        ServerAnswer(status: 400, detail: "Only OPTIONS may ask about the server as *."))
    }
    var methods = Set(core.router.routes.map(\.method.rawValue) + ["OPTIONS"])
    if methods.contains("GET") { methods.insert("HEAD") }
    return HTTPResponse(status: 204, headers: ["Allow": methods.sorted().joined(separator: ", ")])
  }

  /// The 404 for a path no route matches.
  private func notFoundAnswer(_ target: RequestTarget) -> HTTPResponse {
    let path = FramingRules.quoted(Array(target.path.utf8))
    let hint = core.configuration.notFoundHint?(target.path).map { " " + $0 } ?? ""
    return problem(ServerAnswer(status: 404, detail: "There is no resource at \(path).\(hint)"))
  }

  /// The 405 for a path whose routes allow only `allow`.
  private func notAllowedAnswer(_ method: HTTPMethod, allow: [String]) -> HTTPResponse {
    var response = problem(
      ServerAnswer(
        status: 405,
        detail: "\(method.rawValue) is not allowed here; use \(allow.joined(separator: " or "))."))
    response.headers.set("Allow", allow.joined(separator: ", "))
    return response
  }

  /// The answer to `OPTIONS` on a path whose routes allow `allow`: a CORS preflight (a browser
  /// asking whether a page on `Origin` may send a request) gets the policy's fields, or 403
  /// when the origin is not let in; a plain `OPTIONS` gets 204 with `Allow`.
  private func optionsAnswer(allow: [String], headers: HTTPHeaders) -> HTTPResponse {
    let methods = allow + [HTTPMethod.options.rawValue]
    guard let origin = headers["Origin"], headers["Access-Control-Request-Method"] != nil else {
      return HTTPResponse(status: 204, headers: ["Allow": methods.joined(separator: ", ")])
    }
    let policy = core.configuration.crossOrigin
    guard let fields = policy.preflightHeaders(origin: origin, methods: methods) else {
      let quoted = FramingRules.quoted(Array(origin.utf8))
      return problem(
        ServerAnswer(
          status: 403, detail: "Pages on \(quoted) may not call this service from a browser."))
    }
    return HTTPResponse(status: 204, headers: fields)
  }

  /// The head passed: admit the body (one of its share's arriving places, memory reserved for
  /// it: `BodyBudget`) and let it come.
  private func admit(
    _ accepted: consuming Exchange.Accepted, framing: BodyFraming, limit: Int, expects100: Bool
  ) {
    let declared = framing.declaredBytes
    let share = accepted.head.share ?? network
    let arriving = framing.hasBody
    // Held from here, so that the steps are given back emptied even when the budget refuses.
    updateExchange(.accepted(accepted))
    if arriving {
      switch core.bodyBudget.admit(declared, share: share) {
      case .arriving?:
        core.overloadRefusals.note(.bodiesArriving)
        reject(problem(Self.tooManyArriving(core.bodyBudget.maxArrivingPerShare)))
        return
      case .memory?:
        core.overloadRefusals.note(.bodyMemory)
        reject(problem(Self.bodyMemoryFull))
        return
      case nil: break
      }
    }
    updateExchange(.bodyStarted(at: now, reserved: declared, share: share, arriving: arriving))
    parser.collectBody(limit: limit, expected: declared)
    if expects100, arriving {
      queue(ResponseHead.continueInterim)
      act(.write)
    }
  }

  /// A chunked body grew: hold budget for it in steps, or refuse it (a body being dropped
  /// holds none).
  func bodyGrew() {
    guard let exchange, exchange.routed != nil, parser.collectsBody, let body = exchange.body,
      parser.bodyBytes > body.reserved
    else { return }
    let step = max(256 * 1024, parser.bodyBytes - body.reserved)
    if core.bodyBudget.grow(step, share: body.share) {
      updateExchange(.reservationGrew(by: step))
    } else {
      core.overloadRefusals.note(.bodyMemory)
      refuseAndClose(Self.bodyMemoryFull)
    }
  }

  private static func tooManyArriving(_ count: Int) -> ServerAnswer {
    ServerAnswer(
      status: 503,
      detail:
        "This caller has \(count) request bodies arriving at once, as many as one caller may; "
        + "retry once one has arrived.")
  }

  private static let bodyMemoryFull = ServerAnswer(
    status: 503,
    detail: "The server holds as many request bodies in memory as it may; retry shortly.")

  /// A refusal decided from the head. Without a body the answer is sent once the message is
  /// complete, and the connection stays open. An overload refusal with a body on its way is
  /// parked first (`ConnectionPhase.parked`), reading nothing, then sent and the connection
  /// closed. Any other is sent at once to a client, which then need not send the rest, and the
  /// connection closed after it (the body is still read and dropped meanwhile, so that the
  /// client reads the answer instead of a reset). To a proxy (`peerIsProxy`) it is sent once
  /// the body has been read and dropped (`dropsBodyFirst`), on a connection that stays open:
  /// a proxy streams the body on and relays the answer, and an answer that overtakes the body
  /// is lost on the way about one time in six (a reset on the client's HTTP/2 stream).
  func reject(_ response: HTTPResponse) {
    guard parser.expectsBody else {
      updateExchange(.rejected(response))
      return
    }
    if response.status == 503, let wait = response.headers["Retry-After"].flatMap(Int.init),
      wait > 0
    {
      park(response, until: now + .seconds(min(wait, Self.longestPark)))
      return
    }
    guard dropsBodyFirst else {
      answerAndClose(response)
      return
    }
    updateExchange(.refusedAfterBody(response, since: now))
    parser.dropBody(limit: core.configuration.maxDiscardBytes)
  }

  /// Whether a refused request's body is read and dropped before its answer: when the peer
  /// is a proxy, the body is declared no longer than `maxDiscardBytes` (or chunked: counted
  /// against that as it comes), and the proxy does not wait for `100 Continue` before sending
  /// it (that one is answered at once). The body's time is bounded as an accepted one's is.
  private var dropsBodyFirst: Bool {
    if !peerIsProxy || parser.isUpgrade { return false }
    if parser.version.minor == 1, HTTPHeaders(wire: parser.fields).contains("Expect") {
      return false
    }
    switch parser.declaredLength {
    case .none: return parser.isChunked
    case .bytes(let length): return length <= core.configuration.maxDiscardBytes
    case .beyondAnyLimit: return false
    }
  }

  /// The longest a parked overload refusal waits, in seconds.
  static let longestPark = 2

  /// The whole request is in: answer it from memory if the route can, else run its handler.
  func messageArrived() {
    guard let exchange else { return }
    if exchange.body?.arriving == true, let share = exchange.body?.share {
      core.bodyBudget.arrived(share: share)
      updateExchange(.bodyArrived)
    }
    let request: HTTPRequest
    let steps: any PreparedSteps
    switch exchange.verdict {
    case .refused(let rejection)?:
      respond(rejection)
      return
    case .accepted(let accepted)?:
      request = HTTPRequest(
        head: accepted.head, body: parser.takeBody(), captures: accepted.parameters)
      steps = accepted.steps
    case nil:
      return
    }
    let handler: @Sendable () async -> HTTPResponse
    switch steps.proceed(request) {
    case .answer(let response):
      respond(response)
      return
    case .handle(let run): handler = run
    }
    guard enter(.handling(peerFinished: phase.peerFinished)) else { return }
    act(.run(number: exchange.number, handler))
  }

  /// The body passed its limit while it arrived: a 413, at once and closing the connection.
  /// To a proxy, a chunked body past its route's limit is refused with a 413 sent once the
  /// rest has been read and dropped (what was kept of it is let go at once), up to
  /// `maxDiscardBytes` in all; a refused body that passes that is answered at once.
  func bodyOverLimit() {
    guard let exchange else { return }
    if case .refused(let rejection)? = exchange.verdict {
      answerAndClose(rejection)
      return
    }
    let limit = parser.bodyLimit
    let detail =
      exchange.routed?.route.tooLargeDetail(declared: nil, limit: limit)
      ?? "The request body is larger than \(limit) bytes."
    let answer = ServerAnswer(status: 413, detail: detail)
    guard peerIsProxy, parser.bodyBytes <= core.configuration.maxDiscardBytes else {
      refuseAndClose(answer)
      return
    }
    if let body = exchange.body { core.bodyBudget.release(body.reserved, share: body.share) }
    updateExchange(.refusedAfterBody(problem(answer), since: now))
    parser.dropBody(limit: core.configuration.maxDiscardBytes)
  }

  /// The longest request-target read: 8 KiB, or the whole head limit when that is smaller.
  static func targetLimit(_ configuration: HTTPServerConfiguration) -> Int {
    min(8 * 1024, configuration.maxHeaderBytes)
  }

  /// The request-target passed its limit.
  func targetTooLong() {
    let limit = Self.targetLimit(core.configuration)
    refuseAndClose(
      ServerAnswer(status: 414, detail: "The request target is longer than \(limit) bytes."))
  }

  /// The head passed `maxHeaderBytes`.
  func headTooLarge() {
    let limit = core.configuration.maxHeaderBytes
    refuseAndClose(
      ServerAnswer(
        status: 431, detail: "The request line and header fields exceed \(limit) bytes."))
  }

  /// The configured problem rendering of `answer` for the current request.
  func problem(_ answer: ServerAnswer) -> HTTPResponse {
    // A head refused before it was complete still carries the client's id when it came first.
    let id =
      exchange?.id ?? RequestID.accept(HTTPHeaders(wire: parser.fields).valueBytes("X-Request-Id"))
    updateExchange(.identified(id))
    return core.problem(answer, requestID: id)
  }

  /// Answers a request the server refuses by itself and closes the connection after.
  func refuseAndClose(_ answer: ServerAnswer) {
    if exchange == nil { beginExchange() }
    answerAndClose(problem(answer))
  }
}
