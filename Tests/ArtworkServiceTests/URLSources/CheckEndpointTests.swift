import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// `POST /v1/check` over HTTP. Only negative verdicts can be reached from tests (a positive one
/// needs a public address); the rules themselves are unit-tested in `ReachabilityCheckTests`.
@Suite struct CheckEndpointTests {
  static let checkNames = [
    "https", "public_address", "redirects", "tls", "status", "content_type", "size", "format",
  ]

  static func checks(_ response: LoopbackHTTPResponse) -> [String: [String: Any]] {
    let list = response.json["checks"] as? [[String: Any]] ?? []
    return Dictionary(
      list.compactMap { check in (check["name"] as? String).map { ($0, check) } },
      uniquingKeysWith: { first, _ in first })
  }

  @Test func aLoopbackHTTPURLFailsHTTPSAndPublicAddress() async throws {
    let service = try await URLSourceFixture.publicOnly.value
    let url = try URLSourceFixture.url("/image.png")
    let report = try await service.post("/v1/check", url: url)
    #expect(report.status == 200, "\(report.text)")
    #expect(report.json["ok"] as? Bool == false)
    #expect(report.string("url") == url)
    let checks = Self.checks(report)
    let names = (report.json["checks"] as? [[String: Any]] ?? []).compactMap {
      $0["name"] as? String
    }
    #expect(names == Self.checkNames)
    for name in ["https", "public_address"] {
      #expect(checks[name]?["ok"] as? Bool == false, "\(name): \(report.text)")
      #expect((checks[name]?["reason"] as? String)?.isEmpty == false, "\(name)")
    }
    let advice = (report.json["advice"] as? [String] ?? []).joined(separator: " ")
    #expect(advice.contains("image_thumbhash"), "\(advice)")
  }

  @Test func aLoopbackHTTPSURLFailsPublicAddressOnly() async throws {
    let service = try await URLSourceFixture.publicOnly.value
    let origin = try URLSourceFixture.origin.get()
    let report = try await service.post(
      "/v1/check", url: "https://127.0.0.1:\(origin.https)/image.png")
    #expect(report.status == 200, "\(report.text)")
    #expect(report.json["ok"] as? Bool == false)
    let checks = Self.checks(report)
    #expect(checks["https"]?["ok"] as? Bool == true, "\(report.text)")
    #expect(checks["public_address"]?["ok"] as? Bool == false)
  }

  @Test(arguments: [
    "{", "[]", "{}", "{\"url\": 1}", "{\"url\": \"https://a.example/\", \"size\": 64}",
  ])
  func malformedBodiesAre400(body: String) async throws {
    let service = try await URLSourceFixture.publicOnly.value
    let refused = try await service.post("/v1/check", json: body)
    #expect(refused.isProblem(400), "\(body): \(refused.status) \(refused.text)")
  }

  @Test(arguments: ["text/plain", "image/png", "application/x-www-form-urlencoded"])
  func otherContentTypesAre415(type: String) async throws {
    let service = try await URLSourceFixture.publicOnly.value
    let refused = try await service.post(
      "/v1/check", json: "{\"url\": \"https://a.example/\"}", contentType: type)
    #expect(refused.isProblem(415), "\(type): \(refused.status) \(refused.text)")
  }
}
