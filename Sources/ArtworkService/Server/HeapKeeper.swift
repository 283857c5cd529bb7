import WorkerHost

/// Gives the service's free heap back to the system once a second (`ProcessMemory`): freed
/// request bodies are reused within the second, pages and all, and after a burst the resident
/// memory falls back within a second of its end.
final class HeapKeeper: Sendable {
  private let task: Task<Void, Never>

  /// Free bytes below which nothing is given back: a trim walks every heap, and under this
  /// there is little to gain.
  static let worthGivingBack = 1 << 20

  /// Starts giving back every `interval`.
  init(interval: Duration = .seconds(1)) {
    task = Task.detached(priority: .background) {
      while !Task.isCancelled {
        try? await Task.sleep(for: interval)
        if ProcessMemory.freeHeapBytes > Self.worthGivingBack { ProcessMemory.giveBackFreeHeap() }
      }
    }
  }

  func stop() { task.cancel() }

  deinit { task.cancel() }
}
