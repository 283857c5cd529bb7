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

  private func segments(_ target: String) -> [String] {
    RequestTarget(target)!.segments
  }

  @Test(arguments: [
    ("/v1/images/abc.jpeg", "abc.jpeg"),
    ("/v1/images/a%20b", "a b"),
    ("/v1/images/a%2Fb", "a/b"),
  ])
  func capturesOneDecodedSegment(target: String, name: String) {
    guard case .route(let route, let parameters) = router().resolve(.get, segments(target)) else {
      Issue.record("no route for \(target)")
      return
    }
    #expect(route.method == .get)
    #expect(parameters == ["name": name])
  }

  @Test(arguments: ["/v1/images/", "/v1/images", "/v1/images/a/b", "/nope", "/v1/artwork/x"])
  func unknownPathsAreNotFound(target: String) {
    guard case .notFound = router().resolve(.get, segments(target)) else {
      Issue.record("expected 404 for \(target)")
      return
    }
  }

  @Test func wrongMethodListsAllowedMethods() {
    guard case .methodNotAllowed(let allow) = router().resolve(.put, segments("/v1/images/x"))
    else {
      Issue.record("expected 405")
      return
    }
    #expect(allow == ["GET", "HEAD", "DELETE"])
  }

  @Test func getAnswersHead() {
    guard case .route(let route, _) = router().resolve(.head, segments("/v1/images/x")) else {
      Issue.record("HEAD should fall back to GET")
      return
    }
    #expect(route.method == .get)
  }

  @Test func rootMatchesOnlyRoot() {
    guard case .route = router().resolve(.get, segments("/")) else {
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
    #expect(target.segments == ["a b", "c"])
    #expect(target.query == ["x": "3", "y": "two words", "flag": "", "=": "&"])
  }

  @Test(arguments: ["/a%00b", "/a%zz", "/a%2", "/%FF", "relative", ""])
  func rejectsMalformedPaths(target: String) {
    #expect(RequestTarget(target) == nil)
  }

  @Test func absoluteFormKeepsPathAndQuery() throws {
    let target = try #require(RequestTarget("http://example.test/a/b?c=d"))
    #expect(target.path == "/a/b")
    #expect(target.query == ["c": "d"])
  }

  @Test func skipsUndecodableQueryPairs() throws {
    let target = try #require(RequestTarget("/?a=%zz&b=1"))
    #expect(target.query == ["b": "1"])
  }
}

@Suite struct RequestIDTests {
  @Test(arguments: ["abc", "A-b_c.9", String(repeating: "x", count: 64)])
  func keepsSaneIDs(id: String) {
    #expect(RequestID.accept(id) == id)
  }

  @Test(arguments: ["", "has space", "semi;colon", String(repeating: "x", count: 65), "ünï"])
  func replacesOtherIDs(id: String) {
    let accepted = RequestID.accept(id)
    #expect(accepted != id)
    #expect(accepted.count == 32 && RequestID.isSane(accepted))
  }

  @Test func generatesDistinctIDs() {
    let ids = (0..<10_000).map { _ in RequestID.generate() }
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
}
