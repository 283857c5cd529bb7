import ArtworkCore

extension FileSystemStorage {
  /// Nil when storage can take a new object now: the directories are there, a probe file is
  /// written, fsynced, read back and removed, and the free space is above the margin.
  public func readinessProblem() async -> StorageProblem? {
    do {
      return try await threads.run { () -> StorageProblem? in self.probe() }
    } catch {
      return StorageProblem(summary: "storage is busy", detail: "storage is busy: \(error)")
    }
  }

  /// The filesystem's free bytes (`statvfs`, as a non-root writer sees them) and the margin
  /// kept free; nil when the directory cannot be measured.
  public func freeSpace() -> (free: Int, kept: Int)? {
    Posix.freeBytes(directory).map { ($0, minFreeBytes) }
  }

  /// Removes temp files that failed writes abandoned (older than any write in progress).
  public func removeAbandonedWrites() async -> Int {
    (try? await threads.run { () -> Int in
      self.removeTemporaryFiles(olderThan: Self.staleTemporaryAge)
    }) ?? 0
  }

  private func probe() -> StorageProblem? {
    do throws(FileError) {
      for path in [objectsDirectory, recordsDirectory] { try Posix.requireDirectory(path) }
      let path = temporaryPath()
      let content = Array("artwork readiness probe".utf8)
      try Posix.writeNew(path, content)
      defer { Posix.remove(path) }
      guard try Posix.read(path) == content else {
        return StorageProblem(
          summary: "the storage directory does not read back what was written",
          detail: "the storage directory does not read back what was written to \(path)")
      }
      // A probe of a few bytes fits long after a real object would not: judge the margin.
      try requireRoom(for: 0)
      return nil
    } catch {
      return error.problem
    }
  }
}
