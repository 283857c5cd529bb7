import HTTP

/// The `connection` target: the input is a script for one connection, run through the real
/// request parser and connection state machine without a socket (`EmbeddedConnection`): bytes
/// sent in pieces cut where the input says, canned requests between them, the client's FIN or
/// reset, time passing, handlers answering, a socket that takes a few bytes at a time, a
/// shutdown. After every step the machine's promises must hold (`violations`: among them, no
/// action decided after a close, and a drain deadline only once the sending side is shut); at
/// the end, with every handler answered and time let run, the connection must be closed with
/// nothing held: no state lasts without bound.
enum ConnectionTarget {
  static func run(_ input: UnsafeRawBufferPointer) {
    var script = Script(input)
    // An input of odd length plays a proxy that speaks for its clients: its refused bodies
    // are read and dropped before their answer.
    var configuration = HTTPServerConfiguration()
    if input.count % 2 == 1 { configuration.clientAddress = { peer, _ in peer } }
    let connection = EmbeddedConnection(router: router, configuration: configuration)
    while let op = script.byte() {
      switch op % 12 {
      case 0, 1, 2, 3:
        // Raw bytes, as many as the next byte says (a cut at a random point).
        connection.send(script.bytes(Int(script.byte() ?? 0) + 1))
      case 4: connection.send(canned[Int(script.byte() ?? 0) % canned.count])
      case 5: connection.finish()
      case 6: connection.reset()
      case 7: connection.advance(by: .milliseconds(50 * Int(script.byte() ?? 0)))
      case 8: connection.runHandlersBlocking()
      case 9:
        let room = script.byte() ?? 255
        connection.room = room == 255 ? nil : Int(room) * 16
        connection.flush()
      case 10: connection.shutdown(graceOver: (script.byte() ?? 0) & 1 == 1)
      default: connection.advance(by: .seconds(Int(script.byte() ?? 0) % 16))
      }
      check(connection)
    }
    // Whatever state it is in, it ends, and gives back what it held.
    connection.room = nil
    for _ in 0..<700 where !connection.closed {
      connection.runHandlersBlocking()
      connection.flush()
      connection.advance(by: .seconds(1))
      check(connection)
    }
    precondition(connection.closed, "the connection outlived every deadline")
    precondition(connection.isOverAndReleased, "a closed connection holds what it took")
  }

  private static func check(_ connection: EmbeddedConnection) {
    let violations = connection.violations()
    precondition(violations.isEmpty, "\(violations)")
  }

  /// Requests that reach the machine's deeper states quickly.
  static let canned: [String] = [
    "GET / HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET / HTTP/1.0\r\n\r\n",
    "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
    "HEAD /big HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /stream HTTP/1.0\r\n\r\n",
    "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
    "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n",
    "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 18446744073709551616\r\n\r\n",
    "POST /busy HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
    "POST /typed HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nX-Refuse: 1\r\n\r\nab",
    "POST /typed HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nab",
    "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n",
    "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /missing HTTP/1.1\r\nHost: x\r\n\r\n",
    "DELETE / HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
    "POST /missing HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\r\nrefused body",
    "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\n\r\n",
    "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n401\r\n",
  ]

  /// The routes the script talks to: answers from a handler, from memory, streamed, large,
  /// refused from the head (parked or not), and a typed head check.
  static let router: Router = {
    var router = Router()
    router.add(.get, "/") { _ in HTTPResponse(status: 200, body: .bytes(Array("root".utf8))) }
    router.add(.post, "/echo", maxBodyBytes: 1024) { request in
      HTTPResponse(status: 200, body: .bytes(Array("\(request.body.count)".utf8)))
    }
    router.add(.get, "/big") { _ in
      HTTPResponse(status: 200, body: .bytes([UInt8](repeating: 66, count: 64 * 1024)))
    }
    router.add(.get, "/stream") { _ in
      let chunks = ChunkSource(["a", "", "bc"])
      return HTTPResponse(status: 200, body: .stream(length: nil, next: { chunks.next() }))
    }
    let overloaded: Router.Preflight = { _ in
      HTTPResponse(status: 503, headers: ["Retry-After": "1"])
    }
    router.add(.post, "/busy", preflight: overloaded) { _ in HTTPResponse(status: 200) }
    router.add(.post, "/typed", handler: TypedRoute(), failure: { refusal, _ in refusal.response })
    router.add(.get, "/slow", immediate: { _ in nil }) { _ in HTTPResponse(status: 204) }
    return router
  }()
}

/// A route whose head check makes a context (or refuses with 403), answered from memory for a
/// one-byte body.
private struct TypedRoute: RouteHandler {
  struct Refusal: Error { let response: HTTPResponse }

  func check(_ head: inout HTTPRequestHead) throws(Refusal) -> Int {
    guard head.headers["X-Refuse"] == nil else {
      throw Refusal(response: HTTPResponse(status: 403))
    }
    return 7
  }

  func answerFromMemory(_ request: HTTPRequest, _ context: inout Int) -> HTTPResponse? {
    request.body.count == 1 ? HTTPResponse(status: 200) : nil
  }

  func handle(_ request: HTTPRequest, _ context: Int) async throws(Refusal) -> HTTPResponse {
    HTTPResponse(status: 200 + context)
  }
}

/// The input read front to back.
private struct Script {
  private let input: UnsafeRawBufferPointer
  private var offset = 0

  init(_ input: UnsafeRawBufferPointer) { self.input = input }

  mutating func byte() -> UInt8? {
    guard offset < input.count else { return nil }
    defer { offset += 1 }
    return input[offset]
  }

  mutating func bytes(_ count: Int) -> [UInt8] {
    let end = min(input.count, offset + count)
    defer { offset = end }
    return Array(input[offset..<end])
  }
}

/// A stream's chunks, one per call.
private final class ChunkSource: @unchecked Sendable {
  private var chunks: [String]
  init(_ chunks: [String]) { self.chunks = chunks }
  // NOTE: called by one stream of one connection, one call at a time.
  func next() -> [UInt8]? { chunks.isEmpty ? nil : Array(chunks.removeFirst().utf8) }
}
