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
  /// The rectangle of `size` at `origin` of the picture, packed RGB at `size`, and the region
  /// of the source it shows.
  let rectangle:
    (_ origin: (x: Int, y: Int), _ size: PixelSize) throws(ArtworkError) -> (
      pixels: [UInt8], region: FramedPicture.Region
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
  static func scaledDecode(_ bytes: ArraySlice<UInt8>, info: SourceInfo, output: PixelSize)
    -> ScaledDecode?
  {
    switch info.format {
    case .jpeg: jpegDecode(bytes, info: info, output: output)
    case .webp: webPDecode(bytes, info: info, output: output)
    default: nil
    }
  }

  /// Frames a `ScaledDecode`: a centre crop decodes only its rectangle; an attention crop decodes
  /// the whole picture once, for the preview and the crop. Either is then resampled in linear
  /// light to exactly `output`, like every other picture.
  static func frame(
    _ decode: ScaledDecode, output: PixelSize, crop: CropMode, deadline: Deadline
  ) throws(ArtworkError) -> FramedPicture {
    let picture = decode.picture
    let cropSize = FrameGeometry.cropSize(in: picture, output: output)
    let pixels: [UInt8]
    let region: FramedPicture.Region
    let read: (x: Int, y: Int, rowPixels: Int)
    if crop == .attention, cropSize != picture {
      pixels = try decode.whole()
      let origin = pixels.withUnsafeBufferPointer {
        attentionOrigin(
          $0.baseAddress!, size: picture, channels: 3, rowBytes: picture.width * 3, crop: cropSize)
      }
      read = (origin.x, origin.y, picture.width)
      region = decode.region(of: origin, cropSize)
    } else {
      let origin = FrameGeometry.cropOrigin(cropSize, in: picture, centre: nil)
      (pixels, region) = try decode.rectangle(origin, cropSize)
      read = (0, 0, cropSize.width)
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
    return FramedPicture(image: image, region: region, eighths: decode.eighths)
  }

  /// The pipeline's decode failure, in a decoding library's words (kept internal).
  static func libraryFailure(_ library: String, _ words: String) -> ArtworkError {
    ArtworkError(
      .unprocessableImage, "The image could not be decoded.",
      internalDetail: "\(library): \(words)")
  }
}
