import ArtworkCore

/// Decoded 8-bit sRGB pixels, for reading colours back (ThumbHash input, and tests that check
/// what the pipeline wrote).
struct DecodedImage: Sendable {
  /// Width in pixels.
  var width: Int
  /// Height in pixels.
  var height: Int
  /// Samples per pixel: 3 (RGB) or 4 (RGBA); grey is expanded to RGB.
  var bands: Int
  /// `width * height * bands` bytes, row-major.
  var pixels: [UInt8]

  /// Decodes encoded bytes of any accepted format as stored (no autorotation, first frame).
  /// `forceAlpha` adds an opaque alpha band to pictures that have none.
  init(decoding bytes: [UInt8], forceAlpha: Bool = false) throws(ArtworkError) {
    let format = try ImagePipeline.sniff(bytes)
    let source = try VipsSource(borrowing: bytes)
    _ = try ImagePipeline.readHeader(
      source, format: format, byteCount: bytes.count, limits: ImageLimits())
    let image = try ImagePipeline.open(source, format: format).copyMemory().toSRGB(
      importingProfile: true)
    try self.init(image, forceAlpha: forceAlpha)
  }

  /// Reads the pixels of an sRGB 8-bit image (the pipeline's own images).
  init(_ image: VipsImage, forceAlpha: Bool) throws(ArtworkError) {
    var image = image
    if forceAlpha, !image.hasAlpha { image = try image.appendingBand(255) }
    let pixels = try image.pixelBytes()
    guard pixels.count == image.width * image.height * image.bands else {
      throw ArtworkError(
        .internal, "The image could not be decoded.",
        internalDetail: "\(pixels.count) bytes for \(image.width)x\(image.height)x\(image.bands)")
    }
    self.width = image.width
    self.height = image.height
    self.bands = image.bands
    self.pixels = pixels
  }

  /// The samples of pixel (x, y).
  func pixel(x: Int, y: Int) -> [UInt8] {
    let start = (y * width + x) * bands
    return Array(pixels[start..<start + bands])
  }

  /// The mean of each band over the rectangle at (x, y) of the given size.
  func mean(x: Int, y: Int, width w: Int, height h: Int) -> [Double] {
    var sums = [Double](repeating: 0, count: bands)
    for row in y..<y + h {
      for column in x..<x + w {
        for (band, value) in pixel(x: column, y: row).enumerated() { sums[band] += Double(value) }
      }
    }
    return sums.map { $0 / Double(w * h) }
  }
}
