internal import CJPEG

/// Framed pictures compressed straight by libjpeg-turbo: baseline JPEG, libjpeg's standard
/// tables scaled to the quality, chroma halved both ways below quality 90, Huffman tables
/// optimised for the picture, and no metadata (not even a JFIF header). The same settings as libvips'
/// `jpegsave` with `strip`, which wrapped this call in an image, a pipeline and a thread of its
/// own: 2.7 ms of a 400x600 poster's encode where libjpeg's own work is 1.8 ms (issue 42).
public enum JPEGEncoder {
  /// Why nothing was compressed: libjpeg's words, or what was wrong with the pixels given.
  public struct Failure: Error, Equatable {
    public let words: String
  }

  /// The largest side a JPEG can have.
  public static let maxSide = 65_500

  /// `pixels` (packed RGB, `width * height * 3` bytes, row-major) as a JPEG at `quality`
  /// (1-100).
  public static func rgb(_ pixels: [UInt8], width: Int, height: Int, quality: Int)
    throws(Failure) -> [UInt8]
  {
    guard (1...maxSide).contains(width), (1...maxSide).contains(height),
      pixels.count == width * height * 3
    else {
      throw Failure(words: "\(pixels.count) bytes are not a \(width)x\(height) RGB picture")
    }
    guard (1...100).contains(quality) else { throw Failure(words: "quality \(quality)") }
    var message = [CChar](repeating: 0, count: Int(JMSG_LENGTH_MAX))
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    let status = pixels.withUnsafeBufferPointer { bytes in
      artwork_jpeg_compress_rgb(
        bytes.baseAddress!, Int32(width), Int32(height), Int32(quality), &out, &length, &message)
    }
    guard status == ARTWORK_JPEG_OK, let out else {
      throw Failure(
        words: String(
          decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    defer { free(out) }
    return Array(UnsafeBufferPointer(start: out, count: length))
  }
}
