import TestSupport
import Testing

@testable import ArtworkCore
@testable import Imaging

/// Still, opaque WebP is framed from libwebp's own decode (`ImagePipeline.frameWebP`); the rest
/// goes through libvips.
@Suite struct WebPFramingTests {
  static func frame(_ bytes: [UInt8], shape: Shape, size: Int, crop: CropMode) throws
    -> FramedPicture?
  {
    Vips.initialize()
    let options = ArtworkOptions(shape: shape, size: size, crop: crop)
    let source = try VipsSource(borrowing: bytes)
    let info = try ImagePipeline.readHeader(
      source, format: .webp, byteCount: bytes.count, limits: .standard)
    return try ImagePipeline.frameWebP(
      source, info: info,
      output: PixelSize(width: options.outputSize.width, height: options.outputSize.height),
      crop: crop, deadline: Deadline(secondsFromNow: 60))
  }

  @Test(arguments: [CropMode.centre, .attention])
  func anOpaqueStillTakesLibwebpsDecode(crop: CropMode) throws {
    let framed = try #require(
      try Self.frame(Fixtures.bytes("lossy.webp"), shape: .square, size: 200, crop: crop))
    #expect(framed.image.width == 200 && framed.image.height == 200)
    let region = try #require(framed.region)
    #expect(region.width == 400 && region.height == 400 && region.y == 0)
    if crop == .centre { #expect(region.x == 100) }
  }

  @Test func theSamePictureAsTheGeneralPath() throws {
    // Framed from libwebp's decode, and from a PNG of libvips' decode of the same file (the
    // general path): the same region, and the same picture within a code on average.
    let bytes = Fixtures.bytes("lossy.webp")
    let direct = try #require(try Self.frame(bytes, shape: .square, size: 200, crop: .centre))
    let decoded = try PipelineFixture.decode(bytes)
    let png = try VipsImage.srgb(
      decoded.pixels, width: decoded.width, height: decoded.height, bands: decoded.bands
    ).png(nil)
    let source = try VipsSource(borrowing: png)
    let info = try ImagePipeline.readHeader(
      source, format: .png, byteCount: png.count, limits: .standard)
    let general = try ImagePipeline.framed(
      source, info: info, output: PixelSize(width: 200, height: 200), crop: .centre,
      limits: .standard, deadline: Deadline(secondsFromNow: 60))
    #expect(general.region == direct.region)
    let a = try DecodedImage(direct.image, forceAlpha: false).pixels
    let b = try DecodedImage(general.image, forceAlpha: false).pixels
    let difference = zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / max(1, a.count)
    #expect(difference <= 1, "mean difference \(difference)")
  }

  /// libwebp crops from even columns and rows only: a centre crop whose middle falls on an odd
  /// column (a 267 px poster crop of 600 px) starts one column left, and says so.
  @Test func anOddCropStartsOnAnEvenColumn() throws {
    let framed = try #require(
      try Self.frame(Fixtures.bytes("lossy.webp"), shape: .poster, size: 200, crop: .centre))
    #expect(framed.region?.x == 166 && framed.region?.width == 267)
  }

  @Test func alphaGoesThroughLibvips() throws {
    #expect(
      try Self.frame(
        Fixtures.bytes("lossless-alpha.webp"), shape: .square, size: 200, crop: .centre) == nil)
  }
}
