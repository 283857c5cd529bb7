import TestSupport
import Testing

@testable import WorkerHost

/// The service's heap policy (`ProcessMemory`), in this process: a freed body stays on the
/// heap with its pages, for the next one, until the free heap is given back.
@Suite struct ProcessMemoryTests {
  @Test func aFreedBodyStaysOnTheHeapUntilGivenBack() {
    ProcessMemory.reuseFreedHeap()
    let probe = HeapProbe(size: 8 << 20)  // four 2 MB bodies' worth, below `heapLimit`
    #expect(probe.size < ProcessMemory.heapLimit)
    // A block of its own mapping would have been unmapped: neither free heap nor resident.
    #expect(ProcessMemory.freeHeapBytes >= probe.size, "freed onto the heap")
    #expect(probe.freedPagesResident, "its pages kept for the next body")
    ProcessMemory.giveBackFreeHeap()
    #expect(!probe.freedPagesResident, "given back")
  }
}
