import ArtworkCore
import JPEGDecoding
import JPEGEncoding
import Testing

@Suite struct JPEGEncoderTests {
  /// A smooth 96x64 picture: each channel a ramp of its own, so every block has detail.
  static func ramp(width: Int = 96, height: Int = 64) -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
      for x in 0..<width {
        let at = (y * width + x) * 3
        pixels[at] = UInt8(x * 255 / (width - 1))
        pixels[at + 1] = UInt8(y * 255 / (height - 1))
        pixels[at + 2] = UInt8((x + y) * 255 / (width + height - 2))
      }
    }
    return pixels
  }

  /// Noise from a fixed seed: what quality changes most.
  static func noise(width: Int, height: Int) -> [UInt8] {
    var state: UInt32 = 0x9E37_79B9
    return (0..<width * height * 3).map { _ in
      state ^= state << 13
      state ^= state >> 17
      state ^= state << 5
      return UInt8(truncatingIfNeeded: state)
    }
  }

  /// The markers of a JPEG up to its scan, and the frame's sampling factors (one byte each,
  /// horizontal in the high nibble).
  static func layout(_ jpeg: [UInt8]) -> (markers: [UInt8], sampling: [UInt8]) {
    var markers: [UInt8] = []
    var sampling: [UInt8] = []
    var at = 2
    while at + 4 <= jpeg.count, jpeg[at] == 0xFF {
      let marker = jpeg[at + 1]
      markers.append(marker)
      let length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
      if marker == 0xC0 {
        let components = Int(jpeg[at + 9])
        for index in 0..<components { sampling.append(jpeg[at + 10 + index * 3 + 1]) }
      }
      if marker == 0xDA { break }
      at += 2 + length
    }
    return (markers, sampling)
  }

  @Test func aPictureComesBackAsItWent() throws {
    let pixels = Self.ramp()
    let jpeg = try JPEGEncoder.rgb(pixels, width: 96, height: 64, quality: 95)
    let decoded = try JPEGDecoder.rgb(
      PinnedBytes(copying: jpeg), eighths: 8, crop: (0, 0, 96, 64))
    #expect(decoded.count == pixels.count)
    let error = zip(decoded, pixels).map { abs(Int($0) - Int($1)) }
    #expect(error.max()! <= 8)
    #expect(Double(error.reduce(0, +)) / Double(error.count) < 1.5)
  }

  @Test func writesABaselineFrameAndNothingElse() throws {
    let jpeg = try JPEGEncoder.rgb(Self.ramp(), width: 96, height: 64, quality: 80)
    #expect(jpeg.prefix(2) == [0xFF, 0xD8] && jpeg.suffix(2) == [0xFF, 0xD9])
    let (markers, _) = Self.layout(jpeg)
    // The tables, a baseline frame and one scan: no JFIF, no EXIF, no ICC, no comment.
    #expect(markers.first == 0xDB)
    #expect(markers.contains(0xC0) && markers.last == 0xDA)
    #expect(markers.allSatisfy { [0xDB, 0xC0, 0xC4, 0xDA].contains($0) })
    #expect(markers.filter { $0 == 0xDA }.count == 1)
  }

  @Test func halvesTheChromaBelowQuality90() throws {
    let pixels = Self.ramp()
    let at80 = try JPEGEncoder.rgb(pixels, width: 96, height: 64, quality: 80)
    let at90 = try JPEGEncoder.rgb(pixels, width: 96, height: 64, quality: 90)
    #expect(Self.layout(at80).sampling == [0x22, 0x11, 0x11])
    #expect(Self.layout(at90).sampling == [0x11, 0x11, 0x11])
  }

  @Test func aLowerQualityWritesFewerBytes() throws {
    let pixels = Self.noise(width: 128, height: 128)
    let sizes = try [90, 70, 40, 10].map {
      try JPEGEncoder.rgb(pixels, width: 128, height: 128, quality: $0).count
    }
    #expect(sizes == sizes.sorted(by: >))
    #expect(Set(sizes).count == 4)
  }

  @Test func oddSidesAndOnePixelEncode() throws {
    for (width, height) in [(1, 1), (7, 3), (17, 33)] {
      let pixels = Self.noise(width: width, height: height)
      let jpeg = try JPEGEncoder.rgb(pixels, width: width, height: height, quality: 80)
      let header = try #require(JPEGDecoder.header(PinnedBytes(copying: jpeg)))
      #expect(header.width == width && header.height == height)
    }
  }

  @Test(arguments: [
    (12, 4, 4, 80), (0, 0, 0, 80), (3, 1, 1, 0), (3, 1, 1, 101), (0, 65_501, 1, 80),
    (6, -1, -2, 80),
  ])
  func refusesWhatIsNotAPicture(count: Int, width: Int, height: Int, quality: Int) {
    #expect(throws: JPEGEncoder.Failure.self) {
      try JPEGEncoder.rgb(
        [UInt8](repeating: 7, count: count), width: width, height: height, quality: quality)
    }
  }
}
