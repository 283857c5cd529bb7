/// What the source image was, as the response's `source` object reports it.
public struct SourceInfo: Sendable, Hashable {
  /// The sniffed format.
  public var format: ImageFormat
  /// Width in pixels of the first frame, after EXIF autorotation.
  public var width: Int
  /// Height in pixels of the first frame, after EXIF autorotation.
  public var height: Int
  /// Size of the source in bytes.
  public var bytes: Int
  /// Whether the header declares an alpha band (framing picks its path by it).
  var hasAlpha = false
  /// Whether the header carries an ICC profile, and its EXIF orientation (1: upright): the WebP
  /// path leaves either to libvips.
  var hasICCProfile = false
  var orientation = 1
}
