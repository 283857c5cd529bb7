import TestSupport
import Testing

@testable import ArtworkCore
@testable import Imaging

/// Strips of the most extreme aspect ratios each format holds frame like any other image: every
/// path crops to the output's shape in source pixels before it scales (a 65535x1 strip as a
/// poster scales one pixel), so none needs an intermediate that grows with the ratio.
///
/// Each strip (`testimages/hostile/make.py`) is a grey ramp along its length, black to white,
/// with a red band over its second and third eighths: a centre crop shows the middle grey, an
/// attention crop the red band.
@Suite struct ExtremeShapeFramingTests {
  /// The strips: file, format, size, and whether the output keeps alpha (PNG).
  static let strips: [(String, ImageFormat, PixelSize, Bool)] = [
    ("strip-65535x1.gif", .gif, PixelSize(width: 65535, height: 1), false),
    ("strip-1x65535.gif", .gif, PixelSize(width: 1, height: 65535), false),
    ("strip-20000x10.gif", .gif, PixelSize(width: 20000, height: 10), false),
    ("strip-65535x1.png", .png, PixelSize(width: 65535, height: 1), false),
    ("strip-1x65535.png", .png, PixelSize(width: 1, height: 65535), false),
    ("strip-20000x10.png", .png, PixelSize(width: 20000, height: 10), false),
    ("strip-20000x10-alpha.png", .png, PixelSize(width: 20000, height: 10), true),
    ("strip-65500x1.jpg", .jpeg, PixelSize(width: 65500, height: 1), false),
    ("strip-1x65500.jpg", .jpeg, PixelSize(width: 1, height: 65500), false),
    ("strip-20000x10.jpg", .jpeg, PixelSize(width: 20000, height: 10), false),
    ("strip-16383x1.webp", .webp, PixelSize(width: 16383, height: 1), false),
    ("strip-1x16383.webp", .webp, PixelSize(width: 1, height: 16383), false),
    ("strip-16383x10.webp", .webp, PixelSize(width: 16383, height: 10), false),
  ]

  static let shapes: [Shape] = [.square, .poster, .circle]

  @Test(arguments: strips, shapes)
  func aStripFramesLikeAnyOtherImage(
    strip: (String, ImageFormat, PixelSize, Bool), shape: Shape
  ) throws {
    let (name, format, size, transparent) = strip
    for crop in [CropMode.centre, .attention] {
      let options = ArtworkOptions(shape: shape, size: 400, crop: crop)
      let result = try PipelineFixture.render(
        "hostile/\(name)", shape: shape, size: 400, crop: crop)
      let expected = options.outputSize
      #expect(result.width == expected.width && result.height == expected.height)
      #expect(result.format == (transparent ? .png : .jpeg), "\(name) \(crop)")
      #expect(result.source.format == format)
      #expect(result.source.width == size.width && result.source.height == size.height)
      let fitted = FrameGeometry.thumbnailSize(
        source: PixelSize(width: expected.width, height: expected.height))
      #expect(result.thumbnail.width == fitted.width && result.thumbnail.height == fitted.height)
      #expect(try result.thumbnail.thumbHash().isEmpty == false)

      let image = try PipelineFixture.decode(result.bytes)
      #expect(image.width == expected.width && image.height == expected.height)
      let mean = image.mean(x: 0, y: 0, width: image.width, height: image.height)
      if crop == .centre {
        // The middle of the ramp: grey, about half way.
        #expect(abs(mean[0] - mean[1]) < 12 && abs(mean[1] - mean[2]) < 12, "\(name): \(mean)")
        #expect((100...156).contains(mean[1]), "\(name) \(shape) centre: \(mean)")
      } else {
        #expect(mean[0] > mean[1] + 100, "\(name) \(shape) attention: \(mean)")
      }
      if transparent { #expect(abs(mean[3] - 160) < 4, "\(name): \(mean)") }
    }
  }

  /// The ThumbHash of a strip itself (`POST /v1/thumbhash`): the whole strip fitted to 100x100.
  @Test(arguments: strips)
  func aStripsOwnThumbHashIsComputed(strip: (String, ImageFormat, PixelSize, Bool)) throws {
    let (name, _, size, _) = strip
    Vips.initialize()
    let (source, pixels) = try ImagePipeline.thumbnailPixels(
      Fixtures.bytes("hostile/\(name)"), limits: ImageLimits())
    #expect(source.width == size.width && source.height == size.height)
    let fitted = FrameGeometry.thumbnailSize(source: size)
    #expect(pixels.width == fitted.width && pixels.height == fitted.height)
    #expect(try pixels.thumbHash().isEmpty == false)
  }
}
