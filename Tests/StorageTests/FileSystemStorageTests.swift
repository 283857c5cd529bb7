import Foundation
import Glibc
import Testing

@testable import ArtworkCore
@testable import Storage

/// A fresh storage directory under the system temp directory, removed by `cleanUp()`.
private struct Scratch {
  let path: String
  init() {
    path =
      FileManager.default.temporaryDirectory.path
      + "/artwork-fs-\(UInt64.random(in: 0...UInt64.max))"
  }
  func cleanUp() { try? FileManager.default.removeItem(atPath: path) }
}

private func key(_ text: String, _ format: StoredFormat = .jpeg) -> ArtworkKey {
  ArtworkKey(id: ArtworkID(hex: SHA256.hex(Array(text.utf8)))!, format: format)
}

/// Every regular file under `directory`, relative to it.
private func files(under directory: String) -> [String] {
  let enumerator = FileManager.default.enumerator(atPath: directory)
  var found: [String] = []
  while let name = enumerator?.nextObject() as? String {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory),
      !isDirectory.boolValue
    {
      found.append(name)
    }
  }
  return found.sorted()
}

/// Sets a file's modification time `seconds` into the past.
private func age(_ path: String, by seconds: Int) {
  let then = Int(time(nil)) - seconds
  var times = [timespec(tv_sec: then, tv_nsec: 0), timespec(tv_sec: then, tv_nsec: 0)]
  #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
}

private func modified(_ path: String) -> Int {
  var info = stat()
  #expect(stat(path, &info) == 0)
  return Int(info.st_mtim.tv_sec)
}

@Suite struct FileSystemStorageTests {
  @Test func putGetHeadRoundTripWithFanOut() async throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let storage = try FileSystemStorage(directory: scratch.path + "/")
    let k = key("one", .png)
    #expect(try await storage.get(k) == nil)
    #expect(try await storage.head(k) == nil)
    let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    try await storage.put(k, bytes: bytes)
    #expect(try await storage.get(k)?.bytes == bytes)
    #expect(try await storage.get(k)?.key == k)
    #expect(try await storage.head(k) == 5000)
    let hex = k.id.hex
    let expected = "objects/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))/\(hex).png"
    #expect(files(under: scratch.path).filter { $0 != "lock" } == [expected])
    // Storing again is success and keeps the first object (ids are content hashes).
    try await storage.put(k, bytes: [1, 2, 3])
    #expect(try await storage.get(k)?.bytes == bytes)
    #expect(try await storage.get(key("other")) == nil)
  }

  @Test func concurrentPutsOfOneKeyAllSucceedAndLeaveNoTempFiles() async throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let storage = try FileSystemStorage(directory: scratch.path)
    let k = key("shared")
    let bytes = [UInt8](repeating: 0xAB, count: 200_000)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<16 {
        group.addTask { try await storage.put(k, bytes: bytes) }
      }
      for index in 0..<16 {
        group.addTask { try await storage.put(key("distinct \(index)"), bytes: [UInt8(index)]) }
      }
      try await group.waitForAll()
    }
    #expect(try await storage.get(k)?.bytes == bytes)
    for index in 0..<16 {
      #expect(try await storage.get(key("distinct \(index)"))?.bytes == [UInt8(index)])
    }
    #expect(files(under: scratch.path + "/tmp").isEmpty)
    #expect(files(under: scratch.path + "/objects").count == 17)
  }

  /// What a kill -9 mid-write leaves, partial temp files, goes at the next start: the lock
  /// means no other process can be writing them. The periodic sweep removes only old ones.
  @Test func leftoverTempFilesGoAtStartAndOldOnesPeriodically() async throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    _ = try FileSystemStorage(directory: scratch.path)
    let stale = scratch.path + "/tmp/123-dead.tmp"
    let young = scratch.path + "/tmp/456-dead.tmp"
    try Data([1, 2, 3]).write(to: URL(fileURLWithPath: stale))
    try Data([4, 5]).write(to: URL(fileURLWithPath: young))
    var storage: FileSystemStorage? = try FileSystemStorage(directory: scratch.path)
    #expect(files(under: scratch.path + "/tmp").isEmpty)
    #expect(try await storage?.get(key("anything")) == nil)
    #expect(await storage?.readinessProblem() == nil)

    try Data([1, 2, 3]).write(to: URL(fileURLWithPath: stale))
    try Data([4, 5]).write(to: URL(fileURLWithPath: young))
    age(stale, by: 3600)
    #expect(await storage?.removeAbandonedWrites() == 1)
    #expect(files(under: scratch.path + "/tmp") == ["456-dead.tmp"])
    storage = nil
  }

  /// Below the free-space margin a new object is refused as insufficient storage (no retry
  /// hint), readiness says the filesystem is nearly full, and nothing is left behind.
  @Test func refusesNewObjectsBelowTheFreeSpaceMargin() async throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let roomy = try FileSystemStorage(directory: scratch.path + "/roomy", minFreeBytes: 1)
    try await roomy.put(key("fits"), bytes: [1, 2, 3])
    #expect(await roomy.readinessProblem() == nil)

    let storage = try FileSystemStorage(directory: scratch.path + "/tight", minFreeBytes: 1 << 60)
    let error = await #expect(throws: ArtworkError.self) {
      try await storage.put(key("no room"), bytes: [1, 2, 3])
    }
    #expect(error?.kind == .insufficientStorage)
    #expect(error?.retryAfter == nil)
    #expect(error?.detail.contains("/") == false)
    #expect(error?.internalDetail?.contains("kept free") == true)
    #expect(try await storage.get(key("no room")) == nil)
    #expect(files(under: scratch.path + "/tight/tmp").isEmpty)
    #expect(files(under: scratch.path + "/tight/objects").isEmpty)
    let problem = try #require(await storage.readinessProblem())
    #expect(problem.summary.hasPrefix("the storage filesystem is nearly full"))
    #expect(problem.detail.contains("kept free"))
  }

  /// One process owns a storage directory: a second opening is refused while the first is
  /// open, and allowed once it is closed.
  @Test func aSecondOpeningIsRefused() throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    var first: FileSystemStorage? = try FileSystemStorage(directory: scratch.path)
    let error = #expect(throws: StorageProblem.self) {
      try FileSystemStorage(directory: scratch.path)
    }
    #expect(error?.summary == "another artwork server is using the storage directory")
    #expect(first != nil)
    first = nil
    _ = try FileSystemStorage(directory: scratch.path)
  }

  @Test func recordsOverwriteAtomically() async throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let storage = try FileSystemStorage(directory: scratch.path)
    let name = "https://example.com/poster.jpg?size=400&shape=poster"
    #expect(try await storage.getRecord(name) == nil)
    try await storage.putRecord(name, bytes: Array("first".utf8))
    try await storage.putRecord(name, bytes: Array("second, longer".utf8))
    #expect(try await storage.getRecord(name) == Array("second, longer".utf8))
    try await storage.putRecord("", bytes: [])
    #expect(try await storage.getRecord("") == [])
    let hash = SHA256.hex(Array(name.utf8))
    #expect(files(under: scratch.path + "/records").contains("\(hash.prefix(2))/\(hash)"))
    #expect(files(under: scratch.path + "/tmp").isEmpty)
  }

  @Test func readingMarksObjectsAtMostOncePerDay() async throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let storage = try FileSystemStorage(directory: scratch.path)
    let old = key("old")
    let recent = key("recent")
    try await storage.put(old, bytes: [1])
    try await storage.put(recent, bytes: [2])
    age(storage.objectPath(old), by: 40 * 86400)
    age(storage.objectPath(recent), by: 3600)
    let recentMark = modified(storage.objectPath(recent))
    _ = try await storage.get(old)
    _ = try await storage.get(recent)
    #expect(modified(storage.objectPath(old)) > Int(time(nil)) - 60)
    #expect(modified(storage.objectPath(recent)) == recentMark)
    age(storage.objectPath(old), by: 2 * 86400)
    _ = try await storage.head(old)
    #expect(modified(storage.objectPath(old)) > Int(time(nil)) - 60)
  }

  @Test func sweepRemovesOnlyUnrequestedObjectsInBoundedPasses() async throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let storage = try FileSystemStorage(directory: scratch.path)
    var expired: [ArtworkKey] = []
    for index in 0..<30 {
      let k = key("object \(index)")
      try await storage.put(k, bytes: [UInt8(index)])
      if index % 3 != 0 {
        age(storage.objectPath(k), by: 31 * 86400)
        expired.append(k)
      }
    }
    try await storage.putRecord("stale record", bytes: [1])
    try await storage.putRecord("fresh record", bytes: [2])
    age(storage.recordPath("stale record"), by: 31 * 86400)
    // A file that is not ours is never removed, however old.
    let foreign = storage.objectPath(expired[0]) + ".bak"
    try Data([9]).write(to: URL(fileURLWithPath: foreign))
    age(foreign, by: 400 * 86400)

    var removed = 0
    var passes = 0
    while removed < expired.count + 1 && passes < 10_000 {
      let now = await storage.sweep(olderThan: .seconds(30 * 86400), limit: 64)
      #expect(now <= 64)
      removed += now
      passes += 1
    }
    #expect(removed == expired.count + 1)
    #expect(passes > 1, "a pass with a small limit must not sweep everything")
    for index in 0..<30 {
      let stored = try await storage.head(key("object \(index)")) != nil
      #expect(stored == (index % 3 == 0))
    }
    #expect(try await storage.getRecord("stale record") == nil)
    #expect(try await storage.getRecord("fresh record") == [2])
    #expect(FileManager.default.fileExists(atPath: foreign))
    // A full cycle later nothing else goes.
    #expect(await storage.sweep(olderThan: .seconds(30 * 86400), limit: 1_000_000) == 0)
  }

  @Test func readinessReportsAMissingDirectory() async throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let storage = try FileSystemStorage(directory: scratch.path)
    #expect(await storage.readinessProblem() == nil)
    scratch.cleanUp()
    let problem = try #require(await storage.readinessProblem())
    #expect(problem.summary == "a storage directory is missing")
    #expect(problem.detail.contains(scratch.path))
    #expect(!problem.summary.contains("/"))
    await #expect(throws: ArtworkError.self) { try await storage.put(key("x"), bytes: [1]) }
  }

  @Test func readinessReportsADirectoryReplacedByAFile() async throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let storage = try FileSystemStorage(directory: scratch.path)
    try FileManager.default.removeItem(atPath: scratch.path + "/tmp")
    try Data([0]).write(to: URL(fileURLWithPath: scratch.path + "/tmp"))
    let problem = try #require(await storage.readinessProblem())
    #expect(problem.summary == "a storage path that should be a directory is not one")
    let error = await #expect(throws: ArtworkError.self) {
      try await storage.put(key("y"), bytes: [1])
    }
    #expect(error?.kind == .storageUnavailable)
    #expect(error?.retryAfter != nil)
  }

  /// Root ignores file modes, so "not writable" needs a place the kernel refuses even to root:
  /// sysfs does not let anyone create files.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/sys/kernel")))
  func readinessReportsAnUnwritableDirectory() async throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let storage = try FileSystemStorage(directory: scratch.path)
    try FileManager.default.removeItem(atPath: scratch.path + "/tmp")
    try FileManager.default.createSymbolicLink(
      atPath: scratch.path + "/tmp", withDestinationPath: "/sys/kernel")
    let problem = try #require(await storage.readinessProblem())
    #expect(
      problem.summary.contains("not writable") || problem.summary.contains("read-only"),
      "\(problem)")
    let opening = #expect(throws: StorageProblem.self) {
      try FileSystemStorage(directory: "/sys/artwork-storage")
    }
    #expect(opening?.detail.contains("/sys/artwork-storage") == true)
  }

  @Test func initFailsUnderAFile() throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
    try Data([0]).write(to: URL(fileURLWithPath: scratch.path + "/file"))
    let error = #expect(throws: StorageProblem.self) {
      try FileSystemStorage(directory: scratch.path + "/file/storage")
    }
    #expect(error?.summary == "a storage path that should be a directory is not one")
    #expect(error?.detail.hasSuffix("mkdir(\(scratch.path)/file): Not a directory") == true)
  }
}
