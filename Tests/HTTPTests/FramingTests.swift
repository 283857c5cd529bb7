import HTTP
import TestSupport
import Testing

/// RFC 9112 framing over raw sockets: every breach gets exactly one problem answer, the
/// connection closes after it, and nothing hidden in a body is ever answered.
@Suite struct FramingTests {
  /// A breach: the bytes sent and the status expected.
  struct Breach: Sendable, CustomTestStringConvertible {
    let name: String
    let request: String
    let status: Int
    var testDescription: String { name }
  }

  /// `/echo` answers the body's size, `/smuggled` counts the requests that reach it (none
  /// must), `/` answers 200.
  static func router(smuggled: Counter) -> Router {
    var router = Router()
    router.add(.post, "/echo") { request in
      HTTPResponse(status: 200, body: .bytes(Array("\(request.body.count)".utf8)))
    }
    router.add(.get, "/") { _ in HTTPResponse(status: 200, body: .bytes(Array("root".utf8))) }
    for method in [HTTPMethod.get, .post] {
      router.add(method, "/smuggled") { _ in
        smuggled.increment()
        return HTTPResponse(status: 299)
      }
    }
    return router
  }

  /// A request hidden behind each breach; it must never be answered.
  static let hidden = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"

  static let breaches: [Breach] = [
    Breach(
      name: "Content-Length with Transfer-Encoding",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      status: 400),
    Breach(
      name: "Transfer-Encoding with Content-Length",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",
      status: 400),
    Breach(
      name: "two different Content-Lengths",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
      status: 400),
    Breach(
      name: "a list Content-Length",
      request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\n\r\nhello", status: 400),
    Breach(
      name: "space before the colon of Content-Length",
      request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length : 5\r\n\r\nhello", status: 400),
    Breach(
      name: "space before the colon of Transfer-Encoding",
      request: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n",
      status: 400),
    Breach(
      name: "tab before the colon",
      request: "GET / HTTP/1.1\r\nHost: x\r\nX-A\t: 1\r\n\r\n", status: 400),
    Breach(
      name: "space inside a field name",
      request: "GET / HTTP/1.1\r\nHost: x\r\nX A: 1\r\n\r\n", status: 400),
    Breach(
      name: "a line without a colon", request: "GET / HTTP/1.1\r\nHost: x\r\nBroken\r\n\r\n",
      status: 400),
    Breach(
      name: "gzip transfer coding",
      request: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nabc", status: 501),
    Breach(
      name: "chunked then identity",
      request: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\nabc",
      status: 501),
    Breach(
      name: "identity then chunked",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: identity, chunked\r\n\r\n0\r\n\r\n",
      status: 501),
    Breach(
      name: "xchunked",
      request: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\nabc",
      status: 501
    ),
    Breach(
      name: "chunked applied twice in two fields",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      status: 501),
    Breach(
      name: "Transfer-Encoding on HTTP/1.0",
      request: "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400),
    Breach(
      name: "Content-Length letters",
      request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", status: 400),
    Breach(
      name: "Content-Length negative",
      request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", status: 400),
    Breach(
      name: "Content-Length with a plus",
      request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nhello", status: 400),
    Breach(
      name: "Content-Length two numbers",
      request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 6\r\n\r\nhello", status: 400),
    Breach(
      name: "Content-Length hexadecimal",
      request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0x5\r\n\r\nhello", status: 400),
    Breach(
      name: "Content-Length empty",
      request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\r\n", status: 400),
    // A length is compared to the limit as a number of any size: far over it is a 413.
    Breach(
      name: "Content-Length past 2^64",
      request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n",
      status: 413),
    Breach(
      name: "Content-Length between 2^63 and 2^64",
      request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 18446744073709551000\r\n\r\n",
      status: 413),
    Breach(
      name: "Content-Length past 2^63 with Transfer-Encoding",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 9223372036854775808\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n",
      status: 400),
    Breach(
      name: "NUL in the path", request: "GET /a\u{0}b HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
    Breach(
      name: "NUL in a value", request: "GET / HTTP/1.1\r\nHost: x\r\nX: a\u{0}b\r\n\r\n",
      status: 400),
    Breach(
      name: "a control character in a value",
      request: "GET / HTTP/1.1\r\nHost: x\r\nX: a\u{1}b\r\n\r\n", status: 400),
    Breach(
      name: "bare CR in a value", request: "GET / HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n",
      status: 400),
    Breach(
      name: "bare CR ending the request line", request: "GET / HTTP/1.1\rHost: x\r\n\r\n",
      status: 400),
    Breach(
      name: "bare CR ending the head", request: "GET / HTTP/1.1\r\nHost: x\r\n\rX", status: 400),
    Breach(
      name: "bare CR after an empty value",
      request: "GET / HTTP/1.1\r\nHost: x\r\nX:\rY: 1\r\n\r\n", status: 400),
    Breach(
      name: "obs-fold", request: "GET / HTTP/1.1\r\nHost: x\r\nX: a\r\n b\r\n\r\n", status: 400),
    Breach(
      name: "obs-fold with a tab", request: "GET / HTTP/1.1\r\nHost: x\r\nX: a\r\n\tb\r\n\r\n",
      status: 400),
    Breach(
      name: "obs-fold whose first line is empty",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n",
      status: 400),
    Breach(
      name: "obs-fold whose first line is empty, with a tab",
      request: "GET / HTTP/1.1\r\nHost: x\r\nX:\r\n\tb\r\n\r\n", status: 400),
    Breach(
      name: "obs-fold in the trailers",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n"
        + "X: a\r\n b\r\n\r\n",
      status: 400),
    Breach(
      name: "obs-fold in the trailers whose first line is empty",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX:\r\n b\r\n\r\n",
      status: 400),
    Breach(name: "no Host on HTTP/1.1", request: "GET / HTTP/1.1\r\n\r\n", status: 400),
    Breach(
      name: "two Hosts", request: "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", status: 400),
    Breach(
      name: "two Hosts on HTTP/1.0", request: "GET / HTTP/1.0\r\nHost: x\r\nHost: y\r\n\r\n",
      status: 400),
    Breach(
      name: "chunk size not hexadecimal",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
      status: 400),
    Breach(
      name: "chunk size with 0x",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n",
      status: 400),
    Breach(
      name: "chunk size that overflows",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff1\r\nhello\r\n0\r\n\r\n",
      status: 400),
    Breach(
      name: "chunk data not followed by CRLF",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n",
      status: 400),
    Breach(
      name: "chunk size line with a bare CR",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\rXhello\r\n0\r\n\r\n",
      status: 400),
    Breach(
      name: "a bare LF in a chunk extension",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;a\nb\r\nhello\r\n0\r\n\r\n",
      status: 400),
    Breach(
      name: "a control character in a chunk extension",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;a\u{1}\r\nhello\r\n0\r\n\r\n",
      status: 400),
    Breach(
      name: "a chunk size with a trailing space",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n0\r\n\r\n",
      status: 400),
    Breach(
      name: "a last chunk size with a trailing tab",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\t\r\n\r\n",
      status: 400),
    Breach(
      name: "a chunk line ending in a bare LF",
      request:
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n",
      status: 400),
    Breach(name: "HTTP/2.0", request: "GET / HTTP/2.0\r\nHost: x\r\n\r\n", status: 505),
    Breach(name: "HTTP/1.2", request: "GET / HTTP/1.2\r\nHost: x\r\n\r\n", status: 505),
    Breach(name: "HTTP/3.0", request: "GET / HTTP/3.0\r\nHost: x\r\n\r\n", status: 505),
    Breach(name: "HTTP/0.9 request line", request: "GET /\r\n\r\n", status: 505),
    Breach(name: "malformed version", request: "GET / HTTP/x.y\r\nHost: x\r\n\r\n", status: 400),
    Breach(name: "misspelt protocol", request: "GET / HXXP/1.1\r\nHost: x\r\n\r\n", status: 400),
    Breach(
      name: "two spaces before the version", request: "GET /  HTTP/1.1\r\nHost: x\r\n\r\n",
      status: 400),
    Breach(
      name: "a Host that is not a host", request: "GET / HTTP/1.1\r\nHost: a b/c\r\n\r\n",
      status: 400),
    Breach(
      name: "a folded first field", request: "GET / HTTP/1.1\r\n Host: x\r\n\r\n", status: 400),
    Breach(
      name: "a request target over 8 KiB",
      request: "GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: x\r\n\r\n",
      status: 414),
    Breach(name: "unknown method", request: "BREW / HTTP/1.1\r\nHost: x\r\n\r\n", status: 501),
    Breach(name: "not HTTP at all", request: "\u{16}\u{3}\u{1}\u{2}\u{0}\u{1}", status: 400),
    Breach(
      name: "space in the target", request: "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
    Breach(
      name: "an expectation other than 100-continue",
      request: "POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\nx",
      status: 417),
  ]

  @Test(arguments: breaches)
  func breachGetsOneProblemAndTheConnectionCloses(_ breach: Breach) async throws {
    let smuggled = Counter()
    let server = try TestServer(Self.router(smuggled: smuggled))
    let exchange = try await RawHTTPExchange.run(
      port: server.port, [RawHTTPExchange.bytes(breach.request + Self.hidden)])
    #expect(exchange.statuses == [breach.status], "\(exchange.statuses)")
    #expect(exchange.closed)
    #expect(exchange.leftover.isEmpty)
    #expect(smuggled.count == 0)
    if let answer = exchange.responses.first {
      #expect(answer.header("Content-Type") == "application/problem+json")
      #expect(answer.header("Connection")?.lowercased() == "close")
      let id = try #require(answer.header("X-Request-Id"))
      #expect(answer.text.contains(#""request_id":"\#(id)""#))
    }
    #expect(await server.eventually { server.server.inFlightCount == 0 })
    await server.stop()
  }

  /// The same breaches sent a byte at a time: the rules hold however the bytes are split.
  @Test(arguments: breaches.filter { $0.request.utf8.count < 140 })
  func breachSentByteByByteIsRefusedTheSameWay(_ breach: Breach) async throws {
    let smuggled = Counter()
    let server = try TestServer(Self.router(smuggled: smuggled))
    let pieces = Array(breach.request.utf8).map { [$0] } + [Array(Self.hidden.utf8)]
    let exchange = try await RawHTTPExchange.run(port: server.port, pieces)
    #expect(exchange.statuses == [breach.status], "\(exchange.statuses)")
    #expect(exchange.closed)
    #expect(smuggled.count == 0)
    await server.stop()
  }

  /// Well-formed requests that a strict reading must not refuse.
  @Test(arguments: [
    (
      "chunked with an extension and a trailer",
      "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;name=v\r\nhello\r\n0\r\nX-Trailer: 1\r\n\r\n",
      "5"
    ),
    (
      "chunked in capitals",
      "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
      "3"
    ),
    ("an empty line before the request", "\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n", "root"),
    (
      "spaces between a chunk size and its extension",
      "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5 \t;a=\"b c\"\r\nhello\r\n0\r\n\r\n",
      "5"
    ),
    (
      "a hexadecimal chunk size in capitals, and a zero-padded last chunk",
      "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0A\r\n0123456789\r\n000\r\n\r\n",
      "10"
    ),
    // RFC 9112 §2.2 lets a server take a bare LF as the end of a line of the head or trailers.
    ("LF-only line endings", "GET / HTTP/1.1\nHost: x\nX: a\n\n", "root"),
    (
      "LF-only line endings in the head and the trailers of a chunked request",
      "POST /echo HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n3\r\nabc\r\n0\r\nX: 1\n\n",
      "3"
    ),

    ("an absolute-form target", "GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n", "root"),
    ("Content-Length 0", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", "0"),
    (
      "Content-Length with spaces around",
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length:  2 \r\n\r\nab", "2"
    ),
    (
      "a tab and obs-text in a value", "GET / HTTP/1.1\r\nHost: x\r\nX: a\tb \u{e9}\r\n\r\n", "root"
    ),
  ])
  func wellFormedRequestsAreServed(_ name: String, _ request: String, _ body: String) async throws {
    let server = try TestServer(Self.router(smuggled: Counter()))
    let exchange = try await RawHTTPExchange.run(
      port: server.port, [RawHTTPExchange.bytes(request)])
    #expect(exchange.statuses == [200], "\(name): \(exchange.statuses)")
    #expect(exchange.responses.first?.text == body)
    #expect(!exchange.closed, "\(name) closed the connection")
    await server.stop()
  }

  @Test func pipelinedRequestsAreAnsweredInOrderOnOneConnection() async throws {
    let server = try TestServer(Self.router(smuggled: Counter()))
    let request =
      "GET / HTTP/1.1\r\nHost: x\r\n\r\nPOST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
      + "GET /nope HTTP/1.1\r\nHost: x\r\n\r\nPOST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n"
    let exchange = try await RawHTTPExchange.run(
      port: server.port, [RawHTTPExchange.bytes(request)])
    #expect(exchange.statuses == [200, 200, 404, 200])
    #expect(exchange.responses.map(\.text).prefix(2) == ["root", "3"])
    #expect(exchange.responses.last?.text == "1")
    #expect(!exchange.closed)
    await server.stop()
  }

  /// Each message's lines are judged from its own start: trailers, a chunk extension and bare
  /// LFs in one request leave the next one's head judged as a head.
  @Test func requestsAfterTrailersAndBareLFsAreJudgedAfresh() async throws {
    let server = try TestServer(Self.router(smuggled: Counter()))
    let request =
      "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2;e=1\r\nab\r\n0\r\n"
      + "T: 1\r\n\r\nGET / HTTP/1.1\nHost: x\n\nPOST /echo HTTP/1.1\r\nHost: x\r\n"
      + "Content-Length: 2\r\n\r\n\n\nGET / HTTP/1.1\r\nHost: x\r\nX:\r\n y\r\n\r\n"
    let exchange = try await RawHTTPExchange.run(
      port: server.port, [RawHTTPExchange.bytes(request)])
    #expect(exchange.statuses == [200, 200, 200, 400], "\(exchange.statuses)")
    #expect(exchange.responses.map(\.text).prefix(3) == ["2", "root", "2"])
    #expect(exchange.closed)
    await server.stop()
  }

  @Test func aBreachAfterGoodRequestsIsAnsweredOnceAndNothingAfterIt() async throws {
    let smuggled = Counter()
    let server = try TestServer(Self.router(smuggled: smuggled))
    let request =
      "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
      + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"
      + Self.hidden
    let exchange = try await RawHTTPExchange.run(
      port: server.port, [RawHTTPExchange.bytes(request)])
    #expect(exchange.statuses == [200, 400])
    #expect(exchange.closed)
    #expect(smuggled.count == 0)
    await server.stop()
  }

  @Test func http10IsClosedAfterTheAnswerUnlessItAsksForKeepAlive() async throws {
    let server = try TestServer(Self.router(smuggled: Counter()))
    let plain = try await RawHTTPExchange.run(
      port: server.port, [RawHTTPExchange.bytes("GET / HTTP/1.0\r\n\r\n")])
    #expect(plain.statuses == [200])
    #expect(plain.closed)
    let kept = try await RawHTTPExchange.run(
      port: server.port,
      [RawHTTPExchange.bytes("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")])
    #expect(kept.statuses == [200])
    #expect(kept.responses.first?.header("Connection")?.lowercased() == "keep-alive")
    #expect(!kept.closed)
    await server.stop()
  }

  @Test func connectionCloseFromTheClientIsHonoured() async throws {
    let smuggled = Counter()
    let server = try TestServer(Self.router(smuggled: smuggled))
    let exchange = try await RawHTTPExchange.run(
      port: server.port,
      [
        RawHTTPExchange.bytes(
          "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" + Self.hidden)
      ])
    #expect(exchange.statuses == [200])
    #expect(exchange.responses.first?.header("Connection")?.lowercased() == "close")
    #expect(exchange.closed)
    #expect(smuggled.count == 0)
    await server.stop()
  }

  @Test func aRefusalWithoutABodyKeepsTheConnection() async throws {
    let server = try TestServer(Self.router(smuggled: Counter()))
    let exchange = try await RawHTTPExchange.run(
      port: server.port,
      [
        RawHTTPExchange.bytes(
          "GET /nope HTTP/1.1\r\nHost: x\r\n\r\nDELETE / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n"
        )
      ])
    #expect(exchange.statuses == [404, 405, 200])
    #expect(exchange.responses[1].header("Allow") == "GET, HEAD")
    #expect(!exchange.closed)
    await server.stop()
  }

  @Test func expectContinueRefusedFromTheHeadGetsTheAnswerInsteadOf100() async throws {
    let server = try TestServer(Self.router(smuggled: Counter()))
    let exchange = try await RawHTTPExchange.run(
      port: server.port,
      [
        RawHTTPExchange.bytes(
          "POST /nope HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
      ])
    #expect(exchange.interim.isEmpty)
    #expect(exchange.statuses == [404])
    #expect(exchange.closed)
    await server.stop()
  }

  @Test func everyServerAnswerIsAProblemWithTheLoggedRequestID() async throws {
    let server = try TestServer(Self.router(smuggled: Counter())) { $0.maxHeaderBytes = 1024 }
    let requests = [
      "GET /nope HTTP/1.1\r\nHost: x\r\nX-Request-Id: my-id-1\r\n\r\n",
      "DELETE / HTTP/1.1\r\nHost: x\r\nX-Request-Id: my-id-2\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: x\r\nX-Request-Id: my-id-3\r\nX: \(String(repeating: "a", count: 2000))\r\n\r\n",
    ]
    for (index, request) in requests.enumerated() {
      let exchange = try await RawHTTPExchange.run(
        port: server.port, [RawHTTPExchange.bytes(request)])
      let answer = try #require(exchange.responses.first)
      #expect(answer.header("Content-Type") == "application/problem+json")
      #expect(answer.header("X-Request-Id") == "my-id-\(index + 1)")
      #expect(answer.text.contains(#""request_id":"my-id-\#(index + 1)""#))
    }
    #expect(await server.eventually { server.log.withLock { $0.count } == 3 })
    #expect(server.log.withLock { $0.map(\.requestID) } == ["my-id-1", "my-id-2", "my-id-3"])
    #expect(server.log.withLock { $0.map(\.status) } == [404, 405, 431])
    await server.stop()
  }
}
