import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// The service's own answers to requests the HTTP layer refuses: the same problem documents as
/// every other error (type, title, status, detail, request_id), with the id in the access log.
@Suite struct ServiceProtocolTests {
  @Test(arguments: [
    (
      "POST /v1/artwork HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      400, "urn:artwork:problem:bad-request"
    ),
    (
      "POST /v1/artwork HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nabc", 501,
      "urn:artwork:problem:not-implemented"
    ),
    (
      "GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n", 505,
      "urn:artwork:problem:http-version-not-supported"
    ),
    ("GET /nope HTTP/1.1\r\nHost: x\r\n\r\n", 404, "urn:artwork:problem:not-found"),
    ("DELETE /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 405, "urn:artwork:problem:method-not-allowed"),
    (
      "GET /healthz HTTP/1.1\r\nHost: x\r\nX: \(String(repeating: "a", count: 20_000))\r\n\r\n",
      431,
      "urn:artwork:problem:headers-too-large"
    ),
  ])
  func refusalsAreTheServicesProblems(request: String, status: Int, type: String) async throws {
    let lines = Locked<[String]>([])
    let sink: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
    try await ServiceHarness.run(logSink: sink) { service in
      let exchange = try await RawHTTPExchange.run(
        port: service.port, [Array(request.utf8)])
      #expect(exchange.statuses == [status])
      let answer = try #require(exchange.responses.first)
      #expect(answer.header("Content-Type") == "application/problem+json")
      let problem = try #require(
        try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
      #expect(problem["type"] as? String == type)
      #expect(problem["status"] as? Int == status)
      #expect((problem["title"] as? String)?.isEmpty == false)
      #expect((problem["detail"] as? String)?.isEmpty == false)
      let id = try #require(problem["request_id"] as? String)
      #expect(answer.header("X-Request-Id") == id)
      // The access log carries the same id, at info.
      var logged = false
      for _ in 0..<200 where !logged {
        logged = lines.withLock { $0 }.contains {
          $0.contains(#""request_id":"\#(id)""#) && $0.contains(#""level":"info""#)
        }
        if !logged { try await Task.sleep(for: .milliseconds(10)) }
      }
      #expect(logged)
    }
  }

  @Test func aLongOptionValueIsCutShortInTheDetail() async throws {
    try await ServiceHarness.run { service in
      let value = String(repeating: "x", count: 100_000)
      let response = try await service.upload(
        Fixtures.bytes("coffee.jpg"), fields: [("shape", value)])
      expectProblem(response, 400)
      #expect(response.body.count < 1000, "\(response.body.count) bytes")
      #expect(response.text.contains("xxx..."))
    }
  }

  @Test func theUploadLimitIsQuotedAsDocumented() async throws {
    try await ServiceHarness.run { service in
      let response = try await service.send(
        .init(
          "POST", "/v1/artwork", headers: [("Content-Type", "image/jpeg")],
          body: .repeating(0xFF, count: 3_000_000)))
      expectProblem(response, 413)
      #expect(response.text.contains("2,000,000 bytes"), "\(response.text)")
      #expect(!response.text.contains("2065536"))
      let chunked = try await service.send(
        .init(
          "POST", "/v1/artwork", headers: [("Content-Type", "image/jpeg")],
          body: .repeating(0xFF, count: 3_000_000, declareLength: false), chunked: true))
      expectProblem(chunked, 413)
      #expect(chunked.text.contains("2,000,000 bytes"), "\(chunked.text)")
      #expect(chunked.text.contains("request_id"))
    }
  }
}
