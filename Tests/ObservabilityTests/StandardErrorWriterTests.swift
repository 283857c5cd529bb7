import Glibc
import Testing

@testable import Observability

/// Standard error never blocks a logging thread: lines go into a bounded buffer that one thread
/// writes out; when the reader stalls, lines are dropped and counted, never half-written.
@Suite struct StandardErrorWriterTests {
  @Test func aStalledReaderNeverBlocksAndDroppedLinesAreCounted() async throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    let writer = StandardErrorWriter(descriptor: ends[1], capacity: 64 * 1024)
    let line = String(repeating: "x", count: 99) + "\n"
    // Nobody reads the pipe: 64 KiB fit in it, 64 KiB in the buffer, the rest is dropped.
    let start = ContinuousClock.now
    for _ in 0..<20_000 { writer.write(line) }
    let spent = ContinuousClock.now - start
    // A bound against a hang, not a timing: a blocked write would never return.
    #expect(spent < .seconds(30))
    #expect(writer.droppedLines > 10_000)
    // The reader catches up: every line that was kept arrives whole.
    let readEnd = ends[0]
    let reader = Task.detached { () -> [UInt8] in
      var received: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 65536)
      while true {
        let got = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
        guard got > 0 else { return received }
        received.append(contentsOf: chunk[0..<got])
      }
    }
    writer.flush()
    close(ends[1])
    let received = await reader.value
    #expect(!received.isEmpty && received.count % line.utf8.count == 0)
    #expect(received.count / line.utf8.count + writer.droppedLines == 20_000)
  }
}
