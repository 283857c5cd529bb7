import ArtworkCore
import HTTP
import Synchronization

/// Recently served artwork kept at hand, so that a popular image is not read from storage on
/// every request (with S3, a signed GET to the store each time).
///
/// Objects are immutable (their name is their hash), so an entry can never be stale. Entries do
/// expire after `lifetime` all the same: storage must see a read now and then, because reads are
/// what keeps an object from being swept by retention. Two kinds of entry, each with its bound:
/// bodies copied into memory (S3's, and the filesystem's when no file can be kept open),
/// bounded by total bytes; stored files kept open (the filesystem's, `SharedBody.isStoredFile`),
/// which hold no memory of the process (their pages are the kernel's page cache) and are bounded
/// by count. When one bound is passed, an entry of that kind goes, the least recently used of a
/// small random sample (all of them while there are few): eviction costs the same however many
/// entries there are.
final class HotImageCache: Sendable {
  /// An object so that a hit marks its use in place: one lookup, no entry copied out and
  /// written back (with its retains) on every GET. Touched only under the state's lock.
  private final class Entry {
    /// The bytes: a sealed in-memory file, or the stored file, that answers send straight from.
    let body: SharedBody
    /// The header fields of its 200 answer, built once.
    let headers: HTTPHeaders
    /// When the entry stops being answered from memory (`lifetime` after it was stored).
    let expires: Moment
    var lastUse: UInt64
    /// Where its key is in `State.keys`.
    var slot: Int

    init(body: SharedBody, headers: HTTPHeaders, expires: Moment, lastUse: UInt64, slot: Int) {
      self.body = body
      self.headers = headers
      self.expires = expires
      self.lastUse = lastUse
      self.slot = slot
    }
  }

  private struct State {
    var entries: [ArtworkKey: Entry] = [:]
    /// Every entry's key, in no order: where eviction draws its sample.
    var keys: [ArtworkKey] = []
    /// Bytes held in memory (stored files not counted), and stored files held open.
    var totalBytes = 0
    var files = 0
    var tick: UInt64 = 0
    /// The sample's draws (xorshift: cheap, and no system call under the lock).
    var draw: UInt64 = 0x9E37_79B9_7F4A_7C15
    /// Images deleted lately, and when: not inserted again for `deletedWindow`.
    var deleted: [ArtworkKey: ContinuousClock.Instant] = [:]
    /// The doorkeeper (`admits`): the hash of an image turned away once, in a slot its hash
    /// picks; a later image with the same slot takes it over.
    var turnedAway = [Int](repeating: 0, count: HotImageCache.doorkeeperSlots)

    mutating func add(_ key: ArtworkKey, _ entry: Entry) {
      entry.slot = keys.count
      keys.append(key)
      entries[key] = entry
      if entry.body.isStoredFile { files += 1 } else { totalBytes += entry.body.count }
    }

    @discardableResult
    mutating func drop(_ key: ArtworkKey) -> Bool {
      guard let entry = entries.removeValue(forKey: key) else { return false }
      let last = keys.removeLast()
      if entry.slot < keys.count {
        keys[entry.slot] = last
        entries[last]?.slot = entry.slot
      }
      if entry.body.isStoredFile { files -= 1 } else { totalBytes -= entry.body.count }
      return true
    }

    /// The least recently used entry of the kind asked (stored files or memory), among a sample
    /// of `sampleSize` drawn at random; among all while there are no more than that.
    mutating func victim(storedFile: Bool) -> ArtworkKey? {
      var best: (key: ArtworkKey, lastUse: UInt64)?
      func consider(_ key: ArtworkKey) {
        guard let entry = entries[key], entry.body.isStoredFile == storedFile else { return }
        if best == nil || entry.lastUse < best!.lastUse { best = (key, entry.lastUse) }
      }
      if keys.count <= HotImageCache.sampleSize {
        keys.forEach(consider)
      } else {
        for _ in 0..<HotImageCache.sampleSize {
          draw ^= draw << 13
          draw ^= draw >> 7
          draw ^= draw << 17
          consider(keys[Int(draw % UInt64(keys.count))])
        }
        // A sample with none of that kind (it is rare among the entries): look at them all.
        if best == nil { keys.forEach(consider) }
      }
      return best?.key
    }
  }

  /// Entries compared to choose one to evict.
  static let sampleSize = 16
  /// Images the doorkeeper remembers having turned away (a few bytes each).
  static let doorkeeperSlots = 4096

  /// How long a deleted image is kept out: longer than any read of storage that began before
  /// the deletion can take, so such a read cannot put it back.
  static var deletedWindow: Duration { .seconds(60) }

  private let state = Mutex(State())
  /// Lookups answered from memory, and lookups that had to read storage (for /metrics).
  private let hits = Atomic<Int>(0)
  private let misses = Atomic<Int>(0)
  private let budget: Int
  private let fileBudget: Int
  private let lifetime: Duration

  /// - Parameters:
  ///   - budget: most bytes held in memory; 0 disables the cache.
  ///   - files: most stored files held open.
  ///   - lifetime: how long an entry is answered before storage is read again.
  init(budget: Int, files: Int = 4096, lifetime: Duration = .seconds(3600)) {
    self.budget = budget
    self.fileBudget = files
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
        state.drop(key)
        return nil
      }
      state.tick += 1
      entry.lastUse = state.tick
      return (entry.body, entry.headers)
    }
  }

  /// Whether an object of `count` bytes would be kept in memory: not when the cache is off, nor
  /// when it is larger than an eighth of the budget (it would evict too much).
  func keeps(_ count: Int) -> Bool { budget > 0 && count <= budget / 8 }

  /// Whether a body of `count` bytes read for `key` should be copied into memory and kept: when
  /// `keeps` allows it and there is room without evicting; once the budget is full, only when
  /// the image was turned away here once already (a doorkeeper). So a working set larger than
  /// the budget costs each one-off GET its read and nothing more, instead of a copy into memory
  /// and an eviction that the next GET undoes, while an image asked for again gets in.
  func admits(_ key: ArtworkKey, count: Int) -> Bool {
    guard keeps(count) else { return false }
    let hash = key.hashValue | 1  // never 0, the empty slot
    let slot = Int(UInt(bitPattern: hash) % UInt(Self.doorkeeperSlots))
    return state.withLock { state in
      if state.totalBytes + count <= budget { return true }
      if state.turnedAway[slot] == hash {
        state.turnedAway[slot] = 0
        return true
      }
      state.turnedAway[slot] = hash
      return false
    }
  }

  /// Whether stored files are kept open: when the cache is on and may hold any.
  var keepsFiles: Bool { budget > 0 && fileBudget > 0 }

  /// Keeps `body` for `key`, evicting the least recently used entries of its kind to stay
  /// within bounds; nothing when `keeps` (or, for a stored file, `keepsFiles`) says no.
  func insert(_ key: ArtworkKey, _ body: SharedBody, headers: HTTPHeaders = HTTPHeaders()) {
    guard body.isStoredFile ? keepsFiles : keeps(body.count) else { return }
    let now = ContinuousClock.now
    let expires = Moment.now + lifetime
    state.withLock { state in
      if let deleted = state.deleted[key], now - deleted < Self.deletedWindow { return }
      state.drop(key)
      state.tick += 1
      state.add(
        key, Entry(body: body, headers: headers, expires: expires, lastUse: state.tick, slot: 0))
      while state.totalBytes > budget, let victim = state.victim(storedFile: false) {
        state.drop(victim)
      }
      while state.files > fileBudget, let victim = state.victim(storedFile: true) {
        state.drop(victim)
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
      return state.drop(key)
    }
  }

  /// Bytes held in memory now (for tests and metrics).
  var totalBytes: Int { state.withLock { $0.totalBytes } }

  /// Stored files held open now (for tests).
  var openFiles: Int { state.withLock { $0.files } }

  /// What /metrics reports: lookups so far, and what is held now.
  var stats: (hits: Int, misses: Int, bytes: Int, entries: Int, files: Int) {
    let (bytes, entries, files) = state.withLock { ($0.totalBytes, $0.entries.count, $0.files) }
    return (hits.load(ordering: .relaxed), misses.load(ordering: .relaxed), bytes, entries, files)
  }
}
