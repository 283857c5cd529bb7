internal import CHTTPParser
import Glibc

extension Connection {
  /// Queues the answer to the current request and starts writing it. A body in memory is
  /// written from the response's own array (no copy); a stream is fetched chunk by chunk, one
  /// chunk at a time, as the client takes them.
  func respond(_ response: HTTPResponse, closing: Bool = false) {
    guard let exchange else { return }
    var response = response
    if !(200...999).contains(response.status) {
      response = problem(
        ServerAnswer(status: 500, detail: "The server produced an invalid answer; it was logged."))
    }
    let id = exchange.id ?? RequestID.generate()
    exchange.id = id
    let crossOrigin = core.configuration.crossOrigin
    if crossOrigin.isOpen {
      crossOrigin.decorate(&response.headers, origin: exchange.origin)
    }
    var close = closing || !exchange.keepAlive || core.draining.load(ordering: .relaxed)
    let status = response.status
    let bodyless = exchange.isHead || status == 204 || status == 304
    var framing = ResponseHead.Framing.length(0)
    var body: [UInt8] = []
    var shared: SharedBody?
    switch response.body {
    case .empty:
      break
    case .bytes(let bytes):
      framing = .length(bytes.count)
      if !bodyless { body = bytes }
    case .shared(let file):
      framing = .length(file.count)
      if !bodyless { shared = file }
    case .stream(let length, let next):
      if let length {
        framing = .length(max(0, length))
        if !bodyless, length > 0 {
          exchange.stream = StreamState(next: next, remaining: length, chunked: false)
        }
      } else if exchange.isHTTP10 {
        framing = .untilClose
        close = true
        if !bodyless { exchange.stream = StreamState(next: next, remaining: nil, chunked: false) }
      } else {
        framing = .chunked
        if !bodyless { exchange.stream = StreamState(next: next, remaining: nil, chunked: true) }
      }
    }
    if status == 204 || status == 304 { framing = .none }
    let persistence: ResponseHead.Persistence =
      close ? .close : (exchange.isHTTP10 ? .keepAlive : .unstated)
    ResponseHead.write(
      status: status, headers: response.headers, framing: framing, requestID: id,
      persistence: persistence, date: loop.dateLine(), into: &headBuffer)
    output.append(headBuffer)
    output.append(body)
    exchange.bytesSent += body.count
    if let shared {
      output.append(shared)
      exchange.bytesSent += shared.count
    }
    exchange.status = status
    exchange.keepAlive = !close
    enter(close ? .draining : .writing)
    if close { drainDeadline = loop.now + core.configuration.lingerTimeout }
    flush()
  }

  /// Answers and closes: the answer goes out, meanwhile and after it input is read and dropped
  /// (up to `maxDiscardBytes`, for `lingerTimeout`), then the sending side is shut so the client
  /// reads the answer and the end of the stream, and the connection closes when the client
  /// closes.
  func answerAndClose(_ response: HTTPResponse) {
    respond(response, closing: true)
  }

  /// Writes what is queued without blocking; when all is written, fetches the next chunk of a
  /// stream or ends the exchange.
  func flush() {
    switch output.write(to: fd) {
    case .failed:
      close()
      return
    case .blocked(let progress):
      if progress { lastProgress = loop.now }
      return
    case .done:
      lastProgress = loop.now
    }
    if let exchange, exchange.status != nil, !exchange.answered {
      if let stream = exchange.stream {
        if !stream.fetching { fetchChunk() }
        return
      }
      finishExchange()
    }
    if phase == .draining, exchange == nil, !writeShut {
      writeShut = true
      _ = artwork_http_shutdown_write(fd)
    }
  }

  /// The answer is all written: log it and get ready for the next request (or the close).
  private func finishExchange() {
    guard let exchange else { return }
    exchange.answered = true
    self.exchange = nil
    served += 1
    release(exchange)
    core.log(record(exchange, completed: true))
    spareExchange = exchange
    guard phase == .writing else { return }
    if core.draining.load(ordering: .relaxed) {
      enter(.draining)
      drainDeadline = loop.now + core.configuration.lingerTimeout
      flush()
    } else {
      enter(.waiting)
    }
  }

  /// Gives back what an exchange held: its in-flight count and its body budget.
  func release(_ exchange: Exchange) {
    if exchange.counted { core.inFlight.subtract(1, ordering: .relaxed) }
    core.bodyBudget.release(exchange.reserved)
  }

  /// The access-log record of an exchange.
  func record(_ exchange: Exchange, completed: Bool) -> HTTPAccessRecord {
    let components = (ContinuousClock.now - exchange.started).components
    return HTTPAccessRecord(
      id: exchange.id, method: exchange.method ?? HTTPMethod(rawValue: "-"),
      target: exchange.target,
      unparsedTarget: exchange.method == nil || exchange.target != nil ? nil : parser.target,
      route: exchange.route?.pattern.text, status: exchange.status ?? 0,
      duration: Double(components.seconds) + Double(components.attoseconds) * 1e-18,
      bytesSent: exchange.bytesSent, remoteAddress: address, completed: completed)
  }

  /// Asks the stream for its next chunk, on the concurrency pool.
  private func fetchChunk() {
    guard let next = exchange?.stream?.next, let number = exchange?.number else { return }
    exchange?.stream?.fetching = true
    let (loop, core, fd, serial) = (loop, core, fd, serial)
    core.live.increment()
    Task.detached {
      let result: Result<[UInt8]?, any Error>
      do {
        var chunk: [UInt8]?
        repeat { chunk = try await next() } while chunk?.isEmpty == true
        result = .success(chunk)
      } catch {
        result = .failure(error)
      }
      loop.post { loop in loop.connection(fd, serial: serial)?.chunkArrived(number, result) }
      core.live.decrement()
    }
  }

  /// A stream's chunk (or its end, or its failure) came back to the loop.
  func chunkArrived(_ number: UInt64, _ result: Result<[UInt8]?, any Error>) {
    guard let exchange, exchange.number == number, var stream = exchange.stream else { return }
    stream.fetching = false
    switch result {
    case .failure:
      close()
      return
    case .success(nil):
      if let remaining = stream.remaining, remaining > 0 {
        // Shorter than its declared length: the client must not take it for whole.
        close()
        return
      }
      if stream.chunked { output.append(ResponseHead.lastChunk) }
      exchange.stream = nil
    case .success(let chunk?):
      if let remaining = stream.remaining {
        guard chunk.count <= remaining else {
          close()
          return
        }
        stream.remaining = remaining - chunk.count
      }
      if stream.chunked {
        output.append(ResponseHead.chunkPrefix(chunk.count))
        output.append(chunk)
        output.append(ResponseHead.chunkSuffix)
      } else {
        output.append(chunk)
      }
      exchange.bytesSent += chunk.count
      exchange.stream = stream.remaining == 0 ? nil : stream
    }
    flush()
    drive()
  }
}

/// Bytes waiting to be written, in order: arrays (kept by reference, not copied) and shared
/// bodies (sent from their file), the first one from `offset` on.
struct OutputQueue {
  enum Outcome {
    case done
    /// The socket is full; `progress` when some bytes went out first.
    case blocked(progress: Bool)
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

  /// Writes as much as the socket takes: arrays up to four per system call (telling the kernel
  /// when a file follows, so a head and its body share a segment), files with `sendfile`.
  mutating func write(to fd: Int32) -> Outcome {
    var progress = false
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
          return .blocked(progress: progress)
        }
        return .failed
      }
      progress = progress || sent > 0
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
