/// The fields of a ThumbHash, parsed and checked against the hash's length.
///
/// Parsing is the only place that reads untrusted hash bytes by index: once a header exists, the
/// hash is known to hold every byte its AC data needs, so the decoder reads without further checks.
struct ThumbHashHeader {
  /// The 24-bit header: L DC, P DC, Q DC, L scale, alpha flag.
  let header24: Int
  /// The 16-bit header: luminance term count along the shorter side, P and Q scales, landscape.
  let header16: Int
  /// Whether the hash carries an alpha channel (bit 23).
  let hasAlpha: Bool
  /// Whether the image was wider than tall (bit 15).
  let isLandscape: Bool
  /// Luminance term counts used for decoding: at least 3 each.
  let lx: Int
  let ly: Int
  /// Luminance term counts as stored, for the aspect ratio (never 0 after parsing).
  let rawLX: Int
  let rawLY: Int
  /// Where the AC nibbles start: byte 5, or 6 when byte 5 holds the alpha DC and scale.
  let acStart: Int

  /// Parses and validates `hash`. Throws `.truncatedHash` when a header or AC byte is missing,
  /// `.invalidHeader` when a side has zero luminance terms. Extra trailing bytes are ignored, as
  /// the reference decoder ignores them.
  init(_ hash: [UInt8]) throws(ThumbHashError) {
    guard hash.count >= 5 else { throw .truncatedHash(expected: 5, actual: hash.count) }
    header24 = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16
    header16 = Int(hash[3]) | Int(hash[4]) << 8
    hasAlpha = header24 >> 23 != 0
    isLandscape = header16 >> 15 != 0
    let stored = header16 & 7
    let long = hasAlpha ? 5 : 7
    rawLX = isLandscape ? long : stored
    rawLY = isLandscape ? stored : long
    guard stored != 0 else { throw .invalidHeader }
    lx = Swift.max(3, rawLX)
    ly = Swift.max(3, rawLY)
    acStart = hasAlpha ? 6 : 5
    let acCount =
      Self.acCount(nx: lx, ny: ly) + 2 * Self.acCount(nx: 3, ny: 3)
      + (hasAlpha ? Self.acCount(nx: 5, ny: 5) : 0)
    let needed = acStart + (acCount + 1) / 2
    guard hash.count >= needed else { throw .truncatedHash(expected: needed, actual: hash.count) }
  }

  /// The number of AC terms of an nx-by-ny triangular DCT (`cx * ny < nx * (ny - cy)`, minus DC).
  static func acCount(nx: Int, ny: Int) -> Int {
    var count = 0
    for cy in 0..<ny {
      var cx = cy == 0 ? 1 : 0
      while cx * ny < nx * (ny - cy) {
        count += 1
        cx += 1
      }
    }
    return count
  }

  /// `thumbHashToApproximateAspectRatio`: width / height as the luminance term counts say.
  var aspectRatio: Double {
    Double(rawLX) / Double(rawLY)
  }

  /// `thumbHashToAverageRGBA`: the DC terms converted to RGB and clamped, plus alpha.
  func averageColor(alphaByte: UInt8) -> ThumbHashColor {
    let l = Double(header24 & 63) / 63
    let p = Double((header24 >> 6) & 63) / 31.5 - 1
    let q = Double((header24 >> 12) & 63) / 31.5 - 1
    let a = hasAlpha ? Double(alphaByte & 15) / 15 : 1
    let b = l - 2.0 / 3.0 * p
    let r = (3 * l - b + q) / 2
    let g = r - q
    return ThumbHashColor(
      red: JSMath.max(0, JSMath.min(1, r)),
      green: JSMath.max(0, JSMath.min(1, g)),
      blue: JSMath.max(0, JSMath.min(1, b)),
      alpha: a)
  }
}
