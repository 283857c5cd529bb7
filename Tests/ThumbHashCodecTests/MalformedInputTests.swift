import Testing

@testable import ThumbHashCodec

/// Every kind of malformed input is a typed error, never a trap.
@Suite struct MalformedInputTests {
  /// A valid opaque portrait hash (17 bytes, from the vectors) and a valid square alpha hash
  /// (25 bytes: 5x5 luminance terms).
  static let opaque = try! ThumbHashBase64.decode("YSgGGwxMX5H65zV3n49W2Ag=")
  static let alpha = try! ThumbHash.encode(
    width: 2, height: 2, rgba: [255, 0, 0, 255, 0, 255, 0, 0, 0, 0, 255, 128, 9, 9, 9, 255])

  @Test func emptyHash() {
    #expect(throws: ThumbHashError.truncatedHash(expected: 5, actual: 0)) {
      try ThumbHash.decode([])
    }
    #expect(throws: ThumbHashError.truncatedHash(expected: 5, actual: 0)) {
      try ThumbHash.averageColor([])
    }
    #expect(throws: ThumbHashError.truncatedHash(expected: 5, actual: 0)) {
      try ThumbHash.approximateAspectRatio([])
    }
  }

  @Test(arguments: 1..<5)
  func shorterThanHeader(length: Int) {
    let hash = Array(Self.opaque.prefix(length))
    #expect(throws: ThumbHashError.truncatedHash(expected: 5, actual: length)) {
      try ThumbHash.decode(hash)
    }
  }

  @Test func alphaHashNeedsAlphaByte() throws {
    #expect(Self.alpha[2] & 0x80 != 0)
    #expect(Self.alpha.count == 25)
    // Five bytes say "alpha", so byte 5 and the AC data are missing.
    #expect(throws: ThumbHashError.truncatedHash(expected: 25, actual: 5)) {
      try ThumbHash.decode(Array(Self.alpha.prefix(5)))
    }
  }

  @Test(arguments: [MalformedInputTests.opaque, MalformedInputTests.alpha])
  func truncatedACData(hash: [UInt8]) throws {
    _ = try ThumbHash.decode(hash)  // the full hash is fine
    for length in 5..<hash.count {
      #expect(throws: ThumbHashError.truncatedHash(expected: hash.count, actual: length)) {
        try ThumbHash.decode(Array(hash.prefix(length)))
      }
    }
  }

  @Test func trailingBytesAreIgnoredAsByTheReference() throws {
    let image = try ThumbHash.decode(Self.opaque)
    #expect(try ThumbHash.decode(Self.opaque + [0xff, 0x00, 0x42]) == image)
  }

  @Test(arguments: [false, true])
  func zeroLuminanceTermsIsAnInvalidHeader(landscape: Bool) {
    var hash = Self.opaque
    hash[3] &= ~7  // the stored term count for the shorter side
    if landscape { hash[4] |= 0x80 } else { hash[4] &= 0x7f }
    #expect(throws: ThumbHashError.invalidHeader) { try ThumbHash.decode(hash) }
    #expect(throws: ThumbHashError.invalidHeader) { try ThumbHash.approximateAspectRatio(hash) }
    #expect(throws: ThumbHashError.invalidHeader) { try ThumbHash.averageColor(hash) }
  }

  @Test(arguments: [
    "!!!!", "YSgG GwxM", "YSg=G", "Y", "YSgGG", "YS=", "YQ===", "YR==", "Y\u{e9}Q=",
  ])
  func badBase64(_ string: String) {
    #expect(throws: ThumbHashError.invalidBase64) { try ThumbHash.decode(base64: string) }
  }

  @Test(arguments: [(0, 1), (1, 0), (101, 1), (1, 101), (-1, 5), (Int.max, 1), (200, 200)])
  func encodeRejectsSizesOutside1To100(width: Int, height: Int) {
    #expect(throws: ThumbHashError.invalidDimensions(width: width, height: height)) {
      try ThumbHash.encode(width: width, height: height, rgba: [])
    }
  }

  @Test(arguments: [0, 1, 399, 401, 800])
  func encodeRejectsWrongBufferLength(length: Int) {
    #expect(throws: ThumbHashError.pixelBufferLength(expected: 400, actual: length)) {
      try ThumbHash.encode(width: 10, height: 10, rgba: [UInt8](repeating: 7, count: length))
    }
    #expect(throws: ThumbHashError.pixelBufferLength(expected: 400, actual: length)) {
      try ThumbHashImage(width: 10, height: 10, rgba: [UInt8](repeating: 7, count: length))
    }
  }

  @Test func errorsDescribeThemselves() {
    let errors: [ThumbHashError] = [
      .invalidDimensions(width: 0, height: 3), .pixelBufferLength(expected: 4, actual: 3),
      .truncatedHash(expected: 5, actual: 2), .invalidHeader, .invalidBase64,
    ]
    for error in errors { #expect(!error.description.isEmpty) }
  }
}
