/// A streamed response body on its way out, one chunk at a time.
struct StreamState {
  let next: @Sendable () async throws -> [UInt8]?
  /// Bytes still owed for a stream with a declared length.
  private(set) var remaining: Int?
  let chunked: Bool
  /// Whether a chunk is being fetched.
  private(set) var fetching = false

  init(next: @escaping @Sendable () async throws -> [UInt8]?, remaining: Int?, chunked: Bool) {
    self.next = next
    self.remaining = remaining
    self.chunked = chunked
  }

  /// The next chunk is asked for.
  mutating func fetchStarted() { fetching = true }

  /// A chunk of `sent` bytes came back and is queued.
  mutating func advanced(by sent: Int) {
    fetching = false
    if let remaining { self.remaining = remaining - sent }
  }
}
