import ArtworkCore
import TestSupport
import Testing
import WebPDecoding

@Suite struct WebPDecoderTests {
  let lossy = Fixtures.bytes("lossy.webp")

  @Test func readsTheFeaturesOfALossyAndAnAlphaPicture() throws {
    let plain = try #require(WebPDecoder.features(PinnedBytes(copying: lossy)))
    #expect(plain.width > 0 && plain.height > 0 && !plain.hasAlpha && !plain.isAnimated)
    let alpha = try #require(
      WebPDecoder.features(PinnedBytes(copying: Fixtures.bytes("lossless-alpha.webp"))))
    #expect(alpha.hasAlpha)
  }

  @Test func findsNoFeaturesInWhatIsNotAWebP() {
    #expect(WebPDecoder.features(PinnedBytes(copying: Fixtures.bytes("coffee.jpg"))) == nil)
    #expect(WebPDecoder.features(PinnedBytes(copying: [UInt8]("RIFF".utf8))) == nil)
  }

  @Test func decodesACropScaledToASize() throws {
    let bytes = PinnedBytes(copying: lossy)
    let features = try #require(WebPDecoder.features(bytes))
    let crop = (x: 0, y: 0, width: features.width / 2, height: features.height / 2)
    let pixels = try WebPDecoder.rgb(bytes, crop: crop, size: (20, 10))
    #expect(pixels.count == 20 * 10 * 3)
    #expect(Set(pixels).count > 8)
  }

  @Test func refusesAnEmptySizeAndACropOutsideThePicture() throws {
    let bytes = PinnedBytes(copying: lossy)
    let features = try #require(WebPDecoder.features(bytes))
    #expect(throws: WebPDecoder.Failure.self) {
      try WebPDecoder.rgb(bytes, crop: (0, 0, 4, 4), size: (0, 4))
    }
    #expect(throws: WebPDecoder.Failure.self) {
      try WebPDecoder.rgb(bytes, crop: (features.width - 2, 0, 8, 8), size: (8, 8))
    }
  }

  @Test func saysCutShortDataIsDamaged() {
    let cut = PinnedBytes(copying: lossy.prefix(lossy.count / 2))
    #expect {
      _ = try WebPDecoder.rgb(cut, crop: (0, 0, 16, 16), size: (16, 16))
    } throws: { error in
      guard case .damaged = error as? WebPDecoder.Failure else { return false }
      return true
    }
  }
}
