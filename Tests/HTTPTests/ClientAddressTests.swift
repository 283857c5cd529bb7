import TestSupport
import Testing

@testable import HTTP

/// `HTTPServerConfiguration.clientAddress`: the hook names each request's client from its peer
/// and fields; the head and the access record carry what it named, and without the hook, the
/// peer. Connections are still counted per peer.
@Suite struct ClientAddressTests {
  static func router() -> Router {
    var router = Router()
    router.add(.get, "/who") { request in
      HTTPResponse(status: 200, body: .bytes(Array((request.head.remoteAddress ?? "none").utf8)))
    }
    return router
  }

  @Test func theHookNamesTheClientOfEachRequest() async throws {
    let asked = Locked<[String]>([])
    let server = try TestServer(Self.router()) { configuration in
      configuration.clientAddress = { peer, headers in
        asked.withLock { $0.append(peer) }
        return headers["X-Client"] ?? peer
      }
    }
    let client = try await LoopbackHTTPClient(port: server.port, source: "127.0.0.2")
    let named = try await client.send(.init("GET", "/who", headers: [("X-Client", "192.0.2.9")]))
    #expect(named.text == "192.0.2.9")
    // The next request on the same connection is asked about afresh.
    let plain = try await client.send(.init("GET", "/who"))
    #expect(plain.text == "127.0.0.2")
    // A request no route serves is logged under its client too.
    let missing = try await client.send(
      .init("GET", "/nope", headers: [("X-Client", "192.0.2.10")]))
    #expect(missing.status == 404)
    #expect(await server.eventually { server.log.withLock { $0.count } == 3 })
    #expect(
      server.log.withLock { $0 }.map(\.remoteAddress) == ["192.0.2.9", "127.0.0.2", "192.0.2.10"])
    #expect(asked.withLock { $0 } == ["127.0.0.2", "127.0.0.2", "127.0.0.2"])
    client.close()
    await server.stop()
  }

  @Test func withoutTheHookThePeerIsTheClient() async throws {
    let server = try TestServer(Self.router())
    let client = try await LoopbackHTTPClient(port: server.port, source: "127.0.0.3")
    let answer = try await client.send(
      .init("GET", "/who", headers: [("X-Forwarded-For", "192.0.2.9")]))
    #expect(answer.text == "127.0.0.3")
    #expect(await server.eventually { server.log.withLock { $0.count } == 1 })
    #expect(server.log.withLock { $0 }.first?.remoteAddress == "127.0.0.3")
    client.close()
    await server.stop()
  }
}
