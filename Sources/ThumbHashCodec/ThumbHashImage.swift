/// An RGBA image as ThumbHash produces and consumes it: 8 bits per channel, row-major, top row
/// first, not premultiplied. Invariant: 1...100 px per side and `rgba.count == width * height * 4`.
public struct ThumbHashImage: Equatable, Sendable {
  /// Width in pixels, 1...100.
  public let width: Int
  /// Height in pixels, 1...100.
  public let height: Int
  /// `width * height * 4` bytes: R, G, B, A per pixel.
  public let rgba: [UInt8]

  /// Validates and wraps an image. Throws `.invalidDimensions` or `.pixelBufferLength`.
  public init(width: Int, height: Int, rgba: [UInt8]) throws(ThumbHashError) {
    try Self.validate(width: width, height: height, byteCount: rgba.count)
    self.width = width
    self.height = height
    self.rgba = rgba
  }

  /// Wraps an image the codec built itself, whose invariant holds by construction.
  init(trustedWidth width: Int, height: Int, rgba: [UInt8]) {
    self.width = width
    self.height = height
    self.rgba = rgba
  }

  /// Checks the invariant without building an image (shared with the encoder).
  static func validate(width: Int, height: Int, byteCount: Int) throws(ThumbHashError) {
    guard (1...100).contains(width), (1...100).contains(height) else {
      throw .invalidDimensions(width: width, height: height)
    }
    let expected = width * height * 4
    guard byteCount == expected else {
      throw .pixelBufferLength(expected: expected, actual: byteCount)
    }
  }
}
