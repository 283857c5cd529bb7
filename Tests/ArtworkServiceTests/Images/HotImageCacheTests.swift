import HTTP
import Testing

@testable import ArtworkCore
@testable import ArtworkService

@Suite struct HotImageCacheTests {
  private func key(_ n: UInt8) -> ArtworkKey {
    ArtworkKey(id: ArtworkID(hex: SHA256.hex([n]))!, format: .jpeg)
  }

  @Test func answersWhatWasInserted() {
    let cache = HotImageCache(budget: 1000)
    #expect(cache.bytes(key(1)) == nil)
    cache.insert(key(1), SharedBody([1, 2, 3]))
    #expect(cache.bytes(key(1)) == [1, 2, 3])
    #expect(cache.totalBytes == 3)
  }

  @Test func evictsTheLeastRecentlyUsedToStayWithinBudget() {
    let cache = HotImageCache(budget: 800)
    cache.insert(key(1), SharedBody([UInt8](repeating: 1, count: 100)))
    cache.insert(key(2), SharedBody([UInt8](repeating: 2, count: 100)))
    _ = cache.bytes(key(1))  // 1 is now more recent than 2
    for n in 3...9 {
      cache.insert(key(UInt8(n)), SharedBody([UInt8](repeating: UInt8(n), count: 100)))
    }
    #expect(cache.totalBytes <= 800)
    #expect(cache.bytes(key(2)) == nil)
    #expect(cache.bytes(key(1)) != nil)
    #expect(cache.bytes(key(9)) != nil)
  }

  /// A deleted image leaves at once and is not put back by a read that began before.
  @Test func aRemovedImageIsGoneAndKeptOutAWhile() {
    let cache = HotImageCache(budget: 1000)
    cache.insert(key(1), SharedBody([1, 2, 3]))
    cache.insert(key(2), SharedBody([4]))
    #expect(cache.remove(key(1)))
    #expect(cache.bytes(key(1)) == nil)
    #expect(cache.totalBytes == 1)
    cache.insert(key(1), SharedBody([1, 2, 3]))
    #expect(cache.bytes(key(1)) == nil, "kept out for the deleted window")
    #expect(!cache.remove(key(3)))
    #expect(cache.bytes(key(2)) == [4])
  }

  @Test func keepsNothingLargerThanAnEighthOfTheBudget() {
    let cache = HotImageCache(budget: 800)
    cache.insert(key(1), SharedBody([UInt8](repeating: 1, count: 101)))
    #expect(cache.bytes(key(1)) == nil)
    #expect(cache.totalBytes == 0)
  }

  @Test func aZeroBudgetKeepsNothing() {
    let cache = HotImageCache(budget: 0)
    cache.insert(key(1), SharedBody([1]))
    #expect(cache.bytes(key(1)) == nil)
  }

  @Test func entriesExpireSoStorageSeesReads() async throws {
    let cache = HotImageCache(budget: 1000, lifetime: .milliseconds(20))
    cache.insert(key(1), SharedBody([1]))
    try await Task.sleep(for: .milliseconds(60))
    #expect(cache.bytes(key(1)) == nil)
    #expect(cache.totalBytes == 0)
  }
}
