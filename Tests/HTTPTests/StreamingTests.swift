import HTTP
import Synchronization
import TestSupport
import Testing

@Suite struct StreamingTests {
  /// A stream of `count` chunks of `size` bytes (chunk i filled with i), each after a yield so
  /// the reader really has to wait for it.
  private static func stream(count: Int, size: Int, failAfter: Int? = nil)
    -> @Sendable () async throws -> [UInt8]?
  {
    let produced = Mutex(0)
    return {
      await Task.yield()
      try await Task.sleep(for: .milliseconds(1))
      let index = produced.withLock { value in
        defer { value += 1 }
        return value
      }
      if let failAfter, index >= failAfter { throw CancellationError() }
      guard index < count else { return nil }
      return [UInt8](repeating: UInt8(index % 256), count: size)
    }
  }

  private static func expected(count: Int, size: Int) -> [UInt8] {
    (0..<count).flatMap { [UInt8](repeating: UInt8($0 % 256), count: size) }
  }

  private static func router(calls: Counter) -> Router {
    var router = Router()
    router.add(.get, "/sized") { _ in
      calls.increment()
      return HTTPResponse(
        status: 200, headers: ["Content-Type": "application/octet-stream"],
        body: .stream(length: 40 * 100_000, next: stream(count: 40, size: 100_000)))
    }
    router.add(.get, "/chunked") { _ in
      HTTPResponse(status: 200, body: .stream(length: nil, next: stream(count: 25, size: 70_000)))
    }
    router.add(.get, "/failing") { _ in
      HTTPResponse(
        status: 200,
        body: .stream(length: 10 * 1000, next: stream(count: 10, size: 1000, failAfter: 3)))
    }
    router.add(.get, "/never") { _ in
      HTTPResponse(
        status: 200,
        body: .stream(length: 5) {
          Issue.record("HEAD must not read the stream")
          return nil
        })
    }
    return router
  }

  @Test func streamsWithContentLength() async throws {
    let server = try TestServer(Self.router(calls: Counter()))
    let client = try await server.client()
    let response = try await client.send(.init("GET", "/sized"))
    #expect(response.status == 200)
    #expect(response.header("Content-Length") == "4000000")
    #expect(response.header("Transfer-Encoding") == nil)
    #expect(response.body == Self.expected(count: 40, size: 100_000))
    // The connection stays usable after a streamed response.
    let again = try await client.send(.init("GET", "/chunked"))
    #expect(again.body.count == 25 * 70_000)
    #expect(await server.eventually { server.log.withLock { $0.count } == 2 })
    #expect(server.log.withLock { $0.map(\.bytesSent) } == [4_000_000, 1_750_000])
    await server.stop()
  }

  @Test func streamsChunkedWithoutLength() async throws {
    let server = try TestServer(Self.router(calls: Counter()))
    let response = try await server.send(.init("GET", "/chunked"))
    #expect(response.status == 200)
    #expect(response.header("Transfer-Encoding")?.lowercased() == "chunked")
    #expect(response.body == Self.expected(count: 25, size: 70_000))
    await server.stop()
  }

  @Test func headOfAStreamSendsLengthButNeverReads() async throws {
    let server = try TestServer(Self.router(calls: Counter()))
    let response = try await server.send(.init("HEAD", "/never"))
    #expect(response.status == 200)
    #expect(response.header("Content-Length") == "5")
    #expect(response.body.isEmpty)
    #expect(await server.eventually { server.server.inFlightCount == 0 })
    await server.stop()
  }

  @Test func failingStreamCutsTheConnection() async throws {
    let server = try TestServer(Self.router(calls: Counter()))
    let client = try await server.client()
    await #expect(throws: LoopbackHTTPError.self) {
      _ = try await client.send(.init("GET", "/failing"))
    }
    #expect(await server.eventually { server.server.inFlightCount == 0 })
    #expect(await server.eventually { server.log.withLock { $0.count } == 1 })
    #expect(server.log.withLock { $0.first?.completed } == false)
    await server.stop()
  }
}
