import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// CORS at the protocol level: preflights answered by the server, the fields of actual answers
/// (problems included), and hosted images readable from any origin. `CrossOriginBrowserTests` runs the
/// same through Chromium, the client these fields are for.
@Suite struct CrossOriginTests {
  static let page = "https://app.example.com"

  static func preflight(
    _ path: String, origin: String, method: String = "POST",
    headers: String = "authorization, content-type"
  ) -> LoopbackHTTPRequest {
    LoopbackHTTPRequest(
      "OPTIONS", path,
      headers: [
        ("Origin", origin), ("Access-Control-Request-Method", method),
        ("Access-Control-Request-Headers", headers),
      ])
  }

  @Test func aPreflightFromAListedOriginIsAnswered204() async throws {
    let environment = [
      "ARTWORK_CORS_ORIGINS": "https://APP.example.com:443, http://localhost:3000",
      "ARTWORK_API_TOKENS": "a-token-of-sixteen-chars",
    ]
    try await ServiceHarness.run(environment) { service in
      let answer = try await service.send(Self.preflight("/v1/artwork", origin: Self.page))
      #expect(answer.status == 204, "\(answer.text)")
      #expect(answer.body.isEmpty)
      #expect(answer.header("Access-Control-Allow-Origin") == Self.page)
      #expect(answer.header("Access-Control-Allow-Methods") == "POST, OPTIONS")
      let allowed = answer.header("Access-Control-Allow-Headers") ?? ""
      #expect(allowed.contains("Authorization") && allowed.contains("Content-Type"))
      #expect(answer.header("Access-Control-Max-Age") == "600")
      #expect(answer.header("Vary") == "Origin")

      // A preflight needs no token: browsers never send credentials with it.
      let images = try await service.send(
        Self.preflight("/v1/images/x.jpg", origin: "http://localhost:3000", method: "GET"))
      #expect(images.status == 204)
      #expect(images.header("Access-Control-Allow-Methods") == "GET, HEAD, DELETE, OPTIONS")

      // The actual request: allowed origin echoed, the headers a page needs exposed.
      let refused = try await service.send(
        LoopbackHTTPRequest("POST", "/v1/check", headers: [("Origin", Self.page)]))
      #expect(refused.status == 401)
      #expect(refused.header("Access-Control-Allow-Origin") == Self.page)
      let exposed = refused.header("Access-Control-Expose-Headers") ?? ""
      for name in ["Location", "X-Request-Id", "Retry-After"] {
        #expect(exposed.contains(name), "\(exposed)")
      }
    }
  }

  @Test func anOriginNotListedIsRefusedWithAProblem() async throws {
    try await ServiceHarness.run(["ARTWORK_CORS_ORIGINS": Self.page]) { service in
      let answer = try await service.send(
        Self.preflight("/v1/artwork", origin: "https://evil.example"))
      #expect(answer.status == 403, "\(answer.text)")
      #expect(answer.header("Content-Type") == "application/problem+json")
      #expect(answer.header("Access-Control-Allow-Origin") == nil)
      #expect(answer.text.contains("evil.example") && answer.text.contains("request_id"))
      // An actual request from it is answered, without the fields that would let a page read it.
      let health = try await service.get("/healthz", headers: [("Origin", "https://evil.example")])
      #expect(health.status == 200)
      #expect(health.header("Access-Control-Allow-Origin") == nil)
      #expect(health.header("Vary") == "Origin")
    }
  }

  @Test func withoutCORSOriginsNoPageMayCall() async throws {
    try await ServiceHarness.run([:]) { service in
      let answer = try await service.send(Self.preflight("/v1/artwork", origin: Self.page))
      #expect(answer.status == 403)
      // A plain OPTIONS (no preflight) says what the path allows.
      let plain = try await service.send(LoopbackHTTPRequest("OPTIONS", "/v1/thumbhash"))
      #expect(plain.status == 204)
      #expect(plain.header("Allow") == "POST, OPTIONS")
      let missing = try await service.send(LoopbackHTTPRequest("OPTIONS", "/nowhere"))
      #expect(missing.status == 404)
    }
  }

  @Test func anyOriginWithAStar() async throws {
    try await ServiceHarness.run(["ARTWORK_CORS_ORIGINS": "*"]) { service in
      let answer = try await service.send(Self.preflight("/v1/thumbhash", origin: "null"))
      #expect(answer.status == 204)
      #expect(answer.header("Access-Control-Allow-Origin") == "*")
      #expect(answer.header("Vary") == nil)
      // A problem the HTTP layer answers by itself is readable too.
      let missing = try await service.get("/nowhere", headers: [("Origin", Self.page)])
      #expect(missing.status == 404)
      #expect(missing.header("Access-Control-Allow-Origin") == "*")
    }
  }

  /// Hosted images are public by URL: any page may draw them into a canvas, CORS setting or not.
  @Test func hostedImagesAreReadableFromAnyOrigin() async throws {
    try await ServiceHarness.run([:]) { service in
      let created = try await service.upload(Fixtures.bytes("coffee.jpg"), fields: [("size", "64")])
      let path = try #require(created.path(ofURLIn: "image_url"))
      for headers in [[("Origin", Self.page)], []] {
        let image = try await service.get(path, headers: headers)
        #expect(image.status == 200)
        #expect(image.header("Access-Control-Allow-Origin") == "*")
        #expect(image.header("Cross-Origin-Resource-Policy") == "cross-origin")
        #expect(image.header("Vary") == nil)
      }
    }
  }

  @Test(arguments: [
    ("*", true), ("https://a.example", true), ("http://[::1]:8080", true),
    ("https://a.example/path", false), ("ftp://a.example", false), ("a.example", false),
    ("https://a.example:0", false), ("*,https://a.example", false), ("https://", false),
  ])
  func originSettingsAreChecked(value: String, valid: Bool) {
    let config = try? ServiceConfig(environment: ["ARTWORK_CORS_ORIGINS": value])
    #expect((config != nil) == valid, "\(value)")
  }

  @Test func originsAreSerializedLowerCaseWithoutDefaultPorts() {
    #expect(ServiceConfig.origin("HTTPS://App.Example.com:443") == "https://app.example.com")
    #expect(ServiceConfig.origin("http://a.example:80") == "http://a.example")
    #expect(ServiceConfig.origin("http://a.example:8080") == "http://a.example:8080")
  }
}
