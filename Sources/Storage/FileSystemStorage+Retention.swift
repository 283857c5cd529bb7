import ArtworkCore

extension FileSystemStorage {
  /// Buckets the sweep visits in turn: 65,536 object buckets (`objects/ab/cd`), then 256 record
  /// buckets (`records/ab`).
  static let sweepBuckets = 65536 + 256

  /// Removes objects not requested, and records not written, for `olderThan`. Bounded: one
  /// pass does about `limit` units of work (a unit is a directory visited or an entry looked at)
  /// and the next pass resumes where this one stopped, so calling it periodically cycles through
  /// the whole store. Answers how many files it removed. Failures are skipped (retention is
  /// best effort; the next cycle tries again).
  ///
  /// NOTE: the guard against removing an object that is being requested is an in-process lock:
  /// one process owns a storage directory (replicas sharing storage use S3).
  public func sweep(olderThan age: Duration, limit: Int) async -> Int {
    let cutoff = Self.now() - Int(age.components.seconds)
    let start = sweepCursor.withLock { $0 }
    let outcome = try? await blocking { () throws(FileError) -> (Int, Int) in
      self.sweepNow(from: start, cutoff: cutoff, limit: max(1, limit))
    }
    guard let (removed, next) = outcome else { return 0 }
    sweepCursor.withLock { $0 = next }
    return removed
  }

  /// Sweeps buckets from `cursor` on; answers the removals and the cursor to resume at.
  func sweepNow(from cursor: Int, cutoff: Int, limit: Int) -> (removed: Int, next: Int) {
    var work = 0
    var removed = 0
    var bucket = cursor % Self.sweepBuckets
    var visited = 0
    // One pass never goes round more than once, however large the limit.
    while work < limit && visited < Self.sweepBuckets {
      let directory: String
      let isObject = bucket < 65536
      if isObject {
        let ab = Self.hexByte(bucket >> 8)
        let top = "\(objectsDirectory)/\(ab)"
        if bucket & 0xFF == 0 || work == 0, (try? Posix.status(top)) == nil {
          // A missing top-level directory skips its 256 buckets for one unit of work.
          work += 1
          let next = ((bucket >> 8) + 1) << 8
          visited += next - bucket
          bucket = next % Self.sweepBuckets
          continue
        }
        directory = "\(top)/\(Self.hexByte(bucket & 0xFF))"
      } else {
        directory = "\(recordsDirectory)/\(Self.hexByte(bucket - 65536))"
      }
      work += 1
      for name in Posix.list(directory) {
        work += 1
        let ours = isObject ? ArtworkKey(fileName: name) != nil : ArtworkID(hex: name) != nil
        guard ours else { continue }
        let path = "\(directory)/\(name)"
        let gone = retentionLock.withLock { _ in
          guard let status = try? Posix.status(path), status.modified < cutoff else {
            return false
          }
          return Posix.remove(path)
        }
        if gone { removed += 1 }
      }
      visited += 1
      bucket = (bucket + 1) % Self.sweepBuckets
    }
    return (removed, bucket)
  }

  /// Two lowercase hex digits.
  static func hexByte(_ value: Int) -> String { lowercaseHex([UInt8(truncatingIfNeeded: value)]) }
}

extension FileSystemStorage {
  /// Refreshes the "last requested" mark of an object that was just read, at most once per
  /// `touchInterval` (a write per read would make every GET a disk write).
  func markRequested(_ path: String, modified: Int) {
    guard modified < Self.now() - Self.touchInterval else { return }
    retentionLock.withLock { _ in Posix.touch(path) }
  }
}
