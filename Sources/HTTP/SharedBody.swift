internal import CHTTPParser
import Glibc
import Synchronization

/// A body answered many times (a cached image): its bytes are copied once into a sealed
/// in-memory file, and every answer hands the kernel that file (`sendfile`), which sends
/// straight from its pages. No answer copies the body into the socket or allocates for it.
/// A body that is a file already (a stored object on the filesystem) is sent from that file:
/// its pages are the kernel's page cache, not this process's memory (`isStoredFile`).
///
/// Each file is a descriptor: at most a quarter of the process's descriptor limit is spent on
/// them, so connections never run short. Past that, or where an in-memory file cannot be made
/// (`memfd_create` refused), the bytes stay in process memory and are written like any other
/// body.
public final class SharedBody: Sendable {
  /// The body's length in bytes.
  public let count: Int
  /// The sealed file, or -1 when `memory` holds the bytes.
  let file: Int32
  let memory: [UInt8]
  /// Whether the body is sent from a file it was handed (`init(adoptingFile:count:)`), whose
  /// pages the kernel keeps or drops as for any file: it holds none of the process's memory.
  public let isStoredFile: Bool

  /// Files open now, and the most there may be.
  static let openFiles = Atomic<Int>(0)
  static let maxOpenFiles: Int = {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
    return Int(min(limit.rlim_cur, 1 << 20)) / 4
  }()

  /// Copies `bytes` into a sealed in-memory file (or keeps them, see the type's summary).
  public convenience init(_ bytes: [UInt8]) {
    self.init(bytes, inFile: true)
  }

  /// `inFile: false` keeps the bytes in memory, as when no file can be made (for tests).
  init(_ bytes: [UInt8], inFile: Bool) {
    count = bytes.count
    var file: Int32 = -1
    if inFile, Self.openFiles.add(1, ordering: .relaxed).newValue <= Self.maxOpenFiles {
      file = bytes.withUnsafeBytes { artwork_http_sealed_memfd($0.baseAddress, $0.count) }
    }
    if inFile, file < 0 { Self.openFiles.subtract(1, ordering: .relaxed) }
    self.file = file
    memory = file < 0 ? bytes : []
    isStoredFile = false
  }

  /// Takes over `descriptor`, an open file of `count` bytes that no one rewrites (a stored
  /// object), and sends from it; nil, with `descriptor` closed, when a quarter of the
  /// descriptor limit is spent on body files already.
  public init?(adoptingFile descriptor: Int32, count: Int) {
    guard Self.openFiles.add(1, ordering: .relaxed).newValue <= Self.maxOpenFiles else {
      Self.openFiles.subtract(1, ordering: .relaxed)
      Glibc.close(descriptor)
      return nil
    }
    self.count = count
    file = descriptor
    memory = []
    isStoredFile = true
  }

  /// Whether a file could be taken over now (`init(adoptingFile:count:)`): a hint, to skip
  /// opening one that would not be.
  public static var hasRoomForFile: Bool {
    openFiles.load(ordering: .relaxed) < maxOpenFiles
  }

  deinit {
    if file >= 0 {
      Glibc.close(file)
      Self.openFiles.subtract(1, ordering: .relaxed)
    }
  }

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
