import HTTP
import TestSupport
import Testing

/// Routes whose `immediate` closure answers on the server thread when it can.
@Suite struct ImmediateAnswerTests {
  /// `/cached` answers bodies equal to "hit" immediately and everything else in its handler;
  /// the counters tell which ran.
  private static func router(immediate: Counter, handled: Counter) -> Router {
    var router = Router()
    let fromMemory: Router.Immediate = { request in
      immediate.increment()
      guard request.body == Array("hit".utf8) else { return nil }
      var headers = HTTPHeaders()
      headers.set("X-Answered", "immediately")
      return HTTPResponse(status: 201, headers: headers, body: .bytes(Array("from memory".utf8)))
    }
    router.add(.post, "/cached", immediate: fromMemory) { request in
      handled.increment()
      var headers = HTTPHeaders()
      headers.set("X-Answered", "handler")
      return HTTPResponse(status: 200, headers: headers, body: .bytes(request.body))
    }
    let page: Router.Immediate = { _ in
      HTTPResponse(status: 200, body: .bytes([1, 2, 3]))
    }
    router.add(.get, "/page", immediate: page) { _ in HTTPResponse(status: 500) }
    return router
  }

  @Test func anImmediateAnswerSkipsTheHandler() async throws {
    let immediate = Counter()
    let handled = Counter()
    let server = try TestServer(Self.router(immediate: immediate, handled: handled))
    let client = try await server.client()
    for _ in 0..<3 {
      let hit = try await client.send(.init("POST", "/cached", body: .bytes(Array("hit".utf8))))
      #expect(hit.status == 201)
      #expect(hit.text == "from memory")
      #expect(hit.header("X-Answered") == "immediately")
      #expect(hit.header("X-Request-Id") != nil)
      #expect(hit.header("Connection")?.lowercased() != "close")
    }
    // nil goes on to the handler, on the same keep-alive connection.
    let miss = try await client.send(.init("POST", "/cached", body: .bytes(Array("miss".utf8))))
    #expect(miss.status == 200)
    #expect(miss.text == "miss")
    #expect(miss.header("X-Answered") == "handler")
    #expect(immediate.count == 4)
    #expect(handled.count == 1)
    await server.stop()
  }

  @Test func immediateAnswersAreLoggedAndHeadDropsTheBody() async throws {
    let server = try TestServer(Self.router(immediate: Counter(), handled: Counter()))
    let client = try await server.client()
    let head = try await client.send(.init("HEAD", "/page", headers: [("X-Request-Id", "h-1")]))
    #expect(head.status == 200)
    #expect(head.header("Content-Length") == "3")
    #expect(head.body.isEmpty)
    let get = try await client.send(.init("GET", "/page", headers: [("X-Request-Id", "g-1")]))
    #expect(get.body == [1, 2, 3])
    #expect(await server.eventually { server.log.withLock { $0.count } == 2 })
    let records = server.log.withLock { $0 }
    #expect(records.map(\.requestID) == ["h-1", "g-1"])
    #expect(records.map(\.status) == [200, 200])
    #expect(records.map(\.bytesSent) == [0, 3])
    #expect(await server.eventually { server.server.inFlightCount == 0 })
    await server.stop()
  }
}
