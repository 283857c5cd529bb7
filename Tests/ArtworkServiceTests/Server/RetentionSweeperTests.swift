import Foundation
import Glibc
import Testing

@testable import ArtworkCore
@testable import ArtworkService
@testable import Storage

@Suite struct RetentionSweeperTests {
  @Test(arguments: [
    (Duration.seconds(30 * 86400), Duration.seconds(3600)),
    (Duration.seconds(86400), Duration.seconds(3600)),
    (Duration.seconds(3600), Duration.seconds(150)),
    (Duration.seconds(600), Duration.seconds(60)),
  ])
  func intervalIsATwentyFourthWithinBounds(retention: Duration, interval: Duration) {
    #expect(RetentionSweeper.interval(for: retention) == interval)
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

    let sweeper = RetentionSweeper(
      storage: storage, retention: .seconds(86400), interval: .milliseconds(50),
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
}
