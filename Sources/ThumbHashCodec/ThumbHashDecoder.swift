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
    // One scratch block: per column x and luminance/alpha term k the reference's first product
    // `ac[k] * fx[cx]` (it does not depend on the row, so it is computed once), the P/Q column
    // cosines, the P/Q coefficients, the row factors `fy2`, and the terms' cy indices.
    let lColumns = 0
    let aColumns = lColumns + w * lCount
    let pqColumns = aColumns + w * aCount
    let pCoefficients = pqColumns + w * pqCount
    let qCoefficients = pCoefficients + pqCount
    let rowFactors = qCoefficients + pqCount
    let scratchCount = rowFactors + orders
    let scratch = UnsafeMutablePointer<Double>.allocate(capacity: scratchCount)
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
    for x in 0..<w {
      let fx = CosineTables.decodeOffset(w) + x * orders
      for k in 0..<lCount {
        scratch[lColumns + x * lCount + k] = lAC[k] * cosines[fx + lTerms.cx[k]]
      }
      for k in 0..<aCount {
        scratch[aColumns + x * aCount + k] = aAC[k] * cosines[fx + aTerms.cx[k]]
      }
      for k in 0..<pqCount { scratch[pqColumns + x * pqCount + k] = cosines[fx + pqTerms.cx[k]] }
    }
    let fy2 = scratch + rowFactors
    let pCoefficient = scratch + pCoefficients
    let qCoefficient = scratch + qCoefficients
    let fyBase = CosineTables.decodeOffset(h)
    let rgba = [UInt8](unsafeUninitializedCapacity: w * h * 4) { buffer, count in
      let out = buffer.baseAddress!
      var i = 0
      for y in 0..<h {
        for c in 0..<orders { fy2[c] = cosines[fyBase + y * orders + c] * 2 }
        for x in 0..<w {
          // The reference's sums, term by term in its order.
          var l = lDC
          var p = pDC
          var q = qDC
          var a = aDC
          let lColumn = scratch + lColumns + x * lCount
          for k in 0..<lCount { l += lColumn[k] * fy2[lCY[k]] }
          let pqColumn = scratch + pqColumns + x * pqCount
          for k in 0..<pqCount {
            let f = pqColumn[k] * fy2[pqCY[k]]
            p += pCoefficient[k] * f
            q += qCoefficient[k] * f
          }
          let aColumn = scratch + aColumns + x * aCount
          for k in 0..<aCount { a += aColumn[k] * fy2[aCY[k]] }
          let b = l - 2.0 / 3.0 * p
          let r = (3 * l - b + q) / 2
          let g = r - q
          out[i] = JSMath.toUInt8(JSMath.max(0, 255 * JSMath.min(1, r)))
          out[i + 1] = JSMath.toUInt8(JSMath.max(0, 255 * JSMath.min(1, g)))
          out[i + 2] = JSMath.toUInt8(JSMath.max(0, 255 * JSMath.min(1, b)))
          out[i + 3] = JSMath.toUInt8(JSMath.max(0, 255 * JSMath.min(1, a)))
          i += 4
        }
      }
      count = w * h * 4
    }
    return ThumbHashImage(trustedWidth: w, height: h, rgba: rgba)
  }
}
