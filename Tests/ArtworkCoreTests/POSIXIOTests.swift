import ArtworkCore
import Foundation
import Testing

/// `POSIXIO` against real descriptors: pipes, their end, a closed descriptor, a signal.
@Suite(.serialized) struct POSIXIOTests {
  /// A pipe's two ends, closed by the caller.
  private func makePipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    return (ends[0], ends[1])
  }

  @Test func bytesWrittenToAPipeReadBackUntilItsEnd() throws {
    let ends = try makePipe()
    defer { close(ends.read) }
    let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    try POSIXIO.writeAll(ends.write, bytes)
    try POSIXIO.writeAll(ends.write, bytes[100..<200])
    close(ends.write)
    let back = try POSIXIO.readAll(ends.read, chunk: 333)
    #expect(back == bytes + bytes[100..<200])
  }

  @Test func readSomeAnswersZeroAtTheEndOfAFile() throws {
    let ends = try makePipe()
    defer { close(ends.read) }
    try POSIXIO.writeAll(ends.write, [1, 2, 3])
    close(ends.write)
    var buffer = [UInt8](repeating: 0, count: 8)
    let first = try buffer.withUnsafeMutableBytes { try POSIXIO.readSome(ends.read, into: $0) }
    let second = try buffer.withUnsafeMutableBytes { try POSIXIO.readSome(ends.read, into: $0) }
    #expect(first == 3 && buffer[0..<3] == [1, 2, 3])
    #expect(second == 0)
  }

  @Test func positionedCallsReadAndWriteAtTheirOffset() throws {
    let path = FileManager.default.temporaryDirectory.path + "/posixio-\(getpid())"
    let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
    try #require(fd >= 0)
    defer {
      close(fd)
      unlink(path)
    }
    try POSIXIO.writeAll(fd, [1, 2, 3, 4, 5, 6], at: 0)
    try POSIXIO.writeAll(fd, [9, 9], at: 2)
    var buffer = [UInt8](repeating: 0, count: 4)
    let count = try buffer.withUnsafeMutableBytes { try POSIXIO.readSome(fd, into: $0, at: 1) }
    #expect(count == 4 && buffer == [2, 9, 9, 5])
  }

  @Test func aClosedDescriptorFailsWithEBADF() throws {
    let ends = try makePipe()
    close(ends.read)
    close(ends.write)
    #expect(throws: POSIXErrno(EBADF)) { try POSIXIO.writeAll(ends.write, [1]) }
    #expect(throws: POSIXErrno(EBADF)) { _ = try POSIXIO.readAll(ends.read) }
  }

  @Test func anEmptyNonBlockingPipeAnswersEAGAIN() throws {
    let ends = try makePipe()
    defer {
      close(ends.read)
      close(ends.write)
    }
    try #require(fcntl(ends.read, F_SETFL, O_NONBLOCK) == 0)
    var buffer = [UInt8](repeating: 0, count: 8)
    #expect(throws: POSIXErrno(EAGAIN)) {
      _ = try buffer.withUnsafeMutableBytes { try POSIXIO.readSome(ends.read, into: $0) }
    }
  }
}
