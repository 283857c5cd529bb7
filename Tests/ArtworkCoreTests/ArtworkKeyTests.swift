import TestSupport
import Testing

@testable import ArtworkCore

@Suite struct ArtworkKeyTests {
  @Test(arguments: [
    ("\(String(repeating: "a", count: 64)).jpg", true),
    ("\(String(repeating: "0", count: 64)).png", true),
    ("\(String(repeating: "A", count: 64)).jpg", false),
    ("\(String(repeating: "a", count: 63)).jpg", false),
    ("\(String(repeating: "a", count: 64)).gif", false),
    ("\(String(repeating: "a", count: 64)).jpg.png", false),
    ("../\(String(repeating: "a", count: 61)).jpg", false),
    ("", false),
  ])
  func parsesOnlyWellFormedNames(name: String, valid: Bool) {
    let key = ArtworkKey(fileName: name)
    #expect((key != nil) == valid)
    if let key { #expect(key.fileName == name) }
  }

  @Test func anIdReadsBackAsTheDigitsItWasGiven() {
    let digits = Array("0123456789abcdef")
    var generator = SeededRandom()
    for _ in 0..<500 {
      let text = String((0..<64).map { _ in digits.randomElement(using: &generator)! })
      #expect(ArtworkID(hex: text)?.hex == text, "\(text); \(SeededRandom.replay)")
    }
  }

  @Test func anIdRefusesEveryByteThatIsNotALowercaseHexDigit() {
    let valid = Array(String(repeating: "0123456789abcdef", count: 4).utf8)
    let hexDigits = Set("0123456789abcdef".utf8)
    for byte in UInt8.min...UInt8.max where !hexDigits.contains(byte) {
      for position in [0, 15, 16, 31, 47, 63] {
        var bytes = valid
        bytes[position] = byte
        let id = bytes.withUnsafeBytes { ArtworkID(hexDigits: $0) }
        #expect(id == nil, "byte \(byte) at \(position)")
      }
    }
  }

  @Test func posterIsExactlyTwoByThree() {
    for size in ArtworkOptions.sizeRange {
      let (w, h) = ArtworkOptions(shape: .poster, size: size).outputSize
      #expect(w * 3 == h * 2)
      #expect(w == size || w == size - 1)
    }
  }
}

@Suite struct SHA256Tests {
  @Test func knownDigests() {
    #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256.hex(Array("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }
}
