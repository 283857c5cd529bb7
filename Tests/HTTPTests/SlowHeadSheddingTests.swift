import TestSupport
import Testing

@testable import HTTP

/// At the connection limit, the connections that have sent the least give way: the oldest
/// that have not sent a whole first head are closed (with a 503) to admit new ones, so slow
/// heads from several addresses, each under its own limit, cannot keep a client out.
@Suite struct SlowHeadSheddingTests {
  /// Three client networks (each its own /24), and a fourth for the client that keeps being
  /// served.
  static let sources = ["127.0.2.2", "127.0.3.3", "127.0.4.4"]
  static let fresh = "127.0.5.5"
  static let slowHead = Array("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8)

  /// Opens a connection from `source` that sends part of a head and then nothing, and waits
  /// until `accepted` says the server took it (so the order of these calls is the order the
  /// server accepted them in).
  static func slowHead(
    _ server: TestServer, from source: String, accepted: () -> Bool
  ) async throws -> LoopbackHTTPClient {
    let client = try await LoopbackHTTPClient(port: server.port, source: source)
    try await client.sendRaw(slowHead)
    #expect(await server.eventually(accepted))
    return client
  }

  /// A server of three connections on one loop whose `GET /` answers "ok", with head and idle
  /// deadlines longer than any test: whatever closes a connection is the limit.
  static func threeSlotServer() throws -> TestServer {
    var router = Router()
    router.add(.get, "/") { _ in HTTPResponse(status: 200, body: .bytes(Array("ok".utf8))) }
    return try TestServer(router) {
      $0.maxConnections = 3
      $0.threadCount = 1
      $0.headTimeout = .seconds(60)
      $0.idleTimeout = .seconds(60)
    }
  }

  @Test func theOldestIncompleteHeadsGiveWayToAFreshClient() async throws {
    var router = Router()
    router.add(.get, "/healthz") { _ in HTTPResponse(status: 200, body: .bytes(Array("ok".utf8))) }
    let server = try TestServer(router) {
      $0.maxConnections = 20
      $0.maxConnectionsPerAddress = 8
      $0.headTimeout = .seconds(60)
    }
    // The attack fills the limit from three networks, each under its own limit (7, 7, 6)...
    var slow: [LoopbackHTTPClient] = []
    for index in 0..<20 {
      slow.append(
        try await Self.slowHead(server, from: Self.sources[index % 3]) {
          server.server.core.heads.waiting == index + 1
        })
    }
    #expect(server.openConnections == 20)
    // ...and goes on past it: each new slow head takes the slot of the oldest one.
    for index in 20..<24 {
      slow.append(
        try await Self.slowHead(server, from: Self.sources[index % 3]) {
          server.server.shedConnectionCount == index - 19
        })
    }
    // A fresh client from another address gets through every time, in the slot of the oldest
    // slow head; the attack takes back the slot the client leaves.
    for round in 0..<10 {
      let probe = try await LoopbackHTTPClient(
        port: server.port, timeout: .seconds(5), source: Self.fresh)
      let response = try await probe.send(.init("GET", "/healthz"))
      #expect(response.status == 200, "round \(round)")
      #expect(response.text == "ok")
      probe.close()
      #expect(await server.eventually { server.openConnections == 19 })
      slow.append(
        try await Self.slowHead(server, from: Self.sources[round % 3]) {
          server.server.core.heads.waiting == 20
        })
    }
    #expect(server.server.shedConnectionCount == 14)
    // The ones shed are exactly the 14 oldest, each answered 503 and closed; the others wait on.
    for (index, client) in slow.enumerated() where index < 14 {
      let answer = try await client.readResponse()
      #expect(answer.status == 503, "slow head \(index)")
      #expect(answer.header("Content-Type") == "application/problem+json")
      #expect(answer.header("Retry-After") == "1")
      #expect(await client.peerClosed())
    }
    for (index, client) in slow.enumerated() where index >= 14 {
      #expect(await !client.peerClosed(within: .milliseconds(20)), "slow head \(index)")
    }
    #expect(server.log.withLock { $0.filter { $0.status == 503 }.count } == 14)
    #expect(server.openConnections == 20)
    for client in slow { client.close() }
    #expect(await server.eventually { server.openConnections == 0 })
    #expect(server.server.core.heads.waiting == 0)
    await server.stop()
  }

  /// At the limit the network that holds the most connections without a head gives way first,
  /// even when another network's slow heads are older: an attack from one network costs its own
  /// connections, never a slow phone's of another network.
  @Test func theNetworkHoldingTheMostHeadsGivesWayFirst() async throws {
    var router = Router()
    router.add(.get, "/healthz") { _ in HTTPResponse(status: 200, body: .bytes(Array("ok".utf8))) }
    let server = try TestServer(router) {
      $0.maxConnections = 20
      $0.headTimeout = .seconds(60)
    }
    // Four slow heads from one network first (a slow phone's carrier, say), then sixteen from
    // the attacker's network: the limit is full.
    var phones: [LoopbackHTTPClient] = []
    for index in 0..<4 {
      phones.append(
        try await Self.slowHead(server, from: "127.0.7.\(index + 2)") {
          server.server.core.heads.waiting == index + 1
        })
    }
    var attack: [LoopbackHTTPClient] = []
    for index in 0..<16 {
      attack.append(
        try await Self.slowHead(server, from: "127.0.8.\(index % 4 + 2)") {
          server.server.core.heads.waiting == index + 5
        })
    }
    // Each fresh client takes the slot of the attacker's oldest, not of the older phones'; the
    // attacker takes back the slot the client leaves.
    for round in 0..<6 {
      let probe = try await LoopbackHTTPClient(
        port: server.port, timeout: .seconds(5), source: Self.fresh)
      let response = try await probe.send(.init("GET", "/healthz"))
      #expect(response.status == 200, "round \(round)")
      probe.close()
      #expect(await server.eventually { server.openConnections == 19 })
      attack.append(
        try await Self.slowHead(server, from: "127.0.8.9") {
          server.server.core.heads.waiting == 20
        })
    }
    #expect(server.server.shedConnectionCount == 6)
    for (index, client) in attack.enumerated() where index < 6 {
      #expect(try await client.readResponse().status == 503, "attack \(index)")
    }
    for (index, client) in phones.enumerated() {
      #expect(await !client.peerClosed(within: .milliseconds(20)), "phone \(index)")
    }
    #expect(server.server.core.heads.waiting(from: "127.0.8.0/24") == 16)
    #expect(server.server.core.heads.waiting(from: "127.0.7.0/24") == 4)
    for client in phones + attack { client.close() }
    #expect(await server.eventually { server.openConnections == 0 })
    await server.stop()
  }

  /// Connections in the middle of a request are never shed: with every slot held by one, a
  /// new connection is refused as before.
  @Test func connectionsMidRequestAreNotShed() async throws {
    let gate = Gate()
    let entered = Counter()
    var router = Router()
    router.add(.get, "/") { _ in
      entered.increment()
      await gate.wait()
      return HTTPResponse(status: 200)
    }
    let server = try TestServer(router) {
      $0.maxConnections = 3
      $0.headTimeout = .seconds(60)
    }
    var waiting: [Task<LoopbackHTTPResponse, any Error>] = []
    for _ in 0..<3 {
      let client = try await server.client()
      waiting.append(Task { try await client.send(.init("GET", "/")) })
    }
    #expect(await server.eventually { entered.count == 3 })
    let refused = try await LoopbackHTTPClient(port: server.port, timeout: .seconds(2))
    #expect(try await refused.readResponse().status == 503)
    #expect(server.server.shedConnectionCount == 0)
    #expect(server.server.idleConnectionsClosedCount == 0)
    gate.open()
    for request in waiting { #expect(try await request.value.status == 200) }
    await server.stop()
  }

  /// A kept-alive connection idle between requests gives way at the limit, the one idle
  /// longest on its loop first, closed without an answer (HTTP lets a server close an idle
  /// connection at any time): after a push, phones that have their image hold connections
  /// that phones still waiting for it need.
  @Test func idleKeptAliveConnectionsGiveWayAtTheLimit() async throws {
    let server = try Self.threeSlotServer()
    var kept: [LoopbackHTTPClient] = []
    for _ in 0..<3 {
      let client = try await server.client()
      #expect(try await client.send(.init("GET", "/")).status == 200)
      kept.append(client)
    }
    // The loop counts its idle connections at its next tick (every 100 ms).
    #expect(await server.eventually { server.server.core.idleKeptAliveCount == 3 })
    let newcomer = try await LoopbackHTTPClient(
      port: server.port, timeout: .seconds(5), source: Self.fresh)
    let answer = try await newcomer.send(.init("GET", "/"))
    #expect(answer.status == 200)
    #expect(answer.text == "ok")
    #expect(server.server.idleConnectionsClosedCount == 1)
    #expect(server.server.shedConnectionCount == 0)
    // The oldest idle one was closed, without a word; the others are served on.
    #expect(await kept[0].peerClosed())
    for client in kept[1...] {
      #expect(try await client.send(.init("GET", "/")).status == 200)
    }
    #expect(await server.eventually { server.openConnections == 3 })
    newcomer.close()
    await server.stop()
  }

  /// At the limit the connection that has gone longest without a request gives way, whichever
  /// kind it is: an idle kept-alive connection older than every waiting head is closed before
  /// any head is shed (phones that have their image give way to phones whose request is on its
  /// way), and a head that has waited longer than every idle connection is shed first.
  @Test func theConnectionWithoutARequestLongestGivesWay() async throws {
    for headFirst in [false, true] {
      let server = try Self.threeSlotServer()
      var slow: LoopbackHTTPClient?
      var kept: [LoopbackHTTPClient] = []
      for step in 0..<3 {
        if step == (headFirst ? 0 : 2) {
          slow = try await Self.slowHead(server, from: "127.0.0.2") {
            server.server.core.heads.waiting == 1
          }
          continue
        }
        let client = try await server.client()
        #expect(try await client.send(.init("GET", "/")).status == 200)
        kept.append(client)
      }
      // The loop counts its idle connections at its next tick (every 100 ms).
      #expect(await server.eventually { server.server.core.idleKeptAliveCount == 2 })
      let newcomer = try await LoopbackHTTPClient(
        port: server.port, timeout: .seconds(5), source: Self.fresh)
      #expect(try await newcomer.send(.init("GET", "/")).status == 200, "head first: \(headFirst)")
      if headFirst {
        #expect(server.server.shedConnectionCount == 1)
        #expect(server.server.idleConnectionsClosedCount == 0)
        #expect(try await slow?.readResponse().status == 503)
        for client in kept { #expect(try await client.send(.init("GET", "/")).status == 200) }
      } else {
        #expect(server.server.shedConnectionCount == 0)
        #expect(server.server.idleConnectionsClosedCount == 1)
        #expect(await kept[0].peerClosed())
        #expect(await slow?.peerClosed(within: .milliseconds(20)) == false)
        try await slow?.sendRaw(Array("1\r\n\r\n".utf8))
        #expect(try await slow?.readResponse().status == 200)
      }
      newcomer.close()
      await server.stop()
    }
  }
}
