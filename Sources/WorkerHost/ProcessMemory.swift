internal import CProcess

/// How the service's own process gives memory back (its workers have their own policy:
/// `WorkerMain`).
public enum ProcessMemory {
  /// Every allocation of at least `threshold` bytes (a request body, a stored image) gets a
  /// mapping of its own, returned to the system as soon as it is freed: after a burst of
  /// uploads the service's resident memory falls back instead of staying at the burst's peak.
  ///
  /// NOTE: glibc raises its mapping threshold on its own after a large block is freed (up to
  /// 32 MB), after which 2 MB bodies come from the heap and stay there; setting it fixes it.
  public static func giveBackLargeAllocations(threshold: Int = 256 * 1024) {
    artwork_process_unmap_large_allocations(Int32(clamping: threshold))
  }
}
