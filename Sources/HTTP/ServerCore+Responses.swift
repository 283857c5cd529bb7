import CMicroHTTPD

extension ServerCore {
  /// Queues the problem response for `status` (rendered by the configured responder).
  func queueProblem(
    _ status: Int, _ detail: String, _ context: RequestContext, closeAfter: Bool
  ) -> MHD_Result {
    let response = configuration.problemResponder(status, detail)
    let isHead = context.state.withLock { $0.method == .head }
    return queue(response, context, isHead: isHead, closeAfter: closeAfter)
  }

  /// Hands `response` to MHD for the context's connection. Call only from the access handler,
  /// when no body piece is being delivered.
  func queue(_ response: HTTPResponse, _ context: RequestContext, isHead: Bool, closeAfter: Bool)
    -> MHD_Result
  {
    var response = response
    if !(100...999).contains(response.status) {
      response = configuration.problemResponder(500, "the handler produced an invalid status")
    }
    let id = context.state.withLock { state in
      state.phase = .responded
      return state.id ?? RequestID.generate()
    }
    response.headers.set("X-Request-Id", id)
    if closeAfter || draining.load(ordering: .relaxed) {
      response.headers.set("Connection", "close")
    }
    guard let mhdResponse = makeResponse(response.body, context, isHead: isHead) else {
      return .NO
    }
    defer { MHD_destroy_response(mhdResponse) }
    for (name, value) in response.headers where Self.mayForward(name, value) {
      _ = MHD_add_response_header(mhdResponse, name, value)
    }
    let bodyBytes: Int
    switch response.body {
    case .bytes(let bytes) where !isHead: bodyBytes = bytes.count
    default: bodyBytes = 0
    }
    context.state.withLock { state in
      state.status = response.status
      state.bytesSent += bodyBytes
    }
    return MHD_queue_response(context.connection.raw, UInt32(response.status), mhdResponse)
  }

  /// Builds the MHD response object for a body; nil when MHD cannot allocate one.
  private func makeResponse(_ body: HTTPBody, _ context: RequestContext, isHead: Bool)
    -> OpaquePointer?
  {
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
    var response = configuration.problemResponder(status, detail)
    let id = context.state.withLock { state in
      state.phase = .responded
      return state.id ?? RequestID.generate()
    }
    response.headers.set("X-Request-Id", id)
    var body: [UInt8] = []
    if case .bytes(let bytes) = response.body { body = bytes }
    var text = "HTTP/1.1 \(status) \(HTTPStatus.reason(status))\r\n"
    for (name, value) in response.headers
    where Self.mayForward(name, value) && !HTTPHeaders.same(name, "Connection") {
      text += "\(name): \(value)\r\n"
    }
    text += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    let bytes = Array(text.utf8) + body
    _ = bytes.withUnsafeBytes { buffer in
      artwork_mhd_send_final(context.connection.raw, buffer.baseAddress, buffer.count)
    }
    context.state.withLock { state in
      state.status = status
      state.bytesSent += body.count
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
