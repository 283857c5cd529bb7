/// A pure-Swift port of the fdlibm cosine that JavaScript engines use for `Math.cos`.
///
/// NOTE: V8 (and so Node and Chrome) computes `Math.cos` with fdlibm's algorithm
/// (`__kernel_cos`, `__kernel_sin`, `__ieee754_rem_pio2`). The platform `cos` (glibc) rounds
/// differently on a few percent of arguments, and ThumbHash quantises DCT sums, so one ulp in a
/// cosine can flip a hash nibble. Matching the reference bit for bit needs this exact algorithm,
/// with every product and sum in the same order. The compiler must not contract `a * b + c` into
/// a fused multiply-add; Swift does not do so unless asked.
enum FDLibm {
  /// `Math.cos(x)` exactly as fdlibm computes it.
  ///
  /// Exact for every finite `|x| <= 2^20 * pi / 2` (about 1,647,099), which covers every argument the
  /// codec can produce (they stay below 8 * pi). Larger finite arguments need fdlibm's
  /// multi-precision reduction, which the codec never reaches: for them this returns NaN rather
  /// than a silently different value. NaN and infinities give NaN, as in JavaScript.
  static func cos(_ x: Double) -> Double {
    let ix = highWord(x) & 0x7fff_ffff
    if ix <= 0x3fe9_21fb {  // |x| <= pi/4: no reduction
      return kernelCos(x, 0)
    }
    if ix >= 0x7ff0_0000 {  // NaN or infinity
      return .nan
    }
    guard let (n, y0, y1) = remPio2(x) else { return .nan }
    switch n & 3 {
    case 0: return kernelCos(y0, y1)
    case 1: return -kernelSin(y0, y1)
    case 2: return -kernelCos(y0, y1)
    default: return kernelSin(y0, y1)
    }
  }

  /// The upper 32 bits of the IEEE 754 representation, as a signed integer (fdlibm's GET_HIGH_WORD).
  @inline(__always)
  static func highWord(_ x: Double) -> Int32 {
    Int32(truncatingIfNeeded: x.bitPattern >> 32)
  }

  /// fdlibm `__kernel_cos(x, y)`: cos(x + y) for |x + y| <= pi/4, `y` being the tail of `x`.
  @inline(__always)
  static func kernelCos(_ x: Double, _ y: Double) -> Double {
    let c1 = 4.16666666666666019037e-02
    let c2 = -1.38888888888741095749e-03
    let c3 = 2.48015872894767294178e-05
    let c4 = -2.75573143513906633035e-07
    let c5 = 2.08757232129817482790e-09
    let c6 = -1.13596475577881948265e-11
    let ix = highWord(x) & 0x7fff_ffff
    if ix < 0x3e40_0000 {  // |x| < 2^-27: cos is 1 to double precision
      return 1
    }
    let z = x * x
    let r = z * (c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * c6)))))
    if ix < 0x3fd3_3333 {  // |x| < 0.3
      return 1 - (0.5 * z - (z * r - x * y))
    }
    let qx: Double
    if ix > 0x3fe9_0000 {  // |x| > 0.78125
      qx = 0.28125
    } else {
      qx = Double(bitPattern: UInt64(UInt32(bitPattern: ix - 0x0020_0000)) << 32)  // x/4
    }
    let hz = 0.5 * z - qx
    let a = 1 - qx
    return a - (hz - (z * r - x * y))
  }

  /// fdlibm `__kernel_sin(x, y, 1)`: sin(x + y) for |x + y| <= pi/4 with a non-zero tail `y`.
  @inline(__always)
  static func kernelSin(_ x: Double, _ y: Double) -> Double {
    let s1 = -1.66666666666666324348e-01
    let s2 = 8.33333333332248946124e-03
    let s3 = -1.98412698298579493134e-04
    let s4 = 2.75573137070700676789e-06
    let s5 = -2.50507602534068634195e-08
    let s6 = 1.58969099521155010221e-10
    let ix = highWord(x) & 0x7fff_ffff
    if ix < 0x3e40_0000 {  // |x| < 2^-27: sin(x) is x
      return x
    }
    let z = x * x
    let v = z * x
    let r = s2 + z * (s3 + z * (s4 + z * (s5 + z * s6)))
    return x - ((z * (0.5 * y - v * r) - y) - v * s1)
  }

  /// The high words of n * pi/2 for n = 1...32 (fdlibm `npio2_hw`), to detect cancellation.
  private static let npio2HighWords: [Int32] = [
    0x3ff9_21fb, 0x4009_21fb, 0x4012_d97c, 0x4019_21fb, 0x401f_6a7a, 0x4022_d97c, 0x4025_fdbb,
    0x4029_21fb, 0x402c_463a, 0x402f_6a7a, 0x4031_475c, 0x4032_d97c, 0x4034_6b9c, 0x4035_fdbb,
    0x4037_8fdb, 0x4039_21fb, 0x403a_b41b, 0x403c_463a, 0x403d_d85a, 0x403f_6a7a, 0x4040_7e4c,
    0x4041_475c, 0x4042_106c, 0x4042_d97c, 0x4043_a28c, 0x4044_6b9c, 0x4045_34ac, 0x4045_fdbb,
    0x4046_c6cb, 0x4047_8fdb, 0x4048_58eb, 0x4049_21fb,
  ]

  // pi/2 split into pieces whose products with small integers are exact (fdlibm's constants):
  // pio2First holds the first 33 bits of pi/2 and pio2FirstTail the rest; pio2Second and
  // pio2Third hold the next 33-bit pieces with their own tails.
  private static let invPio2 = Double(bitPattern: 0x3fe4_5f30_6dc9_c883)  // 2/pi
  private static let pio2First = Double(bitPattern: 0x3ff9_21fb_5440_0000)
  private static let pio2FirstTail = Double(bitPattern: 0x3dd0_b461_1a62_6331)
  private static let pio2Second = Double(bitPattern: 0x3dd0_b461_1a60_0000)
  private static let pio2SecondTail = Double(bitPattern: 0x3ba3_198a_2e03_7073)
  private static let pio2Third = Double(bitPattern: 0x3ba3_198a_2e00_0000)
  private static let pio2ThirdTail = Double(bitPattern: 0x397b_839a_2520_49c1)

  /// fdlibm `__ieee754_rem_pio2` for |x| > pi/4: returns n and y0 + y1 = x - n * pi/2.
  ///
  /// Only the small and medium paths (|x| <= 2^20 * pi/2); `nil` beyond, where fdlibm switches to
  /// `__kernel_rem_pio2`.
  static func remPio2(_ x: Double) -> (Int32, Double, Double)? {
    let hx = highWord(x)
    let ix = hx & 0x7fff_ffff
    if ix < 0x4002_d97c {  // |x| < 3pi/4: n = +-1
      if hx > 0 {
        var z = x - pio2First
        if ix != 0x3ff9_21fb {  // 33 + 53 bits of pi are enough
          let y0 = z - pio2FirstTail
          return (1, y0, (z - y0) - pio2FirstTail)
        }
        z -= pio2Second  // near pi/2: use 33 + 33 + 53 bits
        let y0 = z - pio2SecondTail
        return (1, y0, (z - y0) - pio2SecondTail)
      } else {
        var z = x + pio2First
        if ix != 0x3ff9_21fb {
          let y0 = z + pio2FirstTail
          return (-1, y0, (z - y0) + pio2FirstTail)
        }
        z += pio2Second
        let y0 = z + pio2SecondTail
        return (-1, y0, (z - y0) + pio2SecondTail)
      }
    }
    guard ix <= 0x4139_21fb else { return nil }
    let t = Swift.abs(x)
    let n = Int32(t * invPio2 + 0.5)  // truncation, as the C cast
    let fn = Double(n)
    var r = t - fn * pio2First
    var w = fn * pio2FirstTail  // first round, good to 85 bits
    var y0: Double
    if n < 32 && ix != npio2HighWords[Int(n) - 1] {
      y0 = r - w  // quick check: no cancellation
    } else {
      let j = ix >> 20
      y0 = r - w
      var i = j - ((highWord(y0) >> 20) & 0x7ff)
      if i > 16 {  // second iteration, good to 118 bits
        var t2 = r
        w = fn * pio2Second
        r = t2 - w
        w = fn * pio2SecondTail - ((t2 - r) - w)
        y0 = r - w
        i = j - ((highWord(y0) >> 20) & 0x7ff)
        if i > 49 {  // third iteration, 151 bits: covers every case
          t2 = r
          w = fn * pio2Third
          r = t2 - w
          w = fn * pio2ThirdTail - ((t2 - r) - w)
          y0 = r - w
        }
      }
    }
    let y1 = (r - y0) - w
    if hx < 0 {
      return (-n, -y0, -y1)
    }
    return (n, y0, y1)
  }
}
