import ArtworkCore
import Pixels
import WebPDecoding

extension ImagePipeline {
  /// A still, opaque WebP as libwebp decodes it (`WebPDecoder`), scaled to the shrink-on-load
  /// size as it is decoded. Nil when the picture needs libvips: an ICC profile to import, an
  /// EXIF orientation to apply, alpha or animation.
  static func webPDecode(_ bytes: PinnedBytes, info: SourceInfo, output: PixelSize)
    -> ScaledDecode?
  {
    // The header's facts come from `readHeader`: no second parse.
    guard !info.hasICCProfile, info.orientation == 1,
      let features = WebPDecoder.features(bytes), !features.hasAlpha,
      !features.isAnimated, features.width == info.width, features.height == info.height
    else { return nil }
    let source = PixelSize(width: info.width, height: info.height)
    let shrink = shrinkOnLoad(info, output: output)
    let picture = PixelSize(
      width: (source.width + shrink - 1) / shrink, height: (source.height + shrink - 1) / shrink)
    let scale = (
      x: Double(source.width) / Double(picture.width),
      y: Double(source.height) / Double(picture.height)
    )
    return ScaledDecode(
      picture: picture, source: source, eighths: 8 / shrink,
      whole: { () throws(ArtworkError) in
        try decode(bytes, crop: (0, 0, source.width, source.height), to: picture)
      },
      resampleRectangle: { (origin, size, resampler, deadline) throws(ArtworkError) in
        // libwebp crops in source pixels and scales the crop to `size`.
        let width = min(source.width, Int((Double(size.width) * scale.x).rounded()))
        let height = min(source.height, Int((Double(size.height) * scale.y).rounded()))
        // NOTE: libwebp rounds a crop's left and top down to even (its chroma is subsampled):
        // ask for even ones, or the picture would shift by a pixel from the region reported.
        let x = min(source.width - width, Int((Double(origin.x) * scale.x).rounded())) & ~1
        let y = min(source.height - height, Int((Double(origin.y) * scale.y).rounded())) & ~1
        let pixels = try decode(bytes, crop: (x, y, width, height), to: size)
        if deadline.hasPassed { throw deadline.error }
        let bytes = resampled(pixels, rowPixels: size.width, by: resampler)
        let region = FramedPicture.Region(
          x: Double(x), y: Double(y), width: Double(width), height: Double(height))
        return (bytes, region)
      })
  }

  /// libwebp's decode of `crop` scaled to `size`; a failure is the pipeline's decode failure.
  private static func decode(
    _ bytes: PinnedBytes, crop: (Int, Int, Int, Int), to size: PixelSize
  ) throws(ArtworkError) -> [UInt8] {
    do throws(WebPDecoder.Failure) {
      return try WebPDecoder.rgb(
        bytes, crop: (crop.0, crop.1, crop.2, crop.3), size: (size.width, size.height))
    } catch {
      switch error {
      case .damaged(let words): throw libraryFailure("libwebp", words, damaged: true)
      case .unsupported(let words):
        throw libraryFailure("libwebp", "\(words): \(crop) at \(size)", damaged: false)
      }
    }
  }
}
