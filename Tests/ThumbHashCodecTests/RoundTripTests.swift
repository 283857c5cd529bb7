import Testing
import ThumbHashCodec

/// Properties that hold for any image, independent of the reference vectors.
@Suite struct RoundTripTests {
  static let colors: [[UInt8]] = [
    [0, 0, 0, 255], [255, 255, 255, 255], [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255],
    [128, 64, 200, 255], [13, 200, 150, 255], [250, 240, 10, 255], [90, 90, 90, 128],
  ]

  @Test(arguments: colors)
  func solidColorDecodesToThatColor(color: [UInt8]) throws {
    let (width, height) = (37, 23)
    let rgba = (0..<width * height).flatMap { _ in color }
    let hash = try ThumbHash.encode(width: width, height: height, rgba: rgba)
    let average = try ThumbHash.averageColor(hash)
    let channels = [average.red, average.green, average.blue, average.alpha]
    // Quantisation: L in 63 steps, P and Q in 31.5, alpha in 15 (up to 255 / 30 = 8.5 off).
    for (index, channel) in channels.enumerated() {
      let tolerance = index == 3 ? 8.5 : 6
      #expect(Swift.abs(channel * 255 - Double(color[index])) <= tolerance, "channel \(index)")
    }
    let image = try ThumbHash.decode(hash)
    for pixel in stride(from: 0, to: image.rgba.count, by: 4) {
      for channel in 0..<4 {
        let difference = Int(image.rgba[pixel + channel]) - Int(color[channel])
        #expect(Swift.abs(difference) <= (channel == 3 ? 9 : 8))
      }
    }
  }

  @Test(arguments: [
    (100, 100), (100, 50), (50, 100), (100, 14), (14, 100), (1, 1), (3, 2), (2, 3), (100, 1),
    (1, 100), (70, 100), (100, 70),
  ])
  func aspectRatioSurvivesWithinQuantisation(width: Int, height: Int) throws {
    var rng = SplitMix64(seed: UInt64(width * 1000 + height))
    for alpha in [false, true] {
      let rgba = (0..<width * height * 4).map { index in
        index % 4 == 3
          ? (alpha ? UInt8.random(in: 0...254, using: &rng) : 255)
          : UInt8.random(in: 0...255, using: &rng)
      }
      let hash = try ThumbHash.encode(width: width, height: height, rgba: rgba)
      let ratio = try ThumbHash.approximateAspectRatio(hash)
      let actual = Double(width) / Double(height)
      // The ratio is stored as term counts out of 7 (5 with alpha) along the longer side, and
      // at least 1 term along the shorter one.
      let steps = alpha ? 5.0 : 7.0
      let shortSide = Double(Swift.min(width, height))
      let longSide = Double(Swift.max(width, height))
      let shorter = Swift.max(1, (steps * shortSide / longSide).rounded()) / steps
      let expected = actual >= 1 ? 1 / shorter : shorter
      #expect(Swift.abs(ratio - expected) < 1e-12, "\(width)x\(height) alpha \(alpha)")
      let image = try ThumbHash.decode(hash)
      #expect(Swift.max(image.width, image.height) == 32)
      let decodedRatio = Double(image.width) / Double(image.height)
      #expect(Swift.abs(decodedRatio - ratio) / ratio < 0.15)
    }
  }

  @Test func encodingIsDeterministicAndImageValueAgrees() throws {
    var rng = SplitMix64(seed: 99)
    let rgba = (0..<40 * 30 * 4).map { _ in UInt8.random(in: 0...255, using: &rng) }
    let first = try ThumbHash.encode(width: 40, height: 30, rgba: rgba)
    let image = try ThumbHashImage(width: 40, height: 30, rgba: rgba)
    #expect(ThumbHash.encode(image) == first)
    #expect(try ThumbHash.encode(width: 40, height: 30, rgba: rgba) == first)
  }

  @Test func fullyTransparentImageEncodes() throws {
    let rgba = [UInt8](repeating: 0, count: 10 * 10 * 4)
    let hash = try ThumbHash.encode(width: 10, height: 10, rgba: rgba)
    #expect(try ThumbHash.averageColor(hash).alpha == 0)
    _ = try ThumbHash.decode(hash)
  }

  @Test func base64ConvenienceMatchesBytes() throws {
    let string = "YSgGGwxMX5H65zV3n49W2Ag="
    #expect(
      try ThumbHash.decode(base64: string) == ThumbHash.decode(ThumbHashBase64.decode(string)))
  }
}
