import HTTP
import TestSupport
import Testing

@Suite struct BodyLimitTests {
  private static let fiftyMegabytes = 50 * 1024 * 1024

  /// `/upload` accepts 64 KiB and echoes the body's size; `/guarded` rejects requests without a
  /// token in its preflight and counts the handler calls.
  private static func router(handled: Counter, preflighted: Counter) -> Router {
    var router = Router()
    router.add(.post, "/upload", maxBodyBytes: 64 * 1024) { request in
      handled.increment()
      return HTTPResponse(status: 200, body: .bytes(Array("\(request.body.count)".utf8)))
    }
    let requireToken: Router.Preflight = { head in
      preflighted.increment()
      guard head.headers["Authorization"] == "Bearer ok" else {
        return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"])
      }
      return nil
    }
    router.add(.post, "/guarded", maxBodyBytes: fiftyMegabytes * 2, preflight: requireToken) {
      request in
      handled.increment()
      return HTTPResponse(status: 200, body: .bytes(Array("\(request.body.count)".utf8)))
    }
    return router
  }

  @Test func bodyWithinTheLimitReachesTheHandler() async throws {
    let handled = Counter()
    let server = try TestServer(Self.router(handled: handled, preflighted: Counter()))
    let body = [UInt8](repeating: 7, count: 64 * 1024)
    let plain = try await server.send(.init("POST", "/upload", body: .bytes(body)))
    #expect(plain.status == 200 && plain.text == "65536")
    let chunked = try await server.send(.init("POST", "/upload", body: .bytes(body), chunked: true))
    #expect(chunked.status == 200 && chunked.text == "65536")
    #expect(handled.count == 2)
    await server.stop()
  }

  @Test(arguments: [false, true])
  func largeBodiesWithinTheLimitArriveWhole(chunked: Bool) async throws {
    let size = 4 * 1024 * 1024 + 17
    var router = Router()
    router.add(.put, "/big", maxBodyBytes: size) { request in
      let sum = request.body.reduce(0) { $0 &+ Int($1) }
      return HTTPResponse(status: 200, body: .bytes(Array("\(request.body.count) \(sum)".utf8)))
    }
    let server = try TestServer(router)
    let response = try await server.send(
      .init(
        "PUT", "/big", body: .repeating(3, count: size, declareLength: !chunked), chunked: chunked))
    #expect(response.status == 200)
    #expect(response.text == "\(size) \(size * 3)")
    await server.stop()
  }

  @Test func hugeContentLengthGets413BeforeTheBodyIsSent() async throws {
    let handled = Counter()
    let server = try TestServer(Self.router(handled: handled, preflighted: Counter()))
    let response = try await server.send(
      .init("POST", "/upload", body: .repeating(1, count: Self.fiftyMegabytes)))
    #expect(response.status == 413)
    #expect(response.header("Content-Type") == "application/problem+json")
    #expect(response.header("Connection")?.lowercased() == "close")
    #expect(response.answeredBeforeBodyWasSent)
    #expect(response.bodyBytesWritten < Self.fiftyMegabytes / 4)
    #expect(handled.count == 0)
    await server.stop()
  }

  @Test func expectContinueWithHugeLengthGets413InsteadOf100() async throws {
    let server = try TestServer(Self.router(handled: Counter(), preflighted: Counter()))
    let response = try await server.send(
      .init(
        "POST", "/upload", headers: [("Expect", "100-continue")],
        body: .repeating(1, count: Self.fiftyMegabytes)))
    #expect(response.status == 413)
    #expect(response.bodyBytesWritten == 0)
    await server.stop()
  }

  @Test func expectContinueWithinTheLimitGets100ThenTheAnswer() async throws {
    let server = try TestServer(Self.router(handled: Counter(), preflighted: Counter()))
    let client = try await server.client()
    try await client.sendRaw(
      Array(
        "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"
          .utf8))
    let interim = try await client.readInterimResponse()
    #expect(interim.status == 100)
    try await client.sendRaw(Array("hello".utf8))
    let response = try await client.readResponse()
    #expect(response.status == 200 && response.text == "5")
    await server.stop()
  }

  @Test func chunkedBodyOverTheLimitIsCutWith413() async throws {
    let handled = Counter()
    let server = try TestServer(Self.router(handled: handled, preflighted: Counter()))
    let response = try await server.send(
      .init(
        "POST", "/upload", body: .repeating(1, count: Self.fiftyMegabytes, declareLength: false),
        chunked: true))
    #expect(response.status == 413)
    #expect(response.header("Connection")?.lowercased() == "close")
    #expect(response.header("X-Request-Id") != nil)
    #expect(response.answeredBeforeBodyWasSent)
    #expect(response.bodyBytesWritten < Self.fiftyMegabytes / 4)
    #expect(handled.count == 0)
    #expect(await server.eventually { server.log.withLock { $0.count } == 1 })
    #expect(server.log.withLock { $0.first?.status } == 413)
    #expect(await server.eventually { server.server.inFlightCount == 0 })
    await server.stop()
  }

  @Test func preflightAnswersWithoutReadingTheBody() async throws {
    let handled = Counter()
    let preflighted = Counter()
    let server = try TestServer(Self.router(handled: handled, preflighted: preflighted))
    let response = try await server.send(
      .init("POST", "/guarded", body: .repeating(1, count: Self.fiftyMegabytes)))
    #expect(response.status == 401)
    #expect(response.header("WWW-Authenticate") == "Bearer")
    #expect(response.header("Connection")?.lowercased() == "close")
    #expect(response.answeredBeforeBodyWasSent)
    #expect(response.bodyBytesWritten < Self.fiftyMegabytes / 4)
    #expect(preflighted.count == 1)
    #expect(handled.count == 0)
    await server.stop()
  }

  @Test func preflightPassesAuthorisedRequests() async throws {
    let handled = Counter()
    let server = try TestServer(Self.router(handled: handled, preflighted: Counter()))
    let response = try await server.send(
      .init(
        "POST", "/guarded", headers: [("Authorization", "Bearer ok")],
        body: .bytes([1, 2, 3])))
    #expect(response.status == 200 && response.text == "3")
    #expect(handled.count == 1)
    await server.stop()
  }

  @Test(arguments: [20 * 1024, 200 * 1024])
  func oversizedHeadersAreRejected(size: Int) async throws {
    let server = try TestServer(Self.router(handled: Counter(), preflighted: Counter())) {
      $0.maxHeaderBytes = 8 * 1024
    }
    let response = try await server.send(
      .init("POST", "/upload", headers: [("X-Big", String(repeating: "a", count: size))]))
    #expect([431, 400].contains(response.status))
    #expect(await server.eventually { server.server.inFlightCount == 0 })
    // A normal request on a new connection still works.
    let fine = try await server.send(.init("POST", "/upload", body: .bytes([1])))
    #expect(fine.status == 200)
    await server.stop()
  }

  @Test func headersJustOverTheLimitGetTheProblemResponder() async throws {
    let server = try TestServer(Self.router(handled: Counter(), preflighted: Counter())) {
      $0.maxHeaderBytes = 8 * 1024
    }
    let response = try await server.send(
      .init("GET", "/upload", headers: [("X-Big", String(repeating: "a", count: 9 * 1024))]))
    #expect(response.status == 431)
    #expect(response.header("Content-Type") == "application/problem+json")
    await server.stop()
  }
}
