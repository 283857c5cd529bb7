/// Resamples 8-bit sRGB pixels to another size in linear light, with a separable Lanczos-3
/// kernel: light adds up in linear values, so a reduced picture keeps its brightness and thin
/// bright lines do not go dark.
///
/// The source is read once, top to bottom, in strips the caller hands over (a decoder's output
/// can stream straight in). Each source row is converted to linear light and filtered
/// horizontally as it arrives; only the rows the vertical kernel still needs are kept. Memory is
/// a few dozen output-wide rows, whatever the source's size.
///
/// Rows of linear light are packed floats, three to a pixel, as the bytes were: the vertical
/// kernel and the conversion back run over them sixteen floats at a time with no lane idle.
public struct LinearLightResampler: Sendable {
  /// The source's size in pixels.
  public let source: (width: Int, height: Int)
  /// The output's size in pixels.
  public let output: (width: Int, height: Int)
  /// Rows per strip the source is asked for.
  public static let stripRows = 16

  private let horizontal: ResamplingWeights
  private let vertical: ResamplingWeights
  /// `horizontal.weights`, each repeated in four lanes: the horizontal kernel multiplies a
  /// pixel's vector by its weight without a shuffle per tap.
  private let horizontalLanes: [SIMD4<Float>]

  /// A resampler from `source` to `output` pixels (a side below 1 counts as 1).
  public init(source: (width: Int, height: Int), output: (width: Int, height: Int)) {
    let source = (width: max(1, source.width), height: max(1, source.height))
    let output = (width: max(1, output.width), height: max(1, output.height))
    self.source = source
    self.output = output
    horizontal = ResamplingWeights(input: source.width, output: output.width)
    vertical = ResamplingWeights(input: source.height, output: output.height)
    horizontalLanes = horizontal.weights.map { SIMD4(repeating: $0) }
  }

  /// Floats in an output-wide row of linear light: three per pixel and one more (the last
  /// pixel's vector spills into it), rounded up to whole blocks of `block` (the vertical kernel
  /// reads and writes whole blocks; the floats past the row are zero).
  private var rowFloats: Int { (output.width * 3 + Self.block) / Self.block * Self.block }
  /// Floats the vertical kernel and the conversion back take at once: four vectors of four.
  private static let block = 16

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
    let rowFloats = rowFloats
    // Horizontally filtered rows, in a ring as deep as the vertical kernel is long.
    let depth = vertical.stride
    let ring = UnsafeMutableBufferPointer<Float>.allocate(capacity: depth * rowFloats)
    ring.initialize(repeating: 0)
    // One source row in linear light, zero past its end: the horizontal kernel reads a full
    // stride of pixels from each start, and a vector of four floats from each pixel.
    let linearRow = UnsafeMutableBufferPointer<Float>.allocate(
      capacity: (source.width + horizontal.stride) * 3 + 1)
    linearRow.initialize(repeating: 0)
    let sum = UnsafeMutableBufferPointer<Float>.allocate(capacity: rowFloats)
    defer {
      ring.deallocate()
      linearRow.deallocate()
      sum.deallocate()
    }
    let outBytes = output.width * 3
    var result = [UInt8](repeating: 0, count: outBytes * output.height)
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
        toLinear(pixels, layout: layout, into: linearRow.baseAddress!)
        filterRow(linearRow.baseAddress!, into: ring.baseAddress! + (filtered % depth) * rowFloats)
        filtered += 1
      }
      sumRows(
        ring.baseAddress!, depth: depth, first: first, count: count, row: row,
        into: sum.baseAddress!)
      result.withUnsafeMutableBufferPointer { bytes in
        toSRGB(sum.baseAddress!, into: bytes.baseAddress! + row * outBytes, count: outBytes)
      }
    }
    return result
  }

  /// One source row to linear light, three floats a pixel.
  private func toLinear(
    _ pixels: UnsafePointer<UInt8>, layout: PixelLayout, into row: UnsafeMutablePointer<Float>
  ) {
    SRGBTransfer.toLinear.withUnsafeBufferPointer { table in
      if layout == .rgb {
        for index in 0..<source.width * 3 { row[index] = table[Int(pixels[index])] }
      } else {
        for x in 0..<source.width {
          let value = table[Int(pixels[x])]
          row[x * 3] = value
          row[x * 3 + 1] = value
          row[x * 3 + 2] = value
        }
      }
    }
  }

  /// The horizontal kernel over one linear row (padded with `horizontal.stride` zero pixels).
  ///
  /// A pixel is read as a vector of four floats (its three and the next pixel's red, which the
  /// sum carries along unused), and four output pixels are summed side by side over the
  /// kernel's full stride (the weights past a pixel's own count are zero): four independent
  /// chains of additions keep the processor busy. Each sum is written as four floats at its
  /// pixel; the next pixel's write covers the fourth.
  private func filterRow(_ row: UnsafeMutablePointer<Float>, into out: UnsafeMutablePointer<Float>)
  {
    let stride = horizontal.stride
    let width = output.width
    let pixels = UnsafeRawPointer(row)
    let target = UnsafeMutableRawPointer(out)
    let step = 3 * MemoryLayout<Float>.stride
    @inline(__always) func pixel(_ start: UnsafeRawPointer, _ k: Int) -> SIMD4<Float> {
      start.loadUnaligned(fromByteOffset: k * step, as: SIMD4<Float>.self)
    }
    horizontalLanes.withUnsafeBufferPointer { weights in
      horizontal.first.withUnsafeBufferPointer { firsts in
        let w = weights.baseAddress!
        var x = 0
        while x + 4 <= width {
          let (s0, s1, s2, s3) = (
            pixels + firsts[x] * step, pixels + firsts[x + 1] * step,
            pixels + firsts[x + 2] * step, pixels + firsts[x + 3] * step
          )
          let (w0, w1, w2, w3) = (
            w + x * stride, w + (x + 1) * stride, w + (x + 2) * stride, w + (x + 3) * stride
          )
          var (t0, t1, t2, t3) = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
          for k in 0..<stride {
            t0 += pixel(s0, k) * w0[k]
            t1 += pixel(s1, k) * w1[k]
            t2 += pixel(s2, k) * w2[k]
            t3 += pixel(s3, k) * w3[k]
          }
          target.storeBytes(of: t0, toByteOffset: x * step, as: SIMD4<Float>.self)
          target.storeBytes(of: t1, toByteOffset: (x + 1) * step, as: SIMD4<Float>.self)
          target.storeBytes(of: t2, toByteOffset: (x + 2) * step, as: SIMD4<Float>.self)
          target.storeBytes(of: t3, toByteOffset: (x + 3) * step, as: SIMD4<Float>.self)
          x += 4
        }
        while x < width {
          let start = pixels + firsts[x] * step
          let weight = w + x * stride
          var total = SIMD4<Float>()
          for k in 0..<stride { total += pixel(start, k) * weight[k] }
          target.storeBytes(of: total, toByteOffset: x * step, as: SIMD4<Float>.self)
          x += 1
        }
        // The last pixel's fourth float spilled into the padding: zero it again.
        out[width * 3] = 0
      }
    }
  }

  /// The vertical kernel of output row `row` over the ring's filtered rows, a block of sixteen
  /// floats at a time, each sum kept in a register until it is whole.
  private func sumRows(
    _ ring: UnsafeMutablePointer<Float>, depth: Int, first: Int, count: Int, row: Int,
    into sum: UnsafeMutablePointer<Float>
  ) {
    let floats = rowFloats
    withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: count) { lines in
      for k in 0..<count {
        lines[k] = UnsafeRawPointer(ring + ((first + k) % depth) * floats)
      }
      vertical.weights.withUnsafeBufferPointer { weights in
        let w = weights.baseAddress! + row * vertical.stride
        let target = UnsafeMutableRawPointer(sum)
        let vector = MemoryLayout<SIMD4<Float>>.stride
        var offset = 0
        let end = floats * MemoryLayout<Float>.stride
        while offset < end {
          var (t0, t1, t2, t3) = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
          for k in 0..<count {
            let line = lines[k] + offset
            let weight = SIMD4<Float>(repeating: w[k])
            t0 += line.loadUnaligned(as: SIMD4<Float>.self) * weight
            t1 += line.loadUnaligned(fromByteOffset: vector, as: SIMD4<Float>.self) * weight
            t2 += line.loadUnaligned(fromByteOffset: 2 * vector, as: SIMD4<Float>.self) * weight
            t3 += line.loadUnaligned(fromByteOffset: 3 * vector, as: SIMD4<Float>.self) * weight
          }
          target.storeBytes(of: t0, toByteOffset: offset, as: SIMD4<Float>.self)
          target.storeBytes(of: t1, toByteOffset: offset + vector, as: SIMD4<Float>.self)
          target.storeBytes(of: t2, toByteOffset: offset + 2 * vector, as: SIMD4<Float>.self)
          target.storeBytes(of: t3, toByteOffset: offset + 3 * vector, as: SIMD4<Float>.self)
          offset += 4 * vector
        }
      }
    }
  }

  /// Linear sums back to 8-bit sRGB (clamped: the kernel's lobes overshoot near edges).
  private func toSRGB(
    _ sum: UnsafeMutablePointer<Float>, into out: UnsafeMutablePointer<UInt8>, count: Int
  ) {
    let steps = Float(SRGBTransfer.steps)
    // Adding 1.5 * 2^23 leaves a float whose low mantissa bits are the sum rounded to an
    // integer: no conversion that checks its range, and the loop vectorises.
    let round: Float = 12_582_912
    SRGBTransfer.fromLinear.withUnsafeBufferPointer { table in
      for index in 0..<count {
        var scaled = sum[index] * steps
        scaled = scaled > 0 ? scaled : 0
        scaled = scaled < steps ? scaled : steps
        out[index] = table[Int((scaled + round).bitPattern & 0xFFFF)]
      }
    }
  }
}
