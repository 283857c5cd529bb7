import ArtworkCore
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes whole lines to a file descriptor, each with as few `write` calls as it takes and no
/// buffering: a line is on disk (or in the pipe) when `write` returns, so an interrupted run
/// leaves only whole lines behind.
final class LineWriter: Sendable {
  private let fd: Int32
  private let owned: Bool

  /// Standard output.
  static let standardOutput = LineWriter(fd: 1, owned: false)

  private init(fd: Int32, owned: Bool) {
    self.fd = fd
    self.owned = owned
  }

  /// Opens `path` for appending (made if missing; emptied first when `fresh`). When the file
  /// ends inside a line (a run killed mid-write), a newline is written first, so the next line
  /// starts whole.
  /// `-` is standard output; a link, a device or a pipe is written through (`OutputFile`); a
  /// directory or a block device is refused.
  static func appending(to path: String, fresh: Bool) throws(ArtworkError) -> LineWriter {
    switch OutputFile.target(path) {
    case .standardOutput: return standardOutput
    case .refused(let reason): throw ArtworkError(.badRequest, "cannot write \(path): \(reason)")
    case .replaced, .writtenThrough: break
    }
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (fresh ? O_TRUNC : 0), 0o644)
    guard fd >= 0 else {
      throw ArtworkError(.badRequest, "cannot write \(path): \(LocalFile.reason(errno))")
    }
    let writer = LineWriter(fd: fd, owned: true)
    var last: UInt8 = 0
    let reader = open(path, O_RDONLY | O_CLOEXEC)
    if reader >= 0 {
      if lseek(reader, -1, SEEK_END) >= 0, read(reader, &last, 1) == 1, last != 0x0A {
        writer.write(bytes: [0x0A])
      }
      close(reader)
    }
    return writer
  }

  deinit {
    if owned { close(fd) }
  }

  /// Writes `line` and a newline.
  func write(_ line: String) {
    write(bytes: Array((line + "\n").utf8))
  }

  private func write(bytes: [UInt8]) {
    // A line that cannot be written is dropped: there is nowhere to report it.
    _ = try? POSIXIO.writeAll(fd, bytes)
  }
}
