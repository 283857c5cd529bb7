/// The DCT sums, the bulk of the encoder's work.
///
/// Exactness: each coefficient is the sum, in the reference's order (rows top to bottom, pixels
/// left to right), of `(value * cos_x) * cos_y` with the reference's cosines (fdlibm, same
/// argument products). Speed: instead of one coefficient at a time, 16 run side by side, four per
/// SIMD vector and four vectors per pass over the pixels. Each lane is still its own sequential
/// IEEE sum, so vectorising changes nothing in the result; it only removes the add-latency chain
/// that bounds the scalar loop.
extension ThumbHashEncoder {
  /// Lanes per SIMD vector.
  private static let lanes = 4
  /// Vectors accumulated together per pass over the pixels (independent chains hide latency).
  private static let chunksPerPass = 4

  /// For each channel c, `result[c][k]` is the sum over all pixels of
  /// `(planes[c * w * h + pixel] * cos_x) * cos_y` for term `channelTerms[c][k]`, not yet divided
  /// by the pixel count. `planes` holds one plane of `w * h` values per channel.
  static func dctSums(
    planes: UnsafePointer<Double>, width w: Int, height h: Int,
    channelTerms: [[(cx: Int, cy: Int)]]
  ) -> [[Double]] {
    let n = w * h
    // Each channel's terms fill whole vectors (the last one padded), so a vector reads one plane.
    var chunkChannel: [Int] = []
    var chunkFirstTerm: [Int] = []
    for (channel, list) in channelTerms.enumerated() {
      for first in stride(from: 0, to: list.count, by: lanes) {
        chunkChannel.append(channel)
        chunkFirstTerm.append(first)
      }
    }
    let chunkCount = chunkChannel.count
    let paddedChunks = (chunkCount + chunksPerPass - 1) / chunksPerPass * chunksPerPass
    let stridePerChunk = w + h

    var sums = [Double](repeating: 0, count: paddedChunks * lanes)
    // Per chunk, its x cosines then its y cosines, one vector (four terms) each.
    let tables = UnsafeMutableBufferPointer<SIMD4<Double>>.allocate(
      capacity: paddedChunks * stridePerChunk)
    defer { tables.deallocate() }

    // Fill each chunk's cosine vectors; padding lanes and padding chunks get zeros.
    tables.initialize(repeating: SIMD4<Double>())
    CosineTables.encode.withUnsafeBufferPointer { cosines in
      let xBase = CosineTables.offset(w)
      let yBase = CosineTables.offset(h)
      // The vectors seen as plain doubles, lane-major within each vector.
      tables.withMemoryRebound(to: Double.self) { scalars in
        for chunk in 0..<chunkCount {
          let base = chunk * stridePerChunk * lanes
          let list = channelTerms[chunkChannel[chunk]]
          let first = chunkFirstTerm[chunk]
          for lane in 0..<Swift.min(lanes, list.count - first) {
            let (cx, cy) = list[first + lane]
            for x in 0..<w { scalars[base + x * lanes + lane] = cosines[xBase + cx * w + x] }
            for y in 0..<h {
              scalars[base + (w + y) * lanes + lane] = cosines[yBase + cy * h + y]
            }
          }
        }
      }
    }

    // The DCT sums, four vectors of four coefficients per pass over the pixels.
    sums.withUnsafeMutableBufferPointer { sums in
      let planeBase = planes
      let tableBase = tables.baseAddress!
      for pass in stride(from: 0, to: paddedChunks, by: chunksPerPass) {
        func plane(_ chunk: Int) -> UnsafePointer<Double> {
          UnsafePointer(planeBase + (chunk < chunkCount ? chunkChannel[chunk] : 0) * n)
        }
        let v0 = plane(pass)
        let v1 = plane(pass + 1)
        let v2 = plane(pass + 2)
        let v3 = plane(pass + 3)
        let x0 = UnsafePointer(tableBase + pass * stridePerChunk)
        let x1 = x0 + stridePerChunk
        let x2 = x1 + stridePerChunk
        let x3 = x2 + stridePerChunk
        var a0 = SIMD4<Double>()
        var a1 = SIMD4<Double>()
        var a2 = SIMD4<Double>()
        var a3 = SIMD4<Double>()
        for y in 0..<h {
          let y0 = x0[w + y]
          let y1 = x1[w + y]
          let y2 = x2[w + y]
          let y3 = x3[w + y]
          let row = y * w
          for x in 0..<w {
            a0 += (SIMD4(repeating: v0[row + x]) * x0[x]) * y0
            a1 += (SIMD4(repeating: v1[row + x]) * x1[x]) * y1
            a2 += (SIMD4(repeating: v2[row + x]) * x2[x]) * y2
            a3 += (SIMD4(repeating: v3[row + x]) * x3[x]) * y3
          }
        }
        for lane in 0..<lanes {
          sums[pass * lanes + lane] = a0[lane]
          sums[(pass + 1) * lanes + lane] = a1[lane]
          sums[(pass + 2) * lanes + lane] = a2[lane]
          sums[(pass + 3) * lanes + lane] = a3[lane]
        }
      }
    }

    var result: [[Double]] = []
    var chunk = 0
    for list in channelTerms {
      result.append((0..<list.count).map { k in sums[(chunk + k / lanes) * lanes + k % lanes] })
      chunk += (list.count + lanes - 1) / lanes
    }
    return result
  }
}
