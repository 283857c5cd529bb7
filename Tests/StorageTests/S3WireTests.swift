import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import CurlClient
@testable import Storage

/// What `S3Storage` puts on the wire, captured by a loopback server: SeaweedFS is lenient about
/// payload hashes and regions, so the requests themselves are checked here.
@Suite struct S3WireTests {
  static func storage(_ server: CapturingServer, prefix: String = "p") -> S3Storage {
    Curl.globalInit()
    return S3Storage(
      configuration: S3Configuration(
        endpoint: "http://127.0.0.1:\(server.port)/", region: "eu-central-1", bucket: "art-bucket",
        prefix: prefix, accessKey: "AKIDEXAMPLE", secretKey: "secret"),
      threads: 1)
  }

  /// `SignedHeaders=a;b;c` from an Authorization header.
  static func signedHeaders(_ authorization: String?) -> [String] {
    guard let authorization, let range = authorization.range(of: "SignedHeaders=") else {
      return []
    }
    return authorization[range.upperBound...].prefix(while: { $0 != "," }).split(separator: ";")
      .map(String.init)
  }

  @Test func createOnlyPutIsSignedWithItsPayloadHashAndSendsNoExpect() async throws {
    let server = try CapturingServer()
    let (key, bytes) = StorageContract.sample(300_000, format: .png)
    try await Self.storage(server).put(key, bytes: bytes)
    let request = try #require(server.requests.first)
    #expect(request.requestLine == "PUT /art-bucket/p/objects/\(key.fileName) HTTP/1.1")
    #expect(request.header("x-amz-content-sha256") == SHA256.hex(bytes))
    #expect(request.header("content-type") == "image/png")
    #expect(request.header("cache-control") == "public, max-age=31536000, immutable")
    #expect(request.header("if-none-match") == "*")
    #expect(request.header("content-length") == "300000")
    #expect(request.header("expect") == nil)
    #expect(request.body == bytes)
    let authorization = request.header("authorization")
    #expect(authorization?.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/") == true)
    #expect(authorization?.contains("/eu-central-1/s3/aws4_request") == true)
    #expect(
      Self.signedHeaders(authorization) == [
        "cache-control", "content-type", "host", "if-none-match", "x-amz-content-sha256",
        "x-amz-date",
      ])
  }

  /// Above 1 MiB curl adds `Expect: 100-continue` (unsigned) but must not wait for an answer
  /// that never comes: this server never sends `100 Continue`.
  @Test func largePutNeedsNoContinueAnswer() async throws {
    let server = try CapturingServer()
    let (key, bytes) = StorageContract.sample(1_500_000)
    try await Self.storage(server).put(key, bytes: bytes)
    let request = try #require(server.requests.first)
    #expect(request.body == bytes)
    #expect(!Self.signedHeaders(request.header("authorization")).contains("expect"))
  }

  @Test func bodylessRequestsCarryTheEmptyPayloadHash() async throws {
    let server = try CapturingServer()
    let storage = Self.storage(server)
    let (key, _) = StorageContract.sample()
    _ = try? await storage.head(key)
    _ = try? await storage.getRecord("https://example.com/a.jpg")
    let requests = server.requests
    try #require(requests.count == 2)
    #expect(requests[0].requestLine == "HEAD /art-bucket/p/objects/\(key.fileName) HTTP/1.1")
    let recordHash = SHA256.hex(Array("https://example.com/a.jpg".utf8))
    #expect(requests[1].requestLine == "GET /art-bucket/p/records/\(recordHash) HTTP/1.1")
    for request in requests {
      #expect(request.header("x-amz-content-sha256") == S3Requests.emptyPayloadHash)
      #expect(request.header("content-length") == nil)
      #expect(
        Self.signedHeaders(request.header("authorization")) == [
          "host", "x-amz-content-sha256", "x-amz-date",
        ])
    }
  }

  @Test func keysAndQueriesArriveEncodedAsSigned() async throws {
    let server = try CapturingServer()
    let storage = Self.storage(server, prefix: "/my art/ü+x/")
    let (key, bytes) = StorageContract.sample(10)
    try await storage.put(key, bytes: bytes)
    _ = await storage.sweep(olderThan: .seconds(1), limit: 1)
    let requests = server.requests
    try #require(requests.count >= 2)
    #expect(
      requests[0].requestLine
        == "PUT /art-bucket/my%20art/%C3%BC%2Bx/objects/\(key.fileName) HTTP/1.1")
    #expect(
      requests[1].requestLine
        == "GET /art-bucket?list-type=2&max-keys=1000&prefix=my%20art%2F%C3%BC%2Bx%2Fobjects%2F "
        + "HTTP/1.1")
  }
}
