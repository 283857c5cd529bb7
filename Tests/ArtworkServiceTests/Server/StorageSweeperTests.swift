import Foundation
import Glibc
import Observability
import Testing

@testable import ArtworkCore
@testable import ArtworkService
@testable import Storage

@Suite struct StorageSweeperTests {
  @Test(arguments: [
    (Duration.seconds(30 * 86400), Duration.seconds(3600)),
    (Duration.seconds(86400), Duration.seconds(3600)),
    (Duration.seconds(3600), Duration.seconds(150)),
    (Duration.seconds(600), Duration.seconds(60)),
  ])
  func intervalIsATwentyFourthWithinBounds(retention: Duration, interval: Duration) {
    #expect(StorageSweeper.interval(for: retention) == interval)
  }

  /// The background sweeper removes an object not requested for longer than the retention and
  /// keeps a recent one.
  @Test func removesOnlyObjectsPastRetention() async throws {
    let directory =
      FileManager.default.temporaryDirectory.path
      + "/artwork-sweeper-\(UInt64.random(in: 0...UInt64.max))"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let storage = try FileSystemStorage(directory: directory)
    let old = ArtworkKey(id: ArtworkID(hex: SHA256.hex([1]))!, format: .jpeg)
    let recent = ArtworkKey(id: ArtworkID(hex: SHA256.hex([2]))!, format: .png)
    try await storage.put(old, bytes: [1, 2, 3])
    try await storage.put(recent, bytes: [4, 5, 6])
    // Two days without a request.
    let then = Int(time(nil)) - 2 * 86400
    var times = [timespec(tv_sec: then, tv_nsec: 0), timespec(tv_sec: then, tv_nsec: 0)]
    #expect(utimensat(AT_FDCWD, storage.objectPath(old), &times, 0) == 0)

    let sweeper = StorageSweeper(
      storage: storage, retention: .seconds(86400), retentionInterval: .milliseconds(50),
      logger: Logger(level: .error))
    defer { sweeper.stop() }
    var removed = false
    for _ in 0..<200 where !removed {
      removed = !FileManager.default.fileExists(atPath: storage.objectPath(old))
      if !removed { try await Task.sleep(for: .milliseconds(50)) }
    }
    #expect(removed)
    #expect(FileManager.default.fileExists(atPath: storage.objectPath(recent)))
  }

  /// Without a retention (ARTWORK_RETENTION=0) the sweeper still removes abandoned temp files.
  @Test func removesAbandonedWritesWithoutRetention() async throws {
    let directory =
      FileManager.default.temporaryDirectory.path
      + "/artwork-sweeper-\(UInt64.random(in: 0...UInt64.max))"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let storage = try FileSystemStorage(directory: directory)
    let abandoned = directory + "/tmp/1-abandoned.tmp"
    let fresh = directory + "/tmp/1-in-progress.tmp"
    #expect(FileManager.default.createFile(atPath: abandoned, contents: Data([1])))
    #expect(FileManager.default.createFile(atPath: fresh, contents: Data([2])))
    let then = Int(time(nil)) - 3600
    var times = [timespec(tv_sec: then, tv_nsec: 0), timespec(tv_sec: then, tv_nsec: 0)]
    #expect(utimensat(AT_FDCWD, abandoned, &times, 0) == 0)

    let sweeper = StorageSweeper(
      storage: storage, retention: nil, retentionInterval: .seconds(3600),
      abandonedInterval: .milliseconds(50), logger: Logger(level: .error))
    defer { sweeper.stop() }
    var removed = false
    for _ in 0..<200 where !removed {
      removed = !FileManager.default.fileExists(atPath: abandoned)
      if !removed { try await Task.sleep(for: .milliseconds(50)) }
    }
    #expect(removed)
    #expect(FileManager.default.fileExists(atPath: fresh))
  }
}
