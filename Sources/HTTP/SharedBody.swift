internal import CHTTPParser
import Glibc

/// A body answered many times (a cached image): its bytes are copied once into a sealed
/// in-memory file, and every answer hands the kernel that file (`sendfile`), which sends
/// straight from its pages. No answer copies the body into the socket or allocates for it.
///
/// Where an in-memory file cannot be made (`memfd_create` refused), the bytes stay in process
/// memory and are written like any other body.
public final class SharedBody: Sendable {
  /// The body's length in bytes.
  public let count: Int
  /// The sealed file, or -1 when `memory` holds the bytes.
  let file: Int32
  let memory: [UInt8]

  /// Copies `bytes` into a sealed in-memory file.
  public init(_ bytes: [UInt8]) {
    count = bytes.count
    let file = bytes.withUnsafeBytes { artwork_http_sealed_memfd($0.baseAddress, $0.count) }
    self.file = file
    memory = file < 0 ? bytes : []
  }

  deinit { if file >= 0 { Glibc.close(file) } }

  /// The bytes, read back (for the rare answer that needs them in memory, and for tests).
  public func bytes() -> [UInt8] {
    guard file >= 0 else { return memory }
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let read = bytes.withUnsafeMutableBytes {
        artwork_http_pread(file, $0.baseAddress! + done, count - done, off_t(done))
      }
      guard read > 0 else { break }
      done += read
    }
    return done == count ? bytes : []
  }
}
