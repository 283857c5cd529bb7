/// A width and a height in pixels.
struct PixelSize: Sendable, Hashable, CustomStringConvertible {
  /// Columns.
  var width: Int
  /// Rows.
  var height: Int

  /// "WIDTHxHEIGHT", as error messages print it.
  var description: String { "\(width)x\(height)" }
}
