/// A source image format the service accepts. Decided from the bytes alone, never from a file
/// name or a declared content type, so a lying `Content-Type` cannot pick the decoder.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
  case jpeg, png, webp, gif, heic, avif

  /// The canonical media type of the format.
  package var mimeType: String {
    switch self {
    case .jpeg: "image/jpeg"
    case .png: "image/png"
    case .webp: "image/webp"
    case .gif: "image/gif"
    case .heic: "image/heic"
    case .avif: "image/avif"
    }
  }

  /// The format named by a media type (parameters such as `; charset` must be removed first;
  /// case-insensitive), or nil for any type we do not decode.
  package static func forMimeType(_ mimeType: String) -> ImageFormat? {
    switch mimeType.lowercased() {
    case "image/jpeg", "image/jpg", "image/pjpeg": .jpeg
    case "image/png": .png
    case "image/webp": .webp
    case "image/gif": .gif
    case "image/heic", "image/heif": .heic
    case "image/avif": .avif
    default: nil
    }
  }

  /// The format the bytes are, by magic numbers only; nil for anything else (SVG, PDF, HTML,
  /// TIFF, BMP, text, empty or too short to tell).
  package static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
      return .gif
    }
    if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)),
      Array(bytes[8..<12]) == Array("WEBP".utf8)
    {
      return .webp
    }
    return isoMediaFormat(bytes)
  }

  private static let heicBrands: Set<String> = [
    "heic", "heix", "hevc", "heim", "heis", "mif1", "msf1",
  ]
  private static let avifBrands: Set<String> = ["avif", "avis"]

  /// HEIF family: an ISO-BMFF `ftyp` box first, then the major brand and the compatible brands.
  /// AVIF wins over HEIC when both appear, because AVIF files also list the generic `mif1`.
  private static func isoMediaFormat(_ bytes: [UInt8]) -> ImageFormat? {
    guard bytes.count >= 16, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return nil }
    let declared = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
    // A box shorter than its own header is malformed; one longer than the data is cut short.
    let boxEnd = min(max(declared, 16), bytes.count)
    var brands = [brand(bytes, at: 8)]
    var offset = 16  // skip major brand (8..<12) and minor version (12..<16)
    while offset + 4 <= boxEnd {
      brands.append(brand(bytes, at: offset))
      offset += 4
    }
    if brands.contains(where: avifBrands.contains) { return .avif }
    if brands.contains(where: heicBrands.contains) { return .heic }
    return nil
  }

  private static func brand(_ bytes: [UInt8], at offset: Int) -> String {
    String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
  }
}
