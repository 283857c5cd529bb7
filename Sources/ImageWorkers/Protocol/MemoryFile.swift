import ArtworkCore
internal import CProcess

#if canImport(Glibc)
  import Glibc
#endif

/// An anonymous file in memory (memfd): how bytes cross between the service and a worker. The
/// service writes a job's input into one and the worker maps it, reading it in place; the
/// worker writes its rendering into another and the service reads it back. No pipe carries
/// image bytes.
///
/// Each worker has its own pair for its life. The service empties both after every job, so a
/// worker between jobs holds no image's pages.
final class MemoryFile {
  /// The file's descriptor (closed with the value).
  let descriptor: Int32

  /// A new, empty file; `name` shows in /proc (`memfd:artwork-input`).
  init(name: String) throws(ArtworkError) {
    let made = artwork_process_memfd(name)
    guard made >= 0 else {
      throw ArtworkError(
        .internal, "The image workers could not be started.",
        internalDetail: "memfd_create: \(String(cString: strerror(errno)))")
    }
    descriptor = made
  }

  /// Adopts `descriptor` (a worker's, inherited from the service).
  init(adopting descriptor: Int32) {
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// Makes `bytes` the whole content.
  func replace(with bytes: ArraySlice<UInt8>) throws(ArtworkError) {
    empty()
    do throws(POSIXErrno) {
      try POSIXIO.writeAll(descriptor, bytes, at: 0)
    } catch {
      throw ArtworkError(
        .internal, "The image could not be handed to a worker.",
        internalDetail: "pwrite: \(error.message)")
    }
  }

  /// The first `count` bytes; nil when the file holds fewer.
  func read(count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    let got = try? POSIXIO.readFull(descriptor, into: &bytes, at: 0)
    return got == count ? bytes : nil
  }

  /// Writes `bytes` from the start (the worker's side: its rendering). False when the write
  /// failed (a file size limit, say).
  func write(_ bytes: [UInt8]) -> Bool {
    do throws(POSIXErrno) {
      try POSIXIO.writeAll(descriptor, bytes, at: 0)
      return true
    } catch {
      return false
    }
  }

  /// Gives the file's pages back (length 0).
  func empty() { _ = ftruncate(descriptor, 0) }

  /// The first `count` bytes mapped read-only, in place (the worker's side: its input). The
  /// mapping lives as long as the value answered; nil when it cannot be made.
  func mapped(count: Int) -> PinnedBytes? {
    guard count > 0 else { return PinnedBytes(copying: []) }
    guard let start = mmap(nil, count, PROT_READ, MAP_SHARED, descriptor, 0),
      start != MAP_FAILED
    else { return nil }
    return PinnedBytes(adopting: UnsafeRawPointer(start), count: count) { start, count in
      munmap(start, count)
    }
  }
}
