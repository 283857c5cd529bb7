/// A content-addressed artwork id: the lowercase hex SHA-256 of the stored bytes.
///
/// Held as the digest's 32 bytes (four words, no storage of its own): ids are parsed, compared
/// and hashed on every image GET, and their text is made only when asked for.
public struct ArtworkID: Sendable, Hashable, CustomStringConvertible {
  /// The digest, 16 hex digits a word, first word first.
  private let words: (first: UInt64, second: UInt64, third: UInt64, fourth: UInt64)

  /// Accepts exactly 64 lowercase hex digits; anything else is not an id (and never reaches storage).
  public init?(hex: String) {
    var text = hex
    guard let id = text.withUTF8({ ArtworkID(hexDigits: UnsafeRawBufferPointer($0)) }) else {
      return nil
    }
    self = id
  }

  /// `init(hex:)` from the digits' bytes (a request's own, say).
  public init?(hexDigits digits: UnsafeRawBufferPointer) {
    guard digits.count == 64 else { return nil }
    // Sixteen digits to a word, most significant first.
    func word(_ first: Int) -> UInt64? {
      var word: UInt64 = 0
      for index in first..<(first + 16) {
        let byte = digits[index]
        let value: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
        default: return nil
        }
        word = word << 4 | UInt64(value)
      }
      return word
    }
    guard let first = word(0), let second = word(16), let third = word(32), let fourth = word(48)
    else { return nil }
    self.words = (first, second, third, fourth)
  }

  /// The 64 lowercase hex digits (made on each call).
  public var hex: String {
    String(unsafeUninitializedCapacity: 64) { text in
      let digits: StaticString = "0123456789abcdef"
      func put(_ word: UInt64, at offset: Int) {
        for nibble in 0..<16 {
          text[offset + nibble] = digits.utf8Start[Int((word >> UInt64(60 - 4 * nibble)) & 0xF)]
        }
      }
      put(words.first, at: 0)
      put(words.second, at: 16)
      put(words.third, at: 32)
      put(words.fourth, at: 48)
      return 64
    }
  }

  public var description: String { hex }

  public static func == (lhs: ArtworkID, rhs: ArtworkID) -> Bool {
    lhs.words == rhs.words
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(words.first)
    hasher.combine(words.second)
    hasher.combine(words.third)
    hasher.combine(words.fourth)
  }
}
