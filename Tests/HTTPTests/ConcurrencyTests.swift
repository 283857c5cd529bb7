import HTTP
import TestSupport
import Testing

@Suite struct ConcurrencyTests {
  /// 32 handlers wait on a gate that opens only after `/fast` answered: with two server threads,
  /// `/fast` can answer only if waiting handlers hold no server thread.
  @Test func slowHandlersDoNotBlockServerThreads() async throws {
    let gate = Gate()
    let entered = Counter()
    var router = Router()
    router.add(.get, "/slow/{n}") { request in
      entered.increment()
      await gate.wait()
      try? await Task.sleep(for: .milliseconds(300))
      let text = request.pathParameter("n") ?? ""
      return HTTPResponse(status: 200, body: .bytes(Array(text.utf8)))
    }
    router.add(.get, "/fast") { _ in HTTPResponse(status: 200, body: .bytes(Array("fast".utf8))) }
    let server = try TestServer(router) { $0.threadCount = 2 }

    let slowCount = 32
    try await withThrowingTaskGroup(of: (Int, LoopbackHTTPResponse).self) { group in
      for index in 0..<slowCount {
        group.addTask {
          (index, try await server.send(.init("GET", "/slow/\(index)")))
        }
      }
      #expect(await server.eventually { entered.count == slowCount })
      #expect(server.server.inFlightCount == slowCount)
      let fast = try await server.send(.init("GET", "/fast"))
      #expect(fast.status == 200 && fast.text == "fast")
      gate.open()
      var seen: Set<Int> = []
      for try await (index, response) in group {
        #expect(response.status == 200)
        #expect(response.text == "\(index)")
        seen.insert(index)
      }
      #expect(seen.count == slowCount)
    }
    #expect(await server.eventually { server.server.inFlightCount == 0 })
    await server.stop()
  }
}
