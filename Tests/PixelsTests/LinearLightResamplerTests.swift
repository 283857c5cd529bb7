import Glibc
import Testing

@testable import Pixels

/// A packed 8-bit picture handed to the resampler in strips, recording what it was asked for.
final class StripSource {
  let width: Int
  let height: Int
  let channels: Int
  var bytes: [UInt8]
  var asked: [(top: Int, count: Int)] = []

  init(width: Int, height: Int, channels: Int = 3, pixel: (Int, Int, Int) -> UInt8) {
    self.width = width
    self.height = height
    self.channels = channels
    bytes = (0..<height).flatMap { y in
      (0..<width).flatMap { x in (0..<channels).map { pixel(x, y, $0) } }
    }
  }

  func resample(to output: (width: Int, height: Int)) -> [UInt8] {
    let resampler = LinearLightResampler(source: (width, height), output: output)
    return bytes.withUnsafeBufferPointer { buffer in
      resampler.resample(layout: PixelLayout(channels: channels)!) { (top: Int, count: Int) in
        asked.append((top, count))
        return (buffer.baseAddress! + top * width * channels, width * channels)
      }
    }
  }
}

@Suite struct LinearLightResamplerTests {
  @Test(arguments: [(7, 5, 3, 2), (40, 30, 400, 600), (667, 1000, 400, 600), (3, 1000, 1, 7)])
  func aFlatPictureStaysFlatAtEverySize(width: Int, height: Int, outWidth: Int, outHeight: Int) {
    let source = StripSource(width: width, height: height) { _, _, c in [200, 31, 7][c] }
    let out = source.resample(to: (outWidth, outHeight))
    #expect(out.count == outWidth * outHeight * 3)
    for index in stride(from: 0, to: out.count, by: 3) {
      #expect(Array(out[index..<index + 3]) == [200, 31, 7])
      if out[index] != 200 { break }
    }
  }

  @Test func theSameSizeGivesTheSamePixels() {
    let source = StripSource(width: 33, height: 21) { x, y, c in
      UInt8((x * 7 + y * 13 + c * 5) % 256)
    }
    #expect(source.resample(to: (33, 21)) == source.bytes)
  }

  /// Black and white columns halved: the light averages to 0.5, which is sRGB 188. Averaging the
  /// codes instead would give 128, a darker grey than the stripes look from afar.
  @Test func stripesAverageInLinearLight() {
    let source = StripSource(width: 64, height: 8) { x, _, _ in x % 2 == 0 ? 0 : 255 }
    let out = source.resample(to: (32, 8))
    // Away from the edges, where the kernel is whole.
    for x in 4..<28 {
      #expect((187...189).contains(out[(4 * 32 + x) * 3]), "x \(x): \(out[(4 * 32 + x) * 3])")
    }
  }

  @Test func greySourcesGiveRGB() {
    let source = StripSource(width: 10, height: 10, channels: 1) { x, _, _ in UInt8(x * 20) }
    let out = source.resample(to: (10, 10))
    #expect(out.count == 300)
    #expect(out[0..<6] == [0, 0, 0, 20, 20, 20])
  }

  @Test func stripsComeInOrderEachOnce() {
    let source = StripSource(width: 50, height: 203) { x, y, _ in UInt8((x + y) % 256) }
    _ = source.resample(to: (20, 61))
    var next = 0
    for strip in source.asked {
      #expect(strip.top == next)
      #expect(strip.count > 0 && strip.count <= LinearLightResampler.stripRows)
      next = strip.top + strip.count
    }
    #expect(next == 203)
  }

  struct Stop: Error {}

  @Test func aFailingStripStopsTheWork() {
    let resampler = LinearLightResampler(source: (10, 100), output: (5, 50))
    var calls = 0
    let pixels = [UInt8](repeating: 9, count: 10 * 100 * 3)
    #expect(throws: Stop.self) {
      try pixels.withUnsafeBufferPointer { buffer in
        try resampler.resample(layout: .rgb) { (top: Int, _: Int) throws(Stop) in
          calls += 1
          if top >= 32 { throw Stop() }
          return (buffer.baseAddress! + top * 30, 30)
        }
      }
    }
    #expect(calls == 3)
  }

  /// Against a plain two-dimensional Lanczos-3 in double precision, written from the definition:
  /// every sample within one code.
  @Test(arguments: [(61, 47, 23, 31), (40, 40, 67, 53), (90, 30, 90, 12)])
  func matchesTheDefinition(width: Int, height: Int, outWidth: Int, outHeight: Int) {
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    let source = StripSource(width: width, height: height) { x, y, c in
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      // Smooth ramps plus noise: both edges and texture.
      return UInt8(truncatingIfNeeded: (x * 5 + y * 3 + c * 60) % 200 + Int(seed >> 60))
    }
    let out = source.resample(to: (outWidth, outHeight))
    func linear(_ v: UInt8) -> Double {
      let c = Double(v) / 255
      return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    func weights(_ input: Int, _ output: Int, _ o: Int) -> [(Int, Double)] {
      let scale = Double(input) / Double(output)
      let widen = max(1, scale)
      let centre = (Double(o) + 0.5) * scale
      var list: [(Int, Double)] = []
      for i in 0..<input {
        let t = (Double(i) + 0.5 - centre) / widen
        let w =
          t == 0 ? 1 : abs(t) < 3 ? 3 * sin(.pi * t) * sin(.pi * t / 3) / (.pi * .pi * t * t) : 0
        if w != 0 { list.append((i, w)) }
      }
      let total = list.reduce(0) { $0 + $1.1 }
      return list.map { ($0.0, $0.1 / total) }
    }
    var worst = 0
    for oy in 0..<outHeight {
      let wy = weights(height, outHeight, oy)
      for ox in 0..<outWidth {
        let wx = weights(width, outWidth, ox)
        for c in 0..<3 {
          var sum = 0.0
          for (y, a) in wy {
            for (x, b) in wx { sum += a * b * linear(source.bytes[(y * width + x) * 3 + c]) }
          }
          let v = min(1, max(0, sum))
          let encoded = v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
          let expected = Int((encoded * 255).rounded())
          worst = max(worst, abs(expected - Int(out[(oy * outWidth + ox) * 3 + c])))
        }
      }
    }
    #expect(worst <= 1)
  }
}
