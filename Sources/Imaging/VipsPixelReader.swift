import ArtworkCore
internal import CVips

/// Reads an image's computed pixels a rectangle at a time, through a libvips region: for a
/// sequential load, rectangles must come top to bottom, and each is decoded as it is asked for.
final class VipsPixelReader {
  private let region: UnsafeMutablePointer<VipsRegion>
  /// The image the region reads (kept alive with it).
  let image: VipsImage

  init(_ image: VipsImage) throws(ArtworkError) {
    guard let region = artwork_vips_region_new(image.pointer) else {
      throw Vips.failure(.internal, "The image could not be framed.", call: "vips_region_new")
    }
    self.region = region
    self.image = image
  }

  deinit { artwork_vips_unref(region) }

  /// The rectangle's first pixel and the bytes from one row to the next; valid until the next
  /// call. A decoding failure (truncated or corrupt data, a killed image) throws.
  func rows(left: Int, top: Int, width: Int, count: Int) throws(ArtworkError) -> (
    pixels: UnsafePointer<UInt8>, rowBytes: Int
  ) {
    var rowBytes = 0
    guard
      let pixels = artwork_vips_region_fetch(
        region, Int32(left), Int32(top), Int32(width), Int32(count), &rowBytes)
    else {
      throw Vips.failure(
        .unprocessableImage, "The image could not be decoded.", call: "vips_region_prepare")
    }
    return (pixels, rowBytes)
  }
}
