import ArtworkCore

// What the package's tests read back from the pipeline's output: pixels by position and by
// area (package access: not part of the target's public API).

extension DecodedImage {
  /// Decodes encoded bytes of any accepted format as stored (no autorotation, first frame).
  /// `forceAlpha` adds an opaque alpha band to pictures that have none.
  package init(decoding bytes: [UInt8], forceAlpha: Bool = false) throws(ArtworkError) {
    let format = try ImagePipeline.sniff(bytes)
    let source = try VipsSource(copying: bytes)
    _ = try ImagePipeline.readHeader(
      source, format: format, byteCount: bytes.count, limits: .standard)
    let image = try ImagePipeline.open(source, format: format).copyMemory().toSRGB(
      importingProfile: true)
    try self.init(image, forceAlpha: forceAlpha)
  }

  /// The samples of pixel (x, y).
  package func pixel(x: Int, y: Int) -> [UInt8] {
    let start = (y * width + x) * bands
    return Array(pixels[start..<start + bands])
  }

  /// The mean of each band over the rectangle at (x, y) of the given size.
  package func mean(x: Int, y: Int, width w: Int, height h: Int) -> [Double] {
    var sums = [Double](repeating: 0, count: bands)
    for row in y..<y + h {
      for column in x..<x + w {
        for (band, value) in pixel(x: column, y: row).enumerated() { sums[band] += Double(value) }
      }
    }
    return sums.map { $0 / Double(w * h) }
  }
}
