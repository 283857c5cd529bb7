import Foundation
import TestSupport
import Testing

@testable import ArtworkService
@testable import Imaging

/// The pipeline's edge cases through HTTP: representative sources come out upright, at the
/// promised size, JPEG when opaque and PNG when they carry real transparency.
@Suite struct ServicePipelineTests {
  /// (fixture, declared type, source width, source height after autorotation, stored format)
  static let cases: [(String, String, Int, Int, String)] = [
    ("orientation-5.jpg", "image/jpeg", 300, 200, "jpeg"),
    ("orientation-6.jpg", "image/jpeg", 300, 200, "jpeg"),
    ("orientation-7.jpg", "image/jpeg", 300, 200, "jpeg"),
    ("orientation-8.jpg", "image/jpeg", 300, 200, "jpeg"),
    ("cmyk-icc.jpg", "image/jpeg", 600, 400, "jpeg"),
    ("rgba16.png", "image/png", 451, 300, "png"),
    ("opaque-alpha.png", "image/png", 451, 300, "jpeg"),
    ("grey.jpg", "image/jpeg", 512, 512, "jpeg"),
    ("grey-alpha.png", "image/png", 512, 512, "png"),
    ("palette-transparent.png", "image/png", 200, 200, "png"),
    ("animated.gif", "image/gif", 120, 80, "jpeg"),
    ("progressive.jpg", "image/jpeg", 451, 300, "jpeg"),
    ("lossy.webp", "image/webp", 600, 400, "jpeg"),
    ("lossless-alpha.webp", "image/webp", 451, 300, "png"),
    ("photo.heic", "image/heic", 451, 300, "jpeg"),
  ]

  @Test func edgeCaseSourcesThroughHTTP() async throws {
    try await ServiceHarness.run { service in
      for (name, type, sourceWidth, sourceHeight, format) in Self.cases {
        let created = try await service.upload(
          Fixtures.bytes(name), type: type, fields: [("size", "128"), ("crop", "centre")])
        #expect(created.status == 201, "\(name): \(created.text)")
        let answer = created.object
        let source = answer["source"] as? [String: Any] ?? [:]
        #expect(source["width"] as? Int == sourceWidth, "\(name)")
        #expect(source["height"] as? Int == sourceHeight, "\(name)")
        #expect(answer["format"] as? String == format, "\(name)")
        let served = try await service.get(try #require(created.path(ofURLIn: "image_url")))
        let image = try DecodedImage(decoding: served.body)
        #expect(image.width == 128 && image.height == 128, "\(name)")
        #expect(image.bands == (format == "png" ? 4 : 3), "\(name)")
        if name.hasPrefix("orientation") {
          // Upright: red top left, green top right, blue bottom left, white bottom right.
          let expected: [(Int, Int, [Double])] = [
            (16, 16, [255, 0, 0]), (112, 16, [0, 255, 0]), (16, 112, [0, 0, 255]),
            (112, 112, [255, 255, 255]),
          ]
          for (x, y, colour) in expected {
            let mean = image.mean(x: x - 4, y: y - 4, width: 8, height: 8)
            for band in 0..<3 {
              #expect(abs(mean[band] - colour[band]) < 40, "\(name) at \(x),\(y): \(mean)")
            }
          }
        }
      }
    }
  }
}
