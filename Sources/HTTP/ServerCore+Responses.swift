import CMicroHTTPD

extension ServerCore {
  /// Queues the 503 of a request that arrived or waited while the server stopped; the
  /// connection closes after it.
  func queueShuttingDown(_ context: RequestContext) -> MHD_Result {
    queue(problem(503, "the server is shutting down"), context, closeAfter: true)
  }

  /// Hands `response` to MHD for the context's connection (headers only for a HEAD request).
  /// Call only from the access handler, when no body piece is being delivered.
  func queue(_ response: HTTPResponse, _ context: RequestContext, closeAfter: Bool)
    -> MHD_Result
  {
    var response = response
    if !(100...999).contains(response.status) {
      response = problem(500, "the handler produced an invalid status")
    }
    let (id, isHead) = context.state.withLock { state in
      state.phase = .responded
      return (state.id ?? RequestID.generate(), state.method == .head)
    }
    response.headers.set("X-Request-Id", id)
    if closeAfter || draining.load(ordering: .relaxed) {
      response.headers.set("Connection", "close")
    }
    guard let mhdResponse = makeResponse(response.body, context) else {
      return .NO
    }
    defer { MHD_destroy_response(mhdResponse) }
    for (name, value) in response.headers where Self.mayForward(name, value) {
      _ = MHD_add_response_header(mhdResponse, name, value)
    }
    var bodyBytes = 0
    if case .bytes(let bytes) = response.body, !isHead { bodyBytes = bytes.count }
    recordSent(context, status: response.status, bodyBytes: bodyBytes)
    return MHD_queue_response(context.connection.raw, UInt32(response.status), mhdResponse)
  }

  /// Builds the MHD response object for a body; nil when MHD cannot allocate one.
  private func makeResponse(_ body: HTTPBody, _ context: RequestContext) -> OpaquePointer? {
    switch body {
    case .empty:
      return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
    case .bytes(let bytes):
      // NOTE: HEAD still builds the full response so MHD sends the right Content-Length.
      return bytes.withUnsafeBytes { buffer in
        MHD_create_response_from_buffer(
          buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress),
          .RESPMEM_MUST_COPY)
      }
    case .stream(let length, let next):
      let reader = StreamReader(core: self, context: context, next: next)
      let size = length.map { UInt64(max($0, 0)) } ?? artwork_mhd_size_unknown()
      let retained = Unmanaged.passRetained(reader)
      let response = MHD_create_response_from_callback(
        size, 64 * 1024, MHDCallbacks.read, retained.toOpaque(), MHDCallbacks.freeReader)
      // MHD calls the free callback only for responses it created.
      if response == nil { retained.release() }
      return response
    }
  }

  /// Whether a handler's header field may be sent: MHD owns the framing fields, and CR, LF or
  /// NUL would split the header block.
  static func mayForward(_ name: String, _ value: String) -> Bool {
    if HTTPHeaders.same(name, "Content-Length") || HTTPHeaders.same(name, "Transfer-Encoding") {
      return false
    }
    let breaksLine = { (byte: UInt8) in byte == 0 || byte == 10 || byte == 13 }
    return !name.isEmpty && !name.utf8.contains { breaksLine($0) || $0 == 58 || $0 == 32 }
      && !value.utf8.contains(where: breaksLine)
  }

  /// Answers a request whose body is still arriving, which MHD cannot queue a response for:
  /// the problem response is written straight to the socket, whose sending side is then shut;
  /// the caller returns `.NO` so MHD closes the connection without reading the rest.
  func rejectMidBody(_ context: RequestContext, status: Int, detail: String) {
    var response = problem(status, detail)
    let id = context.state.withLock { state in
      state.phase = .responded
      return state.id ?? RequestID.generate()
    }
    response.headers.set("X-Request-Id", id)
    var body: [UInt8] = []
    if case .bytes(let bytes) = response.body { body = bytes }
    var text = "HTTP/1.1 \(response.status) \(HTTPStatus.reason(response.status))\r\n"
    for (name, value) in response.headers
    where Self.mayForward(name, value) && !HTTPHeaders.same(name, "Connection") {
      text += "\(name): \(value)\r\n"
    }
    text += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    let bytes = Array(text.utf8) + body
    _ = bytes.withUnsafeBytes { buffer in
      artwork_mhd_send_final(context.connection.raw, buffer.baseAddress, buffer.count)
    }
    recordSent(context, status: response.status, bodyBytes: body.count)
  }

  /// For the access log: the status answered and the body bytes sent.
  private func recordSent(_ context: RequestContext, status: Int, bodyBytes: Int) {
    context.state.withLock { state in
      state.status = status
      state.bytesSent += bodyBytes
    }
  }

  /// The request's header fields, in order.
  static func headers(of connection: OpaquePointer) -> HTTPHeaders {
    var headers = HTTPHeaders()
    withUnsafeMutablePointer(to: &headers) { pointer in
      _ = MHD_get_connection_values(
        connection, .HEADER_KIND,
        { cls, _, key, value in
          guard let cls, let key else { return .YES }
          let headers = cls.assumingMemoryBound(to: HTTPHeaders.self)
          headers.pointee.add(String(cString: key), value.map { String(cString: $0) } ?? "")
          return .YES
        }, pointer)
    }
    return headers
  }

  /// The peer's address as text.
  static func remoteAddress(of connection: OpaquePointer) -> String? {
    var buffer = [CChar](repeating: 0, count: 64)
    let result = buffer.withUnsafeMutableBufferPointer { pointer in
      artwork_mhd_client_address(connection, pointer.baseAddress, socklen_t(pointer.count))
    }
    guard result == 0 else { return nil }
    let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: text, as: UTF8.self)
  }
}
