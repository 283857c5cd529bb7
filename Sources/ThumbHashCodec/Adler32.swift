/// Adler-32 as zlib streams end with it.
struct Adler32 {
  private var a: UInt32 = 1
  private var b: UInt32 = 0

  /// Feeds one byte.
  mutating func update(_ byte: UInt8) {
    a = (a + UInt32(byte)) % 65521
    b = (b + a) % 65521
  }

  /// The checksum of everything fed so far (`b << 16 | a`).
  var value: UInt32 { b << 16 | a }
}
