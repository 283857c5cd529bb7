import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// Deletion notice names: they sort by time, round-trip, and anything else is no notice.
@Suite struct DeletionNoticeTests {
  static let key = ArtworkKey(
    id: ArtworkID(hex: String(repeating: "0f", count: 32))!, format: .jpeg)

  @Test func namesSortByTimeAndRoundTrip() {
    let early = DeletionNotice(key: Self.key, milliseconds: 999)
    let late = DeletionNotice(key: Self.key, milliseconds: 1_764_650_000_000)
    #expect(early.name == "000000000000999-\(Self.key.fileName)")
    #expect(early.name < late.name)
    #expect(DeletionNotice.cursor(999) < early.name)
    #expect(DeletionNotice.cursor(1000) > early.name)
    #expect(DeletionNotice(name: late.name) == late)
  }

  @Test(arguments: [
    "", "-", "000000000000999", "000000000000999-", "00000000000999-\(key.fileName)",
    "00000000000x999-\(key.fileName)", "000000000000999-\(key.id.hex).gif",
    "000000000000999_\(key.fileName)", "000000000000999-\(key.fileName)/x",
  ])
  func anythingElseIsNoNotice(name: String) {
    #expect(DeletionNotice(name: name) == nil)
  }
}
