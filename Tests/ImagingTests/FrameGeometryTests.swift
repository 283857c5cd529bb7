import Testing

@testable import ArtworkCore
@testable import Imaging

@Suite struct FrameGeometryTests {
  static func size(_ width: Int, _ height: Int) -> PixelSize {
    PixelSize(width: width, height: height)
  }

  @Test(
    arguments: [
      (size(6000, 4000), nil),
      (size(8000, 5000), nil),  // exactly 40,000,000
      (
        size(8001, 5000),
        "The image is 8001x5000 pixels, which is over the 40000000-pixel limit (ARTWORK_MAX_PIXELS)."
      ),
      (
        size(20000, 20000),
        "The image is 20000x20000 pixels, which is over the 40000000-pixel limit (ARTWORK_MAX_PIXELS)."
      ),
      (size(100_000, 1), nil),
      (
        size(100_001, 1), "The image is 100001x1 pixels: a side over 100000 pixels is not accepted."
      ),
      (size(0, 10), "The image header declares 0x10 pixels: there is nothing to show."),
      (
        size(Int.max, Int.max),
        "The image is \(Int.max)x\(Int.max) pixels: a side over 100000 pixels is not accepted."
      ),
    ] as [(PixelSize, String?)])
  func sizeProblems(source: PixelSize, problem: String?) {
    #expect(FrameGeometry.sizeProblem(source, limits: ImageLimits()) == problem)
  }

  @Test func sizeProblemSurvivesOverflowWithHugeSideLimit() {
    let limits = ImageLimits(maxPixels: 40_000_000, maxSide: Int.max)
    #expect(FrameGeometry.sizeProblem(Self.size(Int.max, 3), limits: limits) != nil)
  }

  @Test(arguments: [
    (size(600, 400), size(400, 400), size(600, 400)),
    (size(400, 600), size(400, 400), size(400, 600)),
    (size(6000, 4000), size(400, 400), size(600, 400)),
    (size(6000, 4000), size(400, 600), size(900, 600)),
    (size(4000, 6000), size(400, 600), size(400, 600)),
    (size(7, 5), size(1200, 1800), size(2520, 1800)),
    (size(1, 1), size(64, 64), size(64, 64)),
    (size(451, 300), size(401, 401), size(603, 401)),  // 602.85 rounds up: the box stays covered
    (size(40000, 1), size(400, 400), size(16_000_000, 400)),
  ])
  func coverSizes(source: PixelSize, output: PixelSize, cover: PixelSize) {
    #expect(FrameGeometry.coverSize(source: source, output: output) == cover)
  }

  /// libvips' thumbnail scales a whole picture only when that makes at most four times the
  /// output's pixels; stranger shapes are cropped first.
  @Test(arguments: [
    (size(40000, 1), size(400, 400), true),  // a 16000000x400 cover
    (size(1, 40000), size(1200, 1800), true),
    (size(20000, 200), size(1200, 1800), true),  // 180000x1800
    (size(65535, 1), size(400, 600), true),
    (size(6000, 4000), size(1200, 1800), false),  // 2700x1800: 2.25 times
    (size(100, 2000), size(1200, 1800), true),  // 1200x24000: 13.3 times
    (size(2000, 3000), size(400, 600), false),  // the output's own shape
    (size(1000, 200), size(400, 400), true),  // 2000x400: 5 times
    (size(800, 200), size(400, 400), false),  // 1600x400: exactly 4 times
    (size(120, 80), size(401, 401), false),
  ])
  func thumbnailsCropFirstOnlyForStrangeShapes(
    source: PixelSize, output: PixelSize, cropsFirst: Bool
  ) {
    #expect(FrameGeometry.cropsBeforeThumbnail(source: source, output: output) == cropsFirst)
  }

  @Test(arguments: [
    (size(7, 5), size(7, 5)),
    (size(100, 100), size(100, 100)),
    (size(100, 1), size(100, 1)),
    (size(101, 100), size(100, 99)),
    (size(400, 400), size(100, 100)),
    (size(400, 600), size(67, 100)),
    (size(600, 400), size(100, 67)),
    (size(451, 300), size(100, 67)),
    (size(120, 80), size(100, 67)),
    (size(10000, 1), size(100, 1)),
    (size(1, 10000), size(1, 100)),
  ])
  func thumbnailSizes(source: PixelSize, thumbnail: PixelSize) {
    #expect(FrameGeometry.thumbnailSize(source: source) == thumbnail)
  }

  @Test(arguments: StoredFormat.allCases)
  func encodeLaddersOnlyLowerQuality(format: StoredFormat) {
    let attempts = EncodePlan.attempts(for: format)
    #expect(!attempts.isEmpty)
    for case (.jpeg(let a), .jpeg(let b)) in zip(attempts, attempts.dropFirst()) { #expect(a > b) }
    let palettes = attempts.compactMap { attempt -> PNGPalette? in
      if case .png(let palette) = attempt { return palette }
      return nil
    }
    for (a, b) in zip(palettes, palettes.dropFirst()) { #expect(a.bitDepth >= b.bitDepth) }
    // The last resort fits the largest output whatever the content.
    switch attempts.last {
    case .jpeg(let quality): #expect(quality <= 10)
    case .png(let palette): #expect(palette?.bitDepth == 1 && 1200 * 1800 / 8 < 2_000_000 / 2)
    case nil: Issue.record("no attempts")
    }
  }

  @Test(arguments: [
    // A 2000x3000 poster to 400x600: 3/8 is 750x1125, 1.88x over; 2/8 (500x750) would be 1.25x.
    (size(2000, 3000), size(400, 600), 3),
    // A 2964x2000 photo to a poster: the 400x600 cover is 889x600; 4/8 is 1482x1000 (1.67x),
    // 3/8 1112x750 (1.25x).
    (size(2964, 2000), size(400, 600), 4),
    // The same photo to a 400 px square (a 593x400 cover): 2/8 is 741x500, 1.25x, short of the
    // 1.5x the coarse scales need; 3/8 is 1.88x.
    (size(2964, 2000), size(400, 400), 3),
    // 2/8 with 1.5x to spare (600x600 from 400x400 is exactly 1.5x), and 1/8 with 2x.
    (size(2400, 2400), size(400, 400), 2),
    (size(8000, 8000), size(500, 500), 1),
    // Small pictures decode whole, and pictures smaller than the output too.
    (size(600, 400), size(400, 400), 8),
    (size(300, 200), size(400, 600), 8),
  ])
  func jpegScalesKeepTheirMargin(source: PixelSize, output: PixelSize, eighths: Int) {
    #expect(FrameGeometry.jpegEighths(source: source, output: output) == eighths)
  }

  @Test(arguments: [
    // A 1000x872 thumbnail: a 200 px square needs a 229x200 cover, 4.4x over; a 400x600 poster
    // a 688x600 cover, 1.45x (enough for a shrunk decode, not for a thumbnail).
    (size(1000, 872), size(200, 200), true),
    (size(1000, 872), size(400, 600), false),
    (size(1200, 1800), size(400, 600), true),
    (size(1199, 1798), size(400, 600), false),
  ])
  func thumbnailsMustCoverThreeTimesOver(thumbnail: PixelSize, output: PixelSize, covers: Bool) {
    #expect(FrameGeometry.thumbnailCovers(thumbnail, output: output) == covers)
  }
}

@Suite struct EncodePlanTests {
  static let palette8 = EncodeAttempt.png(
    PNGPalette(quality: 90, bitDepth: 8, dither: 1, effort: 4))
  static let palette4 = EncodeAttempt.png(
    PNGPalette(quality: 50, bitDepth: 4, dither: 0, effort: 1))

  @Test(arguments: [
    // Noise: truecolour 8.57 MB predicts 2.14 MB at 8 bits, over 2 MB: skip to 4 bits.
    (palette8, EncodeAttempt.png(nil), 8_566_837, false),
    (palette4, EncodeAttempt.png(nil), 8_566_837, true),
    // A photo with alpha: 5 MB truecolour predicts 1.25 MB at 8 bits: worth it.
    (palette8, EncodeAttempt.png(nil), 5_000_000, true),
    (palette4, palette8, 4_100_000, false),
    (EncodeAttempt.jpeg(quality: 70), EncodeAttempt.jpeg(quality: 80), 9_000_000, true),
  ])
  func skipsRungsThatCannotFit(
    attempt: EncodeAttempt, previous: EncodeAttempt, bytes: Int, worth: Bool
  ) {
    #expect(
      EncodePlan.worthTrying(attempt, after: previous, previousBytes: bytes, limit: 2_000_000)
        == worth)
  }
}
