/// Base64 for ThumbHash strings, without Foundation.
///
/// Output is the standard alphabet with `=` padding: iOS `Data(base64Encoded:)` rejects unpadded
/// strings whose length is not a multiple of 4. Input may be padded or unpadded; the URL-safe
/// characters `-` and `_` are accepted in place of `+` and `/` so a hash can travel in a URL path.
/// Anything else (other characters, misplaced padding, a dangling sixth bit group, non-zero
/// unused bits) is `ThumbHashError.invalidBase64`.
public enum ThumbHashBase64 {
  private static let alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The value of each base64 character, or 0xff for characters outside the alphabet.
  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 0xff, count: 256)
    for (index, character) in alphabet.enumerated() {
      table[Int(character)] = UInt8(index)
    }
    table[Int(UInt8(ascii: "-"))] = 62
    table[Int(UInt8(ascii: "_"))] = 63
    return table
  }()

  /// Standard, padded base64 of `bytes`.
  public static func encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
      let remaining = bytes.count - index
      let b0 = UInt32(bytes[index])
      let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
      let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
      let group = b0 << 16 | b1 << 8 | b2
      output.append(alphabet[Int(group >> 18 & 63)])
      output.append(alphabet[Int(group >> 12 & 63)])
      output.append(remaining > 1 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
      output.append(remaining > 2 ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
      index += 3
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The bytes of a padded or unpadded base64 string. Throws `.invalidBase64`.
  public static func decode(_ string: String) throws(ThumbHashError) -> [UInt8] {
    var characters = Array(string.utf8)
    // Strip up to two trailing '=' only when they complete a 4-character group.
    var padding = 0
    while characters.last == UInt8(ascii: "=") && padding < 2 {
      characters.removeLast()
      padding += 1
    }
    if padding > 0 && (characters.count + padding) % 4 != 0 {
      throw .invalidBase64
    }
    let tail = characters.count % 4
    if tail == 1 || (padding > 0 && padding != (4 - tail) % 4) {
      throw .invalidBase64
    }
    var output: [UInt8] = []
    output.reserveCapacity(characters.count * 3 / 4)
    var accumulator: UInt32 = 0
    var bits = 0
    for character in characters {
      let value = values[Int(character)]
      if value == 0xff { throw .invalidBase64 }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
        accumulator &= (1 << UInt32(bits)) - 1
      }
    }
    // Leftover bits of the last group must be zero, so each hash has one spelling.
    if accumulator != 0 { throw .invalidBase64 }
    return output
  }
}
