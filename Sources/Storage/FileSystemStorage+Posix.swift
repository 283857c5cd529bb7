// NOTE: Linux only (the service targets Debian); `Glibc.read` is named explicitly below
// because `read` alone resolves to this enum's own method.
import ArtworkCore
import Glibc

extension FileSystemStorage {
  /// The few POSIX file operations the filesystem backend needs, with errno turned into
  /// `FileError` and EINTR retried. Blocking: call from a thread that may block.
  enum Posix {
    /// Creates `path` exclusively (it must not exist), writes `bytes`, fsyncs and closes it.
    /// On failure the partial file is removed.
    static func writeNew(_ path: String, _ bytes: [UInt8]) throws(FileError) {
      let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw FileError(operation: "open", path: path, code: errno) }
      var failure: FileError?
      do throws(POSIXErrno) {
        try POSIXIO.writeAll(fd, bytes)
      } catch {
        failure = FileError(operation: "write", path: path, code: error.code)
      }
      if failure == nil && fsync(fd) != 0 {
        failure = FileError(operation: "fsync", path: path, code: errno)
      }
      if close(fd) != 0 && failure == nil {
        failure = FileError(operation: "close", path: path, code: errno)
      }
      if let failure {
        unlink(path)
        throw failure
      }
    }

    /// The whole file, or nil when it does not exist.
    static func read(_ path: String) throws(FileError) -> [UInt8]? {
      try readWithTime(path)?.bytes
    }

    /// The whole file with its modification time (seconds since 1970), or nil when it does not
    /// exist.
    static func readWithTime(_ path: String) throws(FileError) -> (bytes: [UInt8], modified: Int)? {
      guard let (fd, size, modified) = try openForReading(path) else { return nil }
      defer { close(fd) }
      var bytes = [UInt8](repeating: 0, count: size)
      let total: Int
      do throws(POSIXErrno) {
        total = try POSIXIO.readFull(fd, into: &bytes)
      } catch {
        throw FileError(operation: "read", path: path, code: error.code)
      }
      // NOTE: objects are never rewritten in place, so a short read means the file was
      // truncated behind our back; answer what is there rather than zero padding.
      if total < bytes.count { bytes.removeSubrange(total...) }
      return (bytes, modified)
    }

    /// `path` opened read-only with its size and modification time (seconds since 1970), or
    /// nil when it does not exist. The caller closes the descriptor.
    static func openForReading(_ path: String) throws(FileError) -> (
      descriptor: Int32, size: Int, modified: Int
    )? {
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      if fd < 0 {
        if errno == ENOENT { return nil }
        throw FileError(operation: "open", path: path, code: errno)
      }
      var info = stat()
      guard fstat(fd, &info) == 0 else {
        let code = errno
        close(fd)
        throw FileError(operation: "fstat", path: path, code: code)
      }
      return (fd, Int(info.st_size), Int(info.st_mtim.tv_sec))
    }

    /// Removes `path`; false when it could not be removed (absent included). Best effort.
    @discardableResult
    static func remove(_ path: String) -> Bool {
      unlink(path) == 0
    }

    /// How linking a file under a new name went.
    enum LinkOutcome {
      case linked
      /// The new name exists already.
      case exists
      /// The filesystem has no hard links.
      case unsupported
    }

    /// Links `path` under `newPath`, which must not exist: create-only.
    static func link(_ path: String, to newPath: String) throws(FileError) -> LinkOutcome {
      guard Glibc.link(path, newPath) != 0 else { return .linked }
      let code = errno
      switch code {
      case EEXIST: return .exists
      case EPERM, ENOTSUP, EOPNOTSUPP, EMLINK: return .unsupported
      default: throw FileError(operation: "link", path: newPath, code: code)
      }
    }

    /// Renames `path` to `newPath`, replacing it atomically.
    static func rename(_ path: String, to newPath: String) throws(FileError) {
      guard Glibc.rename(path, newPath) == 0 else {
        throw FileError(operation: "rename", path: newPath, code: errno)
      }
    }

    /// Throws unless `path` is a directory.
    static func requireDirectory(_ path: String) throws(FileError) {
      var info = stat()
      guard stat(path, &info) == 0 else {
        throw FileError(operation: "stat", path: path, code: errno)
      }
      guard info.st_mode & S_IFMT == S_IFDIR else {
        throw FileError(operation: "stat", path: path, code: ENOTDIR)
      }
    }

    /// The OS's sentence for an errno value.
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// This process's id, for unique temp file names.
    static var processID: Int32 { getpid() }

    /// Seconds since 1970.
    static var now: Int { Int(time(nil)) }

    /// Size and modification time (seconds since 1970), or nil when `path` does not exist.
    static func status(_ path: String) throws(FileError) -> (size: Int, modified: Int)? {
      var info = stat()
      guard stat(path, &info) == 0 else {
        if errno == ENOENT { return nil }
        throw FileError(operation: "stat", path: path, code: errno)
      }
      return (Int(info.st_size), Int(info.st_mtim.tv_sec))
    }

    /// Sets the access and modification times of `path` to now. Best effort: the mark only
    /// steers retention. (NOTE: UTIME_OMIT is a macro expression Swift does not import, so both
    /// times are set; nothing here reads the access time.)
    static func touch(_ path: String) {
      _ = utimensat(AT_FDCWD, path, nil, 0)
    }

    /// Creates a directory; true when it was created, false when it existed already.
    @discardableResult
    static func makeDirectory(_ path: String) throws(FileError) -> Bool {
      if mkdir(path, 0o755) == 0 { return true }
      if errno == EEXIST {
        var info = stat()
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { return false }
        throw FileError(operation: "mkdir", path: path, code: ENOTDIR)
      }
      throw FileError(operation: "mkdir", path: path, code: errno)
    }

    /// Creates `path` and any missing parents (`mkdir -p`).
    static func makeDirectories(_ path: String) throws(FileError) {
      var prefix = path.hasPrefix("/") ? "" : "."
      for component in path.split(separator: "/") {
        prefix += "/" + component
        try makeDirectory(prefix)
      }
    }

    /// Bytes an unprivileged writer may still use on the filesystem holding `path`, or nil when
    /// the system cannot tell.
    static func freeBytes(_ path: String) -> Int? {
      var info = statvfs()
      guard statvfs(path, &info) == 0 else { return nil }
      let (bytes, overflow) = Int(info.f_bavail).multipliedReportingOverflow(
        by: Int(info.f_frsize))
      return overflow ? Int.max : bytes
    }

    /// Opens (creating) `path` and takes an exclusive advisory lock on it without waiting.
    /// Answers the descriptor, which holds the lock until closed (or the process ends, however
    /// it ends), or nil when another holder has it.
    static func lockExclusively(_ path: String) throws(FileError) -> Int32? {
      let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw FileError(operation: "open", path: path, code: errno) }
      if flock(fd, LOCK_EX | LOCK_NB) == 0 { return fd }
      let code = errno
      close(fd)
      if code == EWOULDBLOCK { return nil }
      throw FileError(operation: "flock", path: path, code: code)
    }

    /// Closes a descriptor from `lockExclusively`, releasing its lock.
    static func unlock(_ fd: Int32) { close(fd) }

    /// Flushes a directory's entries (a new name made by link/rename) to disk.
    static func syncDirectory(_ path: String) throws(FileError) {
      let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      guard fd >= 0 else { throw FileError(operation: "open", path: path, code: errno) }
      defer { close(fd) }
      // Some filesystems cannot fsync a directory (EINVAL); their renames are durable anyway.
      if fsync(fd) != 0 && errno != EINVAL {
        throw FileError(operation: "fsync", path: path, code: errno)
      }
    }

    /// The names in a directory (without `.` and `..`), or an empty list when it does not exist.
    static func list(_ path: String) -> [String] {
      guard let dir = opendir(path) else { return [] }
      defer { closedir(dir) }
      var names: [String] = []
      while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
      }
      return names
    }
  }
}
