import ArtworkCore
import JPEGDecoding
import TestSupport
import Testing

@Suite struct JPEGDecoderTests {
  /// coffee.jpg: a 600x400 RGB photo (testimages/README.md).
  let coffee = PinnedBytes(copying: Fixtures.bytes("coffee.jpg"))

  @Test func readsTheHeaderOfAPhoto() throws {
    let header = try #require(JPEGDecoder.header(coffee))
    #expect(header.width == 600 && header.height == 400)
    #expect(header.isSupported && header.space == .rgb && header.channels == 3)
  }

  @Test func readsAGreyHeaderAsGrey() throws {
    let header = try #require(JPEGDecoder.header(PinnedBytes(copying: Fixtures.bytes("grey.jpg"))))
    #expect(header.space == .grey && header.channels == 1)
  }

  @Test func findsNoHeaderInWhatIsNotAJPEG() {
    #expect(JPEGDecoder.header(PinnedBytes(copying: [UInt8]())) == nil)
    #expect(JPEGDecoder.header(PinnedBytes(copying: Fixtures.bytes("chelsea.png"))) == nil)
    #expect(
      JPEGDecoder.header(PinnedBytes(copying: Fixtures.bytes("coffee.jpg").prefix(40))) == nil)
  }

  @Test func decodesARectangleAtAScaleOfEighths() throws {
    let size = JPEGDecoder.scaledSize(width: 600, height: 400, eighths: 2)
    #expect(size.width == 150 && size.height == 100)
    let pixels = try JPEGDecoder.rgb(coffee, eighths: 2, crop: (10, 20, 30, 40))
    #expect(pixels.count == 30 * 40 * 3)
    // A photo, not a blank: its samples vary.
    #expect(Set(pixels).count > 16)
  }

  @Test func refusesARectangleOutsideThePicture() {
    #expect(throws: JPEGDecoder.Failure.self) {
      try JPEGDecoder.rgb(coffee, eighths: 1, crop: (590, 0, 20, 10))
    }
  }

  @Test func findsDamageAfterTheRectangle() {
    // The header and the first scans are whole; the data ends two thirds of the way through.
    let bytes = Fixtures.bytes("coffee.jpg")
    let cut = PinnedBytes(copying: bytes.prefix(bytes.count * 2 / 3))
    #expect(JPEGDecoder.header(cut) != nil)
    #expect {
      try JPEGDecoder.rgb(cut, eighths: 1, crop: (0, 0, 8, 8))
    } throws: { error in
      guard case .damaged = error as? JPEGDecoder.Failure else { return false }
      return true
    }
  }
}
