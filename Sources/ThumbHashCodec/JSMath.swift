/// JavaScript's number semantics where the reference ThumbHash relies on them.
///
/// NOTE: these differ from Swift's defaults at the edges: `Math.round` rounds halves towards
/// +infinity (so `Math.round(-0.5)` is -0 and `Math.round(2.5)` is 3, where Swift's
/// `.toNearestOrAwayFromZero` gives -1 and 3), and `Math.max`/`Math.min` return NaN when either
/// argument is NaN, where `Swift.max` depends on argument order.
enum JSMath {
  /// `Math.round(x)`: the integer nearest `x`, halves towards +infinity, as a Double.
  ///
  /// Computed as `ceil(x)`, minus one when `ceil(x) - 0.5 > x`; unlike `floor(x + 0.5)` this is
  /// also right for 0.49999999999999994 and for odd integers near 2^53, as the spec requires.
  @inline(__always)
  static func round(_ x: Double) -> Double {
    let up = ceil(x)
    return up - 0.5 > x ? up - 1 : up
  }

  /// `Math.ceil(x)` without libm (the library links no C math library): exact for every double,
  /// keeping -0 for arguments in (-1, 0].
  ///
  /// NOTE: `Double.rounded(.up)` lowers to a libm call that this Foundation-free module does not
  /// link on Linux.
  @inline(__always)
  static func ceil(_ x: Double) -> Double {
    // NaN, infinities and |x| >= 2^52 are already integers.
    guard Swift.abs(x) < 4_503_599_627_370_496 else { return x }
    let truncated = Double(Int64(x))
    if truncated < x { return truncated + 1 }
    if truncated == 0 && x.sign == .minus { return -0.0 }
    return truncated
  }

  /// `Math.round(x) | 0` for values the codec produces: the rounded value truncated to an
  /// integer, 0 for NaN and infinities (JavaScript's ToInt32 on a small range).
  @inline(__always)
  static func roundToInt(_ x: Double) -> Int {
    toInt(round(x))
  }

  /// JavaScript's ToInt32 for values within +-2^31: truncation towards zero, NaN and infinities
  /// to 0. Out-of-range values (which the codec never produces) are clamped rather than wrapped,
  /// so the conversion can never trap.
  @inline(__always)
  static func toInt(_ x: Double) -> Int {
    guard x.isFinite else { return 0 }
    if x >= 2_147_483_647 { return 2_147_483_647 }
    if x <= -2_147_483_648 { return -2_147_483_648 }
    return Int(x)
  }

  /// `Math.max(a, b)`: NaN if either is NaN; +0 is larger than -0.
  @inline(__always)
  static func max(_ a: Double, _ b: Double) -> Double {
    if a.isNaN || b.isNaN { return .nan }
    if a == b { return a.sign == .minus ? b : a }
    return a > b ? a : b
  }

  /// `Math.min(a, b)`: NaN if either is NaN; -0 is smaller than +0.
  @inline(__always)
  static func min(_ a: Double, _ b: Double) -> Double {
    if a.isNaN || b.isNaN { return .nan }
    if a == b { return a.sign == .minus ? a : b }
    return a < b ? a : b
  }

  /// `uint8Array[i] = Math.max(0, 255 * Math.min(1, x))`, the reference decoder's store, in
  /// two comparisons: NaN and x <= 0 give 0, x >= 1 gives 255, otherwise `255 * x` truncated.
  @inline(__always)
  static func unitToByte(_ x: Double) -> UInt8 {
    guard x > 0 else { return 0 }
    guard x < 1 else { return 255 }
    return UInt8(255 * x)
  }
}
