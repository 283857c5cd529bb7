/// A small picture in linear light, each pixel the mean of a block of the source: what the
/// attention decision looks at.
public struct LinearPreview: Sendable {
  /// Size in pixels.
  public let width: Int
  public let height: Int
  /// How many source pixels each preview pixel averages along each side (the last row and
  /// column of blocks may be cut short by the source's edge).
  public let factor: Int
  /// Linear RGB per pixel (fourth lane unused), row-major.
  let pixels: [SIMD4<Float>]

  /// The preview of a picture of `width` x `height` pixels laid out as `layout` in 8-bit sRGB,
  /// each row `rowBytes` after the previous, whose longer side becomes at most `longSide` pixels
  /// (sizes below 1 count as 1).
  public init(
    pixels source: UnsafePointer<UInt8>, width: Int, height: Int, layout: PixelLayout,
    rowBytes: Int, longSide: Int
  ) {
    let channels = layout.channels
    let longSide = max(1, longSide)
    let factor = max(1, (max(width, height) + longSide - 1) / longSide)
    let outWidth = max(1, (width + factor - 1) / factor)
    let outHeight = max(1, (height + factor - 1) / factor)
    var sums = [SIMD4<Float>](repeating: SIMD4(), count: outWidth * outHeight)
    var counts = [Float](repeating: 0, count: outWidth * outHeight)
    SRGBTransfer.toLinear.withUnsafeBufferPointer { table in
      sums.withUnsafeMutableBufferPointer { sums in
        counts.withUnsafeMutableBufferPointer { counts in
          for y in 0..<height {
            let row = source + y * rowBytes
            let out = (y / factor) * outWidth
            for x in 0..<width {
              let p = row + x * channels
              let value =
                channels == 3
                ? SIMD4(table[Int(p[0])], table[Int(p[1])], table[Int(p[2])], 0)
                : SIMD4(repeating: table[Int(p[0])])
              sums[out + x / factor] += value
            }
            for x in 0..<outWidth {
              counts[out + x] += Float(min(factor, width - x * factor))
            }
          }
        }
      }
    }
    self.width = outWidth
    self.height = outHeight
    self.factor = factor
    pixels = zip(sums, counts).map { $0 / $1 }
  }
}
