/// `thumbHashToRGBA` of the reference, operation for operation.
enum ThumbHashDecoder {
  /// The (cx, cy) pairs of an nx-by-ny triangular DCT in the reference's order, without DC.
  static func terms(nx: Int, ny: Int) -> (cx: [Int], cy: [Int]) {
    var xs: [Int] = []
    var ys: [Int] = []
    for cy in 0..<ny {
      var cx = cy == 0 ? 1 : 0
      while cx * ny < nx * (ny - cy) {
        xs.append(cx)
        ys.append(cy)
        cx += 1
      }
    }
    return (xs, ys)
  }

  /// Decodes a validated hash. `header` must come from parsing `hash`.
  static func decode(_ hash: [UInt8], header: ThumbHashHeader) -> ThumbHashImage {
    let h24 = header.header24
    let h16 = header.header16
    let lDC = Double(h24 & 63) / 63
    let pDC = Double((h24 >> 6) & 63) / 31.5 - 1
    let qDC = Double((h24 >> 12) & 63) / 31.5 - 1
    let lScale = Double((h24 >> 18) & 31) / 31
    let pScale = Double((h16 >> 3) & 63) / 63
    let qScale = Double((h16 >> 9) & 63) / 63
    let hasAlpha = header.hasAlpha
    let aDC = hasAlpha ? Double(hash[5] & 15) / 15 : 1
    let aScale = hasAlpha ? Double(hash[5] >> 4) / 15 : 0

    // Read the AC nibbles (the header guaranteed they are all present).
    var acIndex = 0
    func channel(_ count: Int, _ scale: Double) -> [Double] {
      var ac = [Double](repeating: 0, count: count)
      for k in 0..<count {
        let byte = hash[header.acStart + (acIndex >> 1)]
        let nibble = (byte >> UInt8((acIndex & 1) << 2)) & 15
        ac[k] = (Double(nibble) / 7.5 - 1) * scale
        acIndex += 1
      }
      return ac
    }
    let lTerms = terms(nx: header.lx, ny: header.ly)
    let pqTerms = terms(nx: 3, ny: 3)
    let aTerms = terms(nx: 5, ny: 5)
    let lAC = channel(lTerms.cx.count, lScale)
    let pAC = channel(pqTerms.cx.count, pScale * 1.25)
    let qAC = channel(pqTerms.cx.count, qScale * 1.25)
    let aAC = hasAlpha ? channel(aTerms.cx.count, aScale) : []

    let ratio = header.aspectRatio
    let w = JSMath.roundToInt(ratio > 1 ? 32 : 32 * ratio)
    let h = JSMath.roundToInt(ratio > 1 ? 32 / ratio : 32)
    let orders = CosineTables.orders
    let lCount = lAC.count
    let pqCount = pAC.count
    let aCount = aAC.count
    // Pixels are computed four columns at a time: four independent sums per term let the CPU
    // overlap them (and the compiler pair them into vector instructions). Each pixel's sum
    // still adds the reference's terms in the reference's order.
    let groups = (w + 3) / 4
    // One scratch block, laid out [group][term][column in group]: the reference's first product
    // `ac[k] * fx[cx]` for L and A (independent of the row, so computed once per column), the
    // P/Q column cosines `fx[cx]`, then the P and Q coefficients and the row factors `fy2`.
    let lColumns = 0
    let aColumns = lColumns + groups * lCount * 4
    let pqColumns = aColumns + groups * aCount * 4
    let pCoefficients = pqColumns + groups * pqCount * 4
    let qCoefficients = pCoefficients + pqCount
    let rowFactors = qCoefficients + pqCount
    let scratch = UnsafeMutablePointer<Double>.allocate(capacity: rowFactors + orders)
    defer { scratch.deallocate() }
    let cyIndices = UnsafeMutablePointer<Int>.allocate(capacity: lCount + aCount + pqCount)
    defer { cyIndices.deallocate() }
    let lCY = cyIndices
    let aCY = cyIndices + lCount
    let pqCY = aCY + aCount
    for k in 0..<lCount { lCY[k] = lTerms.cy[k] }
    for k in 0..<aCount { aCY[k] = aTerms.cy[k] }
    for k in 0..<pqCount {
      pqCY[k] = pqTerms.cy[k]
      scratch[pCoefficients + k] = pAC[k]
      scratch[qCoefficients + k] = qAC[k]
    }
    let cosines = CosineTables.decode
    let fxBase = CosineTables.offset(w)
    for x in 0..<(groups * 4) {
      let (group, lane) = (x / 4, x % 4)
      // Padding columns past the right edge get zeros; their pixels are never stored.
      func fx(_ cx: Int) -> Double { x < w ? cosines[fxBase + x * orders + cx] : 0 }
      for k in 0..<lCount {
        scratch[lColumns + (group * lCount + k) * 4 + lane] = lAC[k] * fx(lTerms.cx[k])
      }
      for k in 0..<aCount {
        scratch[aColumns + (group * aCount + k) * 4 + lane] = aAC[k] * fx(aTerms.cx[k])
      }
      for k in 0..<pqCount {
        scratch[pqColumns + (group * pqCount + k) * 4 + lane] = fx(pqTerms.cx[k])
      }
    }
    let fy2 = scratch + rowFactors
    let pCoefficient = scratch + pCoefficients
    let qCoefficient = scratch + qCoefficients
    let fyBase = CosineTables.offset(h)
    let rgba = [UInt8](unsafeUninitializedCapacity: w * h * 4) { buffer, count in
      let out = buffer.baseAddress!
      for y in 0..<h {
        for c in 0..<orders { fy2[c] = cosines[fyBase + y * orders + c] * 2 }
        for group in 0..<groups {
          var l0 = lDC
          var l1 = lDC
          var l2 = lDC
          var l3 = lDC
          var lColumn = scratch + lColumns + group * lCount * 4
          for k in 0..<lCount {
            let f = fy2[lCY[k]]
            l0 += lColumn[0] * f
            l1 += lColumn[1] * f
            l2 += lColumn[2] * f
            l3 += lColumn[3] * f
            lColumn += 4
          }
          var p0 = pDC
          var p1 = pDC
          var p2 = pDC
          var p3 = pDC
          var q0 = qDC
          var q1 = qDC
          var q2 = qDC
          var q3 = qDC
          var pqColumn = scratch + pqColumns + group * pqCount * 4
          for k in 0..<pqCount {
            let f = fy2[pqCY[k]]
            let f0 = pqColumn[0] * f
            let f1 = pqColumn[1] * f
            let f2 = pqColumn[2] * f
            let f3 = pqColumn[3] * f
            let pk = pCoefficient[k]
            let qk = qCoefficient[k]
            p0 += pk * f0
            p1 += pk * f1
            p2 += pk * f2
            p3 += pk * f3
            q0 += qk * f0
            q1 += qk * f1
            q2 += qk * f2
            q3 += qk * f3
            pqColumn += 4
          }
          var a0 = aDC
          var a1 = aDC
          var a2 = aDC
          var a3 = aDC
          var aColumn = scratch + aColumns + group * aCount * 4
          for k in 0..<aCount {
            let f = fy2[aCY[k]]
            a0 += aColumn[0] * f
            a1 += aColumn[1] * f
            a2 += aColumn[2] * f
            a3 += aColumn[3] * f
            aColumn += 4
          }
          let x = group * 4
          let row = out + (y * w + x) * 4
          store(l0, p0, q0, a0, to: row)
          if x + 1 < w { store(l1, p1, q1, a1, to: row + 4) }
          if x + 2 < w { store(l2, p2, q2, a2, to: row + 8) }
          if x + 3 < w { store(l3, p3, q3, a3, to: row + 12) }
        }
      }
      count = w * h * 4
    }
    return ThumbHashImage(trustedWidth: w, height: h, rgba: rgba)
  }

  /// Converts one pixel from LPQA to RGBA bytes exactly as the reference: `b = l - 2/3 p`,
  /// `r = (3l - b + q) / 2`, `g = r - q`, each clamped to 0...1, scaled by 255 and truncated.
  @inline(__always)
  private static func store(
    _ l: Double, _ p: Double, _ q: Double, _ a: Double, to pixel: UnsafeMutablePointer<UInt8>
  ) {
    let b = l - 2.0 / 3.0 * p
    let r = (3 * l - b + q) / 2
    let g = r - q
    pixel[0] = JSMath.unitToByte(r)
    pixel[1] = JSMath.unitToByte(g)
    pixel[2] = JSMath.unitToByte(b)
    pixel[3] = JSMath.unitToByte(a)
  }
}
