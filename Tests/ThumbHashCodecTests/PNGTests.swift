import Testing
import ThumbHashCodec

/// The PNG rendering of a decoded hash: valid, lossless, and identical to the reference's.
@Suite struct PNGTests {
  /// SHA-256 of the reference `thumbHashToDataURL` payload (the PNG bytes), recorded with Node.
  static let referencePNGs: [(hash: String, bytes: Int, sha256: String)] = [
    (
      "YSgGGwxMX5H65zV3n49W2Ag=", 2047,
      "77b1b78677b0e6e82f3fdefd9450f4b7ede4d65a978b4e076de32aa17bb6fe2a"
    ),
    (
      "2scJPxrZh4eQg3h9h4h4h2l4WAG0aYAJ", 4351,
      "7d9a02be3ce3f164a41ad209a714da749b84b46b982d4f5a13c28cd9d4884c1b"
    ),
    (
      "lV1g5jLzFZKk3wPNfcsZ1gyzmuM1D4o=", 3711,
      "0ba404e676a6bae5a1e3325000a9eb549423d204fa4d5425d8ef69443819f729"
    ),
    (
      "KgTUA3+ICIh4iAj3iHiPiAj3jXKIJwg=", 2687,
      "9ea55d624ecc38df2111dcce32c23cef586e7cc5fe7efa54752a4dbb0fd4a609"
    ),
  ]

  @Test(arguments: referencePNGs.map(\.hash))
  func decodedHashPNGParsesBackToThePixels(hash: String) throws {
    let image = try ThumbHash.decode(base64: hash)
    let png = try PNGReader(ThumbHash.pngData(image))
    #expect(png.width == image.width)
    #expect(png.height == image.height)
    #expect(png.rgba == image.rgba)
  }

  @Test(arguments: referencePNGs)
  func byteIdenticalToReference(reference: (hash: String, bytes: Int, sha256: String)) throws {
    let png = ThumbHash.pngData(try ThumbHash.decode(base64: reference.hash))
    #expect(png.count == reference.bytes)
    #expect(SHA256.hex(png) == reference.sha256)
  }

  @Test(arguments: [(1, 1), (100, 100), (3, 7), (100, 1), (1, 100)])
  func anyImagePNGParsesBack(width: Int, height: Int) throws {
    var rng = SplitMix64(seed: UInt64(width * 131 + height))
    let rgba = (0..<width * height * 4).map { _ in UInt8.random(in: 0...255, using: &rng) }
    let image = try ThumbHashImage(width: width, height: height, rgba: rgba)
    let png = try PNGReader(ThumbHash.pngData(image))
    #expect(png.width == width && png.height == height && png.rgba == rgba)
  }

  @Test func readerRejectsACorruptedCRC() throws {
    var png = ThumbHash.pngData(try ThumbHash.decode(base64: "YSgGGwxMX5H65zV3n49W2Ag="))
    png[40] ^= 1  // inside IDAT
    #expect(throws: PNGReader.Failure.self) { try PNGReader(png) }
  }

  @Test func sha256Sanity() {
    #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256.hex(Array("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }
}
