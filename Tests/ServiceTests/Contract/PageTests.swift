import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// The page for people at `/`, over loopback: its policy, its assets, and `ARTWORK_UI=0`.
/// `PageBrowserTests` uses it in Chromium.
@Suite struct PageTests {
  @Test func thePageIsServedUnderAStrictPolicy() async throws {
    let environment = ["ARTWORK_PUBLIC_URL": "https://img.example.org/artwork"]
    try await ServiceHarness.run(environment) { service in
      let page = try await service.get("/")
      #expect(page.status == 200)
      #expect(page.header("Content-Type") == "text/html; charset=utf-8")
      let policy = try #require(page.header("Content-Security-Policy"))
      #expect(policy.hasPrefix("default-src 'self'; "), "\(policy)")
      // Hosted images come from ARTWORK_PUBLIC_URL's origin, which may not be this one.
      #expect(policy.contains("img-src 'self' blob: https://img.example.org;"), "\(policy)")
      #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
      #expect(page.header("X-Content-Type-Options") == "nosniff")
      let html = page.text
      // Nothing inline for the policy to refuse, nothing from elsewhere.
      #expect(!html.contains("<style") && !html.contains(" style="))
      #expect(!html.contains("<script>") && !html.contains("javascript:"))
      #expect(!html.contains("src=\"http") && !html.contains("href=\"http"))
      let head = try await service.send(LoopbackHTTPRequest("HEAD", "/"))
      #expect(head.status == 200 && head.body.isEmpty)
    }
  }

  @Test(arguments: [
    ("page.css", "text/css; charset=utf-8"), ("page.js", "text/javascript; charset=utf-8"),
    ("icon.svg", "image/svg+xml"),
  ])
  func everyAssetThePageNamesIsServed(name: String, type: String) async throws {
    let html = String(decoding: EmbeddedFile.page.bytes, as: UTF8.self)
    #expect(html.contains("\"/assets/\(name)\""))
    try await ServiceHarness.run { service in
      let asset = try await service.get("/assets/\(name)")
      #expect(asset.status == 200)
      #expect(asset.header("Content-Type") == type)
      #expect(asset.header("Cache-Control") == "no-cache")
      let etag = try #require(asset.header("ETag"))
      let again = try await service.get("/assets/\(name)", headers: [("If-None-Match", etag)])
      #expect(again.status == 304)
    }
  }

  @Test func anUnknownAssetIsAProblem() async throws {
    try await ServiceHarness.run { service in
      let missing = try await service.get("/assets/secret.txt")
      #expect(missing.status == 404)
      #expect(missing.header("Content-Type") == "application/problem+json")
    }
  }

  @Test func theUISettingTurnsThePageOff() async throws {
    try await ServiceHarness.run(["ARTWORK_UI": "0"]) { service in
      for path in ["/", "/assets/page.js"] {
        let answer = try await service.get(path)
        #expect(answer.status == 404, "\(path)")
        #expect(answer.header("Content-Type") == "application/problem+json")
      }
      // The contract stays: it is for machines.
      #expect(try await service.get("/openapi.json").status == 200)
    }
    #expect(throws: ConfigError.self) { try ServiceConfig(environment: ["ARTWORK_UI": "maybe"]) }
  }
}
