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
/// Each worker has its own pair for its life. A file keeps its pages from job to job, up to
/// `WorkerProcess.keptFileBytes`: the next job's bytes are copied into pages that exist, where
/// a file emptied after every job had the kernel allocate, zero and charge every page again
/// (about 1 ms of the service's CPU per 1.5 MB upload). Readers take the count they are told,
/// not the file's length. A file that grew past the bound is emptied after its job.
package final class MemoryFile {
  /// The file's descriptor (closed with the value).
  package let descriptor: Int32

  /// A new, empty file; `name` shows in /proc (`memfd:artwork-input`).
  package init(name: String) throws(ArtworkError) {
    let made = artwork_process_memfd(name)
    guard made >= 0 else {
      throw ArtworkError(
        .internal, "The image workers could not be started.",
        internalDetail: "memfd_create: \(String(cString: strerror(errno)))")
    }
    descriptor = made
  }

  /// Adopts `descriptor` (a worker's, inherited from the service).
  package init(adopting descriptor: Int32) {
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// Writes `bytes` from the start, over what the file held (which may go on past them).
  package func replace(with bytes: ArraySlice<UInt8>) throws(ArtworkError) {
    do throws(POSIXErrno) {
      try POSIXIO.writeAll(descriptor, bytes, at: 0)
    } catch {
      throw ArtworkError(
        .internal, "The image could not be handed to a worker.",
        internalDetail: "pwrite: \(error.message)")
    }
  }

  /// The first `count` bytes; nil when the file holds fewer.
  package func read(count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    let got = try? POSIXIO.readFull(descriptor, into: &bytes, at: 0)
    return got == count ? bytes : nil
  }

  /// Writes `bytes` from the start (the worker's side: its rendering). False when the write
  /// failed (a file size limit, say).
  package func write(_ bytes: [UInt8]) -> Bool {
    do throws(POSIXErrno) {
      try POSIXIO.writeAll(descriptor, bytes, at: 0)
      return true
    } catch {
      return false
    }
  }

  /// Gives the file's pages back (length 0).
  package func empty() { _ = ftruncate(descriptor, 0) }

  /// Empties the file when it is longer than `bound` bytes; else keeps its pages for the next
  /// job.
  package func keep(atMost bound: Int) {
    var status = stat()
    if fstat(descriptor, &status) != 0 || Int(status.st_size) > bound { empty() }
  }

  /// The file's length in bytes (-1 when it cannot be read).
  package var length: Int {
    var status = stat()
    return fstat(descriptor, &status) == 0 ? Int(status.st_size) : -1
  }

  /// The first `count` bytes mapped read-only, in place (the worker's side: its input). The
  /// mapping lives as long as the value answered; nil when it cannot be made.
  package func mapped(count: Int) -> PinnedBytes? {
    guard count > 0 else { return PinnedBytes(copying: []) }
    guard let start = mmap(nil, count, PROT_READ, MAP_SHARED, descriptor, 0),
      start != MAP_FAILED
    else { return nil }
    return PinnedBytes(adopting: UnsafeRawPointer(start), count: count) { start, count in
      munmap(start, count)
    }
  }
}
