import ArtworkCore
import HTTP
import Synchronization

/// Recently served artwork kept in memory, so that a popular image is not read from storage on
/// every request (with S3, a signed GET to the store each time).
///
/// Objects are immutable (their name is their hash), so an entry can never be stale. Entries do
/// expire after `lifetime` all the same: storage must see a read now and then, because reads are
/// what keeps an object from being swept by retention. Bounded by total bytes; least recently
/// used first out.
final class HotImageCache: Sendable {
  /// An object so that a hit marks its use in place: one lookup, no entry copied out and
  /// written back (with its retains) on every GET. Touched only under the state's lock.
  private final class Entry {
    /// The bytes, in a sealed in-memory file that answers send straight from the kernel.
    let body: SharedBody
    /// The header fields of its 200 answer, built once.
    let headers: HTTPHeaders
    /// When the entry stops being answered from memory (`lifetime` after it was stored).
    let expires: Moment
    var lastUse: UInt64

    init(body: SharedBody, headers: HTTPHeaders, expires: Moment, lastUse: UInt64) {
      self.body = body
      self.headers = headers
      self.expires = expires
      self.lastUse = lastUse
    }
  }

  private struct State {
    var entries: [ArtworkKey: Entry] = [:]
    var totalBytes = 0
    var tick: UInt64 = 0
    /// Images deleted lately, and when: not inserted again for `deletedWindow`.
    var deleted: [ArtworkKey: ContinuousClock.Instant] = [:]
  }

  /// How long a deleted image is kept out: longer than any read of storage that began before
  /// the deletion can take, so such a read cannot put it back.
  static var deletedWindow: Duration { .seconds(60) }

  private let state = Mutex(State())
  /// Lookups answered from memory, and lookups that had to read storage (for /metrics).
  private let hits = Atomic<Int>(0)
  private let misses = Atomic<Int>(0)
  private let budget: Int
  private let lifetime: Duration

  /// - Parameters:
  ///   - budget: most bytes held; 0 disables the cache.
  ///   - lifetime: how long an entry is answered before storage is read again.
  init(budget: Int, lifetime: Duration = .seconds(3600)) {
    self.budget = budget
    self.lifetime = lifetime
  }

  /// The object's bytes if cached and not expired, read back from its body (for tests). A hit
  /// is counted; a miss too unless `countingMiss` is false.
  func bytes(_ key: ArtworkKey, countingMiss: Bool = true) -> [UInt8]? {
    image(key, countingMiss: countingMiss)?.body.bytes()
  }

  /// The object's body and the header fields of its 200 answer, if cached and not expired: a hot
  /// image's answer builds nothing and copies nothing. A hit is counted; a miss too unless
  /// `countingMiss` is false (a first look that another will repeat before storage is read).
  func image(_ key: ArtworkKey, countingMiss: Bool = true) -> (
    body: SharedBody, headers: HTTPHeaders
  )? {
    let found = lookUp(key)
    if found != nil {
      hits.add(1, ordering: .relaxed)
    } else if countingMiss {
      misses.add(1, ordering: .relaxed)
    }
    return found
  }

  private func lookUp(_ key: ArtworkKey) -> (body: SharedBody, headers: HTTPHeaders)? {
    guard budget > 0 else { return nil }
    let now = Moment.now
    return state.withLock { state in
      guard let entry = state.entries[key] else { return nil }
      guard now < entry.expires else {
        state.totalBytes -= entry.body.count
        state.entries[key] = nil
        return nil
      }
      state.tick += 1
      entry.lastUse = state.tick
      return (entry.body, entry.headers)
    }
  }

  /// Whether an object of `count` bytes would be kept: not when the cache is off, nor when it
  /// is larger than an eighth of the budget (it would evict too much).
  func keeps(_ count: Int) -> Bool { budget > 0 && count <= budget / 8 }

  /// Keeps `body` for `key`, evicting the least recently used entries to stay within budget;
  /// nothing when `keeps` says no.
  func insert(_ key: ArtworkKey, _ body: SharedBody, headers: HTTPHeaders = HTTPHeaders()) {
    guard keeps(body.count) else { return }
    let now = ContinuousClock.now
    state.withLock { state in
      if let deleted = state.deleted[key], now - deleted < Self.deletedWindow { return }
      if let old = state.entries[key] { state.totalBytes -= old.body.count }
      state.tick += 1
      state.entries[key] = Entry(
        body: body, headers: headers, expires: Moment.now + lifetime, lastUse: state.tick)
      state.totalBytes += body.count
      while state.totalBytes > budget,
        let victim = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
      {
        state.totalBytes -= victim.value.body.count
        state.entries[victim.key] = nil
      }
    }
  }

  /// Drops `key`'s entry (its image was deleted), and keeps it out for `deletedWindow`: a GET
  /// that read the object from storage just before the deletion must not put it back. Answers
  /// whether there was an entry.
  @discardableResult
  func remove(_ key: ArtworkKey) -> Bool {
    let now = ContinuousClock.now
    return state.withLock { state in
      state.deleted = state.deleted.filter { now - $0.value < Self.deletedWindow }
      state.deleted[key] = now
      guard let entry = state.entries.removeValue(forKey: key) else { return false }
      state.totalBytes -= entry.body.count
      return true
    }
  }

  /// Bytes held now (for tests and metrics).
  var totalBytes: Int { state.withLock { $0.totalBytes } }

  /// What /metrics reports: lookups so far, and what is held now.
  var stats: (hits: Int, misses: Int, bytes: Int, entries: Int) {
    let (bytes, entries) = state.withLock { ($0.totalBytes, $0.entries.count) }
    return (hits.load(ordering: .relaxed), misses.load(ordering: .relaxed), bytes, entries)
  }
}
