import Glibc

/// Reads, writes and waits on a file descriptor that retry a call a signal interrupted (`EINTR`)
/// and hand every other failure (`EAGAIN` on a non-blocking descriptor included) to the caller
/// as its errno. Each read or write blocks as the descriptor does; none closes it.
public enum POSIXIO {
  /// One `read` (or `pread` at `offset`) into `buffer`: the count read, 0 at the end of the
  /// file (or when `buffer` is empty).
  public static func readSome(
    _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int? = nil
  ) throws(POSIXErrno) -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    while true {
      let count =
        offset.map { pread(fd, base, buffer.count, off_t($0)) } ?? read(fd, base, buffer.count)
      if count >= 0 { return count }
      let code = errno
      if code != EINTR { throw POSIXErrno(code) }
    }
  }

  /// Fills `buffer` from `offset` (or the file position) with as many calls as it takes: the
  /// count read, less than `buffer.count` only when the file ended first.
  public static func readFull(
    _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int? = nil
  ) throws(POSIXErrno) -> Int {
    var done = 0
    while done < buffer.count {
      let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[done...])
      let count = try readSome(fd, into: rest, at: offset.map { $0 + done })
      if count == 0 { break }
      done += count
    }
    return done
  }

  /// Everything up to the end of the file, read `chunk` bytes at a time.
  public static func readAll(_ fd: Int32, chunk: Int = 1 << 16) throws(POSIXErrno) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: max(1, chunk))
    while true {
      let count = try readSome(fd, into: &buffer)
      if count == 0 { return bytes }
      bytes.append(contentsOf: buffer[0..<count])
    }
  }

  /// One `write` (or `pwrite` at `offset`) of `bytes`: the count written, at least 1 unless
  /// `bytes` is empty. A call that writes nothing fails with `EIO`.
  public static func writeSome(
    _ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int? = nil
  ) throws(POSIXErrno) -> Int {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
    while true {
      let count =
        offset.map { pwrite(fd, base, bytes.count, off_t($0)) } ?? write(fd, base, bytes.count)
      if count > 0 { return count }
      let code = count < 0 ? errno : EIO
      if code != EINTR { throw POSIXErrno(code) }
    }
  }

  /// All of `bytes`, however many `write` (or `pwrite` from `offset`) calls it takes. A call
  /// that writes nothing ends it with `EIO`.
  public static func writeAll(
    _ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int? = nil
  ) throws(POSIXErrno) {
    var done = 0
    while done < bytes.count {
      let rest = UnsafeRawBufferPointer(rebasing: bytes[done...])
      done += try writeSome(fd, rest, at: offset.map { $0 + done })
    }
  }

  /// Waits until one of `descriptors` has one of its `events` (or an error or hang-up), or
  /// `deadline` passes: true when one is ready (each `revents` says which), false at the
  /// deadline, even if it has passed already. A signal does not end the wait early.
  public static func poll(
    _ descriptors: inout [pollfd], until deadline: ContinuousClock.Instant
  ) throws(POSIXErrno) -> Bool {
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return false }
      // Rounded up, so that a wait never ends a little before its deadline only to poll again.
      let milliseconds = Int32(clamping: left.wholeMilliseconds + 1)
      for index in descriptors.indices { descriptors[index].revents = 0 }
      let ready = Glibc.poll(&descriptors, nfds_t(descriptors.count), milliseconds)
      if ready > 0 { return true }
      if ready < 0, errno != EINTR { throw POSIXErrno(errno) }
    }
  }

  /// `poll` of one descriptor: whether `fd` is ready for `events` (or has an error or hung up)
  /// before `deadline`.
  public static func wait(
    _ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant
  ) throws(POSIXErrno) -> Bool {
    var descriptors = [pollfd(fd: fd, events: events, revents: 0)]
    return try poll(&descriptors, until: deadline)
  }

  /// All of `bytes`: `writeAll` on an array's storage.
  public static func writeAll(
    _ fd: Int32, _ bytes: [UInt8], at offset: Int? = nil
  ) throws(POSIXErrno) {
    try bytes.withUnsafeBytes { raw in
      Result { () throws(POSIXErrno) in try writeAll(fd, raw, at: offset) }
    }.get()
  }

  /// All of `bytes`: `writeAll` on a slice's storage.
  public static func writeAll(
    _ fd: Int32, _ bytes: ArraySlice<UInt8>, at offset: Int? = nil
  ) throws(POSIXErrno) {
    try bytes.withUnsafeBytes { raw in
      Result { () throws(POSIXErrno) in try writeAll(fd, raw, at: offset) }
    }.get()
  }

  /// `writeSome` of a slice's storage.
  public static func writeSome(
    _ fd: Int32, _ bytes: ArraySlice<UInt8>, at offset: Int? = nil
  ) throws(POSIXErrno) -> Int {
    try bytes.withUnsafeBytes { raw in
      Result { () throws(POSIXErrno) in try writeSome(fd, raw, at: offset) }
    }.get()
  }

  /// `readSome` into an array's storage.
  public static func readSome(
    _ fd: Int32, into buffer: inout [UInt8], at offset: Int? = nil
  ) throws(POSIXErrno) -> Int {
    try buffer.withUnsafeMutableBytes { raw in
      Result { () throws(POSIXErrno) in try readSome(fd, into: raw, at: offset) }
    }.get()
  }

  /// `readFull` into an array's storage.
  public static func readFull(
    _ fd: Int32, into buffer: inout [UInt8], at offset: Int? = nil
  ) throws(POSIXErrno) -> Int {
    try buffer.withUnsafeMutableBytes { raw in
      Result { () throws(POSIXErrno) in try readFull(fd, into: raw, at: offset) }
    }.get()
  }
}
