/// Request ids: the client's own when sane, otherwise random.
enum RequestID {
  /// `incoming` when it is 1...64 characters of `[A-Za-z0-9._-]`, else a fresh random id.
  static func accept(_ incoming: String?) -> String {
    if let incoming, isSane(incoming) { return incoming }
    return generate()
  }

  /// Whether `id` is safe to echo and log as is.
  static func isSane(_ id: String) -> Bool {
    let bytes = id.utf8
    guard (1...64).contains(bytes.count) else { return false }
    return bytes.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "-"):
        true
      default: false
      }
    }
  }

  /// 16 random bytes as 32 lowercase hex digits.
  static func generate() -> String {
    var generator = SystemRandomNumberGenerator()
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(32)
    for _ in 0..<2 {
      var word = generator.next() as UInt64
      for _ in 0..<16 {
        text.append(digits[Int(word & 0xF)])
        word >>= 4
      }
    }
    return String(decoding: text, as: UTF8.self)
  }
}
