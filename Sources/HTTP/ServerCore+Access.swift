import CMicroHTTPD

extension ServerCore {
  /// One call of MHD's access handler for `context` (see `MHDCallbacks.access`).
  func access(
    _ context: RequestContext, method: String, version: String, upload: UnsafePointer<CChar>?,
    uploadSize: UnsafeMutablePointer<Int>
  ) -> MHD_Result {
    let phase = context.state.withLock { $0.phase }
    switch phase {
    case .new:
      return begin(context, method: HTTPMethod(rawValue: method), version: version)
    case .answering(let response):
      uploadSize.pointee = 0
      return queue(response, context, closeAfter: false)
    case .receiving(let route, let parameters, let head):
      let count = uploadSize.pointee
      guard count == 0 else {
        return receive(
          context, bytes: UnsafeRawBufferPointer(start: upload, count: count),
          uploadSize: uploadSize)
      }
      return run(context, route: route, parameters: parameters, head: head)
    case .handling:
      let (pending, aborted) = context.state.withLock { state -> (HTTPResponse?, Bool) in
        let pending = state.pending
        state.pending = nil
        return (pending, state.aborted)
      }
      if let pending { return queue(pending, context, closeAfter: false) }
      if aborted { return queueShuttingDown(context) }
      // Not resumed by us: nothing to do until the handler finishes.
      return .YES
    case .responded:
      // MHD may still pass body bytes after an early response; drop them unread.
      uploadSize.pointee = 0
      return .YES
    }
  }

  /// Headers are complete: route, preflight and check the declared body size.
  private func begin(_ context: RequestContext, method: HTTPMethod, version: String)
    -> MHD_Result
  {
    let connection = context.connection.raw
    let headers = Self.headers(of: connection)
    let id = RequestID.accept(headers["X-Request-Id"])
    let remote = Self.remoteAddress(of: connection)
    let aborted = context.state.withLock { state in
      state.id = id
      state.method = method
      state.remoteAddress = remote
      return state.aborted
    }
    let declaredLength = headers["Content-Length"].flatMap { Int($0) }
    let bodyPending = (declaredLength ?? 0) > 0 || headers.contains("Transfer-Encoding")
    if aborted { return queueShuttingDown(context) }
    var headBytes = method.rawValue.utf8.count + context.rawTarget.utf8.count + version.utf8.count
    headBytes += 4
    for (name, value) in headers { headBytes += name.utf8.count + value.utf8.count + 4 }
    if headBytes > configuration.maxHeaderBytes {
      return answer(
        problem(431, "the request line and headers exceed \(configuration.maxHeaderBytes) bytes"),
        context, bodyPending: bodyPending)
    }
    guard let target = RequestTarget(context.rawTarget) else {
      return answer(
        problem(400, "the request path is malformed"), context, bodyPending: bodyPending)
    }
    context.state.withLock { $0.path = target.path }
    let head = HTTPRequestHead(
      id: id, method: method, path: target.path, rawPath: target.rawPath, query: target.query,
      headers: headers, remoteAddress: remote)
    switch router.resolve(method, target.segments) {
    case .notFound:
      return answer(
        problem(404, "no resource at \(target.path)"), context, bodyPending: bodyPending)
    case .methodNotAllowed(let allow):
      var response = problem(405, "\(method.rawValue) is not allowed on \(target.path)")
      response.headers.set("Allow", allow.joined(separator: ", "))
      return answer(response, context, bodyPending: bodyPending)
    case .route(let route, let parameters):
      if let preflight = route.preflight, let response = preflight(head) {
        return answer(response, context, bodyPending: bodyPending)
      }
      let limit = route.maxBodyBytes ?? configuration.defaultMaxBodyBytes
      if let declaredLength, declaredLength > limit {
        return answer(
          problem(413, "the request body exceeds \(limit) bytes"), context, bodyPending: true)
      }
      context.state.withLock { state in
        state.limit = limit
        state.body.reserveCapacity(min(declaredLength ?? 0, limit))
        state.phase = .receiving(route, parameters: parameters, head)
      }
      return .YES
    }
  }

  /// Answers from the headers call. With a body pending the response goes out now and the body
  /// is never read (the connection then closes); without one it waits for the next call, which
  /// keeps the connection alive.
  private func answer(_ response: HTTPResponse, _ context: RequestContext, bodyPending: Bool)
    -> MHD_Result
  {
    if bodyPending { return queue(response, context, closeAfter: true) }
    context.state.withLock { $0.phase = .answering(response) }
    return .YES
  }

  /// The configured rendering of a server-generated error.
  func problem(_ status: Int, _ detail: String) -> HTTPResponse {
    configuration.problemResponder(status, detail)
  }

  /// A piece of body: keep it if it fits the limit, else answer 413 and cut the connection.
  private func receive(
    _ context: RequestContext, bytes: UnsafeRawBufferPointer,
    uploadSize: UnsafeMutablePointer<Int>
  ) -> MHD_Result {
    let (fits, limit) = context.state.withLock { state -> (Bool, Int) in
      guard state.body.count + bytes.count <= state.limit else { return (false, state.limit) }
      state.body.append(contentsOf: bytes)
      return (true, state.limit)
    }
    guard fits else {
      rejectMidBody(context, status: 413, detail: "the request body exceeds \(limit) bytes")
      return .NO
    }
    uploadSize.pointee = 0
    return .YES
  }

  /// The whole request is in: answer at once if the route's `immediate` can, else suspend the
  /// connection and run the handler in a task.
  private func run(
    _ context: RequestContext, route: Router.Route, parameters: [String: String],
    head: HTTPRequestHead
  ) -> MHD_Result {
    let body = context.state.withLock { state in
      state.phase = .handling
      defer { state.body = [] }
      return state.body
    }
    let request = HTTPRequest(head: head, body: body, pathParameters: parameters)
    if let immediate = route.immediate, let response = immediate(request) {
      return queue(response, context, closeAfter: false)
    }
    guard context.suspend() else { return queueShuttingDown(context) }
    let handler = route.handler
    Task.detached { [self] in
      let response = await handler(request)
      resume(context) { $0.pending = response }
    }
    return .YES
  }
}
