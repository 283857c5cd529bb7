import ArtworkCore
import ThumbHashCodec

/// A small picture for ThumbHash: 8-bit RGBA, not premultiplied, row-major, top row first.
/// Each side is at most 100 pixels.
public struct ThumbnailPixels: Sendable, Hashable {
  /// Width in pixels, 1...100.
  var width: Int
  /// Height in pixels, 1...100.
  var height: Int
  /// `width * height * 4` bytes: red, green, blue, alpha for each pixel.
  var rgba: [UInt8]

  /// The ThumbHash of these pixels, raw (base64 is the service's to write).
  public func thumbHash() throws(ArtworkError) -> [UInt8] {
    do {
      return try ThumbHash.encode(width: width, height: height, rgba: rgba)
    } catch {
      throw ArtworkError(.internal, "ThumbHash failed", internalDetail: "\(error)")
    }
  }
}
