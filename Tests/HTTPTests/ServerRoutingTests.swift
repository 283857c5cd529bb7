import HTTP
import TestSupport
import Testing

@Suite struct ServerRoutingTests {
  private static func router() -> Router {
    var router = Router()
    router.add(.get, "/v1/images/{name}") { request in
      var headers = HTTPHeaders()
      headers.set("Content-Type", "text/plain")
      headers.set("ETag", "\"e\"")
      let text = "image \(request.pathParameter("name") ?? "?") \(request.method)"
      return HTTPResponse(status: 200, headers: headers, body: .bytes(Array(text.utf8)))
    }
    router.add(.post, "/echo") { request in
      var headers = HTTPHeaders()
      headers.set(
        "X-Query",
        request.query.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }
          .joined(separator: ","))
      headers.set("X-Remote", request.head.remoteAddress ?? "none")
      return HTTPResponse(status: 200, headers: headers, body: .bytes(request.body))
    }
    router.add(.get, "/empty") { _ in HTTPResponse(status: 204) }
    return router
  }

  @Test func routesWithPathParameters() async throws {
    let server = try TestServer(Self.router())
    let response = try await server.send(.init("GET", "/v1/images/a%20b.png"))
    #expect(response.status == 200)
    #expect(response.text == "image a b.png GET")
    #expect(response.header("Content-Length") == "17")
    #expect(response.header("ETag") == "\"e\"")
    await server.stop()
  }

  @Test func unknownPathIsProblem404() async throws {
    let server = try TestServer(Self.router())
    let response = try await server.send(.init("GET", "/nope"))
    #expect(response.status == 404)
    #expect(response.header("Content-Type") == "application/problem+json")
    #expect(response.text.contains("\"status\":404"))
    #expect(response.header("X-Request-Id") != nil)
    await server.stop()
  }

  @Test func wrongMethodIs405WithAllow() async throws {
    let server = try TestServer(Self.router())
    let response = try await server.send(.init("DELETE", "/v1/images/x"))
    #expect(response.status == 405)
    #expect(response.header("Allow") == "GET, HEAD")
    #expect(response.header("Content-Type") == "application/problem+json")
    await server.stop()
  }

  @Test func malformedPathIs400() async throws {
    let server = try TestServer(Self.router())
    let response = try await server.send(.init("GET", "/v1/images/a%00b"))
    #expect(response.status == 400)
    #expect(response.header("Content-Type") == "application/problem+json")
    await server.stop()
  }

  @Test func headMirrorsGetWithoutBody() async throws {
    let server = try TestServer(Self.router())
    let client = try await server.client()
    let head = try await client.send(.init("HEAD", "/v1/images/x"))
    #expect(head.status == 200)
    #expect(head.header("Content-Length") == "12")
    #expect(head.header("ETag") == "\"e\"")
    #expect(head.body.isEmpty)
    // The connection is still in step: a GET after the HEAD reads its own body.
    let get = try await client.send(.init("GET", "/v1/images/x"))
    #expect(get.text == "image x GET")
    await server.stop()
  }

  @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
    let server = try TestServer(Self.router())
    let client = try await server.client()
    for index in 0..<5 {
      let body = Array("body \(index)".utf8)
      let response = try await client.send(.init("POST", "/echo?i=\(index)", body: .bytes(body)))
      #expect(response.status == 200)
      #expect(response.body == body)
      #expect(response.header("X-Query") == "i=\(index)")
      #expect(response.header("Connection")?.lowercased() != "close")
    }
    let notFound = try await client.send(.init("GET", "/missing"))
    #expect(notFound.status == 404)
    #expect(notFound.header("Connection") == nil)
    let empty = try await client.send(.init("GET", "/empty"))
    #expect(empty.status == 204)
    #expect(await !client.peerClosed(within: .milliseconds(100)))
    await server.stop()
  }

  @Test func queryAndRemoteAddressReachTheHandler() async throws {
    let server = try TestServer(Self.router())
    let response = try await server.send(
      .init("POST", "/echo?b=2&a=x+y&b=3&c=%E2%9C%93", body: .bytes([1, 2, 3])))
    #expect(response.header("X-Query") == "a=x y,b=3,c=✓")
    #expect(response.header("X-Remote") == "127.0.0.1")
    await server.stop()
  }

  @Test func servesIPv6Loopback() async throws {
    let server = try TestServer(host: "::1", Self.router())
    let response = try await server.client(host: "::1").send(
      .init("POST", "/echo", body: .bytes([7])))
    #expect(response.status == 200)
    #expect(response.header("X-Remote") == "::1")
    await server.stop()
  }

  @Test(arguments: [
    ("abc-123_x.y", true), ("bad id", false), (String(repeating: "a", count: 65), false),
  ])
  func requestIDIsEchoedWhenSane(incoming: String, kept: Bool) async throws {
    let server = try TestServer(Self.router())
    let response = try await server.send(
      .init("GET", "/v1/images/x", headers: [("X-Request-Id", incoming)]))
    let echoed = try #require(response.header("X-Request-Id"))
    #expect((echoed == incoming) == kept)
    if !kept { #expect(echoed.count == 32) }
    await server.stop()
  }

  @Test func accessLogRecordsEachRequest() async throws {
    let server = try TestServer(Self.router())
    let client = try await server.client()
    _ = try await client.send(.init("GET", "/v1/images/x", headers: [("X-Request-Id", "req-1")]))
    _ = try await client.send(.init("GET", "/nope", headers: [("X-Request-Id", "req-2")]))
    #expect(await server.eventually { server.log.withLock { $0.count } == 2 })
    let records = server.log.withLock { $0 }
    #expect(records.map(\.requestID) == ["req-1", "req-2"])
    #expect(records.map(\.status) == [200, 404])
    #expect(records.map(\.path) == ["/v1/images/x", "/nope"])
    #expect(records[0].method == .get)
    #expect(records[0].bytesSent == 11)
    #expect(records[0].remoteAddress == "127.0.0.1")
    #expect(records.allSatisfy { $0.duration >= 0 && $0.completed })
    #expect(server.server.inFlightCount == 0)
    await server.stop()
  }

  @Test func rejectsHostsThatAreNotLiterals() {
    #expect(throws: HTTPServerError.invalidHost("localhost")) {
      try HTTPServer(configuration: HTTPServerConfiguration(host: "localhost"), router: Router())
    }
  }

  @Test func reportsThePortInUse() async throws {
    let first = try TestServer(Self.router())
    let inUse = HTTPServerError.startFailed(
      host: "127.0.0.1", port: first.port, reason: "Address already in use")
    #expect(throws: inUse) {
      try HTTPServer(configuration: HTTPServerConfiguration(port: first.port), router: Router())
    }
    await first.server.shutdown(gracePeriod: .seconds(1))
  }
}

@Suite struct MalformedRequestTests {
  @Test(arguments: [
    "GARBAGE\r\n\r\n",
    "GET /x HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
    "GET /x HTTP/1.1\r\nbroken header line\r\n\r\n",
    "GET /x HTTP/9.9\r\nHost: x\r\n\r\n",
  ])
  func malformedRequestsAreRefusedAndReleased(raw: String) async throws {
    var router = Router()
    router.add(.get, "/x") { _ in HTTPResponse(status: 200) }
    let server = try TestServer(router)
    let client = try await server.client()
    try await client.sendRaw(Array(raw.utf8))
    if let response = try? await client.readResponse() {
      #expect(response.status >= 400)
    }
    #expect(await server.eventually { server.server.inFlightCount == 0 })
    let fine = try await server.send(.init("GET", "/x"))
    #expect(fine.status == 200)
    await server.stop()
  }
}
