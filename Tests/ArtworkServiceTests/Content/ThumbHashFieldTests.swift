import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// The check of a sent `image_thumbhash`.
@Suite struct ThumbHashFieldTests {
  @Test func aThumbHashPasses() throws {
    try ThumbHashField.check("1QcSHQRnh493V4dIh4eXh1h4kJUI")
    try ThumbHashField.check("GYpSpSh4eHt4eHh4eHh4eHh4iIeH")
  }

  /// Jellyfin stores BlurHashes; one sent as image_thumbhash is named as such.
  @Test func aBlurHashIsNamed() {
    for blur in ["LEHV6nWB2yk8pyo0adR*.7kCMdnj", "LGF5]+Yk^6#M@-5c,1J5@[or[Q6."] {
      #expect(ThumbHashField.isBlurHash(blur), "\(blur)")
      do {
        try ThumbHashField.check(blur)
        Issue.record("\(blur) passed")
      } catch {
        #expect(error.kind == .unprocessableContent)
        #expect(error.detail.contains("BlurHash"))
        #expect(error.members.contains(.string("reason", "blurhash")))
      }
    }
  }

  @Test func garbageIsRefusedWithWhy() {
    for garbage in ["", "old", "!!!!", String(repeating: "A", count: 200), "AAAA"] {
      #expect(!ThumbHashField.isBlurHash(garbage) || garbage.isEmpty)
      do {
        try ThumbHashField.check(garbage)
        Issue.record("\(garbage) passed")
      } catch {
        #expect(error.detail.contains("is not a ThumbHash"), "\(error.detail)")
        #expect(error.members.contains(.string("reason", "invalid")))
      }
    }
  }
}
