import ArtworkCore

/// Runs at most one operation per key at a time: callers that arrive while one is running wait
/// for its result instead of starting their own (50 identical requests, one fetch).
actor Coalescer<Value: Sendable> {
  private var running: [String: Task<Result<Value, ArtworkError>, Never>] = [:]

  /// The result of `operation` for `key`, shared with every concurrent caller of the same key.
  func run(
    _ key: String, _ operation: @escaping @Sendable () async throws(ArtworkError) -> Value
  ) async throws(ArtworkError) -> Value {
    if let task = running[key] { return try await task.value.get() }
    let task = Task<Result<Value, ArtworkError>, Never> {
      do throws(ArtworkError) {
        return .success(try await operation())
      } catch {
        return .failure(error)
      }
    }
    running[key] = task
    let result = await task.value
    running[key] = nil
    return try result.get()
  }
}
