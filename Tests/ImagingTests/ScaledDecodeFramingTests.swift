import TestSupport
import Testing

@testable import ArtworkCore
@testable import Imaging
@testable import JPEGDecoding

/// Opaque still JPEG and WebP are framed from their own libraries' scaled decodes
/// (`ImagePipeline.scaledDecode`: libjpeg-turbo, libwebp); the rest goes through libvips.
@Suite struct ScaledDecodeFramingTests {
  static func frame(
    _ bytes: [UInt8], format: ImageFormat = .webp, shape: Shape, size: Int, crop: CropMode
  ) throws -> FramedPicture? {
    Vips.initialize()
    let options = ArtworkOptions(shape: shape, size: size, crop: crop)
    let source = try VipsSource(copying: bytes)
    let info = try ImagePipeline.readHeader(
      source, format: format, byteCount: bytes.count, limits: .standard)
    let output = PixelSize(width: options.outputSize.width, height: options.outputSize.height)
    guard
      let decode = ImagePipeline.scaledDecode(
        PinnedBytes(copying: bytes), info: info, output: output)
    else {
      return nil
    }
    return try ImagePipeline.frame(
      decode, output: output, crop: crop, deadline: Deadline(secondsFromNow: 60))
  }

  /// `bytes` framed through the general path, from a PNG of libvips' full decode.
  static func general(_ bytes: [UInt8], output: PixelSize, crop: CropMode) throws
    -> FramedPicture
  {
    let decoded = try PipelineFixture.decode(bytes)
    let png = try VipsImage.srgb(
      decoded.pixels, width: decoded.width, height: decoded.height, bands: decoded.bands
    ).png(nil)
    let source = try VipsSource(copying: png)
    let info = try ImagePipeline.readHeader(
      source, format: .png, byteCount: png.count, limits: .standard)
    return try ImagePipeline.framed(
      source, info: info, output: output, crop: crop, deadline: Deadline(secondsFromNow: 60))
  }

  /// The mean difference of two framed pictures, in codes.
  static func meanDifference(_ a: FramedPicture, _ b: FramedPicture) throws -> Int {
    let x = try DecodedImage(a.image, forceAlpha: false).pixels
    let y = try DecodedImage(b.image, forceAlpha: false).pixels
    #expect(x.count == y.count)
    return zip(x, y).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / max(1, x.count)
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
    let general = try Self.general(bytes, output: PixelSize(width: 200, height: 200), crop: .centre)
    #expect(general.region == direct.region)
    let difference = try Self.meanDifference(direct, general)
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

  // MARK: - JPEG

  /// A JPEG's crop is cut from libjpeg's decode at a scale of eighths: rows below the crop are
  /// never decoded, rows above skipped, and columns outside it left out where the block grid
  /// allows; the picture is the general path's within a code, the region the same.
  @Test(arguments: [
    // 600x400 to a 200 px square: 6/8 (450x300) keeps 1.5x over the 300x200 cover; the crop
    // starts at x = 75, off the 12-column iMCU grid of 4:2:0 chroma at that scale.
    ("coffee.jpg", Shape.square, 200, 6),
    // A poster (a 450x300 cover) decodes whole: a crop of 267 columns at x = 166.
    ("coffee.jpg", .poster, 200, 8),
    // 2000x1744 to a 300 px square: 3/8 (750x654, 2.2x over), rows from 0, columns from 48.
    ("photo-large.jpg", .square, 300, 3),
    // To a 200x300 poster: 2/8 (500x436) leaves 1.45x, short of 1.5x; 3/8 it is.
    ("photo-large.jpg", .poster, 200, 3),
  ])
  func aJPEGTakesLibjpegsScaledDecode(name: String, shape: Shape, size: Int, eighths: Int) throws {
    let bytes = Fixtures.bytes(name)
    let direct = try #require(
      try Self.frame(bytes, format: .jpeg, shape: shape, size: size, crop: .centre))
    #expect(direct.eighths == eighths)
    let output = PixelSize(width: direct.image.width, height: direct.image.height)
    #expect(output.width == size)
    let general = try Self.general(bytes, output: output, crop: .centre)
    let region = try #require(direct.region)
    let expected = try #require(general.region)
    // The same region, to a pixel of the scaled picture.
    let pixel = 8 / Double(eighths)
    for (a, b) in [(region.x, expected.x), (region.y, expected.y), (region.width, expected.width)] {
      #expect(abs(a - b) <= pixel, "\(region) against \(expected)")
    }
    let difference = try Self.meanDifference(direct, general)
    #expect(difference <= 1, "\(name) \(shape) \(size): mean difference \(difference)")
  }

  /// A portrait's square crop starts below the top: libjpeg skips the rows above it.
  @Test func aCropBelowTheTopSkipsTheRowsAbove() throws {
    Vips.initialize()
    // orientation-6.jpg's pixels as stored (200x300), in a JPEG with no orientation tag.
    let stored = try DecodedImage(
      try VipsSource(copying: Fixtures.bytes("orientation-6.jpg")).open(), forceAlpha: false)
    let portrait = try VipsImage.srgb(
      stored.pixels, width: stored.width, height: stored.height, bands: stored.bands
    ).jpeg(quality: 95)
    let direct = try #require(
      try Self.frame(portrait, format: .jpeg, shape: .square, size: 100, crop: .centre))
    // 6/8 (150x225) is the first scale with 1.3x over the 100x150 cover.
    #expect(direct.eighths == 6)
    let region = try #require(direct.region)
    #expect(region.x == 0 && region.width == 200 && abs(region.y - 50) < 1, "\(region)")
    let general = try Self.general(
      portrait, output: PixelSize(width: 100, height: 100), crop: .centre)
    #expect(general.region == FramedPicture.Region(x: 0, y: 50, width: 200, height: 200))
    #expect(try Self.meanDifference(direct, general) <= 1)
  }

  @Test(arguments: ["cmyk-noicc.jpg", "cmyk-icc.jpg", "orientation-6.jpg"])
  func cmykAndTurnedJPEGsGoThroughLibvips(name: String) throws {
    #expect(
      try Self.frame(
        Fixtures.bytes(name), format: .jpeg, shape: .square, size: 200, crop: .centre) == nil)
  }

  /// A JPEG that libjpeg only warns about for stray bytes between two header segments (as some
  /// encoders and editors leave) is whole: libjpeg frames it exactly as it frames the clean file.
  @Test func strayBytesBetweenHeaderSegmentsAreHarmless() throws {
    let clean = Fixtures.bytes("coffee.jpg")
    // Four stray bytes before the start of scan: walk the marker segments to it.
    var scan = 2
    while clean[scan] == 0xFF, clean[scan + 1] != 0xDA {
      scan += 2 + Int(clean[scan + 2]) << 8 + Int(clean[scan + 3])
    }
    try #require(clean[scan] == 0xFF && clean[scan + 1] == 0xDA)
    let stray = Array(clean[..<scan]) + [0, 1, 2, 3] + Array(clean[scan...])
    #expect(JPEGDecoder.header(PinnedBytes(copying: stray))?.isSupported == true)
    #expect(JPEGDecoder.header(PinnedBytes(copying: clean))?.isSupported == true)
    let options = ArtworkOptions(shape: .square, size: 200, crop: .centre)
    let framed = try ImagePipeline.render(stray, options: options, limits: ImageLimits())
    let reference = try ImagePipeline.render(clean, options: options, limits: ImageLimits())
    #expect(framed.width == 200 && framed.height == 200)
    let a = try PipelineFixture.decode(framed.bytes).pixels
    let b = try PipelineFixture.decode(reference.bytes).pixels
    #expect(a.count == b.count)
    let difference = zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / max(1, a.count)
    #expect(difference == 0, "mean difference \(difference)")
  }

  /// A damaged JPEG fails libjpeg's decode, and the pipeline's: a 422, never a second decoder
  /// (`ImagePipelineDamageTests` checks every kind of damage).
  @Test func aDamagedJPEGFailsLibjpegsDecode() throws {
    let bytes = Fixtures.bytes("truncated.jpg")
    #expect(JPEGDecoder.header(PinnedBytes(copying: bytes))?.isSupported == true)
    #expect(throws: ArtworkError.self) {
      _ = try Self.frame(bytes, format: .jpeg, shape: .square, size: 200, crop: .centre)
    }
    #expect(throws: JPEGDecoder.Failure.self) {
      _ = try JPEGDecoder.rgb(PinnedBytes(copying: bytes), eighths: 8, crop: (0, 0, 600, 400))
    }
  }

  /// The ThumbHash's pixels of a JPEG come from libjpeg at a small scale (coffee.jpg's 100x67
  /// from 3/8, 225x150), resampled in linear light: within a couple of codes of libvips'
  /// thumbnail of the same picture (from a PNG, which libvips decodes), and the same size.
  @Test func aJPEGsThumbnailComesFromLibjpeg() throws {
    Vips.initialize()
    let bytes = Fixtures.bytes("coffee.jpg")
    let source = try VipsSource(copying: bytes)
    let info = try ImagePipeline.readHeader(
      source, format: .jpeg, byteCount: bytes.count, limits: .standard)
    let output = PixelSize(width: 100, height: 67)
    #expect(
      ImagePipeline.scaledDecode(PinnedBytes(copying: bytes), info: info, output: output)?.eighths
        == 3)
    let direct = try ImagePipeline.thumbnailPixels(bytes, limits: .standard).pixels
    let decoded = try PipelineFixture.decode(bytes)
    let png = try VipsImage.srgb(
      decoded.pixels, width: decoded.width, height: decoded.height, bands: decoded.bands
    ).png(nil)
    let general = try ImagePipeline.thumbnailPixels(png, limits: .standard).pixels
    #expect(direct.width == 100 && direct.height == 67)
    #expect(general.width == direct.width && general.height == direct.height)
    let difference =
      zip(direct.rgba, general.rgba).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
      / direct.rgba.count
    #expect(difference <= 2, "mean difference \(difference)")
    #expect(stride(from: 3, to: direct.rgba.count, by: 4).allSatisfy { direct.rgba[$0] == 255 })
  }
}
