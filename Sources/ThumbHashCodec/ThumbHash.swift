/// ThumbHash (evanw/thumbhash): a ~25-byte image placeholder, encoded and decoded byte for byte
/// as the reference JavaScript implementation does.
///
/// Every function is total: invalid input is a thrown `ThumbHashError`, never a trap. Hashes may
/// come from anyone; the decoder checks the header and the length before reading any AC data.
public enum ThumbHash {
  /// The ThumbHash of an image.
  ///
  /// - Parameters:
  ///   - width: 1...100 pixels.
  ///   - height: 1...100 pixels.
  ///   - rgba: `width * height * 4` bytes, row-major, top row first, not premultiplied.
  /// - Throws: `.invalidDimensions` or `.pixelBufferLength`.
  public static func encode(width: Int, height: Int, rgba: [UInt8]) throws(ThumbHashError)
    -> [UInt8]
  {
    try ThumbHashImage.validate(width: width, height: height, byteCount: rgba.count)
    return rgba.withUnsafeBufferPointer { pixels in
      ThumbHashEncoder.encode(width: width, height: height, rgba: pixels)
    }
  }

  /// The ThumbHash of an image value (see `encode(width:height:rgba:)`).
  public static func encode(_ image: ThumbHashImage) -> [UInt8] {
    image.rgba.withUnsafeBufferPointer { pixels in
      ThumbHashEncoder.encode(width: image.width, height: image.height, rgba: pixels)
    }
  }

  /// The placeholder image a hash stands for, exactly as the reference's `thumbHashToRGBA`:
  /// at most 32 px per side, sized from the approximate aspect ratio, channel values truncated.
  ///
  /// - Throws: `.truncatedHash` (empty, short header, missing AC data) or `.invalidHeader`.
  public static func decode(_ hash: [UInt8]) throws(ThumbHashError) -> ThumbHashImage {
    let header = try ThumbHashHeader(hash)
    return ThumbHashDecoder.decode(hash, header: header)
  }

  /// `decode(_:)` of a base64 hash (padded or unpadded). Also throws `.invalidBase64`.
  public static func decode(base64: String) throws(ThumbHashError) -> ThumbHashImage {
    try decode(ThumbHashBase64.decode(base64))
  }

  /// The average colour a hash stores (the reference's `thumbHashToAverageRGBA`).
  ///
  /// - Throws: as `decode(_:)`: the whole hash is validated, not only the bytes read here.
  public static func averageColor(_ hash: [UInt8]) throws(ThumbHashError) -> ThumbHashColor {
    let header = try ThumbHashHeader(hash)
    return header.averageColor(alphaByte: header.hasAlpha ? hash[5] : 0)
  }

  /// Width / height of the original image as the hash approximates it (the reference's
  /// `thumbHashToApproximateAspectRatio`), between 1/7 and 7.
  ///
  /// - Throws: as `decode(_:)`.
  public static func approximateAspectRatio(_ hash: [UInt8]) throws(ThumbHashError) -> Double {
    try ThumbHashHeader(hash).aspectRatio
  }

  /// A PNG file of an image: 8-bit RGBA, uncompressed (zlib stored blocks). For a decoded hash
  /// this is byte-identical to the reference's `thumbHashToDataURL` payload.
  public static func pngData(_ image: ThumbHashImage) -> [UInt8] {
    PNGWriter.rgba(width: image.width, height: image.height, pixels: image.rgba)
  }
}
