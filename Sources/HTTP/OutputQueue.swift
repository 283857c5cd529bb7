internal import CHTTPParser
import Glibc

/// Bytes waiting to be written, in order: arrays (kept by reference, not copied) and shared
/// bodies (sent from their file), the first one from `offset` on.
struct OutputQueue {
  enum Outcome {
    case done
    /// The socket is full; `written` bytes went out first.
    case blocked(written: Int)
    case failed
  }

  private enum Segment {
    case bytes([UInt8])
    case shared(SharedBody)

    var count: Int {
      switch self {
      case .bytes(let bytes): bytes.count
      case .shared(let body): body.count
      }
    }
  }

  private var segments: [Segment] = []
  private var offset = 0

  var isEmpty: Bool { segments.isEmpty }

  /// Queues `bytes` (kept by reference: arrays are not copied).
  mutating func append(_ bytes: [UInt8]) {
    if !bytes.isEmpty { segments.append(.bytes(bytes)) }
  }

  /// Queues a shared body: from its file when it has one, else as its bytes.
  mutating func append(_ body: SharedBody) {
    guard body.count > 0 else { return }
    segments.append(body.file >= 0 ? .shared(body) : .bytes(body.memory))
  }

  /// Forgets everything queued.
  mutating func removeAll() {
    segments.removeAll()
    offset = 0
  }

  /// Takes up to `limit` bytes off the front, as a socket that took them would: how the
  /// machine's tests and fuzz target write without one.
  mutating func take(upTo limit: Int) -> [UInt8] {
    var taken: [UInt8] = []
    while taken.count < limit, let first = segments.first {
      let wanted = min(limit - taken.count, first.count - offset)
      switch first {
      case .bytes(let bytes):
        taken += bytes[offset..<(offset + wanted)]
      case .shared(let body):
        var piece = [UInt8](repeating: 0, count: wanted)
        let read = piece.withUnsafeMutableBytes {
          artwork_http_pread(body.file, $0.baseAddress, wanted, off_t(offset))
        }
        taken += piece[..<max(0, read)]
      }
      offset += wanted
      if offset == first.count {
        segments.removeFirst()
        offset = 0
      }
    }
    return taken
  }

  /// Writes as much as the socket takes: arrays up to four per system call (telling the kernel
  /// when a file follows, so a head and its body share a segment), files with `sendfile`.
  mutating func write(to fd: Int32) -> Outcome {
    var written = 0
    while let first = segments.first {
      let sent: Int
      if case .shared(let body) = first {
        var position = off_t(offset)
        sent = artwork_http_sendfile(fd, body.file, &position, body.count - offset)
        // A sealed file cannot shrink: nothing sent with bytes left is a failure, not a loop.
        if sent == 0 { return .failed }
      } else {
        var run = 0
        while run < min(4, segments.count), case .bytes = segments[run] { run += 1 }
        sent = Self.send(segments[..<run], offset: offset, fd: fd, more: run < segments.count)
      }
      if sent < 0 {
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
          return .blocked(written: written)
        }
        return .failed
      }
      written += sent
      var left = sent
      while left > 0, let first = segments.first {
        let available = first.count - offset
        if left >= available {
          left -= available
          segments.removeFirst()
          offset = 0
        } else {
          offset += left
          left = 0
        }
      }
    }
    return .done
  }

  /// One `sendmsg` of the given arrays, the first from `offset` on.
  private static func send(
    _ segments: ArraySlice<Segment>, offset: Int, fd: Int32, more: Bool
  ) -> Int {
    withUnsafeTemporaryAllocation(of: iovec.self, capacity: segments.count) { vectors in
      func gather(_ index: Int) -> Int {
        if index == segments.count {
          return more
            ? artwork_http_sendv_more(fd, vectors.baseAddress, Int32(segments.count))
            : artwork_http_sendv(fd, vectors.baseAddress, Int32(segments.count))
        }
        guard case .bytes(let array) = segments[segments.startIndex + index] else { return -1 }
        return array.withUnsafeBytes { bytes in
          let skip = index == 0 ? offset : 0
          vectors[index] = iovec(
            iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + skip),
            iov_len: bytes.count - skip)
          return gather(index + 1)
        }
      }
      return gather(0)
    }
  }
}
