#if canImport(Glibc)
  import Glibc
#endif

extension FileSystemStorage {
  /// Stores an object atomically; an existing object is kept (and marked as requested).
  func putNow(_ key: ArtworkKey, bytes: [UInt8]) throws(FileError) {
    let final = objectPath(key)
    // Storing it again means it is in use: refresh its retention mark like a read does. The
    // check and the refresh happen under the retention lock, so a sweep cannot remove the
    // object between "it exists" and the caller handing out its URL.
    let exists = try retentionLock.withLock { _ throws(FileError) -> Bool in
      guard let existing = try PosixFile.status(final) else { return false }
      if existing.modified < Self.now() - Self.touchInterval { PosixFile.touch(final) }
      return true
    }
    if exists { return }
    let bucket = objectBucket(key)
    let parent = String(bucket.dropLast(3))
    if try PosixFile.makeDirectory(parent) { try PosixFile.syncDirectory(objectsDirectory) }
    if try PosixFile.makeDirectory(bucket) { try PosixFile.syncDirectory(parent) }

    let temporary = temporaryPath()
    try PosixFile.writeNew(temporary, bytes)
    defer { unlink(temporary) }
    // link() refuses to replace an existing name, which is exactly create-only: two concurrent
    // puts of one key both succeed and the first object stays.
    if link(temporary, final) != 0 {
      let code = errno
      switch code {
      case EEXIST:
        break
      case EPERM, ENOTSUP, EOPNOTSUPP, EMLINK:
        // Filesystems without hard links: rename instead. Ids are content hashes, so replacing
        // an object that appeared meanwhile replaces it with identical bytes.
        guard rename(temporary, final) == 0 else {
          throw FileError(operation: "rename", path: final, code: errno)
        }
      default:
        throw FileError(operation: "link", path: final, code: code)
      }
    }
    try PosixFile.syncDirectory(bucket)
  }

  /// Stores a record atomically, replacing any previous value.
  func putRecordNow(_ name: String, bytes: [UInt8]) throws(FileError) {
    let final = recordPath(name)
    let bucket = String(final.dropLast(65))
    if try PosixFile.makeDirectory(bucket) { try PosixFile.syncDirectory(recordsDirectory) }
    let temporary = temporaryPath()
    try PosixFile.writeNew(temporary, bytes)
    guard rename(temporary, final) == 0 else {
      let failure = FileError(operation: "rename", path: final, code: errno)
      unlink(temporary)
      throw failure
    }
    try PosixFile.syncDirectory(bucket)
  }

  /// Removes temp files old enough to be crash leftovers (a write in progress is seconds old at
  /// most; another process sharing the directory may be writing the young ones).
  func removeStaleTemporaryFiles() {
    let cutoff = Self.now() - Self.staleTemporaryAge
    for name in PosixFile.list(temporaryDirectory) {
      let path = "\(temporaryDirectory)/\(name)"
      if let status = try? PosixFile.status(path), status.modified < cutoff { unlink(path) }
    }
  }
}
