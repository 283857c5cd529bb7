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
  package var hasAlpha = false
  /// Whether the header carries an ICC profile, and its EXIF orientation (1: upright): the WebP
  /// path leaves either to libvips.
  package var hasICCProfile = false
  package var orientation = 1

  /// Every fact (a worker's answer, read back by the service).
  package init(
    format: ImageFormat, width: Int, height: Int, bytes: Int, hasAlpha: Bool = false,
    hasICCProfile: Bool = false, orientation: Int = 1
  ) {
    self.format = format
    self.width = width
    self.height = height
    self.bytes = bytes
    self.hasAlpha = hasAlpha
    self.hasICCProfile = hasICCProfile
    self.orientation = orientation
  }
}
