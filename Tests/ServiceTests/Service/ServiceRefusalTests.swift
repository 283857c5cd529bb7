import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// The checks that run before any work, in order (auth, size, type, decodability, options):
/// each answers a problem+json and writes nothing.
@Suite struct ServiceRefusalTests {
  static let token = "test-token-0123456789abcdef"

  @Test func authenticationComesFirst() async throws {
    // The test client is a client, not a proxy on the same host (those are answered after
    // the body: `oversizedBodiesAre413`).
    let environment = [
      "ARTWORK_API_TOKENS": "other-token-0123456789abcdef,\(Self.token)",
      "ARTWORK_MAX_SOURCE_BYTES": "50000000", "ARTWORK_TRUSTED_PROXIES": "none",
    ]
    try await ServiceHarness.run(environment) { service in
      let image = Fixtures.bytes("coffee.jpg")
      let fields = [("size", "64")]
      expectProblem(try await service.upload(image, fields: fields), 401)
      for wrong in ["Bearer nope-0123456789abcdef", "Basic \(Self.token)", "Bearer", Self.token] {
        expectProblem(
          try await service.upload(image, fields: fields, headers: [("Authorization", wrong)]),
          401)
      }
      // Refused before the body is read, even a body that would be too large or not an image.
      let big = try await service.send(
        LoopbackHTTPRequest(
          "POST", "/v1/artwork", headers: [("Content-Type", "text/plain")],
          body: .repeating(0x41, count: 40_000_000)))
      expectProblem(big, 401)
      #expect(big.answeredBeforeBodyWasSent)
      #expect(big.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
      // With `Expect: 100-continue` the client never has to send the body at all.
      let expecting = try await service.send(
        LoopbackHTTPRequest(
          "POST", "/v1/artwork",
          headers: [("Content-Type", "image/jpeg"), ("Expect", "100-continue")],
          body: .bytes(image)))
      expectProblem(expecting, 401)
      #expect(expecting.bodyBytesWritten == 0)
      // Authorised, the size check comes next: before the declared type is looked at.
      let authorised = [("Authorization", "Bearer \(Self.token)")]
      let tooBig = try await service.send(
        LoopbackHTTPRequest(
          "POST", "/v1/artwork", headers: [("Content-Type", "text/plain")] + authorised,
          body: .repeating(0x41, count: 60_000_000)))
      expectProblem(tooBig, 413)
      #expect(tooBig.answeredBeforeBodyWasSent)
      expectProblem(
        try await service.uploadRaw(image, type: "image/jpeg", path: "/v1/thumbhash"), 401)
      #expect(service.objectFiles().isEmpty)

      for scheme in ["Bearer", "bearer", "BEARER"] {
        let created = try await service.upload(
          image, fields: fields, headers: [("Authorization", "\(scheme) \(Self.token)")])
        #expect(created.status == 201, "\(scheme): \(created.text)")
      }
      // GETs stay public.
      let path = try #require(
        try await service.upload(
          image, fields: fields, headers: [("Authorization", "Bearer \(Self.token)")]
        ).path(ofURLIn: "image_url"))
      #expect(try await service.get(path).status == 200)
    }
  }

  /// From a client the 413 comes from the head, before the client has sent its body. From a
  /// proxy (loopback is one by default) it comes once the body has been read and dropped, so
  /// that the proxy, which streams the body on, relays a whole exchange; the connection stays.
  @Test(arguments: ["none", "default"])
  func oversizedBodiesAre413(trustedProxies: String) async throws {
    var environment = ["ARTWORK_MAX_SOURCE_BYTES": "100000"]
    if trustedProxies != "default" { environment["ARTWORK_TRUSTED_PROXIES"] = trustedProxies }
    let proxy = trustedProxies == "default"
    try await ServiceHarness.run(environment) { service in
      // Far over the limit, with a declared length and without (chunked).
      for declared in [true, false] {
        try await ServiceHarness.exchange(port: service.port) { client in
          let refused = try await client.send(
            LoopbackHTTPRequest(
              "POST", "/v1/artwork", headers: [("Content-Type", "image/jpeg")],
              body: .repeating(0xFF, count: 50_000_000, declareLength: declared),
              chunked: !declared))
          expectProblem(refused, 413)
          #expect(refused.answeredBeforeBodyWasSent == !proxy, "declared: \(declared)")
          if proxy {
            #expect(refused.bodyBytesWritten == 50_000_000)
            #expect(refused.header("Connection") == nil)
            #expect(try await client.send(LoopbackHTTPRequest("GET", "/healthz")).status == 200)
          }
        }
      }

      // Just over the image limit: a raw body, and an image part within a small form.
      var justOver = Fixtures.bytes("coffee.jpg")
      justOver += [UInt8](repeating: 0, count: 100_001 - justOver.count)
      expectProblem(try await service.uploadRaw(justOver, type: "image/jpeg"), 413)
      expectProblem(try await service.upload(justOver), 413)
      expectProblem(
        try await service.uploadRaw(justOver, type: "image/jpeg", path: "/v1/thumbhash"), 413)
      #expect(service.objectFiles().isEmpty)
    }
  }

  @Test func nonImagesAre415() async throws {
    try await ServiceHarness.run { service in
      let html = Fixtures.bytes("page.html")
      let svg = Fixtures.bytes("drawing.svg")
      let jpeg = Fixtures.bytes("coffee.jpg")
      expectProblem(try await service.uploadRaw(html, type: "text/plain"), 415)
      expectProblem(try await service.uploadRaw(html, type: "text/html"), 415)
      expectProblem(
        try await service.send(LoopbackHTTPRequest("POST", "/v1/artwork", body: .bytes(jpeg))), 415)
      expectProblem(try await service.uploadRaw(html, type: "image/png"), 415)
      expectProblem(try await service.uploadRaw(svg, type: "image/png"), 415)
      expectProblem(try await service.uploadRaw(svg, type: "image/svg+xml"), 415)
      expectProblem(try await service.upload(svg, type: "image/png"), 415)
      expectProblem(try await service.upload(jpeg, type: "text/html"), 415)
      // A declared type that contradicts the bytes.
      expectProblem(try await service.uploadRaw(jpeg, type: "image/png"), 415)
      expectProblem(try await service.upload(jpeg, type: "image/gif"), 415)
      expectProblem(try await service.uploadRaw(jpeg, type: "image/x-unknown"), 415)
      #expect(service.objectFiles().isEmpty)
    }
  }

  /// Variants of accepted formats the decoders do not read are a 415 that names the variant
  /// (not a 422 that calls the image corrupt), before a worker is used, on every path.
  @Test func unsupportedVariantsAre415NamingThem() async throws {
    try await ServiceHarness.run { service in
      let cases: [([UInt8], String, String)] = [
        (ImageVariants.jpeg(precision: 12), "image/jpeg", "12-bit JPEG is not supported"),
        (ImageVariants.jpeg(marker: 0xC3), "image/jpeg", "Lossless JPEG (SOF3) is not supported"),
        (ImageVariants.heif(itemType: "vvc1"), "image/heic", "coded with VVC (H.266)"),
      ]
      for (bytes, type, words) in cases {
        for response in [
          try await service.uploadRaw(bytes, type: type),
          try await service.upload(bytes, type: type),
          try await service.uploadRaw(bytes, type: type, path: "/v1/thumbhash"),
        ] {
          expectProblem(response, 415)
          #expect(
            response.object["type"] as? String == "urn:artwork:problem:unsupported-media-type")
          #expect(
            (response.object["detail"] as? String)?.contains(words) == true, "\(response.text)")
        }
      }
      #expect(service.objectFiles().isEmpty)
      let metrics = try await service.get("/metrics").text
      #expect(MetricsText(metrics).nonZero("artwork_worker_failures_total").isEmpty, "\(metrics)")
    }
  }

  @Test func undecodableImagesAre422() async throws {
    try await ServiceHarness.run { service in
      let cases = [
        ("bomb.png", "image/png"), ("truncated.jpg", "image/jpeg"), ("empty.jpg", "image/jpeg"),
        ("lying-header.png", "image/png"),
      ]
      for (name, type) in cases {
        expectProblem(try await service.uploadRaw(Fixtures.bytes(name), type: type), 422)
        expectProblem(try await service.upload(Fixtures.bytes(name), type: type), 422)
        expectProblem(
          try await service.uploadRaw(Fixtures.bytes(name), type: type, path: "/v1/thumbhash"), 422)
      }
      #expect(service.objectFiles().isEmpty)
    }
  }

  @Test func badOptionsAndMalformedRequestsAre400() async throws {
    try await ServiceHarness.run { service in
      let image = Fixtures.bytes("coffee.jpg")
      for fields in [
        [("shape", "hexagon")], [("size", "5000")], [("size", "63")], [("size", "abc")],
        [("size", "")], [("crop", "edges")], [("sise", "100")], [("colour", "red")],
      ] {
        expectProblem(try await service.upload(image, fields: fields), 400)
      }
      for query in ["shape=hexagon", "size=5000", "size=abc", "unknown=1"] {
        expectProblem(
          try await service.uploadRaw(image, type: "image/jpeg", path: "/v1/artwork?\(query)"), 400)
      }
      let form = MultipartForm(fields: [], image: image)
      let malformed: [(String, [UInt8])] = [
        ("multipart/form-data; boundary=nothing-like-it", form.bytes),
        ("multipart/form-data", form.bytes),
        (form.contentType, Array(form.bytes.prefix(200))),
        (form.contentType, MultipartForm(fields: [("size", "64")], image: nil).bytes),
        ("application/json", Array("{}".utf8)),
        ("application/json", Array("{\"shape\": \"square\"}".utf8)),
        ("application/json", Array("{\"url\": 5}".utf8)),
        ("application/json", Array("not json".utf8)),
        ("application/json", Array("[\"https://example.com/a.jpg\"]".utf8)),
      ]
      for (type, body) in malformed {
        let response = try await service.send(
          LoopbackHTTPRequest(
            "POST", "/v1/artwork", headers: [("Content-Type", type)], body: .bytes(body)))
        expectProblem(response, 400)
      }
      #expect(service.objectFiles().isEmpty)
    }
  }

  /// A request head over the HTTP layer's limit (16 KiB) is a 431 problem, through the one
  /// mapping like every other status the HTTP layer makes itself.
  @Test func oversizedHeadsAre431() async throws {
    try await ServiceHarness.run { service in
      let head = try await service.get(
        "/healthz", headers: [("X-Padding", String(repeating: "a", count: 20_000))])
      expectProblem(head, 431)
      #expect(head.object["type"] as? String == "urn:artwork:problem:headers-too-large")
    }
  }
}
