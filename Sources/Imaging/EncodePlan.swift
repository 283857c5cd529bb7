import ArtworkCore

/// Settings for a quantised (palette) PNG.
struct PNGPalette: Sendable, Hashable {
  /// libimagequant quality, 0...100.
  var quality: Int
  /// Bits per pixel index: 8, 4, 2 or 1 (at most 256, 16, 4 or 2 colours).
  var bitDepth: Int
  /// Floyd-Steinberg dithering amount, 0...1; dithered noise compresses badly.
  var dither: Double
  /// libimagequant effort, 1...10: quantising is the slow part of the ladder (seconds for a
  /// 1200x1800 noisy picture at high effort), and lower rungs are about size, not finesse.
  var effort: Int
}

/// One way to encode the framed picture.
enum EncodeAttempt: Sendable, Hashable {
  /// Baseline JPEG at this quality.
  case jpeg(quality: Int)
  /// Truecolour PNG (nil) or a palette PNG.
  case png(PNGPalette?)
}

/// The encodings tried in turn until one fits the byte budget. The dimensions never change:
/// only quality goes down. Each ladder ends with a setting whose worst case fits 2,000,000 bytes
/// at the largest output (1200x1800): JPEG quality 10, and a 1-bit palette PNG (2 colours,
/// at most 1 bit per pixel, 270 kB before compression).
enum EncodePlan {
  /// The attempts for a format, best first.
  static func attempts(for format: StoredFormat) -> [EncodeAttempt] {
    switch format {
    case .jpeg:
      return [80, 70, 60, 50, 40, 30, 20, 10].map { EncodeAttempt.jpeg(quality: $0) }
    case .png:
      return [
        .png(nil),
        .png(PNGPalette(quality: 90, bitDepth: 8, dither: 1, effort: 4)),
        .png(PNGPalette(quality: 70, bitDepth: 8, dither: 0, effort: 1)),
        .png(PNGPalette(quality: 50, bitDepth: 4, dither: 0, effort: 1)),
        .png(PNGPalette(quality: 30, bitDepth: 2, dither: 0, effort: 1)),
        .png(PNGPalette(quality: 10, bitDepth: 1, dither: 0, effort: 1)),
      ]
    }
  }

  /// Bits per pixel before compression: RGBA truecolour 32, a palette its index depth.
  static func bitsPerPixel(_ attempt: EncodeAttempt) -> Int {
    switch attempt {
    case .jpeg: 24
    case .png(nil): 32
    case .png(let palette?): palette.bitDepth
    }
  }

  /// Whether `attempt` is worth its time after `previous` came out at `previousBytes`: the
  /// estimate scales the previous size by the ratio of bits per pixel, and an attempt that is
  /// expected to miss `limit` is skipped (JPEG qualities are cheap and always tried).
  static func worthTrying(
    _ attempt: EncodeAttempt, after previous: EncodeAttempt, previousBytes: Int, limit: Int
  ) -> Bool {
    guard case .png = attempt else { return true }
    let estimate = previousBytes * bitsPerPixel(attempt) / max(1, bitsPerPixel(previous))
    return estimate <= limit
  }
}
