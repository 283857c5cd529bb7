import ArtworkCore
import Foundation
import Synchronization

/// Artwork in a local directory: the default backend, for one machine.
///
/// Layout under `directory`:
/// - `objects/ab/cd/<id>.<ext>`: objects, fanned out by the first two bytes of the id;
/// - `records/ab/<sha256 of the record name>`: records;
/// - `tmp/`: files being written (same filesystem, so a finished file is linked into place).
///
/// Writes are atomic and durable: write a temp file, fsync it, link it to its final name
/// (create-only: an existing object is kept) or rename it (records: overwrite), then fsync the
/// directory. Readers therefore see a whole object or none. A file's mtime doubles as its
/// "last requested" marker for retention (see `FileSystemStorage+Retention.swift`).
///
/// NOTE: file I/O is blocking, so each operation runs on the storage threads (`threads`) rather
/// than on the cooperative pool (fsync can take tens of milliseconds on a busy disk).
public final class FileSystemStorage: ArtworkStorage {
  /// The storage root, without a trailing slash.
  public let directory: String
  let objectsDirectory: String
  let recordsDirectory: String
  let temporaryDirectory: String
  /// The threads file operations run on.
  let threads: BlockingPool<Void>
  /// Where the next retention sweep resumes (see `sweep`).
  let sweepCursor = Mutex(0)
  /// Held while the sweep decides about and removes one object, and while a request refreshes
  /// an object's mark, so that an object requested during a sweep is never removed under it.
  /// (One process owns a storage directory; see `FileSystemStorage+Retention.swift`.)
  let retentionLock = Mutex(())

  /// Temp files older than this are leftovers of a crash, never a write in progress.
  static let staleTemporaryAge = 15 * 60
  /// A read refreshes an object's "last requested" mark at most this often.
  static let touchInterval = 86400

  /// Opens (creating as needed) storage rooted at `directory`, and removes temp files that a
  /// crashed process left behind. File operations run on `threads` threads (at most 4 times as
  /// many wait). Throws `.storageUnavailable` when the directories cannot be created.
  public init(directory: String, threads: Int = 16) throws(ArtworkError) {
    self.threads = BlockingPool(
      name: "artwork-files", threads: threads, queueLimit: threads * 16, stackSize: 1 << 20,
      refusal: "Storage is busy; try again shortly.")
    var root = directory
    while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
    self.directory = root
    objectsDirectory = root + "/objects"
    recordsDirectory = root + "/records"
    temporaryDirectory = root + "/tmp"
    do {
      try FileManager.default.createDirectory(
        atPath: root, withIntermediateDirectories: true)
    } catch {
      throw ArtworkError(
        .storageUnavailable, "Storage is unavailable; try again shortly.",
        internalDetail: "cannot create storage directory \(root): \(error)", retryAfter: 5)
    }
    do throws(FileError) {
      for path in [objectsDirectory, recordsDirectory, temporaryDirectory] {
        try Posix.makeDirectory(path)
      }
    } catch {
      throw error.artworkError
    }
    removeStaleTemporaryFiles()
  }

  @discardableResult
  /// Stores `bytes` under `key` atomically (create-only); answers whether it created the file.
  public func put(_ key: ArtworkKey, bytes: [UInt8]) async throws(ArtworkError) -> Bool {
    try await blocking { () throws(FileError) in try self.putNow(key, bytes: bytes) }
  }

  /// The object under `key`, nil when it is not stored; refreshes its retention mark.
  public func get(_ key: ArtworkKey) async throws(ArtworkError) -> StoredObject? {
    let path = objectPath(key)
    let bytes = try await blocking { () throws(FileError) -> [UInt8]? in
      guard let (bytes, modified) = try Posix.readWithTime(path) else { return nil }
      self.markRequested(path, modified: modified)
      return bytes
    }
    return bytes.map { StoredObject(key: key, bytes: $0) }
  }

  /// The size of the object under `key`, nil when it is not stored.
  public func head(_ key: ArtworkKey) async throws(ArtworkError) -> Int? {
    let path = objectPath(key)
    return try await blocking { () throws(FileError) in
      guard let status = try Posix.status(path) else { return nil }
      self.markRequested(path, modified: status.modified)
      return status.size
    }
  }

  /// Writes the record `name` atomically, replacing any.
  public func putRecord(_ name: String, bytes: [UInt8]) async throws(ArtworkError) {
    try await blocking { () throws(FileError) in try self.putRecordNow(name, bytes: bytes) }
  }

  /// The record `name`, nil when there is none.
  public func getRecord(_ name: String) async throws(ArtworkError) -> [UInt8]? {
    let path = recordPath(name)
    // Records are not touched on read: their mtime is their age, and retention uses it.
    return try await blocking { () throws(FileError) in try Posix.read(path) }
  }

  // MARK: - Paths

  func objectPath(_ key: ArtworkKey) -> String {
    "\(objectBucket(key))/\(key.fileName)"
  }

  /// `objects/ab/cd` for an id starting `abcd`.
  func objectBucket(_ key: ArtworkKey) -> String {
    let hex = key.id.hex.utf8
    let ab = String(decoding: hex.prefix(2), as: UTF8.self)
    let cd = String(decoding: hex.dropFirst(2).prefix(2), as: UTF8.self)
    return "\(objectsDirectory)/\(ab)/\(cd)"
  }

  func recordPath(_ name: String) -> String {
    let hash = SHA256.hex(Array(name.utf8))
    return "\(recordsDirectory)/\(hash.prefix(2))/\(hash)"
  }

  /// A fresh, unique temp file name.
  func temporaryPath() -> String {
    let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
    return "\(temporaryDirectory)/\(Posix.processID)-\(random).tmp"
  }

  static func now() -> Int { Posix.now }

  // MARK: - Blocking work

  /// Runs blocking file work on the storage threads (off the cooperative pool) and maps its
  /// failure to `ArtworkError`.
  func blocking<T: Sendable>(
    _ body: @escaping @Sendable () throws(FileError) -> T
  ) async throws(ArtworkError) -> T {
    try await threads.run { () throws(ArtworkError) -> T in
      do throws(FileError) {
        return try body()
      } catch {
        throw error.artworkError
      }
    }
  }
}
