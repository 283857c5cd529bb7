import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// CORS as a browser enforces it: Chromium on a page served from 127.0.0.2 (another origin)
/// calls the service on 127.0.0.1 with a bearer token, reads a problem, and draws a hosted
/// image into a canvas and reads its pixels back.
@Suite(.serialized) struct CrossOriginBrowserTests {
  static let token = "browser-test-token-0123456789"

  /// What the page saw with `corsOrigins` (nil: the setting unset).
  static func pageResults(corsOrigins: (Int) -> String?) async throws -> [String: Any] {
    let port = ServiceProcess.freePort()
    let pagePort = ServiceProcess.freePort()
    var environment = [
      "ARTWORK_LISTEN": "127.0.0.1:\(port)", "ARTWORK_PUBLIC_URL": "http://127.0.0.1:\(port)",
      "ARTWORK_API_TOKENS": token,
    ]
    environment["ARTWORK_CORS_ORIGINS"] = corsOrigins(pagePort)
    let output = try await ServiceHarness.run(environment) { service in
      let hosted = try await service.send(
        LoopbackHTTPRequest(
          "POST", "/v1/artwork?size=64",
          headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "image/jpeg")],
          body: .bytes(Fixtures.bytes("coffee.jpg"))))
      let imageURL = try #require(hosted.json["image_url"] as? String, "\(hosted.text)")
      return try await Browser.run(
        "Tests/ServiceTests/Browser/Fixtures/cors_check.py",
        [
          "http://127.0.0.1:\(port)", token,
          Fixtures.directory.appendingPathComponent("coffee.jpg").path,
          imageURL, String(pagePort),
        ])
    }
    return try Browser.object(output)
  }

  @Test func aListedPageUploadsReadsProblemsAndDrawsImages() async throws {
    let seen = try await Self.pageResults { "http://127.0.0.2:\($0)" }
    let upload = try #require(seen["upload"] as? [String: Any], "\(seen)")
    #expect(upload["status"] as? Int == 201, "\(seen)")
    let body = try #require(upload["body"] as? [String: Any])
    #expect(body["image_shape"] as? String == "poster")
    #expect((body["image_thumbhash"] as? String)?.isEmpty == false)
    // Exposed headers are readable by the page; without Expose-Headers they would be null.
    #expect((upload["request_id"] as? String)?.count == 32, "\(upload)")
    #expect((upload["location"] as? String)?.contains("/v1/images/") == true, "\(upload)")

    let refusal = try #require(seen["refusal"] as? [String: Any], "\(seen)")
    #expect(refusal["status"] as? Int == 401)
    let problem = try #require(refusal["body"] as? [String: Any])
    #expect(problem["request_id"] as? String == refusal["request_id"] as? String)
    #expect((problem["detail"] as? String)?.isEmpty == false)

    let canvas = try #require(seen["canvas"] as? [String: Any], "\(seen)")
    #expect(canvas["width"] as? Int == 64)
    #expect((canvas["pixel"] as? [Int])?.count == 4)
  }

  /// Unset, no page may call the API, but hosted images stay readable (they are public by URL).
  @Test func anUnlistedPageIsStoppedButStillDrawsImages() async throws {
    let seen = try await Self.pageResults { _ in nil }
    #expect(seen["upload"] == nil)
    #expect((seen["upload_error"] as? String)?.contains("Failed to fetch") == true, "\(seen)")
    #expect((seen["refusal_error"] as? String)?.contains("Failed to fetch") == true, "\(seen)")
    let canvas = try #require(seen["canvas"] as? [String: Any], "\(seen)")
    #expect(canvas["width"] as? Int == 64)
  }
}
