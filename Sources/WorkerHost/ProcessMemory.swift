internal import CProcess

/// How the service's own process gives memory back (its workers have their own policy:
/// `WorkerMain`).
///
/// Request bodies (up to 2 MB each) and stored images come from glibc's heap and, once freed,
/// are reused by the next ones with their pages already in place; once a second the service
/// gives back whatever is free (`HeapKeeper` in ArtworkService calls `giveBackFreeHeap`), so
/// after a burst its resident memory falls back within a second.
///
/// NOTE: each such allocation used to get a mapping of its own, unmapped when freed: every
/// upload then faulted its 2 MB body in page by page, a third of the event loop's time and 3%
/// of an upload's CPU (issue 42).
public enum ProcessMemory {
  /// Allocations below this come from the heap: every body and stored image the limits allow.
  public static let heapLimit = 32 << 20
  /// Free bytes a heap keeps at its top: past this, freeing a body gives the top back at once.
  /// The trim once a second cannot reach a thread heap's top (docs/development.md), so this is
  /// what a burst of uploads leaves resident per thread: four bodies' worth, the steady state
  /// of a few uploads at a time. (After bursts of 32 uploads 64 MiB kept 50-52 MB resident,
  /// this 47-48.5 MB, idle 43 MB, at no cost measured: `bench/upload/bursts.sh`.)
  public static let keptAtTop = 8 << 20

  /// Sets glibc's policy (see above). Idempotent.
  public static func reuseFreedHeap() {
    artwork_process_keep_freed_heap(Int32(heapLimit), Int32(keptAtTop))
  }

  /// Bytes of heap free but held (what `giveBackFreeHeap` would return, and more: free bytes
  /// within partly used pages).
  public static var freeHeapBytes: Int { artwork_process_free_heap_bytes() }

  /// Gives every whole free page of every heap back to the system.
  public static func giveBackFreeHeap() {
    artwork_process_trim_heap()
  }
}
