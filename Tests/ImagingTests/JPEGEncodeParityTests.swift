import TestSupport
import Testing

@testable import ArtworkCore
@testable import Imaging

/// A framed picture goes to libjpeg directly (`JPEGEncoder`) with libvips' `jpegsave` settings:
/// the bytes stored are the bytes libvips would have written.
@Suite struct JPEGEncodeParityTests {
  /// coffee.jpg framed to a 400x600 poster: a real photo's blocks.
  static func poster() throws -> VipsImage {
    let coffee = try PipelineFixture.decode(Fixtures.bytes("coffee.jpg"))
    var pixels = [UInt8](repeating: 0, count: 400 * 600 * 3)
    for y in 0..<600 {
      let row = (y % 400) * coffee.width * 3
      pixels.replaceSubrange(
        y * 1200..<(y + 1) * 1200, with: coffee.pixels[row + 300..<row + 300 + 1200])
    }
    return try VipsImage.srgb(pixels, width: 400, height: 600, bands: 3)
  }

  @Test(arguments: [80, 50, 10, 90])
  func writesTheBytesLibvipsWrites(quality: Int) throws {
    let picture = try Self.poster()
    let direct = try picture.jpeg(quality: quality)
    let libvips = try picture.libvipsJPEG(quality: quality)
    #expect(direct.count == libvips.count)
    #expect(direct == libvips)
  }

  @Test func aPictureWithAlphaStillGoesThroughLibvips() throws {
    let pixels = (0..<64 * 32 * 4).map { UInt8(truncatingIfNeeded: $0 * 7) }
    let picture = try VipsImage.srgb(pixels, width: 64, height: 32, bands: 4)
    let jpeg = try picture.jpeg(quality: 80)
    #expect(jpeg == (try picture.libvipsJPEG(quality: 80)))
  }
}
