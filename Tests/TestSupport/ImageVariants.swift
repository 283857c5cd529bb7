/// Variants of the accepted formats that the decoders do not read, made from the committed test
/// images by patching their headers (no encoder writes most of them): what `UnsupportedVariant`
/// must name. Each keeps everything but the patched bytes, so only the variant differs.
public enum ImageVariants {
  /// The offset of the first frame header's marker code (0xC0...) in `jpeg`.
  static func frameMarker(_ jpeg: [UInt8]) -> Int {
    var index = 2
    while index + 4 <= jpeg.count {
      let marker = jpeg[index + 1]
      if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
        return index + 1
      }
      index += 2 + (Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3]))
    }
    fatalError("no frame header")
  }

  /// coffee.jpg (baseline, 600x400, 3 components sampled 2x2, 1x1, 1x1) with its frame
  /// header's marker set to `marker` (0xC3: lossless, 0xC5: hierarchical...).
  public static func jpeg(marker: UInt8) -> [UInt8] {
    var bytes = Fixtures.bytes("coffee.jpg")
    bytes[frameMarker(bytes)] = marker
    return bytes
  }

  /// coffee.jpg declaring `precision` bits per sample (12: a 12-bit JPEG's header).
  public static func jpeg(precision: UInt8) -> [UInt8] {
    var bytes = Fixtures.bytes("coffee.jpg")
    bytes[frameMarker(bytes) + 3] = precision
    return bytes
  }

  /// coffee.jpg with its three components' sampling factors (horizontal << 4 | vertical) set to
  /// `factors`: `[0x31, 0x21, 0x11]` asks for upsampling by 3/2.
  public static func jpeg(sampling factors: [UInt8]) -> [UInt8] {
    var bytes = Fixtures.bytes("coffee.jpg")
    let marker = frameMarker(bytes)
    for (index, factor) in factors.enumerated() { bytes[marker + 9 + 3 * index + 1] = factor }
    return bytes
  }

  /// photo.heic (a grid of one HEVC tile: items `grid` and `hvc1`) with the item type `from`
  /// set to `type` in its `infe` box: `heif(itemType: "vvc1")` claims a VVC-coded tile,
  /// `heif(itemType: "vvc1", from: "grid")` a VVC-coded primary image.
  public static func heif(itemType type: String, from: String = "hvc1") -> [UInt8] {
    var bytes = Fixtures.bytes("photo.heic")
    let infe = Array("infe".utf8)
    let old = Array(from.utf8)
    var patched = 0
    for index in 0..<(bytes.count - 24) where Array(bytes[index..<index + 4]) == infe {
      for offset in index + 4..<index + 20 where Array(bytes[offset..<offset + 4]) == old {
        bytes.replaceSubrange(offset..<offset + 4, with: Array(type.utf8))
        patched += 1
      }
    }
    precondition(patched == 1, "photo.heic has \(patched) \(from) items")
    return bytes
  }

  /// A HEIF image sequence with no still image: an `ftyp` of brand `avis` and a `moov` box
  /// (empty: the header alone tells the variant), no `meta`.
  public static func heifSequence() -> [UInt8] {
    let ftyp = box("ftyp", Array("avis".utf8) + [0, 0, 0, 0] + Array("avismsf1iso8".utf8))
    return ftyp + box("moov", box("mvhd", [UInt8](repeating: 0, count: 100)))
  }

  /// An ISO base media box of `type` around `payload`.
  public static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    let size = UInt32(8 + payload.count)
    return [
      UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF),
    ]
      + Array(type.utf8) + payload
  }
}
