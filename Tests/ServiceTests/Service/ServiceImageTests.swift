import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// `GET|HEAD /v1/images/{id}.{ext}`: headers of immutable objects, conditional requests, and 404s
/// for anything that is not a stored, well-formed name.
@Suite struct ServiceImageTests {
  /// With the hot-image cache (answers from memory on the server thread) and without it
  /// (every answer read from storage): the same bytes and headers either way.
  @Test(arguments: ["33554432", "0"])
  func servedObjectHeadersAndConditionalRequests(imageCacheBytes: String) async throws {
    try await ServiceHarness.run(["ARTWORK_IMAGE_CACHE_BYTES": imageCacheBytes]) { service in
      let created = try await service.upload(Fixtures.bytes("coffee.jpg"), fields: [("size", "64")])
      let path = try #require(created.path(ofURLIn: "image_url"))
      let hex = String(path.split(separator: "/").last!.split(separator: ".")[0])

      let got = try await service.get(path)
      #expect(got.status == 200)
      #expect(got.header("Content-Type") == "image/jpeg")
      #expect(got.header("Content-Length") == "\(got.body.count)")
      #expect(got.header("ETag") == "\"\(hex)\"")
      #expect(got.header("Cache-Control") == "public, max-age=31536000, immutable")
      #expect(got.header("X-Content-Type-Options") == "nosniff")

      let (head, again) = try await ServiceHarness.exchange(port: service.port) { client in
        try await client.sendRaw(Array("HEAD \(path) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let head = try await client.readResponse(forHead: true)
        // The connection stays usable: HEAD sent no body bytes to confuse the next read.
        return (head, try await client.send(LoopbackHTTPRequest("GET", path)))
      }
      #expect(head.status == 200)
      #expect(head.body.isEmpty)
      #expect(head.header("Content-Length") == "\(got.body.count)")
      #expect(head.header("Content-Type") == "image/jpeg")
      #expect(head.header("ETag") == "\"\(hex)\"")
      #expect(again.body == got.body)

      for tag in ["\"\(hex)\"", "W/\"\(hex)\"", "\"other\", \"\(hex)\"", "*"] {
        let cached = try await service.get(path, headers: [("If-None-Match", tag)])
        #expect(cached.status == 304, "\(tag)")
        #expect(cached.body.isEmpty)
        #expect(cached.header("ETag") == "\"\(hex)\"")
      }
      let changed = try await service.get(path, headers: [("If-None-Match", "\"other\"")])
      #expect(changed.status == 200 && changed.body == got.body)
    }
  }

  @Test func unknownAndMalformedNamesAre404() async throws {
    try await ServiceHarness.run { service in
      let created = try await service.upload(Fixtures.bytes("coffee.jpg"), fields: [("size", "64")])
      let path = try #require(created.path(ofURLIn: "image_url"))
      let hex = String(path.split(separator: "/").last!.split(separator: ".")[0])
      let unknown = String(repeating: "ab", count: 32)
      let targets = [
        "/v1/images/\(unknown).jpg",
        "/v1/images/\(hex).png",
        "/v1/images/\(hex.uppercased()).jpg",
        "/v1/images/\(hex).jpeg",
        "/v1/images/\(hex).gif",
        "/v1/images/\(hex)",
        "/v1/images/\(hex.dropLast()).jpg",
        "/v1/images/../etc/passwd",
        "/v1/images/..%2F..%2Fetc%2Fpasswd",
        "/v1/images/%2e%2e%2fobjects",
        "/v1/images/",
      ]
      for target in targets {
        let response = try await service.get(target)
        expectProblem(response, 404)
        #expect(!response.text.contains("root:"), "\(target)")
      }
      // A NUL escape is refused by the HTTP layer for every route, as a malformed target.
      expectProblem(try await service.get("/v1/images/\(hex).jpg%00"), 400)
      let missingHead = try await service.send(
        LoopbackHTTPRequest("GET", "/v1/images/\(unknown).jpg", headers: [("If-None-Match", "*")]))
      expectProblem(missingHead, 404)
      let headMissing = try await ServiceHarness.exchange(port: service.port) { client in
        try await client.sendRaw(
          Array("HEAD /v1/images/\(unknown).jpg HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        return try await client.readResponse(forHead: true)
      }
      #expect(headMissing.status == 404 && headMissing.body.isEmpty)
    }
  }
}
