import TestSupport
import Testing

@testable import ArtworkCore
@testable import Imaging

/// The attention crop finds a real subject away from the centre: the cup of `coffee.jpg` (600x400,
/// the cup and saucer between x = 175 and 410) on the left of a 1200x400 picture whose right half
/// is flat grey. A centre crop misses it.
@Suite struct AttentionCropTests {
  static let cup = 175.0...410.0

  static func picture() throws -> [UInt8] {
    let coffee = try PipelineFixture.decode(Fixtures.bytes("coffee.jpg"))
    #expect(coffee.width == 600 && coffee.height == 400 && coffee.bands == 3)
    var pixels = [UInt8](repeating: 128, count: 1200 * 400 * 3)
    for y in 0..<400 {
      pixels.replaceSubrange(
        y * 3600..<y * 3600 + 1800, with: coffee.pixels[y * 1800..<(y + 1) * 1800])
    }
    return try VipsImage.srgb(pixels, width: 1200, height: 400, bands: 3).jpeg(quality: 95)
  }

  static func region(_ bytes: [UInt8], shape: Shape, crop: CropMode) throws
    -> FramedPicture.Region
  {
    Vips.initialize()
    let options = ArtworkOptions(shape: shape, size: 400, crop: crop)
    let source = try VipsSource(copying: bytes)
    let info = try ImagePipeline.readHeader(
      source, format: .jpeg, byteCount: bytes.count, limits: .standard)
    let framed = try ImagePipeline.framed(
      source, info: info,
      output: PixelSize(width: options.outputSize.width, height: options.outputSize.height),
      crop: crop, deadline: Deadline(secondsFromNow: 60))
    return try #require(framed.region)
  }

  @Test(arguments: [Shape.square, .poster])
  func theCropHoldsTheCup(shape: Shape) throws {
    let bytes = try Self.picture()
    let attention = try Self.region(bytes, shape: shape, crop: .attention)
    #expect(
      attention.x <= Self.cup.lowerBound + 10
        && attention.x + attention.width >= Self.cup.upperBound - 10, "\(attention)")
    let centre = try Self.region(bytes, shape: shape, crop: .centre)
    #expect(centre.x > Self.cup.lowerBound + 50, "\(centre)")
  }

  @Test func aSubjectInTheMiddleStaysThere() throws {
    Vips.initialize()
    let region = try Self.region(Fixtures.bytes("coffee.jpg"), shape: .poster, crop: .attention)
    #expect(abs(region.x + region.width / 2 - 300) < 40, "\(region)")
  }
}
