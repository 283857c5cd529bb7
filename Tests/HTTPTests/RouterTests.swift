import TestSupport
import Testing

@testable import HTTP

@Suite struct RouterTests {
  private func router() -> Router {
    var router = Router()
    router.add(.get, "/v1/images/{name}") { _ in HTTPResponse(status: 200) }
    router.add(.delete, "/v1/images/{name}") { _ in HTTPResponse(status: 204) }
    router.add(.post, "/v1/artwork") { _ in HTTPResponse(status: 201) }
    router.add(.get, "/") { _ in HTTPResponse(status: 200) }
    return router
  }

  private func target(_ text: String) -> RequestTarget {
    RequestTarget(text)!
  }

  @Test(arguments: [
    ("/v1/images/abc.jpeg", "abc.jpeg"),
    ("/v1/images/a%20b", "a b"),
    ("/v1/images/a%2Fb", "a/b"),
  ])
  func capturesOneDecodedSegment(target text: String, name: String) {
    let target = target(text)
    guard case .route(let route, let parameters) = router().resolve(.get, target) else {
      Issue.record("no route for \(text)")
      return
    }
    #expect(route.method == .get)
    #expect(parameters.range("name").map(target.segmentText) == name)
    #expect(parameters.range("other") == nil)
  }

  @Test func literalSegmentsMatchDecoded() {
    guard case .route(let route, _) = router().resolve(.post, target("/v1/%61rtwork")) else {
      Issue.record("an escaped literal should match")
      return
    }
    #expect(route.pattern.text == "/v1/artwork")
  }

  @Test(arguments: ["/v1/images/", "/v1/images", "/v1/images/a/b", "/nope", "/v1/artwork/x"])
  func unknownPathsAreNotFound(target text: String) {
    guard case .notFound = router().resolve(.get, target(text)) else {
      Issue.record("expected 404 for \(text)")
      return
    }
  }

  @Test func wrongMethodListsAllowedMethods() {
    guard case .methodNotAllowed(let allow) = router().resolve(.put, target("/v1/images/x"))
    else {
      Issue.record("expected 405")
      return
    }
    #expect(allow == ["GET", "HEAD", "DELETE"])
  }

  @Test func getAnswersHead() {
    guard case .route(let route, _) = router().resolve(.head, target("/v1/images/x")) else {
      Issue.record("HEAD should fall back to GET")
      return
    }
    #expect(route.method == .get)
  }

  @Test func rootMatchesOnlyRoot() {
    guard case .route = router().resolve(.get, target("/")) else {
      Issue.record("root should match")
      return
    }
  }
}

@Suite struct RequestTargetTests {
  @Test func splitsPathAndQuery() throws {
    let target = try #require(RequestTarget("/a%20b/c?x=1&y=two+words&x=3&flag&%3D=%26"))
    #expect(target.rawPath == "/a%20b/c")
    #expect(target.path == "/a b/c")
    #expect(target.segmentTexts == ["a b", "c"])
    #expect(target.query == ["x": "3", "y": "two words", "flag": "", "=": "&"])
  }

  @Test(arguments: [
    "/a%00b", "/a%zz", "/a%2", "/%FF", "relative", "", "/a\u{0}b", "/a/b\u{0}?x", "/a%20b/\u{0}",
  ])
  func rejectsMalformedPaths(target: String) {
    #expect(RequestTarget(target) == nil)
  }

  /// Only the path is checked: a query is decoded when read, and a NUL there is not the path's.
  @Test func aQueryIsNotHeldToThePathsRules() throws {
    let target = try #require(RequestTarget("/a/b?x=\u{0}&y=%FF"))
    #expect(target.path == "/a/b")
    #expect(try #require(RequestTarget("/a%20b?%zz")).path == "/a b")
  }

  @Test func absoluteFormKeepsPathAndQuery() throws {
    let target = try #require(RequestTarget("http://example.test/a/b?c=d"))
    #expect(target.path == "/a/b")
    #expect(target.query == ["c": "d"])
  }

  @Test(arguments: [("/", [""]), ("/a/", ["a", ""]), ("/a//b", ["a", "", "b"]), ("/?x", [""])])
  func splitsSegmentsOnRawSlashes(target: String, segments: [String]) throws {
    #expect(try #require(RequestTarget(target)).segmentTexts == segments)
  }

  @Test func absoluteFormWithoutPathIsRoot() throws {
    let target = try #require(RequestTarget("http://example.test"))
    #expect(target.path == "/")
  }

  @Test func writesThePathItDecodes() throws {
    for text in ["/a%20b/c%2Fd?x=1", "/plain/path?q", "/"] {
      let target = try #require(RequestTarget(text))
      var bytes: [UInt8] = []
      target.appendPath(to: &bytes)
      #expect(String(decoding: bytes, as: UTF8.self) == target.path)
    }
  }

  @Test func skipsUndecodableQueryPairs() throws {
    let target = try #require(RequestTarget("/?a=%zz&b=1"))
    #expect(target.query == ["b": "1"])
  }
}

@Suite struct RequestIDTests {
  @Test(arguments: ["abc", "A-b_c.9", String(repeating: "x", count: 64)])
  func keepsSaneIDs(id: String) {
    #expect(RequestID.accept(id.utf8).text == id)
  }

  @Test(arguments: ["", "has space", "semi;colon", String(repeating: "x", count: 65), "ünï"])
  func replacesOtherIDs(id: String) {
    let accepted = RequestID.accept(id.utf8).text
    #expect(accepted != id)
    #expect(accepted.count == 32 && RequestID.isSane(accepted.utf8))
  }

  @Test func generatesDistinctIDs() {
    let ids = (0..<10_000).map { _ in RequestID.generate().text }
    #expect(Set(ids).count == ids.count)
    #expect(ids.allSatisfy { $0.utf8.count == 32 && $0.utf8.allSatisfy(\.isHexDigit) })
    // They vary from the first digit: 8-digit prefixes of 100 ids collide with odds near 1e-6.
    #expect(Set(ids.prefix(100).map { $0.prefix(8) }).count == 100)
  }
}

extension UInt8 {
  fileprivate var isHexDigit: Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
      || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
  }
}

@Suite struct HTTPHeadersTests {
  @Test func lookupIsCaseInsensitiveAndOrdered() {
    var headers: HTTPHeaders = ["Content-Type": "a", "X-One": "1"]
    headers.add("x-one", "2")
    #expect(headers["content-type"] == "a")
    #expect(headers.values("X-ONE") == ["1", "2"])
    headers.set("X-One", "3")
    #expect(headers.values("x-one") == ["3"])
    headers.remove("CONTENT-TYPE")
    #expect(headers["Content-Type"] == nil)
    #expect(headers.map(\.name) == ["X-One"])
  }

  @Test func requestFieldsAreReadFromTheirBytes() {
    func field(_ name: String, _ value: String) -> RequestParser.Field {
      RequestParser.Field(name: Array(name.utf8), value: Array(value.utf8))
    }
    // As http-parser leaves them: whitespace after a value is still there.
    var headers = HTTPHeaders(wire: [
      field("Host", "example.test"), field("Connection", "Keep-Alive , TE \t"),
      field("X-Request-Id", "abc  "), field("x-request-id", "second"),
    ])
    #expect(headers.count == 4)
    #expect(headers["x-request-id"] == "abc")
    #expect(headers.valueBytes("X-REQUEST-ID") == Array("abc".utf8)[...])
    #expect(headers.values("X-Request-Id") == ["abc", "second"])
    #expect(headers.lists("connection", "keep-alive"))
    #expect(headers.lists("Connection", "te"))
    #expect(!headers.lists("Connection", "close"))
    #expect(!headers.lists("Host", "example"))
    #expect(headers.contains("HOST") && !headers.contains("Origin"))
    #expect(headers.map(\.value) == ["example.test", "Keep-Alive , TE", "abc", "second"])
    // A change turns them into text fields, the same ones.
    headers.add("X-New", "1")
    #expect(headers.map(\.name) == ["Host", "Connection", "X-Request-Id", "x-request-id", "X-New"])
    #expect(headers.lists("connection", "TE") && headers["X-Request-Id"] == "abc")
  }
}

/// The absolute form and the asterisk form of a request-target (RFC 9112 3.2.2, 3.2.4).
@Suite struct TargetFormTests {
  @Test(arguments: [
    ("http://example.org/a/b?c=1", "/a/b"), ("HTTPS://example.org", "/"),
    ("http://example.org?x=1", "/"), ("http://127.0.0.1:8080/v1/images/x", "/v1/images/x"),
  ])
  func absoluteFormsOfHTTPAreTheirPath(target: String, path: String) throws {
    #expect(try #require(RequestTarget(target)).path == path)
  }

  @Test(arguments: [
    "ftp://example.org/a", "file:///etc/passwd", "http://user:pass@example.org/a",
    "http://@example.org/a", "http:///a", "javascript://x/a", "*",
  ])
  func otherSchemesAndUserInfoAreRefused(target: String) {
    #expect(RequestTarget(target) == nil)
  }

  @Test func optionsAsteriskAsksAboutTheServer() async throws {
    var router = Router()
    router.add(.get, "/a") { _ in HTTPResponse(status: 200) }
    router.add(.post, "/b") { _ in HTTPResponse(status: 200) }
    let server = try TestServer(router)
    let options = try await RawHTTPExchange.run(
      port: server.port, [RawHTTPExchange.bytes("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n")])
    #expect(options.statuses == [204])
    #expect(options.responses.first?.header("Allow") == "GET, HEAD, OPTIONS, POST")
    let get = try await RawHTTPExchange.run(
      port: server.port, [RawHTTPExchange.bytes("GET * HTTP/1.1\r\nHost: x\r\n\r\n")])
    #expect(get.statuses == [400])
    await server.stop()
  }
}
