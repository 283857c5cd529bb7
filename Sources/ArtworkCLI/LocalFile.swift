import ArtworkCore
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Files the command line reads and writes, through POSIX calls so that every failure carries
/// the operating system's reason ("No such file or directory", "Permission denied").
enum LocalFile {
  /// The text of `code` (an errno value), as `strerror` gives it.
  static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// The bytes of the file at `path`. `checkSize` sees the file's size before anything is read,
  /// so an over-limit file is refused without reading it.
  ///
  /// A missing file is `.notFound`; any other failure (a directory, no permission) is
  /// `.badRequest`, each with `cannot read PATH: reason`.
  static func read(
    _ path: String, checkSize: (Int) throws(ArtworkError) -> Void = { _ in }
  ) throws(ArtworkError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw readError(path, errno) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw readError(path, errno) }
    guard info.st_mode & S_IFMT != S_IFDIR else { throw readError(path, EISDIR) }
    try checkSize(Int(info.st_size))
    let bytes: [UInt8]
    do throws(POSIXErrno) {
      bytes = try POSIXIO.readAll(fd)
    } catch {
      throw readError(path, error.code)
    }
    // A file that grew after fstat is judged by what was read.
    try checkSize(bytes.count)
    return bytes
  }

  /// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so
  /// a reader never sees a partial file. Failures are `.storageUnavailable` with
  /// `cannot write PATH: reason`.
  static func writeAtomically(_ path: String, _ bytes: [UInt8]) throws(ArtworkError) {
    let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw writeError(path, errno) }
    var failure: Int32?
    do throws(POSIXErrno) {
      try POSIXIO.writeAll(fd, bytes)
    } catch {
      failure = error.code
    }
    if close(fd) != 0 && failure == nil { failure = errno }
    if failure == nil && rename(temporary, path) != 0 { failure = errno }
    if let failure {
      unlink(temporary)
      throw writeError(path, failure)
    }
  }

  /// Makes directory `path` and its missing parents; fails with the reason.
  static func makeDirectory(_ path: String) throws(ArtworkError) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else { throw writeError(path, ENOTDIR) }
      return
    }
    var partial = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      partial += "/\(component)"
      if mkdir(partial, 0o755) != 0 && errno != EEXIST { throw writeError(path, errno) }
    }
  }

  private static func readError(_ path: String, _ code: Int32) -> ArtworkError {
    ArtworkError(code == ENOENT ? .notFound : .badRequest, "cannot read \(path): \(reason(code))")
  }

  static func writeError(_ path: String, _ code: Int32) -> ArtworkError {
    ArtworkError(.storageUnavailable, "cannot write \(path): \(reason(code))")
  }
}
