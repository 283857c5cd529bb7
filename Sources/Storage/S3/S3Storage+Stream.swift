import ArtworkCore
import Synchronization

/// Streaming reads for `GET /v1/images`, in bounded memory.
///
/// Choice: ranged GETs of `chunkSize` bytes (256 KiB), one signed request per chunk, rather than
/// one transfer paused with CURL_WRITEFUNC_PAUSE. Stored objects are immutable (named by their
/// hash), so ranges of one object always agree; each chunk is an ordinary request on the pool,
/// holding no thread or connection while the client reads slowly; and memory is one chunk per
/// stream whatever the object's size. Objects are at most a few MB, so that is a handful of
/// requests; most objects fit the first chunk, which costs the same as a plain GET.
extension S3Storage {
  /// The object's length and a producer of its bytes in order (nil after the last chunk), or nil
  /// when the object is not stored. The first chunk is read here, so a missing object or an
  /// unavailable store is known before any response starts. `next` throws `ArtworkError`
  /// (`.storageUnavailable`) if a later chunk cannot be read; call it from one task at a time.
  public func stream(_ key: ArtworkKey) async throws(ArtworkError) -> ObjectStream? {
    try await stream(key, chunkSize: 256 << 10)
  }

  /// `stream(_:)` with a chosen chunk size.
  public func stream(_ key: ArtworkKey, chunkSize: Int)
    async throws(ArtworkError) -> ObjectStream?
  {
    precondition(chunkSize > 0)
    let name = requests.objectKey(key)
    let operation = "GET \(name) (stream)"
    let first = try await send(requests.getObject(name, range: 0...(chunkSize - 1)), operation)
    let length: Int
    switch first.status {
    case 206:
      guard let total = first.contentRangeTotal, total >= first.body.count else {
        throw unavailable(operation, "206 without a usable Content-Range")
      }
      length = total
    case 200:  // the store ignored Range: this is the whole object
      length = first.body.count
    case 416:  // no byte 0: an empty object
      length = 0
    default:
      if isMissingObject(first) { return nil }
      throw failure(first, operation)
    }
    await refreshIfStale(key, response: first)
    if first.status != 416, first.body.count == length { return ObjectStream(bytes: first.body) }
    let cursor = StreamCursor(
      firstChunk: first.status == 416 ? [] : first.body, length: length)
    let next: @Sendable () async throws -> [UInt8]? = { [self] in
      guard let step = cursor.take(chunkSize: chunkSize) else { return nil }
      switch step {
      case .chunk(let bytes): return bytes
      case .range(let range):
        let response = try await send(requests.getObject(name, range: range), operation)
        guard response.status == 206, response.body.count == range.count else {
          if response.status == 206 {
            throw unavailable(operation, "short range: \(response.body.count) of \(range.count)")
          }
          throw failure(response, operation)
        }
        return response.body
      }
    }
    return ObjectStream(length: length, next: next)
  }
}

/// Where a stream stands: the first chunk still to hand out, then the next range to read.
private final class StreamCursor: Sendable {
  enum Step {
    case chunk([UInt8])
    case range(ClosedRange<Int>)
  }

  private struct State {
    var firstChunk: [UInt8]?
    var offset: Int
  }

  private let state: Mutex<State>
  private let length: Int

  init(firstChunk: [UInt8], length: Int) {
    state = Mutex(
      State(firstChunk: firstChunk.isEmpty ? nil : firstChunk, offset: firstChunk.count))
    self.length = length
  }

  /// The next step, or nil at the end; advances past it.
  func take(chunkSize: Int) -> Step? {
    state.withLock { state in
      if let first = state.firstChunk {
        state.firstChunk = nil
        return .chunk(first)
      }
      guard state.offset < length else { return nil }
      let end = min(state.offset + chunkSize, length) - 1
      defer { state.offset = end + 1 }
      return .range(state.offset...end)
    }
  }
}
