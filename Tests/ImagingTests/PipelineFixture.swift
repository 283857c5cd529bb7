import TestSupport
import Testing

@testable import ArtworkCore
@testable import Imaging

/// Shared steps of the imaging tests: libvips set-up, rendering a test image, decoding results.
enum PipelineFixture {
  static func render(
    _ name: String, shape: Shape, size: Int = 400, crop: CropMode = .centre,
    limits: ImageLimits = ImageLimits()
  ) throws -> RenderedArtwork {
    Vips.initialize()
    return try ImagePipeline.render(
      Fixtures.bytes(name), options: ArtworkOptions(shape: shape, size: size, crop: crop),
      limits: limits)
  }

  static func decode(_ bytes: [UInt8]) throws -> DecodedImage {
    Vips.initialize()
    return try DecodedImage(decoding: bytes)
  }

  /// The `ArtworkError` that `body` throws, or nil (any other error is a test failure).
  static func error(_ body: () throws -> Void) -> ArtworkError? {
    Vips.initialize()
    do {
      try body()
      return nil
    } catch let error as ArtworkError {
      return error
    } catch {
      Issue.record("not an ArtworkError: \(error)")
      return nil
    }
  }

  /// Whether every band of `actual` is within `tolerance` of `expected`.
  static func close(_ actual: [Double], _ expected: [Double], tolerance: Double) -> Bool {
    actual.count == expected.count
      && zip(actual, expected).allSatisfy { abs($0 - $1) <= tolerance }
  }

  static func doubles(_ values: [UInt8]) -> [Double] { values.map(Double.init) }
}
