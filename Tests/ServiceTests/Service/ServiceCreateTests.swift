import Foundation
import TestSupport
import Testing
import ThumbHashCodec

@testable import ArtworkCore
@testable import ArtworkService
@testable import Imaging

/// `POST /v1/artwork` end to end: the answer's shape, the hosted object behind `image_url`, and
/// content addressing.
@Suite struct ServiceCreateTests {
  /// One upload per shape, size and crop: what the answer promises is what the URL serves.
  @Test(arguments: [
    ("square", 64, "attention", 64, 64),
    ("square", 1200, "centre", 1200, 1200),
    ("poster", 401, "center", 400, 600),
    ("poster", 300, "attention", 300, 450),
    ("circle", 256, "centre", 256, 256),
  ])
  func createdArtworkIsServedAsPromised(
    shape: String, size: Int, crop: String, width: Int, height: Int
  ) async throws {
    try await ServiceHarness.run { service in
      let source = Fixtures.bytes("coffee.jpg")
      let created = try await service.upload(
        source, fields: [("shape", shape), ("size", "\(size)"), ("crop", crop)])
      #expect(created.status == 201, "\(created.text)")
      #expect(created.header("Content-Type") == "application/json")
      let keys = [
        "image_url", "image_shape", "image_thumbhash", "width", "height", "format", "bytes",
        "average_color", "source",
      ]
      let positions = created.positions(of: keys)
      #expect(!positions.contains(-1) && positions == positions.sorted(), "\(created.text)")
      let answer = created.object
      #expect(answer["image_shape"] as? String == shape)
      #expect(answer["width"] as? Int == width)
      #expect(answer["height"] as? Int == height)
      // An opaque source gives a JPEG whatever the shape: a circle is stored as a square and
      // the phone draws the circle (ArtworkOptions.Shape).
      let format = "jpeg"
      #expect(answer["format"] as? String == format)
      #expect((answer["average_color"] as? String)?.count == 7)
      let sourceFacts = answer["source"] as? [String: Any] ?? [:]
      #expect(sourceFacts["format"] as? String == "jpeg")
      #expect(sourceFacts["width"] as? Int == 600)
      #expect(sourceFacts["height"] as? Int == 400)
      #expect(sourceFacts["bytes"] as? Int == source.count)
      let url = try #require(answer["image_url"] as? String)
      #expect(created.header("Location") == url)
      #expect(url.hasPrefix("http://127.0.0.1:9/v1/images/"))
      #expect(url.hasSuffix(".jpg"))

      let served = try await service.get(try #require(created.path(ofURLIn: "image_url")))
      #expect(served.status == 200)
      #expect(served.body.count == answer["bytes"] as? Int)
      let info = try ImagePipeline.inspect(served.body)
      #expect(info.format.rawValue == format)
      #expect(info.width == width && info.height == height)
      #expect(!info.hasAlpha)

      // The ThumbHash describes the served bytes, in padded standard base64.
      let thumbHash = try #require(answer["image_thumbhash"] as? String)
      #expect(thumbHash.count % 4 == 0)
      #expect(!thumbHash.contains("-") && !thumbHash.contains("_"))
      let pixels = try ImagePipeline.thumbnailPixels(served.body).pixels
      let recomputed = try ThumbHash.encode(
        width: pixels.width, height: pixels.height, rgba: pixels.rgba)
      #expect(ThumbHashBase64.encode(recomputed) == thumbHash)
    }
  }

  /// A raw `image/*` body with options in the query string; alpha sources give PNG.
  @Test func rawBodyWithQueryOptions() async throws {
    try await ServiceHarness.run { service in
      let created = try await service.uploadRaw(
        Fixtures.bytes("palette-transparent.png"), type: "image/png",
        path: "/v1/artwork?shape=poster&size=200")
      #expect(created.status == 201, "\(created.text)")
      let answer = created.object
      #expect(answer["format"] as? String == "png")
      #expect(answer["width"] as? Int == 200 && answer["height"] as? Int == 300)
      let served = try await service.get(try #require(created.path(ofURLIn: "image_url")))
      let info = try ImagePipeline.inspect(served.body)
      #expect(info.format == .png && info.width == 200 && info.height == 300)
    }
  }

  /// The same upload twice is the same object: the URL is the content's hash.
  @Test func sameUploadGivesSameURL() async throws {
    try await ServiceHarness.run { service in
      let source = Fixtures.bytes("chelsea.png")
      let first = try await service.upload(source, type: "image/png", fields: [("size", "128")])
      let second = try await service.uploadRaw(
        source, type: "image/png", path: "/v1/artwork?size=128")
      #expect(first.status == 201 && second.status == 201)
      let url = try #require(first.object["image_url"] as? String)
      #expect(second.object["image_url"] as? String == url)
      #expect(service.objectFiles().count == 1)
      // The metrics count stored objects, not answers: the second upload stored nothing new.
      let metrics = try await service.get("/metrics").text.split(separator: "\n")
      let bytes = try #require(first.object["bytes"] as? Int)
      #expect(metrics.contains("artwork_created_total 1"), "\(metrics)")
      #expect(metrics.contains("artwork_stored_bytes_total \(bytes)"), "\(metrics)")
      let name = try #require(url.split(separator: "/").last)
      let served = try await service.get("/v1/images/\(name)")
      let hex = name.split(separator: ".")[0]
      #expect(SHA256.hex(served.body) == String(hex))
    }
  }
}
