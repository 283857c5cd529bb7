import TestSupport
import Testing

@testable import ArtworkService

/// `HeapKeeper` gives the free heap back on its own, each interval: after a burst of bodies the
/// resident memory falls back without anyone asking.
@Suite struct HeapKeeperTests {
  @Test func freedHeapIsGivenBackWithinAnInterval() async throws {
    // The service's policy, as it starts: what is freed stays on the heap.
    Runtime.initialize()
    let probe = HeapProbe(size: 8 << 20)
    #expect(probe.freedPagesResident, "kept until the keeper runs")
    let keeper = HeapKeeper(interval: .milliseconds(50))
    defer { keeper.stop() }
    for _ in 0..<100 where probe.freedPagesResident {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(
      !probe.freedPagesResident,
      "given back: \(ProcFS.residentBytes()) of \(probe.touched) bytes")
  }
}
