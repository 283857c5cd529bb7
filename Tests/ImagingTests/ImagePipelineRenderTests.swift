import TestSupport
import Testing

@testable import ArtworkCore
@testable import Imaging

@Suite struct ImagePipelineRenderTests {
  /// Every decodable test image: its name, format, upright size, and whether it has real
  /// transparency (so renders as PNG).
  static let images: [(String, ImageFormat, PixelSize, Bool)] =
    [
      ("coffee.jpg", .jpeg, PixelSize(width: 600, height: 400), false),
      ("rocket.jpg", .jpeg, PixelSize(width: 640, height: 427), false),
      ("photo-large.jpg", .jpeg, PixelSize(width: 2000, height: 1744), false),
      ("progressive.jpg", .jpeg, PixelSize(width: 451, height: 300), false),
      ("chelsea.png", .png, PixelSize(width: 451, height: 300), false),
      ("opaque-alpha.png", .png, PixelSize(width: 451, height: 300), false),
      ("cmyk-icc.jpg", .jpeg, PixelSize(width: 600, height: 400), false),
      ("cmyk-noicc.jpg", .jpeg, PixelSize(width: 600, height: 400), false),
      ("rgba16.png", .png, PixelSize(width: 451, height: 300), true),
      ("grey.jpg", .jpeg, PixelSize(width: 512, height: 512), false),
      ("grey-alpha.png", .png, PixelSize(width: 512, height: 512), true),
      ("palette-transparent.png", .png, PixelSize(width: 200, height: 200), true),
      ("animated.gif", .gif, PixelSize(width: 120, height: 80), false),
      ("lossy.webp", .webp, PixelSize(width: 600, height: 400), false),
      ("lossless-alpha.webp", .webp, PixelSize(width: 451, height: 300), true),
      ("photo.heic", .heic, PixelSize(width: 451, height: 300), false),
      ("photo.avif", .avif, PixelSize(width: 451, height: 300), false),
      ("tiny-rgba.png", .png, PixelSize(width: 7, height: 5), true),
      ("noise-alpha.png", .png, PixelSize(width: 400, height: 600), true),
    ] + (1...8).map { ("orientation-\($0).jpg", .jpeg, PixelSize(width: 300, height: 200), false) }

  static let shapes: [Shape] = [.square, .poster, .circle]

  @Test(arguments: images, shapes)
  func framesEveryImageExactly(image: (String, ImageFormat, PixelSize, Bool), shape: Shape) throws {
    let (name, format, upright, transparent) = image
    let options = ArtworkOptions(shape: shape, size: 401, crop: .attention)
    let result = try PipelineFixture.render(name, shape: shape, size: 401, crop: .attention)
    let expected = options.outputSize
    #expect(result.width == expected.width && result.height == expected.height)
    #expect(result.format == (transparent ? .png : .jpeg))
    #expect(result.hasAlpha == transparent)
    #expect(ImageFormat.sniff(result.bytes) == (transparent ? .png : .jpeg))
    #expect(result.bytes.count <= 2_000_000)
    #expect(result.source.format == format)
    #expect(result.source.width == upright.width && result.source.height == upright.height)
    #expect(result.source.bytes == Fixtures.bytes(name).count)

    let decoded = try PipelineFixture.decode(result.bytes)
    #expect(decoded.width == expected.width && decoded.height == expected.height)
    #expect(decoded.bands == (transparent ? 4 : 3))

    let thumbnail = result.thumbnail
    let fitted = FrameGeometry.thumbnailSize(
      source: PixelSize(width: expected.width, height: expected.height))
    #expect(thumbnail.width == fitted.width && thumbnail.height == fitted.height)
    #expect(thumbnail.rgba.count == thumbnail.width * thumbnail.height * 4)
  }

  /// The upright picture behind orientation-N.jpg: red, green / blue, white quadrants.
  @Test(arguments: 1...8)
  func exifOrientationLandsUpright(orientation: Int) throws {
    let result = try PipelineFixture.render("orientation-\(orientation).jpg", shape: .square)
    // Centre crop of 300x200 is x 50...250 of the upright picture, scaled by 2.
    let image = try PipelineFixture.decode(result.bytes)
    let quadrants: [((Int, Int), [Double])] = [
      ((100, 100), [255, 0, 0]), ((300, 100), [0, 255, 0]),
      ((100, 300), [0, 0, 255]), ((300, 300), [255, 255, 255]),
    ]
    for ((x, y), colour) in quadrants {
      let mean = image.mean(x: x - 20, y: y - 20, width: 40, height: 40)
      #expect(PipelineFixture.close(mean, colour, tolerance: 12), "\((x, y)): \(mean)")
    }
  }

  @Test func animatedGIFShowsItsFirstFrame() throws {
    for shape in Self.shapes {
      let result = try PipelineFixture.render("animated.gif", shape: shape)
      let image = try PipelineFixture.decode(result.bytes)
      let mean = image.mean(x: 0, y: 0, width: image.width, height: image.height)
      #expect(PipelineFixture.close(mean, [255, 0, 0], tolerance: 6), "\(mean)")
    }
  }

  /// Formats and colour spaces of the same photograph agree on its colours. The CMYK files went
  /// through a CMYK profile whose gamut loses saturated dark reds (about 30 levels), hence the
  /// tolerance; without its profile the CMYK file must read like the one with it (libvips falls
  /// back to the same built-in profile).
  @Test(arguments: [
    ("cmyk-icc.jpg", "coffee.jpg", 36.0), ("cmyk-noicc.jpg", "cmyk-icc.jpg", 4),
    ("lossy.webp", "coffee.jpg", 8), ("photo.heic", "chelsea.png", 8),
    ("photo.avif", "chelsea.png", 8), ("progressive.jpg", "chelsea.png", 8),
  ])
  func coloursMatchTheReference(name: String, reference: String, tolerance: Double) throws {
    let image = try PipelineFixture.decode(PipelineFixture.render(name, shape: .square).bytes)
    let expected = try PipelineFixture.decode(
      PipelineFixture.render(reference, shape: .square).bytes)
    for (x, y) in [(100, 100), (200, 200), (300, 120), (120, 300)] {
      let actual = image.mean(x: x - 16, y: y - 16, width: 32, height: 32)
      let wanted = expected.mean(x: x - 16, y: y - 16, width: 32, height: 32)
      #expect(PipelineFixture.close(actual, wanted, tolerance: tolerance), "\((x, y))")
    }
  }

  @Test func sixteenBitAlphaKeepsItsTransparentHalf() throws {
    // Source 451x300, left 226 columns opaque; the centre square is columns 75...375.
    let image = try PipelineFixture.decode(
      PipelineFixture.render("rgba16.png", shape: .square).bytes)
    let reference = try PipelineFixture.decode(
      PipelineFixture.render("chelsea.png", shape: .square).bytes)
    #expect(image.bands == 4)
    let opaque = image.mean(x: 40, y: 180, width: 40, height: 40)
    #expect(opaque[3] == 255)
    let chelsea = reference.mean(x: 40, y: 180, width: 40, height: 40)
    #expect(PipelineFixture.close(Array(opaque.prefix(3)), chelsea, tolerance: 4))
    #expect(image.mean(x: 300, y: 180, width: 60, height: 40)[3] == 0)
  }

  @Test func greyBecomesNeutralRGB() throws {
    let image = try PipelineFixture.decode(PipelineFixture.render("grey.jpg", shape: .poster).bytes)
    #expect(image.bands == 3)
    let mean = image.mean(x: 100, y: 200, width: 100, height: 100)
    #expect(abs(mean[0] - mean[1]) < 2 && abs(mean[1] - mean[2]) < 2)
  }

  @Test func greyAlphaKeepsItsTransparentHalf() throws {
    let image = try PipelineFixture.decode(
      PipelineFixture.render("grey-alpha.png", shape: .square).bytes)
    #expect(image.bands == 4)
    let top = image.mean(x: 150, y: 40, width: 100, height: 100)
    #expect(top[3] == 255 && abs(top[0] - top[1]) < 2 && abs(top[1] - top[2]) < 2)
    #expect(image.mean(x: 150, y: 260, width: 100, height: 100)[3] == 0)
  }

  @Test func paletteTransparencySurvives() throws {
    let image = try PipelineFixture.decode(
      PipelineFixture.render("palette-transparent.png", shape: .circle).bytes)
    #expect(
      PipelineFixture.close(
        image.mean(x: 180, y: 180, width: 40, height: 40), [255, 128, 0, 255], tolerance: 3))
    #expect(image.pixel(x: 2, y: 2)[3] == 0)
  }

  @Test func losslessWebPAlphaSurvives() throws {
    let result = try PipelineFixture.render("lossless-alpha.webp", shape: .square)
    let image = try PipelineFixture.decode(result.bytes)
    #expect(result.format == .png)
    #expect(image.mean(x: 180, y: 180, width: 40, height: 40)[3] == 255)
    #expect(image.pixel(x: 3, y: 3)[3] == 0)
  }

  @Test func tinySourcesAreScaledUpToTheExactSize() throws {
    let result = try PipelineFixture.render("tiny-rgba.png", shape: .poster, size: 1200)
    #expect(result.width == 1200 && result.height == 1800)
  }

  @Test(arguments: [("noise-alpha.png", StoredFormat.png), ("photo-large.jpg", .jpeg)])
  func worstCasesStayWithinTwoMegabytes(name: String, format: StoredFormat) throws {
    let result = try PipelineFixture.render(name, shape: .poster, size: 1200, crop: .attention)
    #expect(result.format == format)
    #expect(result.bytes.count <= 2_000_000)
    #expect(result.width == 1200 && result.height == 1800)
  }

  @Test func smallerBudgetsLowerQualityNotSize() throws {
    let limits = ImageLimits(maxOutputBytes: 40_000)
    for name in ["noise-alpha.png", "photo-large.jpg"] {
      let result = try PipelineFixture.render(name, shape: .square, size: 400, limits: limits)
      #expect(result.bytes.count <= 40_000)
      #expect(result.width == 400 && result.height == 400)
      let image = try PipelineFixture.decode(result.bytes)
      #expect(image.width == 400 && image.height == 400)
    }
  }

  @Test func jpegOutputIsBaselineWithoutMetadata() throws {
    let result = try PipelineFixture.render("rocket.jpg", shape: .square)
    // Outside marker segments a 0xFF byte is always stuffed (followed by 0x00), so scanning all
    // byte pairs finds exactly the markers.
    let markers = Set(
      zip(result.bytes, result.bytes.dropFirst()).filter { $0.0 == 0xFF }.map { $0.1 })
    #expect(!markers.contains(0xE1) && !markers.contains(0xE2))  // no EXIF/XMP, no ICC
    // Baseline, not progressive: it decodes faster, on the phone and for the ThumbHash, for a
    // few percent more bytes (bench/encode).
    #expect(markers.contains(0xC0) && !markers.contains(0xC2))
  }

  @Test func pngOutputHasNoMetadataChunks() throws {
    let result = try PipelineFixture.render("chelsea.png", shape: .square)
    let transparent = try PipelineFixture.render("rgba16.png", shape: .square)
    #expect(result.format == .jpeg)
    let text = String(decoding: transparent.bytes, as: UTF8.self)
    for chunk in ["iCCP", "eXIf", "tEXt", "iTXt", "zTXt"] { #expect(!text.contains(chunk)) }
  }
}
