import ArtworkCore
import Pixels

/// A picture decoded without libvips' loader, by a library that scales as it decodes (libjpeg,
/// libwebp), described by what the framing path asks of it.
struct ScaledDecode {
  /// The picture's size as decoded.
  let picture: PixelSize
  /// The source's size.
  let source: PixelSize
  /// The scale of the decode, in eighths of the source (8: full size).
  let eighths: Int
  /// The whole picture at `picture` size, packed RGB: what an attention decision reads.
  let whole: () throws(ArtworkError) -> [UInt8]
  /// The rectangle of `size` at `origin` of the picture, decoded (at `size`) and resampled by
  /// `resampler` (from `size` to the output) as it is decoded, a strip at a time, with the
  /// deadline checked between strips; and the region of the source it shows.
  let resampleRectangle:
    (
      _ origin: (x: Int, y: Int), _ size: PixelSize, _ resampler: LinearLightResampler,
      _ deadline: Deadline
    ) throws(ArtworkError) -> (
      bytes: [UInt8], region: FramedPicture.Region
    )

  /// The region of the source that a rectangle of the picture shows.
  func region(of origin: (x: Int, y: Int), _ size: PixelSize) -> FramedPicture.Region {
    FramedPicture.Region(origin, size, of: picture, in: source)
  }
}

extension ImagePipeline {
  /// The picture as a library that scales while decoding gives it, when one can: JPEG through
  /// libjpeg-turbo, WebP through libwebp. Nil for the other formats and for pictures only libvips
  /// handles (see `jpegDecode`, `webPDecode`).
  static func scaledDecode(_ bytes: PinnedBytes, info: SourceInfo, output: PixelSize)
    -> ScaledDecode?
  {
    switch info.format {
    case .jpeg: jpegDecode(bytes, info: info, output: output)
    case .webp: webPDecode(bytes, info: info, output: output)
    default: nil
    }
  }

  /// Frames a `ScaledDecode`: a centre crop decodes only its rectangle, resampled as it is
  /// decoded; an attention crop decodes the whole picture once, for the preview and the crop.
  /// Either is resampled in linear light to exactly `output`, like every other picture.
  static func frame(
    _ decode: ScaledDecode, output: PixelSize, crop: CropMode, deadline: Deadline
  ) throws(ArtworkError) -> FramedPicture {
    let picture = decode.picture
    let cropSize = FrameGeometry.cropSize(in: picture, output: output)
    let resampler = LinearLightResampler(
      source: (cropSize.width, cropSize.height), output: (output.width, output.height))
    let bytes: [UInt8]
    let region: FramedPicture.Region
    if crop == .attention, cropSize != picture {
      let pixels = try decode.whole()
      if deadline.hasPassed { throw deadline.error }
      let origin = pixels.withUnsafeBufferPointer {
        attentionOrigin(
          $0.baseAddress!, size: picture, layout: .rgb, rowBytes: picture.width * 3, crop: cropSize)
      }
      bytes = resampled(pixels, rowPixels: picture.width, from: origin, by: resampler)
      region = decode.region(of: origin, cropSize)
    } else {
      let origin = FrameGeometry.cropOrigin(cropSize, in: picture, centre: nil)
      (bytes, region) = try decode.resampleRectangle(origin, cropSize, resampler, deadline)
    }
    let image = try VipsImage.srgb(bytes, width: output.width, height: output.height, bands: 3)
    return FramedPicture(image: image, region: region, eighths: decode.eighths)
  }

  /// The rectangle at `origin` of packed RGB `pixels` (`rowPixels` to a row), of the size
  /// `resampler` reads, resampled.
  static func resampled(
    _ pixels: [UInt8], rowPixels: Int, from origin: (x: Int, y: Int) = (0, 0),
    by resampler: LinearLightResampler
  ) -> [UInt8] {
    let rowBytes = rowPixels * 3
    return pixels.withUnsafeBufferPointer { buffer in
      let first = buffer.baseAddress! + origin.y * rowBytes + origin.x * 3
      return resampler.resample(layout: .rgb) { (top: Int, _: Int) in
        (first + top * rowBytes, rowBytes)
      }
    }
  }

  /// A decoding library's failure, in its words (kept internal): a 422 when it found the data
  /// `damaged` (truncated or corrupt), else an internal error that tells the framing path to let
  /// libvips decode the picture instead (a layout or a rectangle the library does not take).
  static func libraryFailure(_ library: String, _ words: String, damaged: Bool) -> ArtworkError {
    if damaged {
      return ArtworkError(
        .unprocessableImage, "The image is truncated or corrupt: its pixels could not be decoded.",
        internalDetail: "\(library): \(words)")
    }
    return ArtworkError(
      .internal, "The image could not be decoded.", internalDetail: "\(library): \(words)")
  }
}
