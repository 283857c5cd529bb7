import ArtworkCore
import TestSupport
import Testing

@testable import Imaging

@Suite struct ImageFormatTests {
  /// An ISO-BMFF `ftyp` box with the given major and compatible brands.
  static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
    let brands = compatible.flatMap { Array($0.utf8) }
    let size = 16 + brands.count
    return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0] + brands
      + [0, 0, 0, 8] + Array("meta".utf8)
  }

  @Test(
    arguments: [
      ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], ImageFormat.jpeg),
      ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D], .png),
      (Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp),
      (Array("GIF87a".utf8) + [1, 0, 1, 0], .gif),
      (Array("GIF89a".utf8) + [1, 0, 1, 0], .gif),
      (ftyp("heic", ["mif1", "heic"]), .heic),
      (ftyp("heix", []), .heic),
      (ftyp("mif1", ["heic"]), .heic),
      (ftyp("msf1", ["hevc"]), .heic),
      (ftyp("avif", ["avif", "mif1", "miaf"]), .avif),
      (ftyp("mif1", ["miaf", "avif"]), .avif),
      (ftyp("avis", ["msf1"]), .avif),
    ] as [([UInt8], ImageFormat)])
  func sniffsMagicBytes(bytes: [UInt8], format: ImageFormat) {
    #expect(ImageFormat.sniff(bytes) == format)
  }

  @Test(
    arguments: [
      [],
      [0xFF, 0xD8],
      Array("RIFF\u{24}\0\0\0WAVEfmt ".utf8),
      Array("GIF88a".utf8),
      Array("II*\0".utf8) + [8, 0, 0, 0],
      Array("MM\0*".utf8) + [0, 0, 0, 8],
      Array("BM".utf8) + [0x36, 0, 0, 0, 0, 0],
      Array("%PDF-1.7\n".utf8),
      Array("<?xml version=\"1.0\"?><svg".utf8),
      Array("<!doctype html><html>".utf8),
      Array("hello, world".utf8),
      ImageFormatTests.ftyp("isom", ["mp41", "mp42"]),
      ImageFormatTests.ftyp("qt  ", []),
      Array(ImageFormatTests.ftyp("heic", []).prefix(12)),
    ] as [[UInt8]])
  func refusesEverythingElse(bytes: [UInt8]) {
    #expect(ImageFormat.sniff(bytes) == nil)
  }

  @Test(arguments: [
    ("coffee.jpg", ImageFormat.jpeg), ("progressive.jpg", .jpeg), ("cmyk-icc.jpg", .jpeg),
    ("chelsea.png", .png), ("bomb.png", .png), ("animated.gif", .gif),
    ("lossy.webp", .webp), ("lossless-alpha.webp", .webp), ("photo.heic", .heic),
    ("photo.avif", .avif),
  ])
  func sniffsTheTestImages(name: String, format: ImageFormat) {
    #expect(ImageFormat.sniff(Fixtures.bytes(name)) == format)
  }

  @Test(arguments: ["page.html", "drawing.svg", "empty.jpg"])
  func refusesTheNonImages(name: String) {
    #expect(ImageFormat.sniff(Fixtures.bytes(name)) == nil)
  }

  @Test(arguments: [
    ("image/jpeg", ImageFormat.jpeg), ("image/jpg", .jpeg), ("image/pjpeg", .jpeg),
    ("IMAGE/JPEG", .jpeg), ("image/png", .png), ("image/webp", .webp), ("image/gif", .gif),
    ("image/heic", .heic), ("image/heif", .heic), ("image/avif", .avif),
  ])
  func mapsMediaTypes(mimeType: String, format: ImageFormat) {
    #expect(ImageFormat.forMimeType(mimeType) == format)
  }

  @Test(arguments: ["image/svg+xml", "image/tiff", "image/bmp", "text/html", "", "image/"])
  func refusesOtherMediaTypes(mimeType: String) {
    #expect(ImageFormat.forMimeType(mimeType) == nil)
  }

  @Test func mimeTypeRoundTrips() {
    for format in ImageFormat.allCases {
      #expect(ImageFormat.forMimeType(format.mimeType) == format)
    }
  }
}
