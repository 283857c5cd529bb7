import ArtworkCore
import Foundation
import Storage
import Synchronization

/// A storage in front of a real one that takes `latency` longer to answer each call, as a store
/// across a network does, and notes when each call of the request path (objects and records)
/// began and ended: `trips` counts the round trips they made one after another.
final class StorageTrips: ArtworkStorage {
  /// One call: what it was, and when it began and ended.
  struct Call: Sendable {
    let name: String
    let began: ContinuousClock.Instant
    var ended: ContinuousClock.Instant
  }

  let inner: any ArtworkStorage
  let latency: Duration
  private let calls = Mutex<[Call]>([])
  private let recording = Atomic<Bool>(false)

  init(_ inner: any ArtworkStorage, latency: Duration = .milliseconds(150)) {
    self.inner = inner
    self.latency = latency
  }

  /// Notes the calls `body` makes (and only those), and answers them in the order they began.
  func calls<T>(during body: () async throws -> T) async rethrows -> (T, [Call]) {
    calls.withLock { $0.removeAll() }
    recording.store(true, ordering: .sequentiallyConsistent)
    let result = try await body()
    recording.store(false, ordering: .sequentiallyConsistent)
    return (result, calls.withLock { $0 }.sorted { $0.began < $1.began })
  }

  /// The round trips `calls` made one after another: a call that began after every call of the
  /// current trip had ended starts a new one; calls that overlap went out side by side.
  static func trips(_ calls: [Call]) -> [[String]] {
    var trips: [[String]] = []
    var end: ContinuousClock.Instant?
    for call in calls {
      if let last = end, call.began < last {
        trips[trips.count - 1].append(call.name)
        end = max(last, call.ended)
      } else {
        trips.append([call.name])
        end = call.ended
      }
    }
    return trips
  }

  private func timed<T>(_ name: String, _ body: () async throws(ArtworkError) -> T)
    async throws(ArtworkError) -> T
  {
    let began = ContinuousClock.now
    try? await Task.sleep(for: latency)
    defer {
      if recording.load(ordering: .sequentiallyConsistent) {
        let call = Call(name: name, began: began, ended: .now)
        calls.withLock { $0.append(call) }
      }
    }
    return try await body()
  }

  func put(_ key: ArtworkKey, bytes: [UInt8]) async throws(ArtworkError) -> Bool {
    try await timed("put object") { () throws(ArtworkError) in
      try await inner.put(key, bytes: bytes)
    }
  }
  func get(_ key: ArtworkKey) async throws(ArtworkError) -> StoredObject? {
    try await timed("get object") { () throws(ArtworkError) in try await inner.get(key) }
  }
  func head(_ key: ArtworkKey) async throws(ArtworkError) -> Int? {
    try await timed("head object") { () throws(ArtworkError) in try await inner.head(key) }
  }
  func putRecord(_ name: String, bytes: [UInt8]) async throws(ArtworkError) {
    try await timed("put \(Self.kind(name))") { () throws(ArtworkError) in
      try await inner.putRecord(name, bytes: bytes)
    }
  }
  func getRecord(_ name: String) async throws(ArtworkError) -> [UInt8]? {
    try await timed("get \(Self.kind(name))") { () throws(ArtworkError) in
      try await inner.getRecord(name)
    }
  }
  func delete(_ key: ArtworkKey) async throws(ArtworkError) -> Bool {
    try await timed("delete object") { () throws(ArtworkError) in try await inner.delete(key) }
  }
  func deleteRecord(_ name: String) async throws(ArtworkError) {
    try await timed("delete \(Self.kind(name))") { () throws(ArtworkError) in
      try await inner.deleteRecord(name)
    }
  }

  // Not on a request's path: passed through as they are.
  func putDeletionNotice(_ name: String) async throws(ArtworkError) {
    try await inner.putDeletionNotice(name)
  }
  func deletionNotices(after name: String?) async throws(ArtworkError) -> [String] {
    try await inner.deletionNotices(after: name)
  }
  /// Readiness probes made so far.
  let probes = Atomic<Int>(0)

  func readinessProblem() async -> StorageProblem? {
    probes.add(1, ordering: .relaxed)
    try? await Task.sleep(for: latency)
    return await inner.readinessProblem()
  }
  func freeSpace() -> (free: Int, kept: Int)? { inner.freeSpace() }
  func removeAbandonedWrites() async -> Int { await inner.removeAbandonedWrites() }
  func stream(_ key: ArtworkKey) async throws(ArtworkError) -> ObjectStream? {
    try await inner.stream(key)
  }
  func sweep(olderThan: Duration, limit: Int) async -> Int {
    await inner.sweep(olderThan: olderThan, limit: limit)
  }
  func release() { inner.release() }

  /// A record's kind, from its name's first segment (`source-cache`, `image-facts`, ...).
  private static func kind(_ name: String) -> String {
    String(name.prefix { $0 != "/" })
  }
}
