/// What the source image was, as the response's `source` object reports it.
struct SourceInfo: Sendable, Hashable {
  /// The sniffed format.
  var format: ImageFormat
  /// Width in pixels of the first frame, after EXIF autorotation.
  var width: Int
  /// Height in pixels of the first frame, after EXIF autorotation.
  var height: Int
  /// Size of the source in bytes.
  var bytes: Int
}
