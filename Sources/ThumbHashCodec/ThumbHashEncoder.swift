/// `rgbaToThumbHash` of the reference, bit for bit, but fast: average colour, conversion to
/// LPQA, DCT (`ThumbHashEncoder+DCT.swift`), normalisation and packing, each with the
/// reference's operations in the reference's order.
enum ThumbHashEncoder {
  /// `a / 255` for every alpha byte `a`: the same doubles as the division, without a division
  /// per pixel.
  private static let alphaUnit: [Double] = (0..<256).map { Double($0) / 255 }
  /// `(a / 255) / 255` for every alpha byte, the reference's per-channel weight `alpha / 255`.
  private static let alphaWeight: [Double] = (0..<256).map { Double($0) / 255 / 255 }

  /// The (cx, cy) terms of an nx-by-ny triangular DCT in the reference's order, DC first.
  static func terms(nx: Int, ny: Int) -> [(cx: Int, cy: Int)] {
    var result: [(cx: Int, cy: Int)] = []
    for cy in 0..<ny {
      var cx = 0
      while cx * ny < nx * (ny - cy) {
        result.append((cx, cy))
        cx += 1
      }
    }
    return result
  }

  /// Encodes a validated image (`rgba.count == width * height * 4`, sides in 1...100).
  static func encode(width w: Int, height h: Int, rgba: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    let n = w * h
    // Average colour, weighted by alpha.
    var avgR = 0.0
    var avgG = 0.0
    var avgB = 0.0
    var avgA = 0.0
    let unit = alphaUnit
    let weight = alphaWeight
    for j in stride(from: 0, to: n * 4, by: 4) {
      let a = Int(rgba[j + 3])
      let alpha = unit[a]  // rgba[j + 3] / 255
      let alphaOver255 = weight[a]  // alpha / 255
      avgR += alphaOver255 * Double(rgba[j])
      avgG += alphaOver255 * Double(rgba[j + 1])
      avgB += alphaOver255 * Double(rgba[j + 2])
      avgA += alpha
    }
    if avgA != 0 {
      avgR /= avgA
      avgG /= avgA
      avgB /= avgA
    }
    let hasAlpha = avgA < Double(n)
    let lLimit = hasAlpha ? 5.0 : 7.0  // fewer luminance terms when alpha needs room
    let longest = Double(Swift.max(w, h))
    let lx = Swift.max(1, JSMath.roundToInt(lLimit * Double(w) / longest))
    let ly = Swift.max(1, JSMath.roundToInt(lLimit * Double(h) / longest))

    // The terms of each channel (L, P, Q, A) in the reference's order.
    let channelTerms = [
      terms(nx: Swift.max(3, lx), ny: Swift.max(3, ly)),
      terms(nx: 3, ny: 3),
      terms(nx: 3, ny: 3),
      hasAlpha ? terms(nx: 5, ny: 5) : [],
    ]
    // The four LPQA planes, one after the other.
    let planes = UnsafeMutablePointer<Double>.allocate(capacity: 4 * n)
    defer { planes.deallocate() }

    // Convert RGBA to LPQA, composited atop the average colour.
    for i in 0..<n {
      let j = i * 4
      let a = Int(rgba[j + 3])
      let alpha = unit[a]
      let alphaOver255 = weight[a]
      let r = avgR * (1 - alpha) + alphaOver255 * Double(rgba[j])
      let g = avgG * (1 - alpha) + alphaOver255 * Double(rgba[j + 1])
      let b = avgB * (1 - alpha) + alphaOver255 * Double(rgba[j + 2])
      planes[i] = r + g + b  // divided by 3 below
      planes[n + i] = (r + g) / 2 - b
      planes[2 * n + i] = r - g
      planes[3 * n + i] = alpha
    }
    // The luminance division in a loop of its own, which the compiler turns into packed
    // divisions (each lane is still an exact IEEE division): a division per pixel is the
    // slowest instruction in the conversion.
    for i in 0..<n { planes[i] = planes[i] / 3 }

    let sums = dctSums(planes: planes, width: w, height: h, channelTerms: channelTerms)

    // Per channel: DC, AC normalised to 0...1, and the AC scale.
    var dc = [0.0, 0.0, 0.0, 0.0]
    var scales = [0.0, 0.0, 0.0, 0.0]
    var acs: [[Double]] = [[], [], [], []]
    let area = Double(n)
    for (channel, channelSums) in sums.enumerated() {
      var scale = 0.0
      var ac: [Double] = []
      ac.reserveCapacity(channelSums.count)
      for k in 0..<channelSums.count {
        let f = channelSums[k] / area
        if k == 0 {
          dc[channel] = f
        } else {
          ac.append(f)
          scale = JSMath.max(scale, Swift.abs(f))
        }
      }
      if scale != 0 {
        for i in 0..<ac.count { ac[i] = 0.5 + 0.5 / scale * ac[i] }
      }
      acs[channel] = ac
      scales[channel] = scale
    }

    return pack(
      dc: dc, acs: acs, scales: scales, hasAlpha: hasAlpha, isLandscape: w > h, lx: lx, ly: ly)
  }

  /// Quantises and writes the header and AC nibbles, with JavaScript's int32 bit operations.
  private static func pack(
    dc: [Double], acs: [[Double]], scales: [Double], hasAlpha: Bool, isLandscape: Bool,
    lx: Int, ly: Int
  ) -> [UInt8] {
    func q(_ x: Double) -> Int32 { Int32(truncatingIfNeeded: JSMath.roundToInt(x)) }
    let header24: Int32 =
      q(63 * dc[0]) | q(31.5 + 31.5 * dc[1]) &<< 6 | q(31.5 + 31.5 * dc[2]) &<< 12
      | q(31 * scales[0]) &<< 18 | (hasAlpha ? 1 : 0) &<< 23
    let header16: Int32 =
      Int32(isLandscape ? ly : lx) | q(63 * scales[1]) &<< 3 | q(63 * scales[2]) &<< 9
      | (isLandscape ? 1 : 0) &<< 15
    let acStart = hasAlpha ? 6 : 5
    let channels = hasAlpha ? 4 : 3
    var acCount = 0
    for channel in 0..<channels { acCount += acs[channel].count }
    var hash = [Int32](repeating: 0, count: acStart + (acCount + 1) / 2)
    hash[0] = header24 & 255
    hash[1] = (header24 >> 8) & 255
    hash[2] = header24 >> 16
    hash[3] = header16 & 255
    hash[4] = header16 >> 8
    if hasAlpha {
      hash[5] = q(15 * dc[3]) | q(15 * scales[3]) &<< 4
    }
    var index = 0
    for channel in 0..<channels {
      for f in acs[channel] {
        hash[acStart + (index >> 1)] |= q(15 * f) &<< Int32((index & 1) << 2)
        index += 1
      }
    }
    return hash.map { UInt8(truncatingIfNeeded: $0) }
  }
}
