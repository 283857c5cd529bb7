import Synchronization
import TestSupport
import Testing

@testable import ArtworkCore
@testable import Storage

/// The `ArtworkStorage` contract as one reusable check, run against every backend
/// (`S3Storage` here; `FileSystemStorage` by its own suite): call `StorageContract.check` from a
/// `@Test` with a fresh, empty storage. Failures are recorded as test issues.
enum StorageContract {
  static func check(_ storage: any ArtworkStorage) async throws {
    try await missingKeysAreNil(storage)
    try await putThenGetRoundTrips(storage)
    try await putIsIdempotent(storage)
    try await concurrentSameKeyPutsAllSucceed(storage)
    try await formatsAreSeparateObjects(storage)
    try await recordsOverwrite(storage)
    try await deletesRemoveObjectsAndRecords(storage)
  }

  /// Samples drawn so far in this run.
  static let samplesDrawn = Atomic<UInt64>(0)

  /// Random bytes and the key they are stored under (the id is their hash, as in production).
  static func sample(_ count: Int = 1_000, format: StoredFormat = .jpeg) -> (ArtworkKey, [UInt8]) {
    // Each sample its own stream of this run's seed, so no two samples are the same bytes.
    let draw = samplesDrawn.add(1, ordering: .relaxed).newValue
    var generator = SeededRandom(seed: SeededRandom.seed &+ draw &* 0x9E37_79B9_7F4A_7C15)
    var bytes = [UInt8](repeating: 0, count: count)
    for start in stride(from: 0, to: count, by: 8) {
      withUnsafeBytes(of: generator.next() as UInt64) { word in
        for offset in 0..<min(8, count - start) { bytes[start + offset] = word[offset] }
      }
    }
    return (ArtworkKey(id: ArtworkID(hex: SHA256.hex(bytes))!, format: format), bytes)
  }

  static func missingKeysAreNil(_ storage: any ArtworkStorage) async throws {
    let (key, _) = sample()
    #expect(try await storage.get(key) == nil)
    #expect(try await storage.head(key) == nil)
    #expect(try await storage.getRecord("https://example.com/never-stored.png") == nil)
  }

  static func putThenGetRoundTrips(_ storage: any ArtworkStorage) async throws {
    let (key, bytes) = sample(70_000)
    try await storage.put(key, bytes: bytes)
    let stored = try await storage.get(key)
    #expect(stored?.key == key)
    #expect(stored?.bytes == bytes)
    #expect(try await storage.head(key) == bytes.count)
  }

  static func putIsIdempotent(_ storage: any ArtworkStorage) async throws {
    let (key, bytes) = sample()
    #expect(try await storage.put(key, bytes: bytes), "the first put creates")
    #expect(try await !storage.put(key, bytes: bytes), "the second finds it stored")
    #expect(try await storage.get(key)?.bytes == bytes)
  }

  static func concurrentSameKeyPutsAllSucceed(_ storage: any ArtworkStorage) async throws {
    let (key, bytes) = sample(200_000, format: .png)
    let created = try await withThrowingTaskGroup(of: Bool.self) { group in
      for _ in 0..<8 {
        group.addTask { try await storage.put(key, bytes: bytes) }
      }
      return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    #expect(created == 1, "exactly one of the concurrent puts created the object")
    #expect(try await storage.get(key)?.bytes == bytes)
    #expect(try await storage.head(key) == bytes.count)
  }

  static func formatsAreSeparateObjects(_ storage: any ArtworkStorage) async throws {
    let (jpeg, bytes) = sample()
    let png = ArtworkKey(id: jpeg.id, format: .png)
    try await storage.put(jpeg, bytes: bytes)
    #expect(try await storage.get(png) == nil)
    #expect(try await storage.head(jpeg) == bytes.count)
  }

  static func recordsOverwrite(_ storage: any ArtworkStorage) async throws {
    var names = SeededRandom()
    let name =
      "https://example.com/poster.jpg?size=\(Int.random(in: 0...1_000_000, using: &names))&q=a b/ü"
    #expect(try await storage.getRecord(name) == nil)
    try await storage.putRecord(name, bytes: Array("first".utf8))
    #expect(try await storage.getRecord(name) == Array("first".utf8))
    try await storage.putRecord(name, bytes: Array("second, longer".utf8))
    #expect(try await storage.getRecord(name) == Array("second, longer".utf8))
    try await storage.putRecord(name, bytes: [])
    #expect(try await storage.getRecord(name) == [])
    #expect(try await storage.getRecord(name + "#other") == nil)
  }

  /// `delete` answers whether the object was stored and leaves nothing to read; `deleteRecord`
  /// of a record that is not there is success. The format is part of the name: deleting the
  /// PNG of an id leaves its JPEG.
  static func deletesRemoveObjectsAndRecords(_ storage: any ArtworkStorage) async throws {
    let (key, bytes) = sample()
    try await storage.put(key, bytes: bytes)
    #expect(try await !storage.delete(ArtworkKey(id: key.id, format: .png)))
    #expect(try await storage.head(key) == bytes.count)
    #expect(try await storage.delete(key))
    #expect(try await storage.get(key) == nil)
    #expect(try await storage.head(key) == nil)
    #expect(try await !storage.delete(key), "a second delete finds nothing")
    #expect(try await storage.put(key, bytes: bytes), "a deleted object can be stored anew")
    let name = "image-facts/\(key.id.hex)"
    try await storage.putRecord(name, bytes: [1, 2, 3])
    try await storage.deleteRecord(name)
    #expect(try await storage.getRecord(name) == nil)
    try await storage.deleteRecord(name)
  }
}
