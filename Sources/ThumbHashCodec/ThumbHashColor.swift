/// A colour with each channel in 0...1, not premultiplied (the reference's
/// `thumbHashToAverageRGBA` result).
public struct ThumbHashColor: Equatable, Sendable {
  /// Red, 0...1.
  public var red: Double
  /// Green, 0...1.
  public var green: Double
  /// Blue, 0...1.
  public var blue: Double
  /// Alpha (opacity), 0...1.
  public var alpha: Double

  /// A colour from its channels, each expected in 0...1.
  public init(red: Double, green: Double, blue: Double, alpha: Double) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }
}
