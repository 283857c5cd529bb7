internal import CJPEG

/// JPEG decoded straight by libjpeg-turbo, at any scale of eighths and a rectangle at a time,
/// into packed 8-bit RGB.
///
/// libvips 8.14's loader offers DCT scaling at 1/2, 1/4 and 1/8 only, and adds about a fifth to
/// libjpeg's own time (34.5 ms against 29 ms for a 2000x3000 poster at 1/2). libjpeg-turbo
/// scales by any M/8: at 3/8 the same poster decodes to 750x1125, which still covers 400x600
/// with 1.9x to spare, where 1/4 would leave 1.25x and 1/2 hands the resampler twice the pixels.
/// Entropy decoding costs the same at every scale; what a smaller scale saves is the inverse DCT,
/// the colour conversion and the resampling after.
public enum JPEGDecoder {
  /// What the header declares.
  public struct Header: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Greyscale, YCbCr or RGB: colours this decoder converts. CMYK and YCCK are not.
    public var isSupported: Bool
  }

  /// Why a decode did not produce pixels.
  public enum Failure: Error, Equatable {
    /// libjpeg stopped, or warned that the data is corrupt; its words.
    case damaged(String)
    /// The colour layout needs another decoder, or the rectangle lies outside the picture.
    case unsupported(String)
  }

  /// The header of `bytes`, or nil when libjpeg cannot read one.
  public static func header(_ bytes: ArraySlice<UInt8>) -> Header? {
    guard !bytes.isEmpty else { return nil }
    var width: Int32 = 0
    var height: Int32 = 0
    var supported: Int32 = 0
    let status = bytes.withUnsafeBytes {
      artwork_jpeg_header(
        $0.bindMemory(to: UInt8.self).baseAddress, $0.count, &width, &height, &supported)
    }
    guard status == 0 else { return nil }
    return Header(width: Int(width), height: Int(height), isSupported: supported != 0)
  }

  /// The size of the picture decoded at `eighths`/8: libjpeg rounds each side up.
  public static func scaledSize(width: Int, height: Int, eighths: Int) -> (
    width: Int, height: Int
  ) {
    ((width * eighths + 7) / 8, (height * eighths + 7) / 8)
  }

  /// The `crop` rectangle of the picture decoded at `eighths`/8 (1-8; the rectangle in the
  /// scaled picture's pixels), as packed RGB: `crop.width * crop.height * 3` bytes.
  public static func rgb(
    _ bytes: ArraySlice<UInt8>, eighths: Int, crop: (x: Int, y: Int, width: Int, height: Int)
  ) throws(Failure) -> [UInt8] {
    guard (1...8).contains(eighths), crop.width > 0, crop.height > 0, !bytes.isEmpty else {
      throw .unsupported("scale \(eighths)/8, crop \(crop)")
    }
    var pixels = [UInt8](repeating: 0, count: crop.width * crop.height * 3)
    var message = [CChar](repeating: 0, count: Int(JMSG_LENGTH_MAX))
    let status = bytes.withUnsafeBytes { input in
      pixels.withUnsafeMutableBufferPointer { output in
        artwork_jpeg_decode_rgb(
          input.bindMemory(to: UInt8.self).baseAddress, input.count, Int32(eighths),
          Int32(crop.x), Int32(crop.y), Int32(crop.width), Int32(crop.height),
          output.baseAddress, &message)
      }
    }
    let words = String(
      decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    switch Int(status) {
    case ARTWORK_JPEG_OK: return pixels
    case ARTWORK_JPEG_DAMAGED: throw .damaged(words)
    default: throw .unsupported(words.isEmpty ? "libjpeg status \(status)" : words)
    }
  }
}
