import ArtworkCore
import Glibc

extension FileSystemStorage {
  /// Stores an object atomically; an existing object is kept (and marked as requested).
  /// True when this call created it.
  func putNow(_ key: ArtworkKey, bytes: [UInt8]) throws(FileError) -> Bool {
    let final = objectPath(key)
    // Storing it again means it is in use: refresh its retention mark like a read does. The
    // check and the refresh happen under the retention lock, so a sweep cannot remove the
    // object between "it exists" and the caller handing out its URL.
    let exists = try retentionLock.withLock { _ throws(FileError) -> Bool in
      guard let existing = try Posix.status(final) else { return false }
      if existing.modified < Self.now() - Self.touchInterval { Posix.touch(final) }
      return true
    }
    if exists { return false }
    let bucket = objectBucket(key)
    let parent = String(bucket.dropLast(3))
    if try Posix.makeDirectory(parent) { try Posix.syncDirectory(objectsDirectory) }
    if try Posix.makeDirectory(bucket) { try Posix.syncDirectory(parent) }

    try requireRoom(for: bytes.count)
    let temporary = temporaryPath()
    try Posix.writeNew(temporary, bytes)
    defer { Posix.remove(temporary) }
    // link() refuses to replace an existing name, which is exactly create-only: two concurrent
    // puts of one key both succeed and the first object stays.
    var created = true
    switch try Posix.link(temporary, to: final) {
    case .linked:
      break
    case .exists:
      created = false
    case .unsupported:
      // Filesystems without hard links: rename instead. Ids are content hashes, so replacing
      // an object that appeared meanwhile replaces it with identical bytes.
      try Posix.rename(temporary, to: final)
    }
    try Posix.syncDirectory(bucket)
    return created
  }

  /// Stores a record atomically, replacing any previous value.
  func putRecordNow(_ name: String, bytes: [UInt8]) throws(FileError) {
    let final = recordPath(name)
    let bucket = String(final.dropLast(65))
    if try Posix.makeDirectory(bucket) { try Posix.syncDirectory(recordsDirectory) }
    let temporary = temporaryPath()
    try Posix.writeNew(temporary, bytes)
    do throws(FileError) {
      try Posix.rename(temporary, to: final)
    } catch {
      Posix.remove(temporary)
      throw error
    }
    try Posix.syncDirectory(bucket)
  }

  /// Refuses a write of `count` bytes that would leave less than the free-space margin.
  func requireRoom(for count: Int) throws(FileError) {
    guard minFreeBytes > 0, let free = Posix.freeBytes(directory) else { return }
    guard free - count < minFreeBytes else { return }
    throw FileError(
      operation: "statvfs", path: directory, code: ENOSPC,
      note: "\(ByteCount.text(free)) free, a \(ByteCount.text(count)) object would leave less "
        + "than the \(ByteCount.text(minFreeBytes)) kept free")
  }

  /// Removes temp files older than `age` seconds (all of them when nil); answers how many.
  @discardableResult
  func removeTemporaryFiles(olderThan age: Int?) -> Int {
    let cutoff = age.map { Self.now() - $0 }
    var removed = 0
    for name in Posix.list(temporaryDirectory) {
      let path = "\(temporaryDirectory)/\(name)"
      if let cutoff {
        guard let status = try? Posix.status(path), status.modified < cutoff else { continue }
      }
      if Posix.remove(path) { removed += 1 }
    }
    return removed
  }
}

extension FileSystemStorage {
  /// Removes the object under `key` (under the retention lock, as the sweep removes); answers
  /// whether it was stored.
  @discardableResult
  public func delete(_ key: ArtworkKey) async throws(ArtworkError) -> Bool {
    let path = objectPath(key)
    return try await blocking { () throws(FileError) -> Bool in
      try self.retentionLock.withLock { _ throws(FileError) -> Bool in
        guard try Posix.status(path) != nil else { return false }
        // An object that stays (a read-only file system, no permission) is not deleted: said.
        if !Posix.remove(path), errno != ENOENT {
          throw FileError(operation: "unlink", path: path, code: errno)
        }
        try Posix.syncDirectory(self.objectBucket(key))
        return true
      }
    }
  }

  /// Removes the record `name`, if there is one.
  public func deleteRecord(_ name: String) async throws(ArtworkError) {
    let path = recordPath(name)
    try await blocking { () throws(FileError) in
      guard Posix.remove(path) else { return }
      try Posix.syncDirectory(String(path.dropLast(65)))
    }
  }

  /// Nothing to leave: one process owns a storage directory (its lock), so no other server
  /// shares it.
  public func putDeletionNotice(_ name: String) async throws(ArtworkError) {}

  /// None: see `putDeletionNotice`.
  public func deletionNotices(after name: String?) async throws(ArtworkError) -> [String] { [] }
}
