import CMicroHTTPD
import Synchronization

/// Feeds an `HTTPBody.stream` to MHD's content-reader callback without blocking MHD's thread.
///
/// When no bytes are buffered, the reader suspends the connection, returns 0 and fetches the
/// next chunk in a task; the task resumes the connection, and MHD calls the reader again.
/// MHD documents suspending from the content reader as supported.
final class StreamReader: Sendable {
  /// The chunk being sent and what comes next.
  struct State: Sendable {
    var chunk: [UInt8] = []
    var offset = 0
    var finished = false
    var failed = false
  }

  private enum Step {
    case copied(Int)
    case end
    case failure
    case fetch
  }

  let core: ServerCore
  let context: RequestContext
  let next: @Sendable () async throws -> [UInt8]?
  let state = Mutex(State())

  init(
    core: ServerCore, context: RequestContext, next: @escaping @Sendable () async throws -> [UInt8]?
  ) {
    self.core = core
    self.context = context
    self.next = next
    core.live.increment()
  }

  deinit {
    core.live.decrement()
  }

  /// Copies up to `max` bytes into `buffer`; returns the count, 0 after suspending to fetch
  /// more, or MHD's end-of-stream / error markers.
  func read(into buffer: UnsafeMutableRawPointer, max: Int) -> Int {
    let step = state.withLock { state -> Step in
      if state.offset < state.chunk.count {
        let count = min(max, state.chunk.count - state.offset)
        state.chunk.withUnsafeBytes { bytes in
          buffer.copyMemory(from: bytes.baseAddress! + state.offset, byteCount: count)
        }
        state.offset += count
        return .copied(count)
      }
      if state.failed { return .failure }
      return state.finished ? .end : .fetch
    }
    switch step {
    case .copied(let count):
      context.state.withLock { $0.bytesSent += count }
      return count
    case .end:
      return artwork_mhd_reader_end_of_stream()
    case .failure:
      return artwork_mhd_reader_end_with_error()
    case .fetch:
      guard context.suspend() else { return artwork_mhd_reader_end_with_error() }
      Task.detached { [self] in
        await self.fetch()
      }
      return 0
    }
  }

  /// Fetches the next non-empty chunk (or the end), then resumes the connection.
  private func fetch() async {
    var chunk: [UInt8]?
    var failed = false
    do {
      repeat {
        chunk = try await next()
      } while chunk?.isEmpty == true
    } catch {
      failed = true
    }
    state.withLock { state in
      if let chunk {
        state.chunk = chunk
        state.offset = 0
      } else if failed {
        state.failed = true
      } else {
        state.finished = true
      }
    }
    core.resume(context)
  }
}
