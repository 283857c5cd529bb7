import ArtworkCore
import JPEGDecoding

extension ImagePipeline {
  /// A JPEG as libjpeg-turbo decodes it (`JPEGDecoder`), at the smallest scale of eighths that
  /// keeps the framing margin (`FrameGeometry.jpegEighths`); a centre crop decodes only its
  /// rows, and only its columns where libjpeg's block grid allows. Nil when the picture needs
  /// libvips: an ICC profile to import, an EXIF orientation to apply, CMYK or YCCK colours.
  static func jpegDecode(_ bytes: ArraySlice<UInt8>, info: SourceInfo, output: PixelSize)
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
      rectangle: { (origin, size) throws(ArtworkError) in
        let pixels = try rgb(
          bytes, eighths: eighths, crop: (origin.x, origin.y, size.width, size.height))
        return (pixels, FramedPicture.Region(origin, size, of: picture, in: source))
      })
  }

  /// libjpeg's decode of `crop` at `eighths`; a failure is the pipeline's decode failure.
  private static func rgb(
    _ bytes: ArraySlice<UInt8>, eighths: Int, crop: (Int, Int, Int, Int)
  ) throws(ArtworkError) -> [UInt8] {
    do throws(JPEGDecoder.Failure) {
      return try JPEGDecoder.rgb(bytes, eighths: eighths, crop: crop)
    } catch {
      throw libraryFailure("libjpeg", "\(error)")
    }
  }
}
