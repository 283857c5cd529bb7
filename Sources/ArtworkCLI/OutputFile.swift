import ArtworkCore
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// How a command writes a file it was given a path for (`decode -o`, `process --jsonl`):
/// - `-` is standard output;
/// - a symbolic link is written through (its target gets the bytes, the link stays), and so is
///   a character device, a FIFO or a socket (`/dev/stdout`, `/dev/null`, a named pipe): never
///   replaced by a file;
/// - a regular file, or nothing yet, is replaced atomically (a temporary file and a rename);
/// - a directory or a block device is refused with the reason.
enum OutputFile {
  /// What writing to a path does.
  enum Target: Equatable {
    case standardOutput
    /// A new or regular file, replaced through a temporary file and a rename.
    case replaced
    /// Opened and written as it is (a link, a device, a pipe).
    case writtenThrough
    /// Not written, for this reason.
    case refused(String)
  }

  /// What writing to `path` does, from what is there now.
  static func target(_ path: String) -> Target {
    if path == "-" { return .standardOutput }
    var link = stat()
    guard lstat(path, &link) == 0 else { return .replaced }
    if link.st_mode & S_IFMT == S_IFLNK { return .writtenThrough }
    switch link.st_mode & S_IFMT {
    case S_IFREG: return .replaced
    case S_IFCHR, S_IFIFO, S_IFSOCK: return .writtenThrough
    case S_IFDIR: return .refused("it is a directory")
    case S_IFBLK: return .refused("it is a block device; write to a file instead")
    default: return .refused("it is not a file")
    }
  }

  /// Writes `bytes` to `path` as `target(path)` says. Failures are `.storageUnavailable` with
  /// `cannot write PATH: reason`.
  static func write(_ path: String, _ bytes: [UInt8]) throws(ArtworkError) {
    switch target(path) {
    case .standardOutput:
      try writeAll(1, bytes, path: "standard output")
    case .replaced:
      try LocalFile.writeAtomically(path, bytes)
    case .writtenThrough:
      // O_TRUNC empties a regular target (a link's); a device or a pipe ignores it.
      let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw LocalFile.writeError(path, errno) }
      defer { close(fd) }
      try writeAll(fd, bytes, path: path)
    case .refused(let reason):
      throw ArtworkError(.storageUnavailable, "cannot write \(path): \(reason)")
    }
  }

  /// All of `bytes` to `fd`, however many `write` calls it takes.
  private static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(ArtworkError) {
    do throws(POSIXErrno) {
      try POSIXIO.writeAll(fd, bytes)
    } catch {
      throw LocalFile.writeError(path, error.code)
    }
  }
}
