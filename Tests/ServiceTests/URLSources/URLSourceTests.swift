import Foundation
import TestSupport
import Testing

@testable import ArtworkService
@testable import Imaging

/// `POST /v1/artwork` and `POST /v1/thumbhash` with `{"url": ...}`: a loopback origin allowed by
/// `ARTWORK_PRIVATE_SOURCES` is fetched, processed and stored; the default policy refuses it.
@Suite struct URLSourceTests {
  @Test func fetchesProcessesAndStoresAnAllowedSource() async throws {
    let service = try await URLSourceFixture.allowing.value
    let url = try URLSourceFixture.url("/image.jpg" + URLSourceFixture.unique())
    let created = try await service.post(
      "/v1/artwork", url: url, options: ["shape": "poster", "size": 120])
    #expect(created.status == 201, "\(created.text)")
    #expect(created.string("image_shape") == "poster")
    #expect(created.json["width"] as? Int == 120)
    #expect(created.json["height"] as? Int == 180)
    let source = created.json["source"] as? [String: Any]
    #expect(source?["url"] as? String == url)
    #expect(source?["format"] as? String == "jpeg")
    #expect(source?["width"] as? Int == 6)
    #expect(source?["height"] as? Int == 4)
    let image = try await service.get(try #require(created.imagePath))
    #expect(image.status == 200)
    let info = try ImagePipeline.inspect(image.body)
    #expect(info.width == 120 && info.height == 180)
    #expect(created.header("Location") == created.string("image_url"))
  }

  @Test func fetchesOverHTTPSTrustingTheConfiguredCA() async throws {
    let service = try await URLSourceFixture.allowing.value
    let origin = try URLSourceFixture.origin.get()
    let url = "https://127.0.0.1:\(origin.https)/image.png\(URLSourceFixture.unique())"
    let created = try await service.post("/v1/artwork", url: url, options: ["size": 64])
    #expect(created.status == 201, "\(created.text)")
    #expect((created.json["source"] as? [String: Any])?["url"] as? String == url)
    let hashed = try await service.post("/v1/thumbhash", url: url)
    #expect(hashed.status == 200, "\(hashed.text)")
    #expect(hashed.string("thumbhash")?.isEmpty == false)
    #expect((hashed.json["source"] as? [String: Any])?["url"] as? String == url)
    #expect((hashed.json["source"] as? [String: Any])?["format"] as? String == "png")
    #expect(try origin.requests("/image.png" + url.drop { $0 != "?" }) == 2)
  }

  @Test func theThumbHashOfAURLMatchesTheThumbHashOfTheSameUpload() async throws {
    let service = try await URLSourceFixture.allowing.value
    let url = try URLSourceFixture.url("/image.jpg" + URLSourceFixture.unique())
    let fetched = try await service.post("/v1/thumbhash", url: url)
    #expect(fetched.status == 200, "\(fetched.text)")
    let source = try URLSourceFixture.origin.get().body("/image.jpg")
    let uploaded = try await service.send(
      LoopbackHTTPRequest(
        "POST", "/v1/thumbhash", headers: [("Content-Type", "image/jpeg")], body: .bytes(source)))
    #expect(uploaded.status == 200, "\(uploaded.text)")
    #expect(fetched.string("thumbhash") == uploaded.string("thumbhash"))
  }

  /// Every spelling of loopback is refused with 403 naming the class, before any connection.
  @Test func theDefaultPolicyRefusesLoopbackInEverySpelling() async throws {
    let service = try await URLSourceFixture.publicOnly.value
    let origin = try await OriginServer.start()
    var urls = ["127.0.0.1", "localhost", "2130706433", "0x7f.1"].map {
      "http://\($0):\(origin.http)/image.png"
    }
    urls.append("https://127.0.0.1:\(origin.https)/image.png")
    try await Self.expectRefusedAsLoopback(urls, by: service)
    #expect(try origin.totalAccepts() == 0)
  }

  /// IPv6 loopback too, with a listener on `::1` it would reach.
  @Test(.enabled(if: LoopbackIPv6.isAvailable, "needs IPv6 on loopback (::1)"))
  func theDefaultPolicyRefusesIPv6Loopback() async throws {
    let service = try await URLSourceFixture.publicOnly.value
    let origin = try await OriginServer.start()
    let port6 = try #require(origin.http6, "the origin did not listen on ::1")
    try await Self.expectRefusedAsLoopback(["http://[::1]:\(port6)/image.png"], by: service)
    #expect(try origin.totalAccepts() == 0)
  }

  /// Each of `urls`, posted to both URL routes, is a 403 whose detail names loopback.
  static func expectRefusedAsLoopback(_ urls: [String], by service: RunningArtwork) async throws {
    for url in urls {
      for path in ["/v1/artwork", "/v1/thumbhash"] {
        let refused = try await service.post(path, url: url)
        #expect(refused.isProblem(403), "\(path) \(url): \(refused.status) \(refused.text)")
        let detail = refused.string("detail") ?? ""
        #expect(detail.contains("loopback"), "\(url): \(detail)")
      }
    }
  }
}
