import ArtworkCore
import Pixels
import WebPDecoding

extension ImagePipeline {
  /// Frames a still, opaque WebP without libvips' loader (`WebPDecoder`): a centre crop is
  /// decoded alone, scaled by libwebp to the shrink-on-load size; an attention crop decodes the
  /// whole picture at that size once, for the preview and the crop. Both are then resampled in
  /// linear light like every other picture. Nil when the picture needs libvips: an ICC profile
  /// to import, an EXIF orientation to apply, alpha or animation.
  static func frameWebP(
    _ source: VipsSource, info: SourceInfo, output: PixelSize, crop: CropMode, deadline: Deadline
  ) throws(ArtworkError) -> FramedPicture? {
    // The header's facts come from `readHeader`: no second parse.
    guard !info.hasICCProfile, info.orientation == 1,
      let features = WebPDecoder.features(source.bytes), !features.hasAlpha,
      !features.isAnimated, features.width == info.width, features.height == info.height
    else { return nil }
    let sourceSize = PixelSize(width: info.width, height: info.height)
    let shrink = shrinkOnLoad(info, output: output)
    let picture = PixelSize(
      width: (sourceSize.width + shrink - 1) / shrink,
      height: (sourceSize.height + shrink - 1) / shrink)
    let cropSize = FrameGeometry.cropSize(in: picture, output: output)
    let scale = (
      x: Double(sourceSize.width) / Double(picture.width),
      y: Double(sourceSize.height) / Double(picture.height)
    )
    let region: FramedPicture.Region
    let pixels: [UInt8]
    let read: (x: Int, y: Int, rowPixels: Int)
    if crop == .attention, cropSize != picture {
      pixels = try decode(
        source.bytes, crop: (0, 0, sourceSize.width, sourceSize.height), to: picture)
      let origin = pixels.withUnsafeBufferPointer {
        attentionOrigin(
          $0.baseAddress!, size: picture, channels: 3, rowBytes: picture.width * 3, crop: cropSize)
      }
      read = (origin.x, origin.y, picture.width)
      region = FramedPicture.Region(
        x: Double(origin.x) * scale.x, y: Double(origin.y) * scale.y,
        width: Double(cropSize.width) * scale.x, height: Double(cropSize.height) * scale.y)
    } else {
      // The crop in source pixels, decoded alone and scaled to the crop's size at the shrink.
      let origin = FrameGeometry.cropOrigin(cropSize, in: picture, centre: nil)
      let width = min(sourceSize.width, Int((Double(cropSize.width) * scale.x).rounded()))
      let height = min(sourceSize.height, Int((Double(cropSize.height) * scale.y).rounded()))
      // NOTE: libwebp rounds a crop's left and top down to even (its chroma is subsampled):
      // ask for even ones, or the picture would shift by a pixel from the region reported.
      let x = min(sourceSize.width - width, Int((Double(origin.x) * scale.x).rounded())) & ~1
      let y = min(sourceSize.height - height, Int((Double(origin.y) * scale.y).rounded())) & ~1
      pixels = try decode(source.bytes, crop: (x, y, width, height), to: cropSize)
      read = (0, 0, cropSize.width)
      region = FramedPicture.Region(
        x: Double(x), y: Double(y), width: Double(width), height: Double(height))
    }
    if deadline.hasPassed { throw deadline.error }
    let resampler = LinearLightResampler(
      source: (cropSize.width, cropSize.height), output: (output.width, output.height))
    let rowBytes = read.rowPixels * 3
    let bytes = pixels.withUnsafeBufferPointer { buffer in
      let first = buffer.baseAddress! + read.y * rowBytes + read.x * 3
      return resampler.resample(channels: 3) { (top: Int, _: Int) in
        (first + top * rowBytes, rowBytes)
      }
    }
    let image = try VipsImage.srgb(bytes, width: output.width, height: output.height, bands: 3)
    return FramedPicture(image: image, region: region, shrink: shrink)
  }

  /// libwebp's decode of `crop` scaled to `size`; a failure is the pipeline's decode failure.
  private static func decode(
    _ bytes: ArraySlice<UInt8>, crop: (Int, Int, Int, Int), to size: PixelSize
  ) throws(ArtworkError) -> [UInt8] {
    guard
      let pixels = WebPDecoder.rgb(
        bytes, crop: (crop.0, crop.1, crop.2, crop.3), size: (size.width, size.height))
    else {
      throw ArtworkError(
        .unprocessableImage, "The image could not be decoded.",
        internalDetail: "libwebp could not decode \(crop) at \(size)")
    }
    return pixels
  }
}
