/// How the samples of one 8-bit sRGB pixel are laid out in the buffers the pixel code reads.
/// Anything else (two bands, alpha, CMYK) is turned into one of these before it gets here, so
/// no count of bands read from untrusted data can reach a loop that would misread it.
public enum PixelLayout: Int, Sendable, Hashable {
  /// One byte per pixel: grey.
  case grey = 1
  /// Three bytes per pixel: red, green, blue.
  case rgb = 3

  /// The layout of `channels` bytes per pixel; nil for any other count.
  public init?(channels: Int) {
    self.init(rawValue: channels)
  }

  /// Bytes per pixel.
  public var channels: Int { rawValue }
}
