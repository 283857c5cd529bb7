/// Cosine tables for the DCT, computed once with `FDLibm.cos` in exactly the reference's
/// operation order, so table lookups give the very values the reference computes inline.
///
/// NOTE: the encoder computes `cos(PI / n * c * (i + 0.5))` while the decoder computes
/// `cos(PI / n * (i + 0.5) * c)`. The two products round differently, so each gets its own table.
enum CosineTables {
  /// The most cosine orders any channel uses (luminance goes up to 7; 8 keeps rows aligned).
  static let orders = 8

  /// Encoder table for sizes 1...100: `encode[offset(n) + c * n + i]` is
  /// `cos(PI / n * c * (i + 0.5))` for c in 0..<8, i in 0..<n.
  static let encode: [Double] = {
    var table = [Double](repeating: 0, count: offset(101))
    for n in 1...100 {
      let base = offset(n)
      for c in 0..<orders {
        for i in 0..<n {
          table[base + c * n + i] = FDLibm.cos(
            Double.pi / Double(n) * Double(c) * (Double(i) + 0.5))
        }
      }
    }
    return table
  }()

  /// Where size `n`'s block starts, in either table: sizes 1..<n hold `orders` values per pixel.
  @inline(__always)
  static func offset(_ n: Int) -> Int {
    orders * (n - 1) * n / 2
  }

  /// Decoder table for output sizes 1...32: `decode[offset(n) + i * 8 + c]` is
  /// `cos(PI / n * (i + 0.5) * c)` for i in 0..<n, c in 0..<8.
  static let decode: [Double] = {
    var table = [Double](repeating: 0, count: offset(33))
    for n in 1...32 {
      let base = offset(n)
      for i in 0..<n {
        for c in 0..<orders {
          table[base + i * orders + c] = FDLibm.cos(
            Double.pi / Double(n) * (Double(i) + 0.5) * Double(c))
        }
      }
    }
    return table
  }()
}
