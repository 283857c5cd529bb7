import Synchronization
import TestSupport
import Testing

@testable import HTTP

/// A server on an ephemeral loopback port for one test, with its access log captured.
final class TestServer: Sendable {
  let server: HTTPServer
  let log = Locked<[HTTPAccessRecord]>([])

  /// Starts `router` on `host` with `configure` applied to a test configuration whose problem
  /// responder renders `application/problem+json`.
  init(
    host: String = "127.0.0.1", _ router: Router,
    configure: (inout HTTPServerConfiguration) -> Void = { _ in }
  ) throws {
    let log = log
    var configuration = HTTPServerConfiguration(host: host)
    configuration.problemResponder = { problem in
      var headers = HTTPHeaders()
      headers.set("Content-Type", "application/problem+json")
      let body = #"{"status":\#(problem.status),"request_id":"\#(problem.requestID)"}"#
      return HTTPResponse(status: problem.status, headers: headers, body: .bytes(Array(body.utf8)))
    }
    configure(&configuration)
    let userLog = configuration.accessLog
    configuration.accessLog = { record in
      log.withLock { $0.append(record) }
      userLog?(record)
    }
    server = try HTTPServer(configuration: configuration, router: router)
  }

  var port: Int { server.port }

  /// A new connection to the server.
  func client(host: String = "127.0.0.1") async throws -> LoopbackHTTPClient {
    try await LoopbackHTTPClient(host: host, port: port)
  }

  /// One request on a fresh connection.
  func send(_ request: LoopbackHTTPRequest) async throws -> LoopbackHTTPResponse {
    try await client().send(request)
  }

  /// Waits (bounded) until `condition` holds; returns whether it did.
  /// Connections the server has admitted and not yet closed.
  var openConnections: Int { server.openConnectionCount }

  func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<500 {
      if condition() { return true }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
  }

  /// Shuts down gracefully and checks that every connection and handler task was released.
  func stop(gracePeriod: Duration = .seconds(1)) async {
    await server.shutdown(gracePeriod: gracePeriod)
    #expect(await eventually { server.liveRequestObjects == 0 }, "leaked request objects")
  }
}
