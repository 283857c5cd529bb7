/// CRC-32 (ISO-HDLC, reflected polynomial 0xEDB88320) as PNG chunks use it.
struct CRC32 {
  private static let table: [UInt32] = (0..<256).map { index in
    var c = UInt32(index)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xedb8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }
  private var state: UInt32 = 0xffff_ffff

  /// Feeds bytes.
  mutating func update(_ bytes: [UInt8]) {
    for byte in bytes {
      state = Self.table[Int((state ^ UInt32(byte)) & 0xff)] ^ (state >> 8)
    }
  }

  /// The checksum of everything fed so far.
  var value: UInt32 { ~state }
}
