/// Resamples 8-bit sRGB pixels to another size in linear light, with a separable Lanczos-3
/// kernel: light adds up in linear values, so a reduced picture keeps its brightness and thin
/// bright lines do not go dark.
///
/// The source is read once, top to bottom, in strips the caller hands over (a decoder's output
/// can stream straight in). Each source row is converted to linear light and filtered
/// horizontally as it arrives; only the rows the vertical kernel still needs are kept. Memory is
/// a few dozen output-wide rows, whatever the source's size.
public struct LinearLightResampler: Sendable {
  /// The source's size in pixels.
  public let source: (width: Int, height: Int)
  /// The output's size in pixels.
  public let output: (width: Int, height: Int)
  /// Rows per strip the source is asked for.
  public static let stripRows = 16

  private let horizontal: ResamplingWeights
  private let vertical: ResamplingWeights

  /// A resampler from `source` to `output` pixels (a side below 1 counts as 1).
  public init(source: (width: Int, height: Int), output: (width: Int, height: Int)) {
    let source = (width: max(1, source.width), height: max(1, source.height))
    let output = (width: max(1, output.width), height: max(1, output.height))
    self.source = source
    self.output = output
    horizontal = ResamplingWeights(input: source.width, output: output.width)
    vertical = ResamplingWeights(input: source.height, output: output.height)
  }

  /// The resampled picture: `output.width * output.height * 3` bytes, RGB, row-major.
  ///
  /// `strip(top, count)` gives rows `top ..< top + count` of the source, laid out as `layout`,
  /// each row `rowBytes` after the previous; the pointer need only stay valid until the next
  /// call. Strips are asked for in order, each once; an error it throws stops the work and is
  /// rethrown.
  public func resample<Failure: Error>(
    layout: PixelLayout,
    strip: (_ top: Int, _ count: Int) throws(Failure) -> (
      pixels: UnsafePointer<UInt8>, rowBytes: Int
    )
  ) throws(Failure) -> [UInt8] {
    let outWidth = output.width
    // Horizontally filtered rows, in a ring as deep as the vertical kernel is long.
    let depth = vertical.stride
    let ring = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: depth * outWidth)
    // Zero past the row's end: the horizontal kernel reads a full stride from each start.
    let linearRow = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(
      capacity: source.width + horizontal.stride)
    linearRow.initialize(repeating: SIMD4())
    let sum = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: outWidth)
    defer {
      ring.deallocate()
      linearRow.deallocate()
      sum.deallocate()
    }
    var result = [UInt8](repeating: 0, count: outWidth * output.height * 3)
    var filtered = 0  // source rows filtered into the ring so far
    var stripTop = 0
    var stripCount = 0
    var stripPixels: UnsafePointer<UInt8>?
    var stripRowBytes = 0
    for row in 0..<output.height {
      let first = vertical.first[row]
      let count = vertical.count[row]
      while filtered < first + count {
        if filtered >= stripTop + stripCount {
          stripTop = filtered
          stripCount = min(Self.stripRows, source.height - filtered)
          (stripPixels, stripRowBytes) = try strip(stripTop, stripCount)
        }
        let pixels = stripPixels! + (filtered - stripTop) * stripRowBytes
        toLinear(pixels, layout: layout, into: linearRow)
        filterRow(linearRow, into: ring.baseAddress! + (filtered % depth) * outWidth)
        filtered += 1
      }
      sumRows(ring, depth: depth, first: first, count: count, row: row, into: sum)
      result.withUnsafeMutableBufferPointer { bytes in
        toSRGB(sum, into: bytes.baseAddress! + row * outWidth * 3)
      }
    }
    return result
  }

  /// One source row to linear light, a pixel per vector (the fourth lane unused).
  private func toLinear(
    _ pixels: UnsafePointer<UInt8>, layout: PixelLayout,
    into row: UnsafeMutableBufferPointer<SIMD4<Float>>
  ) {
    SRGBTransfer.toLinear.withUnsafeBufferPointer { table in
      if layout == .rgb {
        for x in 0..<source.width {
          let p = pixels + x * 3
          row[x] = SIMD4(table[Int(p[0])], table[Int(p[1])], table[Int(p[2])], 0)
        }
      } else {
        for x in 0..<source.width {
          let value = table[Int(pixels[x])]
          row[x] = SIMD4(value, value, value, 0)
        }
      }
    }
  }

  /// The horizontal kernel over one linear row (padded with `horizontal.stride` zero pixels).
  ///
  /// Four output pixels are summed side by side, over the kernel's full stride (the weights past
  /// a pixel's own count are zero): four independent chains of additions keep the processor
  /// busy, where one pixel at a time would wait on each addition.
  private func filterRow(
    _ row: UnsafeMutableBufferPointer<SIMD4<Float>>, into out: UnsafeMutablePointer<SIMD4<Float>>
  ) {
    let stride = horizontal.stride
    let width = output.width
    horizontal.weights.withUnsafeBufferPointer { weights in
      horizontal.first.withUnsafeBufferPointer { firsts in
        let pixels = row.baseAddress!
        let w = weights.baseAddress!
        var x = 0
        while x + 4 <= width {
          let (s0, s1, s2, s3) = (
            pixels + firsts[x], pixels + firsts[x + 1], pixels + firsts[x + 2],
            pixels + firsts[x + 3]
          )
          let (w0, w1, w2, w3) = (
            w + x * stride, w + (x + 1) * stride, w + (x + 2) * stride, w + (x + 3) * stride
          )
          var (t0, t1, t2, t3) = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
          for k in 0..<stride {
            t0 += s0[k] * w0[k]
            t1 += s1[k] * w1[k]
            t2 += s2[k] * w2[k]
            t3 += s3[k] * w3[k]
          }
          out[x] = t0
          out[x + 1] = t1
          out[x + 2] = t2
          out[x + 3] = t3
          x += 4
        }
        while x < width {
          let start = pixels + firsts[x]
          let weight = w + x * stride
          var total = SIMD4<Float>()
          for k in 0..<stride { total += start[k] * weight[k] }
          out[x] = total
          x += 1
        }
      }
    }
  }

  /// The vertical kernel of output row `row` over the ring's filtered rows, four pixels side by
  /// side (as in `filterRow`), each sum kept in a register until it is whole.
  private func sumRows(
    _ ring: UnsafeMutableBufferPointer<SIMD4<Float>>, depth: Int, first: Int, count: Int, row: Int,
    into sum: UnsafeMutableBufferPointer<SIMD4<Float>>
  ) {
    let width = output.width
    withUnsafeTemporaryAllocation(of: UnsafePointer<SIMD4<Float>>.self, capacity: count) { lines in
      for k in 0..<count {
        lines[k] = UnsafePointer(ring.baseAddress! + ((first + k) % depth) * width)
      }
      vertical.weights.withUnsafeBufferPointer { weights in
        let w = weights.baseAddress! + row * vertical.stride
        var x = 0
        while x + 4 <= width {
          var (t0, t1, t2, t3) = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
          for k in 0..<count {
            let line = lines[k] + x
            let weight = w[k]
            t0 += line[0] * weight
            t1 += line[1] * weight
            t2 += line[2] * weight
            t3 += line[3] * weight
          }
          sum[x] = t0
          sum[x + 1] = t1
          sum[x + 2] = t2
          sum[x + 3] = t3
          x += 4
        }
        while x < width {
          var total = SIMD4<Float>()
          for k in 0..<count { total += lines[k][x] * w[k] }
          sum[x] = total
          x += 1
        }
      }
    }
  }

  /// Linear sums back to 8-bit sRGB (clamped: the kernel's lobes overshoot near edges).
  private func toSRGB(
    _ sum: UnsafeMutableBufferPointer<SIMD4<Float>>, into out: UnsafeMutablePointer<UInt8>
  ) {
    let steps = Float(SRGBTransfer.steps)
    SRGBTransfer.fromLinear.withUnsafeBufferPointer { table in
      for x in 0..<output.width {
        var scaled = sum[x] * steps + 0.5
        scaled.clamp(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: steps))
        let p = out + x * 3
        p[0] = table[Int(scaled[0])]
        p[1] = table[Int(scaled[1])]
        p[2] = table[Int(scaled[2])]
      }
    }
  }
}
