import HTTP
import TestSupport
import Testing

@Suite struct ConnectionLimitTests {
  private static func router() -> Router {
    var router = Router()
    router.add(.get, "/") { _ in HTTPResponse(status: 200) }
    router.add(.post, "/") { _ in HTTPResponse(status: 201) }
    return router
  }

  /// Near the limit (nine tenths of it), what is cheap keeps its connections: a GET is served
  /// while a request with a body is refused from its head, with a 503 that says why and names
  /// the setting to raise.
  @Test func nearTheLimitGetsAreServedAndOtherRequestsRefused() async throws {
    let server = try TestServer(Self.router()) {
      $0.maxConnections = 10
      $0.connectionSettings = ("MAX_TOTAL", "MAX_PER_CLIENT")
      $0.problemResponder = HTTPServerConfiguration.problemJSON
    }
    var idle: [LoopbackHTTPClient] = []
    for _ in 0..<8 { idle.append(try await server.client()) }
    #expect(await server.eventually { server.openConnections == 8 })
    // Nine open with this one: crowded.
    let client = try await server.client()
    #expect(await server.eventually { server.openConnections == 9 })
    #expect(try await client.send(.init("GET", "/")).status == 200)
    let refused = try await client.send(.init("POST", "/", body: .bytes(Array("x".utf8))))
    #expect(refused.status == 503)
    #expect(refused.header("Retry-After") == "1")
    #expect(refused.header("Content-Type") == "application/problem+json")
    #expect(refused.text.contains("MAX_TOTAL"), "\(refused.text)")
    // A GET on a fresh connection still gets its answer.
    let fresh = try await server.client()
    #expect(try await fresh.send(.init("GET", "/")).status == 200)
    // Below the mark again, the same request is served.
    for connection in idle { connection.close() }
    fresh.close()
    #expect(await server.eventually { server.openConnections <= 2 })
    let later = try await server.client()
    #expect(try await later.send(.init("POST", "/", body: .bytes(Array("x".utf8)))).status == 201)
    await server.stop()
  }

  /// Near the limit, sockets that others hold never refuse a write: one from a network that
  /// holds few of the connections, and one with a credential from the network that holds the
  /// most, are served; a write without one from that network is refused, and told why.
  @Test func nearTheLimitOnlyTheNetworkHoldingTheMostIsRefusedWrites() async throws {
    var router = Router()
    router.add(.get, "/") { _ in HTTPResponse(status: 200) }
    let credential: Router.Preflight = { head in
      head.hasCredential = head.headers["Authorization"] == "Bearer ok"
      return nil
    }
    router.add(.post, "/", authorize: credential) { _ in HTTPResponse(status: 201) }
    let server = try TestServer(router) {
      $0.maxConnections = 20
      $0.connectionSettings = ("MAX_TOTAL", "MAX_PER_CLIENT")
      $0.problemResponder = HTTPServerConfiguration.problemJSON
    }
    // Seventeen idle sockets from three addresses of one /24, one from another network.
    var idle: [LoopbackHTTPClient] = []
    for index in 0..<17 {
      idle.append(
        try await LoopbackHTTPClient(port: server.port, source: "127.0.0.\(2 + index % 3)"))
    }
    idle.append(try await LoopbackHTTPClient(port: server.port, source: "127.0.1.9"))
    #expect(await server.eventually { server.openConnections == 18 })
    let body = LoopbackHTTPRequest.Body.bytes(Array("x".utf8))
    // The other network's write, on a connection of its own: served (crowded from 18).
    let few = try await LoopbackHTTPClient(port: server.port, source: "127.0.1.10")
    #expect(await server.eventually { server.openConnections == 19 })
    #expect(try await few.send(.init("POST", "/", body: body)).status == 201)
    // The crowded network's write with a credential: served; without: refused, and why.
    let heavy = try await LoopbackHTTPClient(port: server.port, source: "127.0.0.5")
    #expect(await server.eventually { server.openConnections == 20 })
    let token = try await heavy.send(
      .init("POST", "/", headers: [("Authorization", "Bearer ok")], body: body))
    #expect(token.status == 201)
    // At the limit now: this one takes the slot of the oldest idle socket of its own network.
    let heavyAgain = try await LoopbackHTTPClient(port: server.port, source: "127.0.0.6")
    let refused = try await heavyAgain.send(.init("POST", "/", body: body))
    #expect(refused.status == 503)
    #expect(refused.header("Retry-After") == "1")
    #expect(refused.text.contains("your network holds 18 of them"), "\(refused.text)")
    #expect(refused.text.contains("MAX_TOTAL"), "\(refused.text)")
    #expect(server.server.overloadRefusalCounts == .init(crowded: 1))
    // GETs from the crowded network are served all along.
    #expect(try await heavy.send(.init("GET", "/")).status == 200)
    for client in idle + [few, heavy, heavyAgain] { client.close() }
    await server.stop()
  }

  @Test func thePerClientRefusalNamesItsSetting() async throws {
    let server = try TestServer(Self.router()) {
      $0.maxConnectionsPerAddress = 1
      $0.connectionSettings = ("MAX_TOTAL", "MAX_PER_CLIENT")
      $0.problemResponder = HTTPServerConfiguration.problemJSON
    }
    let first = try await server.client()
    #expect(await server.eventually { server.openConnections == 1 })
    let extra = try await LoopbackHTTPClient(port: server.port, timeout: .seconds(2))
    let refused = try await extra.readResponse()
    #expect(refused.status == 429)
    #expect(refused.text.contains("MAX_PER_CLIENT"), "\(refused.text)")
    first.close()
    await server.stop()
  }

  @Test func connectionsOverTheLimitAreRefusedAtOnce() async throws {
    let server = try TestServer(Self.router()) { $0.maxConnections = 2 }
    let first = try await server.client()
    let second = try await server.client()
    #expect(try await first.send(.init("GET", "/")).status == 200)
    #expect(try await second.send(.init("GET", "/")).status == 200)
    // A connection over the limit is accepted, answered 503 and closed: it never waits in the
    // kernel's backlog.
    let third = try await LoopbackHTTPClient(port: server.port, timeout: .seconds(2))
    let refused = try await third.readResponse()
    #expect(refused.status == 503)
    #expect(refused.header("Retry-After") == "1")
    #expect(refused.header("Content-Type") == "application/problem+json")
    #expect(await third.peerClosed())
    // Once slots free up, new connections are served again.
    first.close()
    third.close()
    var served = false
    for _ in 0..<100 where !served {
      served = (try? await server.send(.init("GET", "/")).status) == 200
      if !served { try await Task.sleep(for: .milliseconds(20)) }
    }
    #expect(served)
    await server.stop()
  }

  @Test func idleConnectionsTimeOut() async throws {
    // NOTE: the connection stays idle from the start: no request races the timeout, so a loaded
    // machine that is slow to schedule this task cannot turn the test into a false failure.
    let server = try TestServer(Self.router()) { $0.idleTimeout = .seconds(1) }
    let client = try await server.client()
    #expect(await client.peerClosed(within: .seconds(30)))
    #expect(try await server.send(.init("GET", "/")).status == 200)
    await server.stop()
  }
}

@Suite struct ConfigurationTests {
  @Test func reportsEveryInvalidValueAtOnce() {
    let configuration = HTTPServerConfiguration(
      port: 70_000, defaultMaxBodyBytes: -1, maxHeaderBytes: 10, maxConnections: 0,
      idleTimeout: .seconds(-1), threadCount: 2)
    do {
      _ = try HTTPServer(configuration: configuration, router: Router())
      Issue.record("started with an invalid configuration")
    } catch {
      guard case .invalidConfiguration(let detail) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      for key in ["port", "maxHeaderBytes", "defaultMaxBodyBytes", "maxConnections", "idleTimeout"]
      {
        #expect(detail.contains(key), "\(key) missing from: \(detail)")
      }
    }
  }
}
