/// A response body.
public enum HTTPBody: Sendable {
  /// No body (`Content-Length: 0`).
  case empty
  /// A body held in memory.
  case bytes([UInt8])
  /// A body answered many times, sent from a sealed in-memory file (`SharedBody`).
  case shared(SharedBody)
  /// A body produced chunk by chunk: `next` returns the next chunk, or nil at the end. With a
  /// `length` the response carries `Content-Length` and must produce exactly that many bytes
  /// (a short stream aborts the connection); without one it is sent chunked. `next` is never
  /// called for HEAD requests, and a throw aborts the connection.
  case stream(length: Int?, next: @Sendable () async throws -> [UInt8]?)
}
