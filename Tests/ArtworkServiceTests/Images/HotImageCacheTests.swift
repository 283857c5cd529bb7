import Foundation
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

  /// While there is room every body gets in; once the budget is full, only an image turned away
  /// once already (a one-off GET costs its read, not a copy and an eviction as well).
  @Test func onceFullOnlyAnImageAskedForAgainGetsIn() {
    let cache = HotImageCache(budget: 800)
    for n in 1...8 {
      #expect(cache.admits(key(UInt8(n)), count: 100))
      cache.insert(key(UInt8(n)), SharedBody([UInt8](repeating: 1, count: 100)))
    }
    #expect(cache.totalBytes == 800)
    #expect(!cache.admits(key(20), count: 100), "the first time: turned away")
    #expect(cache.admits(key(20), count: 100), "asked for again: in")
    #expect(!cache.admits(key(20), count: 100), "the doorkeeper forgets what it let in")
    #expect(!cache.admits(key(30), count: 101), "larger than an eighth of the budget")
    #expect(!cache.admits(key(30), count: 101))
    #expect(!HotImageCache(budget: 0).admits(key(1), count: 1))
  }

  /// A stored file of `count` bytes, taken over by a body (as the filesystem's GET does).
  private func storedFile(_ count: Int) throws -> SharedBody {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cached-\(UUID().uuidString)"
    ).path
    try Data(repeating: 7, count: count).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    return try #require(SharedBody(adoptingFile: open(path, O_RDONLY | O_CLOEXEC), count: count))
  }

  /// Stored files hold no memory of the process: they are bounded by count, not bytes, and
  /// a file larger than an eighth of the memory budget is kept all the same.
  @Test func storedFilesAreBoundedByCountNotBytes() throws {
    let cache = HotImageCache(budget: 800, files: 3)
    cache.insert(key(1), try storedFile(5000))
    cache.insert(key(2), try storedFile(5000))
    cache.insert(key(3), SharedBody([UInt8](repeating: 3, count: 100)))
    #expect(cache.bytes(key(1))?.count == 5000)
    #expect(cache.totalBytes == 100)
    #expect(cache.openFiles == 2)
    cache.insert(key(4), try storedFile(10))
    _ = cache.bytes(key(2))
    _ = cache.bytes(key(4))  // 1 is now the least recently used file
    cache.insert(key(5), try storedFile(10))
    #expect(cache.openFiles == 3)
    #expect(cache.bytes(key(1)) == nil)
    #expect(cache.bytes(key(2)) != nil && cache.bytes(key(5)) != nil)
    #expect(cache.bytes(key(3)) != nil, "a file bound does not evict a body in memory")
    #expect(cache.stats.entries == 4)
  }

  /// Eviction draws a sample: with many entries, each insertion past the bound evicts one, and
  /// what goes is an old entry, not the one just used.
  @Test func evictionAmongManyKeepsTheRecentlyUsed() {
    let cache = HotImageCache(budget: 1000 * 100)
    for n in 0..<1000 {
      cache.insert(
        ArtworkKey(id: ArtworkID(hex: SHA256.hex(Array("\(n)".utf8)))!, format: .jpeg),
        SharedBody([UInt8](repeating: 1, count: 100)))
    }
    #expect(cache.stats.entries == 1000)
    let recent = (900..<1000).map {
      ArtworkKey(id: ArtworkID(hex: SHA256.hex(Array("\($0)".utf8)))!, format: .jpeg)
    }
    for key in recent { _ = cache.bytes(key) }
    for n in 1000..<1100 {
      cache.insert(
        ArtworkKey(id: ArtworkID(hex: SHA256.hex(Array("\(n)".utf8)))!, format: .jpeg),
        SharedBody([UInt8](repeating: 1, count: 100)))
    }
    #expect(cache.stats.entries == 1000)
    #expect(cache.totalBytes == 100_000)
    // Each eviction takes the oldest of 16 drawn at random: a just-used entry is among the 200
    // newest, and goes only when all 16 drawn are as new (below 1e-11 each time).
    #expect(recent.allSatisfy { cache.bytes($0, countingMiss: false) != nil })
  }
}
