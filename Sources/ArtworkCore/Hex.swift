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
