import ArtworkCore
internal import CWebP

/// WebP decoded straight by libwebp, a rectangle of the picture at a time, scaled as it is
/// decoded, into packed 8-bit RGB.
///
/// libvips 8.14's WebP loader spends about half as long again as libwebp itself on the same
/// scaled decode (167 ms against 119 ms for a 3000x2000 photo at 1/2), and cannot crop; libwebp
/// decodes a 1333x2000 crop of it in 98 ms.
public enum WebPDecoder {
  /// What the bitstream declares: its size, and whether it has alpha or is animated.
  public struct Features: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var hasAlpha: Bool
    public var isAnimated: Bool
  }

  /// The features of `bytes`, or nil when they are not a WebP bitstream libwebp can read.
  public static func features(_ bytes: PinnedBytes) -> Features? {
    var width: Int32 = 0
    var height: Int32 = 0
    var alpha: Int32 = 0
    var animation: Int32 = 0
    let status = artwork_webp_features(
      bytes.address, bytes.count, &width, &height, &alpha, &animation)
    guard status == 0 else { return nil }
    return Features(
      width: Int(width), height: Int(height), hasAlpha: alpha != 0, isAnimated: animation != 0)
  }

  /// Why a decode did not produce pixels.
  public enum Failure: Error, Equatable {
    /// The bitstream is truncated or corrupt; libwebp's status.
    case damaged(String)
    /// libwebp could not take the request (a rectangle outside the picture, a feature it does
    /// not decode, memory); its status.
    case unsupported(String)
  }

  /// The `crop` rectangle of the picture (in its pixels), scaled to `size`, as packed RGB
  /// (`size.width * size.height * 3` bytes).
  public static func rgb(
    _ bytes: PinnedBytes, crop: (x: Int, y: Int, width: Int, height: Int),
    size: (width: Int, height: Int)
  ) throws(Failure) -> [UInt8] {
    guard size.width > 0, size.height > 0,
      case (let area, let overflow) = size.width.multipliedReportingOverflow(by: size.height),
      !overflow, area <= Int(Int32.max) / 3,
      let cropX = Int32(exactly: crop.x), let cropY = Int32(exactly: crop.y),
      let cropWidth = Int32(exactly: crop.width), let cropHeight = Int32(exactly: crop.height)
    else { throw .unsupported("a rectangle of \(crop) to \(size)") }
    var pixels = [UInt8](repeating: 0, count: area * 3)
    let status = pixels.withUnsafeMutableBufferPointer { output in
      artwork_webp_decode_rgb(
        bytes.address, bytes.count, cropX, cropY, cropWidth, cropHeight, Int32(size.width),
        Int32(size.height), output.baseAddress)
    }
    switch Int(status) {
    case 0: return pixels
    case Int(VP8_STATUS_NOT_ENOUGH_DATA.rawValue): throw .damaged("the data is cut short")
    case Int(VP8_STATUS_BITSTREAM_ERROR.rawValue): throw .damaged("the bitstream is corrupt")
    default: throw .unsupported("libwebp status \(status)")
    }
  }
}
