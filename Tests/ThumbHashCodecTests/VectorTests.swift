import Testing

@testable import ThumbHashCodec

/// Byte-exactness against the reference JavaScript implementation on the public vectors, one
/// test per tier so the per-tier counts show in the results.
@Suite struct VectorTests {
  /// Every tier holds the cases the repository's copy holds, so none of the tests below can
  /// pass by running zero cases.
  @Test func vectorsArePresent() {
    #expect(ThumbHashVectors.loaded, "vectors.json not found at \(ThumbHashVectors.directory.path)")
    let expected = ThumbHashVectors.expectedCounts
    #expect(ThumbHashVectors.all.count == expected.all)
    #expect(ThumbHashVectors.cases(tier: "robust").count == expected.robust)
    #expect(ThumbHashVectors.cases(tier: "tight").count == expected.tight)
    #expect(ThumbHashVectors.cases(tier: "fragile").count == expected.fragile)
    #expect(ThumbHashVectors.cases(tier: "noise").count == expected.noise)
    #expect(ThumbHashVectors.decodeOnly.count == expected.decodeOnly)
  }

  @Test(arguments: ThumbHashVectors.cases(tier: "robust"))
  func robust(_ vector: ThumbHashVectors.Case) throws { try check(vector) }

  @Test(arguments: ThumbHashVectors.cases(tier: "tight"))
  func tight(_ vector: ThumbHashVectors.Case) throws { try check(vector) }

  @Test(arguments: ThumbHashVectors.cases(tier: "fragile"))
  func fragile(_ vector: ThumbHashVectors.Case) throws { try check(vector) }

  @Test(arguments: ThumbHashVectors.cases(tier: "noise"))
  func noise(_ vector: ThumbHashVectors.Case) throws { try check(vector) }

  @Test(arguments: ThumbHashVectors.decodeOnly)
  func decodeOnly(_ vector: ThumbHashVectors.DecodeCase) throws {
    let hash = try ThumbHashBase64.decode(vector.hashBase64)
    try checkDecoding(
      hash, average: vector.averageRGBA, aspect: vector.aspect, decoded: vector.decoded)
  }

  /// Encodes the image and compares the hash, then checks decoding of the reference hash.
  private func check(_ vector: ThumbHashVectors.Case) throws {
    let pixels = try vector.pixels()
    let hash = try ThumbHash.encode(width: vector.w, height: vector.h, rgba: pixels)
    #expect(ThumbHashBase64.encode(hash) == vector.hashBase64)
    let reference = try ThumbHashBase64.decode(vector.hashBase64)
    try checkDecoding(
      reference, average: vector.averageRGBA, aspect: vector.aspect, decoded: vector.decoded)
  }

  private func checkDecoding(
    _ hash: [UInt8], average: [Double], aspect: Double, decoded: ThumbHashVectors.Decoded
  ) throws {
    let color = try ThumbHash.averageColor(hash)
    #expect([color.red, color.green, color.blue, color.alpha] == average)
    #expect(try ThumbHash.approximateAspectRatio(hash) == aspect)
    let image = try ThumbHash.decode(hash)
    #expect(image.width == decoded.w)
    #expect(image.height == decoded.h)
    #expect(SHA256.hex(image.rgba) == decoded.sha256)
  }
}
