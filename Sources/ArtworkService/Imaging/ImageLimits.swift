/// Bounds on the work one image may cause and on what it may produce.
struct ImageLimits: Sendable, Hashable {
  /// Largest source accepted, in pixels (width × height of the first frame, from the header).
  var maxPixels: Int = 40_000_000
  /// Largest source side accepted, in pixels, whatever the area.
  var maxSide: Int = 100_000
  /// Largest encoded output, in bytes; the phone stops downloading past 2 MB.
  var maxOutputBytes: Int = 2_000_000
  /// Wall-clock budget for one image, in seconds. libvips stops computing pixels once it is
  /// spent (checked as tiles are computed), and the encoder stops between attempts; a single
  /// libimagequant quantisation cannot be interrupted (at most a few seconds at 1200x1800).
  var maxSeconds: Double = 10
}
