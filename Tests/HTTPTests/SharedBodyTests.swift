import Foundation
import TestSupport
import Testing

@testable import HTTP

/// Bodies sent from a sealed in-memory file (`HTTPBody.shared`): the same bytes as any body, to
/// our client, to curl and to Python, whole, repeated, pipelined and under HEAD.
@Suite struct SharedBodyTests {
  /// 3 MB of varied bytes: more than a socket buffer, so `sendfile` runs many times.
  static let large: [UInt8] = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
  static let small: [UInt8] = Array("a small shared body\n".utf8)

  static func router() -> Router {
    let large = SharedBody(Self.large)
    let small = SharedBody(Self.small)
    var router = Router()
    router.add(.get, "/large") { _ in
      HTTPResponse(
        status: 200, headers: ["Content-Type": "application/octet-stream"], body: .shared(large))
    }
    router.add(.get, "/small") { _ in HTTPResponse(status: 200, body: .shared(small)) }
    let kept = SharedBody(Self.large, inFile: false)
    router.add(.get, "/kept") { _ in HTTPResponse(status: 200, body: .shared(kept)) }
    return router
  }

  /// Clients that reset their connection while a large shared body is on its way: `sendfile`
  /// (which takes no MSG_NOSIGNAL) then meets a broken pipe, and the signal it raises must not
  /// end the process. Before the server ignored SIGPIPE, this ended the test run (status 141),
  /// as it ended the service under wrk.
  @Test func clientsResettingMidAnswerLeaveTheServerRunning() async throws {
    let server = try TestServer(Self.router())
    let port = server.server.port
    for _ in 0..<40 {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      #expect(fd >= 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      #expect(connected == 0)
      let request = Array("GET /large HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
      _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
      // The answer has begun: the rest is still to be sent when the reset arrives.
      var buffer = [UInt8](repeating: 0, count: 4096)
      _ = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      var reset = linger(l_onoff: 1, l_linger: 0)
      setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, socklen_t(MemoryLayout<linger>.size))
      close(fd)
    }
    let client = try await server.client()
    #expect(try await client.send(.init("GET", "/small")).body == Self.small)
    #expect(try await client.send(.init("GET", "/large")).body == Self.large)
    await server.stop()
  }

  @Test func theFileHoldsTheBytes() {
    // On Linux the body lives in a memfd: the answers below go through `sendfile`.
    #expect(SharedBody(Self.small).file >= 0)
    #expect(SharedBody.maxOpenFiles >= 64)
    #expect(SharedBody(Self.large).bytes() == Self.large)
    #expect(SharedBody([]).bytes().isEmpty)
  }

  @Test func answersAreWholeAndTheConnectionStaysUsable() async throws {
    let server = try TestServer(Self.router())
    let client = try await server.client()
    for _ in 0..<3 {
      let response = try await client.send(.init("GET", "/large"))
      #expect(response.status == 200)
      #expect(response.header("Content-Length") == "3000000")
      #expect(response.body == Self.large)
      let small = try await client.send(.init("GET", "/small"))
      #expect(small.body == Self.small)
    }
    #expect(await server.eventually { server.log.withLock { $0.count } == 6 })
    #expect(server.log.withLock { $0.allSatisfy { $0.completed } })
    await server.stop()
  }

  /// Past the descriptor budget a shared body stays in memory and answers the same.
  @Test func aBodyKeptInMemoryAnswersTheSame() async throws {
    #expect(SharedBody(Self.small, inFile: false).file < 0)
    let server = try TestServer(Self.router())
    let client = try await server.client()
    #expect(try await client.send(.init("GET", "/kept")).body == Self.large)
    #expect(try await client.send(.init("GET", "/small")).body == Self.small)
    await server.stop()
  }

  @Test func headSendsTheLengthOnly() async throws {
    let server = try TestServer(Self.router())
    let client = try await server.client()
    let response = try await client.send(.init("HEAD", "/large"))
    #expect(response.header("Content-Length") == "3000000")
    #expect(response.body.isEmpty)
    #expect(try await client.send(.init("GET", "/small")).body == Self.small)
    await server.stop()
  }

  @Test func pipelinedRequestsGetTheirAnswersInOrder() async throws {
    let server = try TestServer(Self.router())
    let client = try await server.client()
    try await client.sendRaw(
      Array(
        "GET /small HTTP/1.1\r\nHost: a\r\n\r\nGET /large HTTP/1.1\r\nHost: a\r\n\r\nGET /small HTTP/1.1\r\nHost: a\r\n\r\n"
          .utf8))
    #expect(try await client.readResponse().body == Self.small)
    #expect(try await client.readResponse().body == Self.large)
    #expect(try await client.readResponse().body == Self.small)
    await server.stop()
  }

  @Test func curlAndPythonReadTheSameBytes() async throws {
    let server = try TestServer(Self.router())
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "shared-body-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = "http://127.0.0.1:\(server.port)/large"
    let curled = directory.appendingPathComponent("curl.bin")
    let curl = try await ServiceProcess.runProgram(
      "curl",
      ["-sS", "-o", curled.path, url, "-o", directory.appendingPathComponent("2.bin").path, url])
    #expect(curl.status == 0, "\(curl.error)")
    #expect(try [UInt8](Data(contentsOf: curled)) == Self.large)
    #expect(try [UInt8](Data(contentsOf: directory.appendingPathComponent("2.bin"))) == Self.large)
    let expected = directory.appendingPathComponent("expected.bin")
    try Data(Self.large).write(to: expected)
    let python = try await ServiceProcess.runProgram(
      "python3",
      [
        "-c",
        """
        import http.client
        expected = open("\(expected.path)", "rb").read()
        c = http.client.HTTPConnection("127.0.0.1", \(server.port))
        for path in ["/large", "/small", "/large"]:
            c.request("GET", path)
            r = c.getresponse()
            body = r.read()
            print(r.status, body == expected if path == "/large" else body.decode(), end="")
        """,
      ])
    #expect(python.status == 0, "\(python.error)")
    #expect(python.output == "200 True200 a small shared body\n200 True")
    await server.stop()
  }
}
