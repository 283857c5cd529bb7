import TestSupport
import Testing

@testable import ArtworkCore
@testable import Imaging

/// A JPEG's decoding cost is bounded before any decoder sees it: its scans, and its scans times
/// its pixels. Real progressive JPEGs, and built ones within the limits, frame as before.
@Suite struct DecodeCostTests {
  /// The file of the report: 147 KB, 883 scans of a 6320x6320 picture, seconds of CPU time.
  static let manyScans = ProgressiveJPEG.grey(width: 6320, height: 6320, scans: 883)

  @Test func aJPEGOfTooManyScansIsRefusedBeforeDecoding() {
    #expect(Self.manyScans.count < 150_000)
    let expected = "The image is a progressive JPEG of 883 scans; at most 100 are decoded."
    let checked = PipelineFixture.error {
      try DecodeCost.check(PinnedBytes(copying: Self.manyScans), limits: ImageLimits())
    }
    #expect(checked?.kind == .unprocessableImage)
    #expect(checked?.detail == expected)
    // Both entry points of the worker stop with that very error.
    let render = PipelineFixture.error {
      _ = try ImagePipeline.render(Self.manyScans, options: ArtworkOptions(), limits: ImageLimits())
    }
    #expect(render == checked)
    let thumbnail = PipelineFixture.error {
      _ = try ImagePipeline.thumbnailPixels(Self.manyScans, limits: ImageLimits())
    }
    #expect(thumbnail == checked)
  }

  @Test func aJPEGWhoseScansPassOverTooManyPixelsIsRefused() {
    let bytes = ProgressiveJPEG.grey(width: 6320, height: 6320, scans: 40)
    let error = PipelineFixture.error {
      _ = try ImagePipeline.render(bytes, options: ArtworkOptions(), limits: ImageLimits())
    }
    #expect(error?.kind == .unprocessableImage)
    #expect(
      error?.detail
        == "The image is a progressive JPEG of 6320x6320 pixels in 40 scans, 1,597,696,000 "
        + "pixels to decode in all; at most 960,000,000 are decoded (24 passes over the "
        + "40,000,000-pixel limit, ARTWORK_MAX_PIXELS).")
    // The budget follows the pixel limit an operator sets.
    var raised = ImageLimits()
    raised.maxPixels = 100_000_000
    #expect(bytes.withUnsafeBytes { DecodeCost.problem($0, limits: raised) } == nil)
  }

  /// The limits keep real progressive JPEGs (libjpeg's 10 scans) and built ones up to 100
  /// scans: each frames, the built ones decoded by libjpeg-turbo without a warning.
  @Test(arguments: [("progressive.jpg", 0), ("", 10), ("", 100)])
  func progressiveJPEGsWithinTheLimitsFrame(name: String, scans: Int) throws {
    let bytes =
      name.isEmpty
      ? ProgressiveJPEG.grey(width: 1200, height: 800, scans: scans) : Fixtures.bytes(name)
    let rendered = try ImagePipeline.render(
      bytes, options: ArtworkOptions(shape: .poster), limits: ImageLimits())
    #expect(rendered.width == 400 && rendered.height == 600)
  }

  @Test func otherFormatsPass() {
    for name in ["chelsea.png", "lossy.webp", "animated.gif", "photo.heic"] {
      #expect(
        Fixtures.bytes(name).withUnsafeBytes { DecodeCost.problem($0, limits: .standard) } == nil)
    }
  }
}
