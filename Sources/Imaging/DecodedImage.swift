import ArtworkCore

/// Decoded 8-bit sRGB pixels, for reading colours back (the ThumbHash input).
package struct DecodedImage: Sendable {
  /// Width in pixels.
  package var width: Int
  /// Height in pixels.
  package var height: Int
  /// Samples per pixel: 3 (RGB) or 4 (RGBA); grey is expanded to RGB.
  package var bands: Int
  /// `width * height * bands` bytes, row-major.
  package var pixels: [UInt8]

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
}
