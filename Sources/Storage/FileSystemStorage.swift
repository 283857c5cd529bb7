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
public final class FileSystemStorage: ArtworkStorage, ObjectFiles {
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

  /// The free bytes the backend keeps: a new object that would leave less is refused (507).
  let minFreeBytes: Int
  /// The open lock file (`lock`): held until `close()` (or the process ends), so a second
  /// server cannot open the same directory; -1 once closed.
  private let lockDescriptor: Mutex<Int32>

  /// Temp files older than this are abandoned by a failed write: the periodic sweep removes
  /// them (a write in progress is seconds old at most).
  static let staleTemporaryAge = 15 * 60
  /// A read refreshes an object's "last requested" mark at most this often.
  static let touchInterval = 86400

  /// Opens storage rooted at `directory`, creating what is missing, takes the directory's lock
  /// and removes every temp file (the lock means no other process is writing; what is there was
  /// left by a process that died mid-write). File operations run on `threads` threads (at most
  /// 16 times as many wait). New objects are refused while the filesystem would be left with
  /// less than `minFreeBytes` free.
  public init(directory: String, threads: Int = 16, minFreeBytes: Int = 0) throws(StorageProblem) {
    var root = directory
    while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
    self.directory = root
    objectsDirectory = root + "/objects"
    recordsDirectory = root + "/records"
    temporaryDirectory = root + "/tmp"
    self.minFreeBytes = max(0, minFreeBytes)
    let lock: Int32?
    do throws(FileError) {
      try Posix.makeDirectories(root)
      lock = try Posix.lockExclusively(root + "/lock")
      if lock != nil {
        for path in [objectsDirectory, recordsDirectory, temporaryDirectory] {
          try Posix.makeDirectory(path)
        }
      }
    } catch {
      throw error.problem
    }
    guard let lock else {
      throw StorageProblem(
        summary: "another artwork server is using the storage directory",
        detail: "another artwork server is using the storage directory: \(root)/lock is "
          + "locked (one process owns a storage directory; replicas share S3 storage)")
    }
    lockDescriptor = Mutex(lock)
    self.threads = BlockingPool(
      name: "artwork-files", threads: threads, queueLimit: threads * 16, stackSize: 1 << 20,
      refusal: "Storage is busy; try again shortly.")
    removeTemporaryFiles(olderThan: nil)
  }

  deinit { release() }

  /// Releases the directory's lock (idempotent).
  public func release() {
    lockDescriptor.withLock { fd in
      if fd >= 0 { Posix.unlock(fd) }
      fd = -1
    }
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

  /// The object's file, open, nil when it is not stored; refreshes its retention mark.
  public func openObject(_ key: ArtworkKey) async throws(ArtworkError) -> OpenedObject? {
    let path = objectPath(key)
    return try await blocking { () throws(FileError) -> OpenedObject? in
      guard let opened = try Posix.openForReading(path) else { return nil }
      self.markRequested(path, modified: opened.modified)
      return OpenedObject(descriptor: opened.descriptor, length: opened.size)
    }
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
