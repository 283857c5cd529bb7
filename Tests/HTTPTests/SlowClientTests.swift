import HTTP
import TestSupport
import Testing

/// Clients that send slowly, or hold many connections, cannot take the server down: heads and
/// bodies have deadlines, one address has a share of the connections, and everyone else is
/// still served.
@Suite struct SlowClientTests {
  static func router(handled: Counter = Counter()) -> Router {
    var router = Router()
    router.add(.get, "/") { _ in HTTPResponse(status: 200, body: .bytes(Array("ok".utf8))) }
    router.add(.post, "/echo", maxBodyBytes: 1 << 20) { request in
      handled.increment()
      return HTTPResponse(status: 200, body: .bytes(Array("\(request.body.count)".utf8)))
    }
    return router
  }

  @Test func aHeadTrickledPastItsDeadlineGets408() async throws {
    let server = try TestServer(Self.router()) { $0.headTimeout = .seconds(1) }
    let pieces =
      [Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8)]
      + Array(repeating: Array("X: y\r\n".utf8), count: 20)
    let exchange = try await RawHTTPExchange.run(
      port: server.port, pieces, pause: .milliseconds(250))
    #expect(exchange.statuses == [408])
    #expect(exchange.responses.first?.header("Content-Type") == "application/problem+json")
    #expect(exchange.closed)
    await server.stop()
  }

  @Test func aNewConnectionThatSendsNothingIsClosedAtTheHeadDeadline() async throws {
    let server = try TestServer(Self.router()) {
      $0.headTimeout = .seconds(1)
      $0.idleTimeout = .seconds(60)
    }
    let client = try await server.client()
    #expect(await client.peerClosed(within: .seconds(10)))
    await server.stop()
  }

  @Test func aKeptAliveConnectionWaitsItsIdleTimeoutNotTheHeadDeadline() async throws {
    let server = try TestServer(Self.router()) {
      $0.headTimeout = .milliseconds(300)
      $0.idleTimeout = .seconds(60)
    }
    let client = try await server.client()
    #expect(try await client.send(.init("GET", "/")).status == 200)
    #expect(await !client.peerClosed(within: .seconds(1)))
    #expect(try await client.send(.init("GET", "/")).status == 200)
    await server.stop()
  }

  @Test func aBodyTrickledBelowTheMinimumRateGets408() async throws {
    let handled = Counter()
    let server = try TestServer(Self.router(handled: handled)) {
      $0.headTimeout = .seconds(1)
      $0.minBodyBytesPerSecond = 10_000
    }
    let head = Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n".utf8)
    let pieces = [head] + Array(repeating: [UInt8](repeating: 1, count: 10), count: 40)
    let exchange = try await RawHTTPExchange.run(
      port: server.port, pieces, pause: .milliseconds(100))
    #expect(exchange.statuses == [408])
    #expect(exchange.closed)
    #expect(handled.count == 0)
    #expect(await server.eventually { server.server.inFlightCount == 0 })
    await server.stop()
  }

  @Test func aBodyAtAnAcceptableRateIsServed() async throws {
    let server = try TestServer(Self.router()) {
      $0.headTimeout = .milliseconds(200)
      $0.minBodyBytesPerSecond = 1000
    }
    let head = Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 8000\r\n\r\n".utf8)
    let pieces = [head] + Array(repeating: [UInt8](repeating: 1, count: 1000), count: 8)
    let exchange = try await RawHTTPExchange.run(
      port: server.port, pieces, pause: .milliseconds(100))
    #expect(exchange.statuses == [200])
    #expect(exchange.responses.first?.text == "8000")
    await server.stop()
  }

  @Test func oneAddressGetsItsShareAndOtherAddressesAreStillServed() async throws {
    let server = try TestServer(Self.router()) { $0.maxConnectionsPerAddress = 3 }
    let held = try await SlowClients(
      count: 3, port: server.port, source: "127.0.0.2", prefix: "GET / HTTP/1.1\r\n")
    // Two loops accept from one socket: the fourth connection can be accepted before the
    // three, and then waits for a request instead of being refused. Wait until all are counted.
    #expect(await server.eventually { server.openConnections == 3 })
    let extra = try await LoopbackHTTPClient(port: server.port, source: "127.0.0.2")
    let refused = try await extra.readResponse()
    #expect(refused.status == 429)
    #expect(refused.header("Content-Type") == "application/problem+json")
    #expect(await extra.peerClosed())
    // Another address of the same /24 is the same client; one of another /24 is not.
    let neighbour = try await LoopbackHTTPClient(port: server.port, source: "127.0.0.3")
    #expect(try await neighbour.readResponse().status == 429)
    let other = try await LoopbackHTTPClient(port: server.port, source: "127.0.3.3")
    #expect(try await other.send(.init("GET", "/")).status == 200)
    // A slot freed by the address is its own again.
    held.close()
    var served = false
    for _ in 0..<100 where !served {
      let again = try await LoopbackHTTPClient(port: server.port, source: "127.0.0.2")
      served = (try? await again.send(.init("GET", "/")).status) == 200
      if !served { try await Task.sleep(for: .milliseconds(20)) }
    }
    #expect(served)
    #expect(
      server.log.withLock { $0.contains { $0.status == 429 && $0.remoteAddress == "127.0.0.2" } })
    await server.stop()
  }

  /// 600 connections from one address trickling heads (a slowloris): the address holds its
  /// share, the rest are refused at once, every one is closed at the head deadline, and a
  /// health probe from another network is answered all along.
  @Test func aSlowlorisFromOneAddressDoesNotStarveOthers() async throws {
    let server = try TestServer(Self.router()) {
      $0.maxConnections = 1024
      $0.maxConnectionsPerAddress = 256
      $0.headTimeout = .seconds(3)
    }
    let slow = try await SlowClients(
      count: 600, port: server.port, source: "127.0.6.2", prefix: "GET / HTTP/1.1\r\nHost: x\r\n")
    for _ in 0..<20 {
      let probe = try await LoopbackHTTPClient(port: server.port, timeout: .seconds(2))
      let response = try await probe.send(.init("GET", "/"))
      #expect(response.status == 200)
      probe.close()
    }
    // At most 256 were let in; the others were answered 429 and closed at once.
    #expect(slow.closedByServer >= 600 - 256)
    // After the head deadline every one of them is closed.
    var allClosed = false
    for _ in 0..<100 where !allClosed {
      allClosed = slow.closedByServer == 600
      if !allClosed { try await Task.sleep(for: .milliseconds(100)) }
    }
    #expect(allClosed)
    await server.stop()
  }

  @Test func bodiesPastTheMemoryBudgetAreRefusedFromTheirHead() async throws {
    let gate = Gate()
    let entered = Counter()
    var router = Router()
    router.add(.post, "/hold", maxBodyBytes: 1 << 20) { request in
      entered.increment()
      await gate.wait()
      return HTTPResponse(status: 200, body: .bytes(Array("\(request.body.count)".utf8)))
    }
    let server = try TestServer(router) { $0.bodyMemoryLimit = 100_000 }
    let first = Task {
      try await server.send(
        .init("POST", "/hold", body: .bytes([UInt8](repeating: 1, count: 80_000))))
    }
    #expect(await server.eventually { entered.count == 1 })
    let second = try await server.send(
      .init("POST", "/hold", body: .bytes([UInt8](repeating: 2, count: 80_000))))
    #expect(second.status == 503)
    #expect(second.header("Retry-After") == "1")
    #expect(entered.count == 1)
    #expect(server.server.overloadRefusalCounts == .init(bodyMemory: 1))
    gate.open()
    #expect(try await first.value.text == "80000")
    // The budget came back with the first answer.
    let third = try await server.send(
      .init("POST", "/hold", body: .bytes([UInt8](repeating: 3, count: 80_000))))
    #expect(third.status == 200)
    await server.stop()
  }

  /// An overload refusal from the head waits out its Retry-After before it is sent and the
  /// body is not read meanwhile, so a client that retries at once cannot turn refusals into a
  /// storm of body transfers; it still gets the answer.
  @Test func anOverloadRefusalIsHeldForItsRetryAfter() async throws {
    let handled = Counter()
    var router = Router()
    let busy: Router.Preflight = { _ in
      HTTPResponse(status: 503, headers: ["Retry-After": "2"])
    }
    router.add(.post, "/busy", maxBodyBytes: 8 << 20, preflight: busy) { _ in
      handled.increment()
      return HTTPResponse(status: 200)
    }
    let server = try TestServer(router)
    let head = Array("POST /busy HTTP/1.1\r\nHost: x\r\nContent-Length: 4000000\r\n\r\n".utf8)
    // Nothing comes back at first...
    let early = try await RawHTTPExchange.run(
      port: server.port, [head], quiet: .milliseconds(600), timeout: .milliseconds(600))
    #expect(early.responses.isEmpty)
    // ...and a client that writes its whole body first reads the 503 once it is sent.
    let client = try await server.client()
    let response = try await client.send(
      .init("POST", "/busy", body: .repeating(7, count: 4_000_000)))
    #expect(response.status == 503)
    #expect(response.header("Retry-After") == "2")
    #expect(handled.count == 0)
    await server.stop()
  }
}
