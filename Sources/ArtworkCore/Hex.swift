/// Lowercase hexadecimal text: two digits a byte, high nibble first (content ids, SHA-256
/// digests, `#rrggbb` colours, storage bucket names).
public func lowercaseHex(_ bytes: some Sequence<UInt8>) -> String {
  let digits: StaticString = "0123456789abcdef"
  var text: [UInt8] = []
  text.reserveCapacity(bytes.underestimatedCount * 2)
  for byte in bytes {
    text.append(digits.utf8Start[Int(byte >> 4)])
    text.append(digits.utf8Start[Int(byte & 0xF)])
  }
  return String(decoding: text, as: UTF8.self)
}

/// The value of one hexadecimal digit, either case (`0`-`9`, `a`-`f`, `A`-`F`); nil for any
/// other byte. Inlinable: the HTTP parser's chunk sizes and percent-escapes run it per byte.
@inlinable public func hexValue(_ byte: UInt8) -> UInt8? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
  case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
  default: nil
  }
}
