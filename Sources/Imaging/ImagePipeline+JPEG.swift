import ArtworkCore
internal import CVips
import JPEGDecoding
import Pixels

extension ImagePipeline {
  /// A JPEG as libjpeg-turbo decodes it (`JPEGDecoder`), at the smallest scale of eighths that
  /// keeps the framing margin (`FrameGeometry.jpegEighths`); a centre crop decodes only its
  /// rows, and only its columns where libjpeg's block grid allows. Nil when the picture needs
  /// libvips: an ICC profile to import, an EXIF orientation to apply, CMYK or YCCK colours.
  static func jpegDecode(_ bytes: PinnedBytes, info: SourceInfo, output: PixelSize)
    -> ScaledDecode?
  {
    guard !info.hasICCProfile, info.orientation == 1,
      let header = JPEGDecoder.header(bytes), header.isSupported,
      header.width == info.width, header.height == info.height
    else { return nil }
    let source = PixelSize(width: info.width, height: info.height)
    let eighths = FrameGeometry.jpegEighths(source: source, output: output)
    let scaled = JPEGDecoder.scaledSize(
      width: source.width, height: source.height, eighths: eighths)
    let picture = PixelSize(width: scaled.width, height: scaled.height)
    return ScaledDecode(
      picture: picture, source: source, eighths: eighths,
      whole: { () throws(ArtworkError) in
        try rgb(bytes, eighths: eighths, crop: (0, 0, picture.width, picture.height))
      },
      resampleRectangle: { (origin, size, resampler, deadline) throws(ArtworkError) in
        // Streamed: libjpeg's rows go to the resampler a strip at a time.
        let rows = try jpeg { () throws(JPEGDecoder.Failure) in
          try JPEGDecoder.Rows(
            bytes, eighths: eighths, crop: (origin.x, origin.y, size.width, size.height))
        }
        let resampled = try resampler.resample(layout: .rgb) {
          (_: Int, count: Int) throws(ArtworkError) in
          if deadline.hasPassed { throw deadline.error }
          let strip = try jpeg { () throws(JPEGDecoder.Failure) in try rows.next(count) }
          return (strip, size.width * 3)
        }
        return (resampled, FramedPicture.Region(origin, size, of: picture, in: source))
      })
  }

  /// A JPEG decoded whole by libjpeg at `eighths`/8, in its own colour space (grey, RGB, CMYK,
  /// or the raw components of one libjpeg does not know), as a libvips image in memory that
  /// carries the header's ICC profile and EXIF orientation: what the libvips path frames when
  /// the picture needs a profile imported, an orientation applied or CMYK converted.
  ///
  /// NOTE: libvips' own JPEG loader is never asked for pixels: it stops at the last row it
  /// needs and never finishes a decode, so damage that shows only at the end of the data (bits
  /// changed in transit, found as bytes left before the end marker) would pass. libjpeg's door
  /// finishes every decode (`JPEGDecoder.Rows`).
  static func jpegPicture(_ source: VipsSource, eighths: Int) throws(ArtworkError) -> VipsImage {
    let described = try open(source, format: .jpeg)
    guard let header = JPEGDecoder.header(source.bytes) else {
      throw libraryFailure("libjpeg", "the header cannot be read", damaged: true)
    }
    let size = JPEGDecoder.scaledSize(width: header.width, height: header.height, eighths: eighths)
    let (pixels, channels) = try jpeg { () throws(JPEGDecoder.Failure) in
      try JPEGDecoder.pixels(
        source.bytes, eighths: eighths, layout: .native, crop: (0, 0, size.width, size.height))
    }
    let space: VipsInterpretation =
      switch header.space {
      case .grey: VIPS_INTERPRETATION_B_W
      case .rgb: VIPS_INTERPRETATION_sRGB
      case .cmyk: VIPS_INTERPRETATION_CMYK
      case .raw: VIPS_INTERPRETATION_MULTIBAND
      }
    return try VipsImage.picture(
      pixels, width: size.width, height: size.height, bands: channels, space: space,
      describedBy: described)
  }

  /// libjpeg's decode of `crop` at `eighths`; a failure is the pipeline's decode failure.
  private static func rgb(
    _ bytes: PinnedBytes, eighths: Int, crop: (Int, Int, Int, Int)
  ) throws(ArtworkError) -> [UInt8] {
    try jpeg { () throws(JPEGDecoder.Failure) in
      try JPEGDecoder.rgb(bytes, eighths: eighths, crop: crop)
    }
  }

  /// `work`'s result; its failure as the pipeline's decode failure (damaged data a 422).
  private static func jpeg<T>(_ work: () throws(JPEGDecoder.Failure) -> T) throws(ArtworkError)
    -> T
  {
    do throws(JPEGDecoder.Failure) {
      return try work()
    } catch {
      switch error {
      case .damaged(let words): throw libraryFailure("libjpeg", words, damaged: true)
      case .unsupported(let words): throw libraryFailure("libjpeg", words, damaged: false)
      }
    }
  }
}
