import Testing
import ThumbHashCodec

/// Standard padded base64 out; padded or unpadded (and URL-safe) in.
@Suite struct Base64Tests {
  @Test(arguments: [
    ([UInt8](), ""), ([0x66], "Zg=="), ([0x66, 0x6f], "Zm8="), ([0x66, 0x6f, 0x6f], "Zm9v"),
    ([0xfb, 0xff, 0xfe], "+//+"), ([0, 0, 0, 0], "AAAAAA=="),
  ])
  func encodesPadded(bytes: [UInt8], expected: String) throws {
    #expect(ThumbHashBase64.encode(bytes) == expected)
    #expect(ThumbHashBase64.encode(bytes).count % 4 == 0)
    #expect(try ThumbHashBase64.decode(expected) == bytes)
  }

  @Test func acceptsUnpaddedAndURLSafe() throws {
    #expect(try ThumbHashBase64.decode("Zg") == [0x66])
    #expect(try ThumbHashBase64.decode("Zm8") == [0x66, 0x6f])
    #expect(try ThumbHashBase64.decode("-__-") == [0xfb, 0xff, 0xfe])
    let hash = "YSgGGwxMX5H65zV3n49W2Ag="
    #expect(try ThumbHashBase64.decode(String(hash.dropLast())) == ThumbHashBase64.decode(hash))
  }

  @Test func roundTripsEveryLength() throws {
    var rng = SplitMix64(seed: 1)
    for length in 0..<64 {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
      let encoded = ThumbHashBase64.encode(bytes)
      #expect(try ThumbHashBase64.decode(encoded) == bytes)
      let unpadded = String(encoded.drop { _ in false }.reversed().drop { $0 == "=" }.reversed())
      #expect(try ThumbHashBase64.decode(unpadded) == bytes)
    }
  }

  @Test(arguments: ["Zh==", "Zm9=", "Z===", "Zg=a", "Zg=", "=Zg=", "Z", "Zm9vY", "Zm\u{0}v"])
  func rejectsMalformed(_ string: String) {
    #expect(throws: ThumbHashError.invalidBase64) { try ThumbHashBase64.decode(string) }
  }
}
