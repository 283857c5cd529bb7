extension FileSystemStorage {
  /// Writes, fsyncs, reads back and removes a probe file in the temp directory, and checks that
  /// the object and record directories are there. Nil when all of that works.
  public func readinessProblem() async -> String? {
    do {
      return try await blocking { () throws(FileError) -> String? in try self.probe() }
    } catch {
      // `blocking` only rethrows FileErrors converted for clients; keep the internal detail.
      return error.internalDetail.map { "storage is not usable: \($0)" }
        ?? "storage is not usable: \(error.detail)"
    }
  }

  private func probe() throws(FileError) -> String? {
    for path in [objectsDirectory, recordsDirectory] {
      do throws(FileError) {
        try Posix.requireDirectory(path)
      } catch {
        return error.sentence
      }
    }
    let path = temporaryPath()
    let content = Array("artwork readiness probe \(path)".utf8)
    do {
      try Posix.writeNew(path, content)
      defer { Posix.remove(path) }
      guard try Posix.read(path) == content else {
        return "the storage directory does not read back what was written to \(path)"
      }
      return nil
    } catch {
      return error.sentence
    }
  }
}
