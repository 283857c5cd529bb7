import HTTP
import TestSupport
import Testing

/// A refusal to a proxy comes after the body it streams: a proxy passes the body on as it
/// comes and relays the answer, and an answer that overtakes the body is lost on the way (a
/// reset of the client's HTTP/2 stream). From a peer that speaks for clients, a refused body
/// of at most `maxDiscardBytes` is read and dropped first, and the connection stays open;
/// a direct client is still answered at once (`BodyLimitTests`).
@Suite struct ProxyRefusalTests {
  private static let tenMegabytes = 10 * 1024 * 1024

  /// `/upload` takes 64 KiB; `/guarded` wants a token. `127.0.0.1` is a proxy when `proxy`.
  private static func server(proxy: Bool = true, discard: Int? = nil) throws -> TestServer {
    var router = Router()
    router.add(.post, "/upload", maxBodyBytes: 64 * 1024) { request in
      HTTPResponse(status: 200, body: .bytes(Array("\(request.body.count)".utf8)))
    }
    let requireToken: Router.Preflight = { head in
      head.headers["Authorization"] == "Bearer ok"
        ? nil : HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"])
    }
    router.add(.post, "/guarded", maxBodyBytes: tenMegabytes * 2, preflight: requireToken) {
      request in
      HTTPResponse(status: 200, body: .bytes(Array("\(request.body.count)".utf8)))
    }
    return try TestServer(router) { configuration in
      configuration.clientAddress = { peer, headers in headers["X-Forwarded-For"] ?? peer }
      configuration.speaksForClients = { peer in proxy && peer == "127.0.0.1" }
      if let discard { configuration.maxDiscardBytes = discard }
    }
  }

  @Test(arguments: [false, true])
  func aBodyPastTheLimitIsReadBeforeIts413AndTheConnectionStays(chunked: Bool) async throws {
    let server = try Self.server()
    let client = try await server.client()
    let refused = try await client.send(
      .init(
        "POST", "/upload", headers: [("X-Forwarded-For", "203.0.113.7")],
        body: .repeating(1, count: Self.tenMegabytes, declareLength: !chunked), chunked: chunked))
    #expect(refused.status == 413)
    #expect(refused.header("Content-Type") == "application/problem+json")
    #expect(!refused.answeredBeforeBodyWasSent)
    #expect(refused.bodyBytesWritten == Self.tenMegabytes)
    #expect(refused.header("Connection") == nil, "the exchange is whole: the connection stays")
    // The same connection carries the next request.
    let next = try await client.send(.init("POST", "/upload", body: .bytes([1, 2, 3])))
    #expect(next.status == 200 && next.text == "3")
    // The record is written once the answer is out, which the client may read first.
    #expect(await server.eventually { server.log.withLock { $0.count } == 2 })
    #expect(server.log.withLock { $0.map(\.status) } == [413, 200])
    #expect(await server.eventually { server.server.inFlightCount == 0 })
    await server.stop()
  }

  @Test func aRefusalFromTheHeadComesAfterTheBody() async throws {
    let server = try Self.server()
    let client = try await server.client()
    let refused = try await client.send(
      .init("POST", "/guarded", body: .repeating(1, count: Self.tenMegabytes)))
    #expect(refused.status == 401)
    #expect(refused.header("WWW-Authenticate") == "Bearer")
    #expect(!refused.answeredBeforeBodyWasSent)
    #expect(refused.bodyBytesWritten == Self.tenMegabytes)
    let next = try await client.send(
      .init("POST", "/guarded", headers: [("Authorization", "Bearer ok")], body: .bytes([9])))
    #expect(next.status == 200 && next.text == "1")
    await server.stop()
  }

  /// Past `maxDiscardBytes`, from a client (not a proxy), and to a proxy that waits for
  /// `100 Continue`: answered at once, and the connection closes.
  @Test(arguments: ["too long", "client", "expects 100"])
  func otherwiseTheAnswerComesAtOnce(_ condition: String) async throws {
    let server = try Self.server(
      proxy: condition != "client", discard: condition == "too long" ? 1 << 20 : nil)
    let headers = condition == "expects 100" ? [("Expect", "100-continue")] : []
    let refused = try await server.send(
      .init(
        "POST", "/upload", headers: headers, body: .repeating(1, count: Self.tenMegabytes * 5)))
    #expect(refused.status == 413)
    #expect(refused.header("Connection")?.lowercased() == "close")
    #expect(refused.bodyBytesWritten < Self.tenMegabytes * 5 / 4)
    await server.stop()
  }

  /// A refused body dropped too slowly is cut as a slow accepted one is: 408.
  @Test func aBodyDroppedTooSlowlyIsCut() async throws {
    let server = try TestServer(Router()) { configuration in
      configuration.clientAddress = { peer, _ in peer }
      configuration.headTimeout = .milliseconds(300)
      configuration.minBodyBytesPerSecond = 1 << 20
    }
    let client = try await server.client()
    try await client.sendRaw(
      Array("POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nabc".utf8))
    let response = try await client.readResponse()
    #expect(response.status == 408)
    #expect(await client.peerClosed(within: .seconds(5)))
    await server.stop()
  }
}
