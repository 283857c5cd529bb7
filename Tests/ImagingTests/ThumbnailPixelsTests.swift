import TestSupport
import Testing

@testable import ArtworkCore
@testable import Imaging

@Suite struct ThumbnailPixelsTests {
  static func thumbnail(_ name: String) throws -> (SourceInfo, ThumbnailPixels) {
    Vips.initialize()
    let (source, pixels) = try ImagePipeline.thumbnailPixels(
      Fixtures.bytes(name), limits: ImageLimits())
    return (source, pixels)
  }

  @Test func smallImagesArePixelExact() throws {
    let (source, pixels) = try Self.thumbnail("tiny-rgba.png")
    #expect(source.width == 7 && source.height == 5 && source.format == .png)
    #expect(pixels.width == 7 && pixels.height == 5)
    var expected: [UInt8] = []
    for y in 0..<5 {
      for x in 0..<7 {
        expected += [
          UInt8(x * 40), UInt8(y * 60), UInt8(255 - x * 30), [255, 128, 0][(x + y) % 3],
        ]
      }
    }
    #expect(pixels.rgba == expected)
  }

  @Test(arguments: [
    ("coffee.jpg", PixelSize(width: 100, height: 67)),
    ("chelsea.png", PixelSize(width: 100, height: 67)),
    ("photo-large.jpg", PixelSize(width: 100, height: 87)),
    ("grey.jpg", PixelSize(width: 100, height: 100)),
    ("animated.gif", PixelSize(width: 100, height: 67)),
    ("orientation-6.jpg", PixelSize(width: 100, height: 67)),
    ("noise-alpha.png", PixelSize(width: 67, height: 100)),
    ("photo.heic", PixelSize(width: 100, height: 67)),
  ])
  func largerImagesFitInA100Box(name: String, size: PixelSize) throws {
    let (_, pixels) = try Self.thumbnail(name)
    #expect(pixels.width == size.width && pixels.height == size.height)
    #expect(pixels.rgba.count == size.width * size.height * 4)
  }

  @Test(arguments: 5...8)
  func rotatedImagesAreUpright(orientation: Int) throws {
    let (source, pixels) = try Self.thumbnail("orientation-\(orientation).jpg")
    #expect(source.width == 300 && source.height == 200)
    func at(_ x: Int, _ y: Int) -> [Double] {
      PipelineFixture.doubles(
        Array(pixels.rgba[(y * pixels.width + x) * 4..<(y * pixels.width + x) * 4 + 4]))
    }
    #expect(PipelineFixture.close(at(20, 15), [255, 0, 0, 255], tolerance: 12))
    #expect(PipelineFixture.close(at(80, 15), [0, 255, 0, 255], tolerance: 12))
    #expect(PipelineFixture.close(at(20, 50), [0, 0, 255, 255], tolerance: 12))
  }

  @Test func renderThumbnailIsOfTheStoredBytes() throws {
    let result = try PipelineFixture.render("palette-transparent.png", shape: .square, size: 100)
    // At 100x100 the stored image is taken pixel for pixel: identical to decoding it.
    let stored = try DecodedImage(decoding: result.bytes, forceAlpha: true)
    #expect(result.thumbnail.width == 100 && result.thumbnail.height == 100)
    #expect(result.thumbnail.rgba == stored.pixels)
  }
}
