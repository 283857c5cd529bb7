import Testing

@testable import Pixels

@Suite struct AttentionWindowTests {
  static func preview(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8))
    -> LinearPreview
  {
    let bytes = (0..<height).flatMap { y in
      (0..<width).flatMap { x in
        let (r, g, b) = pixel(x, y)
        return [r, g, b]
      }
    }
    return bytes.withUnsafeBufferPointer {
      LinearPreview(
        pixels: $0.baseAddress!, width: width, height: height, layout: .rgb, rowBytes: width * 3,
        longSide: 160)
    }
  }

  @Test func aFlatPictureKeepsTheCentre() {
    let flat = Self.preview(width: 150, height: 100) { _, _ in (90, 120, 140) }
    let origin = AttentionWindow.origin(in: flat, window: (67, 100))
    #expect(origin.x == (150 - 67) / 2 && origin.y == 0)
  }

  @Test(arguments: [10, 75, 130])
  func aColourfulTexturedSubjectDrawsTheWindow(subjectX: Int) {
    // Grey, with a saturated, textured 20-pixel subject centred on `subjectX`.
    let picture = Self.preview(width: 150, height: 100) { x, y in
      guard abs(x - subjectX) < 10, abs(y - 50) < 10 else { return (128, 128, 128) }
      return (x + y) % 3 == 0 ? (230, 40, 30) : (250, 200, 20)
    }
    let origin = AttentionWindow.origin(in: picture, window: (67, 100))
    #expect(origin.y == 0)
    #expect(origin.x <= subjectX - 10 && subjectX + 10 <= origin.x + 67, "window at \(origin.x)")
  }

  @Test func skinTonesCountEvenWhenSmooth() {
    // A smooth skin-toned patch on the right against a smooth blue-grey.
    let picture = Self.preview(width: 100, height: 150) { _, y in
      y > 110 ? (224, 172, 138) : (100, 110, 125)
    }
    let origin = AttentionWindow.origin(in: picture, window: (100, 67))
    #expect(origin.x == 0)
    #expect(origin.y + 67 >= 140, "window at \(origin.y)")
  }

  /// Texture over most of the picture (grain, foliage, a patterned wall) is what every part has:
  /// a face-toned subject beside it draws the window, though the texture holds more detail.
  @Test func texturedSurroundingsDoNotOutweighASubject() {
    let picture = Self.preview(width: 150, height: 100) { x, y in
      if (5..<40).contains(x), (30..<70).contains(y) { return (224, 172, 138) }
      guard x >= 50 else { return (110, 110, 110) }
      return (x * 7 + y * 13) % 5 < 2 ? (150, 150, 150) : (95, 95, 95)
    }
    let origin = AttentionWindow.origin(in: picture, window: (67, 100))
    #expect(origin.x <= 5, "window at \(origin.x)")
  }

  @Test func equalInterestStaysNearestTheCentre() {
    #expect(AttentionWindow.bestStart([1, 1, 1, 1, 1, 1, 1], span: 3) == 2)
    #expect(AttentionWindow.bestStart([0, 0, 0, 0, 0, 9, 9], span: 2) == 5)
    // A gain under 5% does not move the window.
    #expect(AttentionWindow.bestStart([1, 1, 1, 1, 1.04], span: 1) == 2)
  }

  @Test func previewsAverageBlocksInLinearLight() {
    let stripes = Self.preview(width: 320, height: 10) { x, _ in
      x % 2 == 0 ? (0, 0, 0) : (255, 255, 255)
    }
    #expect(stripes.factor == 2 && stripes.width == 160 && stripes.height == 5)
    #expect(abs(stripes.pixels[7][0] - 0.5) < 1e-6)
    let odd = Self.preview(width: 161, height: 3) { x, _ in x == 160 ? (255, 255, 255) : (0, 0, 0) }
    #expect(odd.width == 81)
    // The last block holds one pixel only, and its mean is that pixel.
    #expect(odd.pixels[80][0] == 1)
  }
}
