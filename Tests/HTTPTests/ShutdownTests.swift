import TestSupport
import Testing

@testable import HTTP

@Suite struct ShutdownTests {
  private static func router(gate: Gate, entered: Counter) -> Router {
    var router = Router()
    router.add(.get, "/slow") { _ in
      entered.increment()
      await gate.wait()
      return HTTPResponse(status: 200, body: .bytes(Array("done".utf8)))
    }
    router.add(.get, "/fast") { _ in HTTPResponse(status: 200) }
    return router
  }

  @Test func finishesInFlightRequestsAndRefusesNewConnections() async throws {
    let gate = Gate()
    let entered = Counter()
    let server = try TestServer(Self.router(gate: gate, entered: entered))
    let port = server.port
    let idle = try await server.client()
    #expect(try await idle.send(.init("GET", "/fast")).status == 200)

    let inFlight = Task { try await server.send(.init("GET", "/slow")) }
    #expect(await server.eventually { entered.count == 1 })
    let shutdown = Task { await server.server.shutdown(gracePeriod: .seconds(20)) }

    // New connections are refused once the server quiesced.
    var refused = false
    for _ in 0..<200 where !refused {
      do {
        let client = try await LoopbackHTTPClient(port: port, timeout: .seconds(2))
        client.close()
        try await Task.sleep(for: .milliseconds(10))
      } catch LoopbackHTTPError.connectFailed {
        refused = true
      }
    }
    #expect(refused)

    gate.open()
    let response = try await inFlight.value
    #expect(response.status == 200 && response.text == "done")
    #expect(response.header("Connection")?.lowercased() == "close")
    await shutdown.value
    // Idempotent: a second call returns at once.
    await server.stop()
    #expect(server.server.inFlightCount == 0)
    #expect(await server.eventually { server.server.liveRequestObjects == 0 })
    #expect(await idle.peerClosed())
  }

  @Test func answers503WhenTheGracePeriodRunsOut() async throws {
    let gate = Gate()
    let entered = Counter()
    let server = try TestServer(Self.router(gate: gate, entered: entered))
    let inFlight = Task { try await server.send(.init("GET", "/slow")) }
    #expect(await server.eventually { entered.count == 1 })
    await server.server.shutdown(gracePeriod: .milliseconds(50))
    let response = try await inFlight.value
    #expect(response.status == 503)
    #expect(response.header("Content-Type") == "application/problem+json")
    #expect(response.header("Connection")?.lowercased() == "close")
    #expect(server.server.inFlightCount == 0)
    // The handler finishing after the daemon stopped is harmless and releases its request.
    gate.open()
    #expect(await server.eventually { server.server.liveRequestObjects == 0 })
  }

  @Test func concurrentShutdownsAllReturn() async throws {
    let server = try TestServer(Self.router(gate: Gate(), entered: Counter()))
    async let first: Void = server.server.shutdown(gracePeriod: .seconds(1))
    async let second: Void = server.server.shutdown(gracePeriod: .seconds(1))
    _ = await (first, second)
    await #expect(throws: LoopbackHTTPError.self) {
      _ = try await server.send(.init("GET", "/fast"))
    }
  }

  @Test func deinitStopsAServerThatWasNeverShutDown() async throws {
    var server: TestServer? = try TestServer(Self.router(gate: Gate(), entered: Counter()))
    let port = try #require(server?.port)
    #expect(try await server?.send(.init("GET", "/fast")).status == 200)
    server = nil
    await #expect(throws: LoopbackHTTPError.self) {
      _ = try await LoopbackHTTPClient(port: port, timeout: .seconds(2)).send(.init("GET", "/fast"))
    }
  }
}

@Suite struct AbruptStopTests {
  /// Dropping a server while a handler waits and while a stream waits for its next chunk stops
  /// at once without crashing: the waiting request is answered 503, the stream (its 200 head
  /// sent) cannot complete, and the late handler and stream find no connection to answer.
  @Test func deinitWithSuspendedConnectionsDoesNotCrash() async throws {
    let gate = Gate()
    let entered = Counter()
    var router = Router()
    router.add(.get, "/slow") { _ in
      entered.increment()
      await gate.wait()
      return HTTPResponse(status: 200)
    }
    router.add(.get, "/stalled-stream") { _ in
      entered.increment()
      return HTTPResponse(
        status: 200,
        body: .stream(length: nil) {
          await gate.wait()
          return nil
        })
    }
    var server: TestServer? = try TestServer(router)
    let port = try #require(server?.port)
    let slow = Task { try await LoopbackHTTPClient(port: port).send(.init("GET", "/slow")) }
    let stream = Task {
      try await LoopbackHTTPClient(port: port).send(.init("GET", "/stalled-stream"))
    }
    #expect(await server?.eventually { entered.count == 2 } == true)
    try await Task.sleep(for: .milliseconds(50))
    server = nil
    let slowResult = await slow.result
    let streamResult = await stream.result
    // The request still waiting for its handler is answered 503, and its connection closed.
    let slowAnswer = try slowResult.get()
    #expect(slowAnswer.status == 503)
    #expect(slowAnswer.header("Content-Type") == "application/problem+json")
    #expect(slowAnswer.header("Connection")?.lowercased() == "close")
    if case .success(let response) = streamResult {
      Issue.record("a stalled stream cannot complete, got \(response.status)")
    }
    gate.open()
  }
}
