import Foundation
import Synchronization
import TestSupport
import Testing

@testable import HTTP

/// A kept-alive connection reuses the storage of its last request for the next (the exchange,
/// the head's bytes, the parsed fields): no request may see another's values, and a request a
/// handler keeps must keep its own.
@Suite struct KeptAliveReuseTests {
  /// `GET /echo/{name}` answers what it was sent, one line a value; `/keep/{name}` also keeps
  /// the request.
  private static func router(kept: Locked<[HTTPRequest]>) -> Router {
    var router = Router()
    let echo: @Sendable (HTTPRequest) -> HTTPResponse = { request in
      let lines = [
        "name=\(request.pathParameter("name") ?? "-")",
        "path=\(request.path)",
        "query=\(request.query.sorted { $0.key < $1.key }.map { "\($0)=\($1)" })",
        "note=\(request.headers["X-Note"] ?? "-")",
        "fields=\(request.headers.count)",
        "id=\(request.id)",
      ]
      return HTTPResponse(status: 200, body: .bytes(Array(lines.joined(separator: "\n").utf8)))
    }
    // Answered on the loop thread, as a hot image is.
    let immediate: Router.Immediate = { echo($0) }
    router.add(.get, "/echo/{name}", immediate: immediate) { _ in HTTPResponse(status: 500) }
    router.add(.get, "/keep/{name}") { request in
      kept.withLock { $0.append(request) }
      return echo(request)
    }
    return router
  }

  /// Requests of different shapes, one after the other: longer and shorter paths, more and
  /// fewer fields, values longer than a small string, an escape, a query, a client's id.
  private static let requests: [(path: String, headers: [(String, String)])] = [
    (
      "/echo/first-name-long-enough-to-need-storage-of-its-own.jpg?size=400&shape=poster",
      [
        ("X-Note", "a value longer than fifteen bytes"), ("X-Request-Id", "client-id-1"),
        ("X-Extra", "1"), ("X-More", "2"),
      ]
    ),
    ("/echo/b", []),
    ("/echo/%E2%9C%93%20decoded", [("X-Note", "short")]),
    (
      "/echo/fourth-name-long-enough-to-need-storage-of-its-own.png",
      [("x-note", "again long, not short")]
    ),
  ]

  /// The echo of request `index`, which also carried `extraFields` fields of its client's.
  private static func expected(_ index: Int, answered id: String, extraFields: Int = 1) -> String {
    let (path, headers) = requests[index]
    let target = RequestTarget(path)!
    let name = target.segmentTexts.last!
    let query = target.query.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }
    let note = headers.first { $0.0.lowercased() == "x-note" }?.1 ?? "-"
    return [
      "name=\(name)", "path=\(target.path)", "query=\(query)", "note=\(note)",
      "fields=\(headers.count + extraFields)", "id=\(id)",
    ].joined(separator: "\n")
  }

  @Test(arguments: ["echo", "keep"])
  func everyRequestOfAConnectionSeesItsOwnValues(route: String) async throws {
    let kept = Locked<[HTTPRequest]>([])
    let server = try TestServer(Self.router(kept: kept))
    let client = try await server.client()
    for round in 0..<2 {
      for (index, request) in Self.requests.enumerated() {
        let path = request.path.replacingFirst("/echo/", with: "/\(route)/")
        let response = try await client.send(.init("GET", path, headers: request.headers))
        #expect(response.status == 200)
        let id = try #require(response.header("X-Request-Id"))
        if let sent = request.headers.first(where: { $0.0 == "X-Request-Id" }) {
          #expect(id == sent.1)
        } else {
          #expect(id.utf8.count == 32)
        }
        let answer = Self.expected(index, answered: id).replacingFirst(
          "path=/echo/", with: "path=/\(route)/")
        #expect(response.text == answer, "round \(round), request \(index)")
      }
    }
    // Kept requests still hold their own values after the connection served the others.
    let requests = kept.withLock { $0 }
    #expect(requests.count == (route == "keep" ? 2 * Self.requests.count : 0))
    for (index, request) in requests.enumerated() {
      let sent = Self.requests[index % Self.requests.count]
      #expect(
        request.path == RequestTarget(sent.path)!.path.replacingFirst("/echo/", with: "/keep/"))
      #expect(request.headers["X-Note"] == sent.headers.first { $0.0.lowercased() == "x-note" }?.1)
    }
    // So do the access-log records, which the test server keeps. The last is written once its
    // answer is out, so it may come just after the client read it.
    #expect(await server.eventually { server.log.withLock { $0.count } == 2 * Self.requests.count })
    let paths = server.log.withLock { $0.map(\.path) }
    #expect(
      paths
        == (0..<2).flatMap { _ in
          Self.requests.map {
            RequestTarget($0.path)!.path.replacingFirst("/echo/", with: "/\(route)/")
          }
        })
    await server.stop()
  }

  /// The same through Python's http.client, one kept-alive connection, with the fields a browser
  /// sends besides (long values among them, and `Connection: keep-alive`).
  @Test func pythonsKeptAliveRequestsSeeTheirOwnValues() async throws {
    let server = try TestServer(Self.router(kept: Locked([])))
    let browser = [
      (
        "User-Agent",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36"
      ),
      ("Accept", "image/avif,image/webp,image/*,*/*;q=0.8"), ("Connection", "keep-alive"),
    ]
    let sent = (0..<2).flatMap { _ in Self.requests.map { ($0.path, $0.headers + browser) } }
    let requests = sent.map { path, headers in
      "[\(Self.json(path)), [\(headers.map { "[\(Self.json($0.0)), \(Self.json($0.1))]" }.joined(separator: ", "))]]"
    }
    let python = try await ServiceProcess.runProgram(
      "python3",
      [
        "-c",
        """
        import http.client, json, sys
        c = http.client.HTTPConnection("127.0.0.1", \(server.port))
        answers = []
        for path, headers in json.loads(sys.argv[1]):
            c.request("GET", path, headers=dict(headers))
            r = c.getresponse()
            answers.append([r.status, r.getheader("X-Request-Id"), r.read().decode()])
        print(json.dumps(answers))
        """,
        "[\(requests.joined(separator: ", "))]",
      ])
    #expect(python.status == 0, "\(python.error)")
    let answers = try #require(
      try JSONSerialization.jsonObject(with: Data(python.output.utf8)) as? [[Any]])
    #expect(answers.count == sent.count)
    for (index, answer) in answers.enumerated() {
      let id = answer[1] as? String ?? ""
      // http.client adds Host and Accept-Encoding, and the browser's fields are three more.
      let expected = Self.expected(index % Self.requests.count, answered: id, extraFields: 5)
      let text = answer[2] as? String ?? ""
      if let given = sent[index].1.first(where: { $0.0 == "X-Request-Id" }) {
        #expect(id == given.1)
      } else {
        #expect(id.utf8.count == 32)
      }
      #expect(answer[0] as? Int == 200)
      #expect(text == expected, "request \(index)")
    }
    await server.stop()
  }

  private static func json(_ text: String) -> String {
    let data = try! JSONSerialization.data(withJSONObject: [text])
    return String(decoding: data, as: UTF8.self).dropFirst().dropLast().description
  }
}

extension String {
  fileprivate func replacingFirst(_ old: String, with new: String) -> String {
    guard let range = range(of: old) else { return self }
    return replacingCharacters(in: range, with: new)
  }
}
