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

  @Test func writeSomeWritesWhatFitsAndSaysHowMuch() throws {
    let ends = try makePipe()
    defer {
      close(ends.read)
      close(ends.write)
    }
    try #require(fcntl(ends.write, F_SETFL, O_NONBLOCK) == 0)
    // More than a pipe holds (64 KiB unless raised): part of it is taken, then it would block.
    let bytes = [UInt8](repeating: 7, count: 4 << 20)
    let first = try POSIXIO.writeSome(ends.write, bytes[...])
    #expect(first > 0 && first < bytes.count)
    #expect(throws: POSIXErrno(EAGAIN)) { _ = try POSIXIO.writeSome(ends.write, bytes[first...]) }
    var buffer = [UInt8](repeating: 0, count: first)
    #expect(try POSIXIO.readFull(ends.read, into: &buffer) == first)
    #expect(buffer == Array(bytes[..<first]))
    #expect(try POSIXIO.writeSome(ends.write, bytes[bytes.endIndex...]) == 0)
  }

  @Test func waitAnswersAtOnceWhenReadyAndFalseOnlyAtTheDeadline() throws {
    let ends = try makePipe()
    defer {
      close(ends.read)
      close(ends.write)
    }
    let clock = ContinuousClock()
    let start = clock.now
    #expect(try !POSIXIO.wait(ends.read, for: Int16(POLLIN), until: start + .milliseconds(150)))
    #expect(clock.now - start >= .milliseconds(150))
    // A deadline already past answers false without waiting, even on a ready descriptor.
    #expect(try !POSIXIO.wait(ends.write, for: Int16(POLLOUT), until: start))
    try POSIXIO.writeAll(ends.write, [1])
    let ready = clock.now
    #expect(try POSIXIO.wait(ends.read, for: Int16(POLLIN), until: ready + .seconds(10)))
    #expect(clock.now - ready < .seconds(5))
    // Of several descriptors, the ready one is marked.
    var both = [
      pollfd(fd: ends.write, events: Int16(POLLIN), revents: 0),
      pollfd(fd: ends.read, events: Int16(POLLIN), revents: 0),
    ]
    #expect(try POSIXIO.poll(&both, until: clock.now + .seconds(10)))
    #expect(both[0].revents == 0 && both[1].revents & Int16(POLLIN) != 0)
  }

  @Test func aSignalDoesNotEndAWaitEarly() throws {
    let ends = try makePipe()
    defer {
      close(ends.read)
      close(ends.write)
    }
    // A handler without SA_RESTART, so the signal interrupts `poll` with EINTR.
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    var previous = sigaction()
    try #require(sigaction(SIGUSR1, &action, &previous) == 0)
    defer { sigaction(SIGUSR1, &previous, nil) }
    // The pool's threads block signals: this one takes SIGUSR1 while it waits.
    var usr1 = sigset_t()
    sigemptyset(&usr1)
    sigaddset(&usr1, SIGUSR1)
    var mask = sigset_t()
    try #require(pthread_sigmask(SIG_UNBLOCK, &usr1, &mask) == 0)
    defer { pthread_sigmask(SIG_SETMASK, &mask, nil) }
    let waiter = pthread_self()
    let sender = Thread {
      usleep(100_000)
      pthread_kill(waiter, SIGUSR1)
    }
    sender.start()
    let clock = ContinuousClock()
    let start = clock.now
    #expect(try !POSIXIO.wait(ends.read, for: Int16(POLLIN), until: start + .milliseconds(400)))
    #expect(clock.now - start >= .milliseconds(400))
  }
}
