import TestSupport
import Testing

@testable import ArtworkCore
@testable import PNGMetadata

/// A PNG's compressed metadata is bounded before any decoder sees it: text dropped unread, an
/// ICC profile kept only when it inflates to at most 4 MiB; anything the walk cannot follow is
/// passed on unchanged, never trapped on.
@Suite struct PNGMetadataFilterTests {
  static func chunkTypes(_ bytes: PinnedBytes) -> [String] {
    bytes.withUnsafeBytes { PNGChunk.walk($0) ?? [] }.map(\.type)
  }

  @Test func textChunksAreDroppedUnread() {
    let bomb = PinnedBytes(copying: Fixtures.bytes("hostile/ztxt-bomb.png"))
    #expect(Self.chunkTypes(bomb).filter { $0 == "zTXt" }.count == 19)
    let filtered = PNGMetadataFilter.filtered(bomb)
    #expect(Self.chunkTypes(filtered) == ["IHDR", "IDAT", "IEND"])
    #expect(filtered.count < 200)
  }

  @Test func aProfileThatInflatesPastTheBoundIsDropped() {
    let bomb = PinnedBytes(copying: Fixtures.bytes("hostile/iccp-bomb.png"))
    #expect(Self.chunkTypes(bomb).contains("iCCP"))
    #expect(!Self.chunkTypes(PNGMetadataFilter.filtered(bomb)).contains("iCCP"))
  }

  @Test func aRealProfileIsKeptAndAPNGWithNothingToDropIsTheSameValue() {
    let photo = PinnedBytes(copying: Fixtures.bytes("chelsea.png"))
    let kept = Self.chunkTypes(PNGMetadataFilter.filtered(photo))
    #expect(Self.chunkTypes(photo).filter { $0 != "iTXt" } == kept)
    #expect(kept.contains("iCCP") && kept.last == "IEND")
    let plain = PinnedBytes(copying: Fixtures.bytes("rgba16.png"))
    #expect(PNGMetadataFilter.filtered(plain) === plain)
  }

  @Test func whatTheWalkCannotFollowIsPassedOnUnchanged() {
    let png = Fixtures.bytes("hostile/ztxt-bomb.png")
    for bytes in [
      [UInt8](), Fixtures.bytes("coffee.jpg"), Array(png.prefix(40)), Array(png.prefix(8)),
    ] {
      let input = PinnedBytes(copying: bytes)
      #expect(PNGMetadataFilter.filtered(input) === input)
    }
  }

  /// Mutated PNGs (lengths, types, truncation) never trap the walk or the bound, and whatever
  /// the filter keeps is a prefix-preserving selection of whole chunks.
  @Test func mutatedPNGsNeverTrap() {
    var generator = SeededRandom()
    let sources = [Fixtures.bytes("hostile/iccp-bomb.png"), Fixtures.bytes("tiny-rgba.png")]
    for round in 0..<400 {
      var bytes = sources[round % sources.count]
      for _ in 0..<Int.random(in: 1...8, using: &generator) {
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        bytes[index] = UInt8.random(in: 0...255, using: &generator)
      }
      if round % 3 == 0 {
        bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
      }
      let filtered = PNGMetadataFilter.filtered(PinnedBytes(copying: bytes))
      #expect(filtered.count <= bytes.count, "\(SeededRandom.replay)")
      #expect(
        filtered.prefix(8) == Array(bytes.prefix(8)) || filtered.count == bytes.count,
        "\(SeededRandom.replay)")
    }
  }
}
