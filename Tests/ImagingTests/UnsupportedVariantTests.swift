import TestSupport
import Testing

@testable import ArtworkCore
@testable import Imaging

/// Variants of the accepted formats that the decoders do not read are told from their header
/// bytes (`UnsupportedVariant`), before any decoder sees them, and answered with a 415 that
/// names them; the variants the decoders do read pass.
@Suite struct UnsupportedVariantTests {
  /// Each variant, made from a committed image by patching its header, and what names it.
  static let variants: [(String, [UInt8], String, String)] = [
    ("12-bit", ImageVariants.jpeg(precision: 12), "jpeg-12-bit", "12-bit JPEG is not supported"),
    ("16-bit", ImageVariants.jpeg(precision: 16), "jpeg-16-bit", "16-bit JPEG is not supported"),
    ("SOF3", ImageVariants.jpeg(marker: 0xC3), "jpeg-lossless", "Lossless JPEG (SOF3)"),
    ("SOF11", ImageVariants.jpeg(marker: 0xCB), "jpeg-lossless", "Lossless JPEG (SOF11)"),
    ("SOF5", ImageVariants.jpeg(marker: 0xC5), "jpeg-hierarchical", "Hierarchical JPEG (SOF5)"),
    ("SOF14", ImageVariants.jpeg(marker: 0xCE), "jpeg-hierarchical", "Hierarchical JPEG (SOF14)"),
    (
      "3x1 with 2x1", ImageVariants.jpeg(sampling: [0x31, 0x21, 0x11]),
      "jpeg-fractional-sampling", "sampled at fractional ratios (3x1, 2x1, 1x1)"
    ),
    ("VVC tile", ImageVariants.heif(itemType: "vvc1"), "heif-vvc1", "coded with VVC (H.266)"),
    (
      "VVC primary", ImageVariants.heif(itemType: "vvc1", from: "grid"), "heif-vvc1",
      "coded with VVC (H.266)"
    ),
    ("JPEG in HEIF", ImageVariants.heif(itemType: "jpeg"), "heif-jpeg", "coded with JPEG"),
    ("uncompressed", ImageVariants.heif(itemType: "unci"), "heif-unci", "stored uncompressed"),
    ("sequence", ImageVariants.heifSequence(), "heif-sequence", "sequence without a still"),
  ]

  static func find(_ bytes: [UInt8]) -> UnsupportedVariant? {
    bytes.withUnsafeBytes { UnsupportedVariant.find($0) }
  }

  @Test(arguments: variants)
  func aVariantIsNamedFromItsHeader(variant: (String, [UInt8], String, String)) throws {
    let (name, bytes, code, words) = variant
    let found = try #require(Self.find(bytes), "\(name)")
    #expect(found.code == code)
    #expect(found.detail.contains(words), "\(found.detail)")
    #expect(found.detail.hasSuffix("."))
    #expect(found.error.kind == .unsupportedMediaType)
  }

  /// Every entry point answers it with that 415, before any decoder: the pipeline's render and
  /// ThumbHash (in a worker), and what reached the decoders before (a corrupt header, a 422).
  @Test(arguments: variants)
  func thePipelineAnswers415NamingIt(variant: (String, [UInt8], String, String)) {
    let (name, bytes, _, words) = variant
    for shape in [Shape.square, .poster] {
      let error = PipelineFixture.error {
        _ = try ImagePipeline.render(bytes, options: ArtworkOptions(shape: shape))
      }
      #expect(error?.kind == .unsupportedMediaType, "\(name): \(String(describing: error))")
      #expect(error?.detail.contains(words) == true, "\(name)")
    }
    let thumbnail = PipelineFixture.error { _ = try ImagePipeline.thumbnailPixels(bytes) }
    #expect(thumbnail?.kind == .unsupportedMediaType, "\(name)")
  }

  /// Without the header check the decoders refuse each of them as damage: the libjpeg and
  /// libheif messages the 415 replaces.
  @Test(arguments: variants)
  func theDecodersRefuseThemAsDamage(variant: (String, [UInt8], String, String)) {
    let (name, bytes, _, _) = variant
    let error = PipelineFixture.error {
      let format = try ImagePipeline.sniff(bytes)
      let source = try VipsSource(copying: bytes)
      let info = try ImagePipeline.readHeader(
        source, format: format, byteCount: bytes.count, limits: .standard)
      _ = try ImagePipeline.frame(
        source, info: info, output: PixelSize(width: 64, height: 64), crop: .centre,
        deadline: Deadline(secondsFromNow: 60))
    }
    #expect(error?.kind == .unprocessableImage, "\(name): \(String(describing: error))")
  }

  /// What the decoders read passes the check and frames: every committed image, and the
  /// variants that look unusual but decode (arithmetic coding, an animated WebP, a 10-bit HEIC,
  /// 16-bit PNG, CMYK and 2-4 component JPEGs, a progressive JPEG, a HEIC with a grid or not).
  @Test(arguments: [
    "coffee.jpg", "rocket.jpg", "progressive.jpg", "cmyk-icc.jpg", "cmyk-noicc.jpg",
    "grey.jpg", "orientation-6.jpg", "rgba16.png", "animated.gif", "lossy.webp",
    "lossless-alpha.webp", "photo.heic", "photo.avif", "hostile/arithmetic.jpg",
    "hostile/animated.webp", "hostile/10-bit.heic", "hostile/components-2.jpg",
    "hostile/components-4.jpg",
  ])
  func whatTheDecodersReadPasses(name: String) throws {
    let bytes = Fixtures.bytes(name)
    #expect(Self.find(bytes) == nil, "\(name): \(String(describing: Self.find(bytes)))")
    let result = try PipelineFixture.render(name, shape: .square, size: 64)
    #expect(result.width == 64 && result.height == 64)
  }

  @Test func theFrameHeaderIsReadFromTheMarkers() throws {
    let header = try #require(
      Fixtures.bytes("coffee.jpg").withUnsafeBytes { JPEGFrameHeader.read($0) })
    #expect(header.marker == 0xC0 && header.precision == 8)
    #expect(header.width == 600 && header.height == 400)
    #expect(header.components.count == 3)
    let progressive = try #require(
      Fixtures.bytes("progressive.jpg").withUnsafeBytes { JPEGFrameHeader.read($0) })
    #expect(progressive.marker == 0xC2)
    // Stray bytes before a segment are passed over, as libjpeg does.
    let stray = try #require(
      Fixtures.bytes("hostile/stray-before-scan.jpg").withUnsafeBytes { JPEGFrameHeader.read($0) })
    #expect(stray == header)
  }

  @Test func theHEIFPrimaryItemIsReadFromTheBoxes() throws {
    let heic = try #require(
      Fixtures.bytes("photo.heic").withUnsafeBytes { HEIFStructure.read($0) })
    // photo.heic's primary image is a grid of one HEVC tile.
    #expect(
      heic
        == HEIFStructure(
          hasMeta: true, hasMovie: false, primaryItemType: "grid", derivedFrom: ["hvc1"]))
    let avif = try #require(
      Fixtures.bytes("photo.avif").withUnsafeBytes { HEIFStructure.read($0) })
    #expect(avif.primaryItemType == "av01")
    let sequence = try #require(
      ImageVariants.heifSequence().withUnsafeBytes { HEIFStructure.read($0) })
    #expect(sequence == HEIFStructure(hasMeta: false, hasMovie: true, primaryItemType: nil))
  }

  /// The header walks never trap and stay within the data: every prefix of every variant, and
  /// random changes to their first 600 bytes (box sizes, segment lengths, counts, types).
  @Test func damagedHeadersNeverTrap() {
    var random = SeededRandom()
    var named = 0
    for (_, bytes, _, _) in Self.variants {
      for end in stride(from: 0, through: min(bytes.count, 2000), by: 1) {
        if Self.find(Array(bytes.prefix(end))) != nil { named += 1 }
      }
      for _ in 0..<2000 {
        var mutated = bytes
        for _ in 0..<Int.random(in: 1...8, using: &random) {
          let index = Int.random(in: 0..<min(600, mutated.count), using: &random)
          mutated[index] = UInt8.random(in: 0...255, using: &random)
        }
        _ = Self.find(mutated)
      }
    }
    // Cut short, a variant is still named once its header is whole.
    #expect(named > 0, "\(SeededRandom.replay)")
  }
}
