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
