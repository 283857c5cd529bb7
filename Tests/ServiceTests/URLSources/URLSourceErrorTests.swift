import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// How a URL source's failures reach the client: one status per kind of failure, always as
/// problem+json, for both `POST /v1/artwork` and `POST /v1/thumbhash`.
@Suite struct URLSourceErrorTests {
  static let routes = ["/v1/artwork", "/v1/thumbhash"]

  @Test(arguments: [
    "not a url", "http://user:pw@127.0.0.1:1/image.png", "ftp://127.0.0.1:1/image.png",
    "file:///etc/passwd", "/image.png",
  ])
  func malformedOrForbiddenURLsAre400(url: String) async throws {
    let service = try await URLSourceFixture.allowing.value
    for route in Self.routes {
      let refused = try await service.post(route, url: url)
      #expect(refused.isProblem(400), "\(route) \(url): \(refused.status) \(refused.text)")
    }
  }

  @Test(arguments: [
    // What the origin does, the status the client gets, and the failed stage (`reason`).
    ("/chunked-big?size=3000000", 413, "size"), ("/declared-huge", 413, "size"),
    ("/close-delimited", 413, "size"), ("/html", 415, "type"), ("/octet", 415, "type"),
    ("/no-type", 415, "type"), ("/garbage.png", 415, nil), ("/broken.jpg", 422, nil),
    ("/status/404", 422, "status"), ("/status/500", 502, "status"), ("/loop/a", 502, "redirect"),
    ("/self", 502, "redirect"), ("/redirect/6", 502, "redirect"), ("/gzip", 502, "protocol"),
  ])
  func originFailuresMapToStatuses(path: String, status: Int, reason: String?) async throws {
    let service = try await URLSourceFixture.allowing.value
    let separator = path.contains("?") ? "&" : "?"
    for route in Self.routes {
      let url = try URLSourceFixture.url(path + separator + "route=\(route.dropFirst(4))")
      let refused = try await service.post(route, url: url)
      #expect(refused.isProblem(status), "\(route) \(path): \(refused.status) \(refused.text)")
      #expect(refused.string("reason") == reason, "\(route) \(path): \(refused.text)")
    }
  }

  /// An origin's own refusal says which status it sent: a 4xx is the request's fault (422,
  /// `source-not-available`), a 5xx the origin's (502); both name `origin_status`.
  @Test(arguments: [
    (404, 422, "source-not-available"), (403, 422, "source-not-available"),
    (410, 422, "source-not-available"), (500, 502, "bad-gateway"), (503, 502, "bad-gateway"),
  ])
  func anOriginStatusIsNamed(origin: Int, status: Int, type: String) async throws {
    let service = try await URLSourceFixture.allowing.value
    let url = try URLSourceFixture.url("/status/\(origin)" + URLSourceFixture.unique())
    let refused = try await service.post("/v1/artwork", url: url)
    #expect(refused.isProblem(status), "\(refused.text)")
    #expect(refused.string("type") == "urn:artwork:problem:\(type)")
    #expect(refused.json["origin_status"] as? Int == origin, "\(refused.text)")
    #expect(refused.string("detail")?.contains("HTTP \(origin)") == true)
    // Remembered for the failure TTL with its members intact.
    let again = try await service.post("/v1/artwork", url: url)
    #expect(again.json["origin_status"] as? Int == origin, "\(again.text)")
  }

  /// Nothing listens: the answer says the connection was refused, not just "unreachable", and
  /// keeps the address (ours to know) out of the detail.
  @Test func aRefusedConnectionSaysSo() async throws {
    let service = try await URLSourceFixture.allowing.value
    let port = ServiceProcess.freePort()
    let refused = try await service.post("/v1/artwork", url: "http://127.0.0.1:\(port)/a.png")
    #expect(refused.isProblem(502), "\(refused.text)")
    #expect(refused.string("reason") == "connect")
    let detail = refused.string("detail") ?? ""
    #expect(detail.contains("refused") && !detail.contains("\(port)"), "\(detail)")
  }

  /// A Content-Length under the limit followed by megabytes more: only the declared bytes are
  /// read, and they are the image.
  @Test func aBodyLongerThanItsContentLengthIsCutThere() async throws {
    let service = try await URLSourceFixture.allowing.value
    let url = try URLSourceFixture.url("/lying-short")
    let created = try await service.post("/v1/artwork", url: url, options: ["size": 64])
    #expect(created.status == 201, "\(created.text)")
    #expect((created.json["source"] as? [String: Any])?["width"] as? Int == 4)
  }

  @Test func fiveRedirectsAreFollowed() async throws {
    let service = try await URLSourceFixture.allowing.value
    let url = try URLSourceFixture.url("/redirect/5")
    let created = try await service.post("/v1/thumbhash", url: url)
    #expect(created.status == 200, "\(created.text)")
  }

  /// A redirect from the allowed 127.0.0.1 to 127.0.0.2 (loopback, but not listed) is refused:
  /// the list covers addresses, not whoever the first hop points at.
  @Test func aRedirectToAPrivateAddressOutsideTheListIsRefused() async throws {
    let service = try await URLSourceFixture.allowing.value
    let origin = try URLSourceFixture.origin.get()
    let target = "http://127.0.0.2:\(origin.http)/image.png".percentEncodedForQuery
    let refused = try await service.post(
      "/v1/artwork", url: try URLSourceFixture.url("/to?url=\(target)"))
    #expect(refused.isProblem(403), "\(refused.status) \(refused.text)")
    #expect(refused.string("detail")?.contains("127.0.0.2") == true, "\(refused.text)")
  }

  /// A source that trickles is cut at `ARTWORK_FETCH_TIMEOUT` with 504.
  @Test func aTricklingSourceIs504() async throws {
    let service = try await RunningArtwork([
      "ARTWORK_PRIVATE_SOURCES": "127.0.0.1", "ARTWORK_FETCH_TIMEOUT": "1s",
    ])
    let url = try URLSourceFixture.url("/trickle")
    let refused = try await service.post("/v1/artwork", url: url)
    #expect(refused.isProblem(504), "\(refused.status) \(refused.text)")
    await service.stop()
  }

  @Test func aMalformedJSONBodyIs400() async throws {
    let service = try await URLSourceFixture.allowing.value
    for body in ["{", "[]", "{\"url\": 5}", "{\"url\": \"http://127.0.0.1:1/\", \"size\": true}"] {
      let refused = try await service.post("/v1/artwork", json: body)
      #expect(refused.isProblem(400), "\(body): \(refused.status) \(refused.text)")
    }
  }
}
