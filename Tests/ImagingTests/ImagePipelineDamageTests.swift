import TestSupport
import Testing

@testable import ArtworkCore
@testable import Imaging

/// Damaged data is a 422 on every decoding path (libjpeg's door for every JPEG, libwebp,
/// libvips), on every job (both crops, the ThumbHash): nothing damaged is framed. And every
/// band layout a file can declare frames to exactly the output, or is refused, never trapped on.
@Suite struct ImagePipelineDamageTests {
  /// Damaged files (see testimages/hostile/make.py), each of a decoder's own kind of damage.
  static let damaged = [
    "hostile/cut-40-with-eoi.jpg", "hostile/cut-80-with-eoi.jpg", "hostile/middle-cut.jpg",
    "hostile/flipped-scan.jpg", "hostile/icc-cut-with-eoi.jpg", "hostile/icc-flipped-scan.jpg",
    "hostile/png-cut-with-iend.png", "hostile/webp-cut.webp", "truncated.jpg",
  ]

  static let options = [
    ArtworkOptions(shape: .poster, size: 200, crop: .attention),
    ArtworkOptions(shape: .square, size: 200, crop: .centre),
    ArtworkOptions(shape: .poster, size: 200, crop: .centre),
  ]

  @Test(arguments: damaged)
  func damagedDataIsA422OnEveryJob(name: String) throws {
    let bytes = Fixtures.bytes(name)
    for options in Self.options {
      let error = PipelineFixture.error {
        _ = try ImagePipeline.render(bytes, options: options)
      }
      #expect(
        error?.kind == .unprocessableImage,
        "\(name) \(options.cacheKey): \(String(describing: error))")
    }
    let hashed = PipelineFixture.error { _ = try ImagePipeline.thumbnailPixels(bytes) }
    #expect(hashed?.kind == .unprocessableImage, "\(name): \(String(describing: hashed))")
  }

  /// Stray bytes between header segments leave the picture whole: framed exactly as the clean
  /// file, on every job.
  @Test func strayBytesBeforeTheScanFrameAsTheCleanFile() throws {
    Vips.initialize()
    for options in Self.options {
      let stray = try ImagePipeline.render(
        Fixtures.bytes("hostile/stray-before-scan.jpg"), options: options)
      let clean = try ImagePipeline.render(Fixtures.bytes("coffee.jpg"), options: options)
      #expect(stray.bytes == clean.bytes)
    }
  }

  /// A GIF cut after its first frame is whole for the service (it frames the first frame).
  @Test func aGIFCutAfterItsFirstFrameFramesThatFrame() throws {
    let framed = try PipelineFixture.render("hostile/gif-cut.gif", shape: .square, size: 64)
    let pixels = try PipelineFixture.decode(framed.bytes)
    #expect(pixels.width == 64 && pixels.height == 64)
    // The first frame is solid red.
    #expect(pixels.pixels[0] > 240 && pixels.pixels[1] < 16 && pixels.pixels[2] < 16)
  }

  /// Every layout: grey, grey and alpha, RGB, RGBA, CMYK with and without a profile, 16 bits,
  /// a palette, and JPEGs of 2, 3 and 4 components in no colour space (the 2-component one
  /// killed the service). Each frames to exactly the output in both crops, or is refused.
  @Test(arguments: [
    "grey.jpg", "grey-alpha.png", "coffee.jpg", "noise-alpha.png", "cmyk-icc.jpg",
    "cmyk-noicc.jpg", "rgba16.png", "palette-transparent.png", "orientation-6.jpg",
    "hostile/components-2.jpg", "hostile/components-3.jpg", "hostile/components-4.jpg",
    "rocket.jpg", "lossless-alpha.webp", "photo.heic",
  ])
  func everyBandLayoutFrames(name: String) throws {
    for options in Self.options {
      let framed = try PipelineFixture.render(
        name, shape: options.shape, size: options.size, crop: options.crop)
      let decoded = try PipelineFixture.decode(framed.bytes)
      #expect(decoded.width == options.outputSize.width, "\(name)")
      #expect(decoded.height == options.outputSize.height, "\(name)")
      #expect(decoded.bands == (framed.format == .png ? 4 : 3), "\(name)")
    }
    let (_, pixels) = try ImagePipeline.thumbnailPixels(Fixtures.bytes(name))
    #expect(pixels.rgba.count == pixels.width * pixels.height * 4)
  }

  /// A JPEG's pixels come from libjpeg whatever its layout; the picture libvips gets carries
  /// the profile and orientation its header declared.
  @Test func aJPEGPictureCarriesItsProfileAndOrientation() throws {
    Vips.initialize()
    let source = try VipsSource(copying: Fixtures.bytes("orientation-6.jpg"))
    let picture = try ImagePipeline.jpegPicture(source, eighths: 8)
    #expect(picture.orientation == 6)
    #expect(picture.width == 200 && picture.height == 300)
    let profiled = try ImagePipeline.jpegPicture(
      try VipsSource(copying: Fixtures.bytes("rocket.jpg")), eighths: 4)
    #expect(profiled.hasICCProfile)
    #expect(profiled.width == 320 && profiled.bands == 3)
    let cmyk = try ImagePipeline.jpegPicture(
      try VipsSource(copying: Fixtures.bytes("cmyk-noicc.jpg")), eighths: 8)
    #expect(cmyk.bands == 4)
  }
}
