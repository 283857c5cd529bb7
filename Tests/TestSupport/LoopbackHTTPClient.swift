import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A raw-socket HTTP/1.1 client for tests, over loopback only (`127.0.0.1` or `::1`).
///
/// One client is one TCP connection: send several requests to reuse it (keep-alive). Every
/// operation runs its blocking socket work on a thread of its own, so awaiting it never holds a
/// Swift concurrency thread, and every wait is bounded by `timeout`, so tests never hang.
///
/// Request bodies are written without blocking while watching for an early response: when the
/// server answers (or closes) before the body is done, writing stops and the response is read.
/// `LoopbackHTTPResponse.bodyBytesWritten` tells how much of the body went out.
public final class LoopbackHTTPClient: Sendable {
  /// The socket and bytes read but not yet consumed.
  struct Connection: Sendable {
    var socket: Int32
    var buffer: [UInt8] = []
    var closed = false
  }

  private let connection: Mutex<Connection>
  private let timeout: Duration

  /// Connects to `host` (an IPv4 or IPv6 loopback literal) on `port`, from `source` (another
  /// 127.0.0.0/8 address, standing in for another client) when given.
  public init(
    host: String = "127.0.0.1", port: Int, timeout: Duration = .seconds(10), source: String? = nil
  ) async throws {
    precondition(host == "127.0.0.1" || host == "::1", "tests only talk to loopback")
    precondition(source.map { $0.hasPrefix("127.") } ?? true, "tests only use loopback")
    self.timeout = timeout
    let socket = try await Self.onThread {
      try Self.connect(host: host, port: port, timeout: timeout, source: source)
    }
    connection = Mutex(Connection(socket: socket))
  }

  deinit {
    connection.withLock { connection in
      if !connection.closed { _ = Glibc.close(connection.socket) }
    }
  }

  /// Sends `request` and reads its response (skipping `100 Continue`). With
  /// `Expect: 100-continue` among the headers, the body is sent only after a `100 Continue`
  /// (or after one second without an answer, as clients do).
  public func send(_ request: LoopbackHTTPRequest) async throws -> LoopbackHTTPResponse {
    let timeout = timeout
    return try await Self.onThread { [self] in
      try connection.withLock { connection in
        try Self.exchange(request, on: &connection, timeout: timeout)
      }
    }
  }

  /// Writes raw bytes (for malformed or hand-built requests).
  public func sendRaw(_ bytes: [UInt8]) async throws {
    let timeout = timeout
    try await Self.onThread { [self] in
      try connection.withLock { connection in
        var written = 0
        try Self.write(bytes, on: &connection, timeout: timeout, written: &written)
      }
    }
  }

  /// Reads one response (for requests written with `sendRaw`).
  public func readResponse(forHead: Bool = false) async throws -> LoopbackHTTPResponse {
    let timeout = timeout
    return try await Self.onThread { [self] in
      try connection.withLock { connection in
        try Self.readResponse(on: &connection, forHead: forHead, timeout: timeout)
      }
    }
  }

  /// Reads one response without skipping interim (1xx) ones, e.g. `100 Continue`.
  public func readInterimResponse() async throws -> LoopbackHTTPResponse {
    let timeout = timeout
    return try await Self.onThread { [self] in
      try connection.withLock { connection in
        try Self.readResponse(on: &connection, forHead: false, timeout: timeout, skipInterim: false)
      }
    }
  }

  /// Whether the server closed the connection within `wait` (EOF or reset seen).
  public func peerClosed(within wait: Duration = .seconds(2)) async -> Bool {
    (try? await Self.onThread { [self] in
      connection.withLock { connection in
        if connection.closed { return true }
        var probe = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
        guard poll(&probe, 1, Self.milliseconds(wait)) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(connection.socket, &byte, 1, Int32(MSG_PEEK)) <= 0
      }
    }) ?? true
  }

  /// Closes the connection.
  public func close() {
    connection.withLock { connection in
      if !connection.closed { _ = Glibc.close(connection.socket) }
      connection.closed = true
    }
  }

  // MARK: - Exchange

  static func exchange(
    _ request: LoopbackHTTPRequest, on connection: inout Connection, timeout: Duration
  ) throws -> LoopbackHTTPResponse {
    var head = "\(request.method) \(request.target) HTTP/1.1\r\n"
    var headers = request.headers
    if !headers.contains(where: { $0.0.lowercased() == "host" }) {
      headers.insert(("Host", "localhost"), at: 0)
    }
    switch request.body {
    case .none: break
    case .bytes(let bytes):
      if request.chunked {
        headers.append(("Transfer-Encoding", "chunked"))
      } else {
        headers.append(("Content-Length", String(bytes.count)))
      }
    case .generator(let length, _):
      if let length, !request.chunked {
        headers.append(("Content-Length", String(length)))
      } else {
        headers.append(("Transfer-Encoding", "chunked"))
      }
    }
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "\r\n"
    let isHead = request.method == "HEAD"
    var written = 0
    do {
      try write(Array(head.utf8), on: &connection, timeout: timeout, written: &written)
    } catch LoopbackHTTPError.connectionClosed {
      // The server answered before the head was all sent (e.g. headers too large).
      var response = try readResponse(on: &connection, forHead: isHead, timeout: timeout)
      response.answeredBeforeBodyWasSent = true
      return response
    }
    let expectsContinue = headers.contains {
      $0.0.lowercased() == "expect" && $0.1.lowercased() == "100-continue"
    }
    if expectsContinue, case .none = request.body {
    } else if expectsContinue {
      if readable(connection, within: .seconds(1)) {
        let interim = try readResponse(
          on: &connection, forHead: isHead, timeout: timeout, skipInterim: false)
        if interim.status != 100 { return interim }
      }
    }
    var bodyWritten = 0
    var answeredEarly = false
    do {
      answeredEarly = try writeBody(
        request, on: &connection, timeout: timeout, bodyWritten: &bodyWritten)
    } catch LoopbackHTTPError.connectionClosed {
      answeredEarly = true
    }
    var response = try readResponse(on: &connection, forHead: isHead, timeout: timeout)
    response.bodyBytesWritten = bodyWritten
    response.answeredBeforeBodyWasSent = answeredEarly
    return response
  }

  /// Writes the body; returns true when the server answered or closed before it was all sent.
  static func writeBody(
    _ request: LoopbackHTTPRequest, on connection: inout Connection, timeout: Duration,
    bodyWritten: inout Int
  ) throws -> Bool {
    func piece(_ bytes: [UInt8]) throws -> Bool {
      if readable(connection, within: .zero) { return true }
      var framed = bytes
      if request.chunked {
        framed = Array("\(String(bytes.count, radix: 16))\r\n".utf8) + bytes + [13, 10]
      }
      var written = 0
      do {
        try write(framed, on: &connection, timeout: timeout, written: &written)
      } catch LoopbackHTTPError.connectionClosed {
        bodyWritten += max(0, min(bytes.count, written))
        return true
      }
      bodyWritten += bytes.count
      return false
    }
    switch request.body {
    case .none:
      return false
    case .bytes(let bytes):
      var offset = 0
      while offset < bytes.count {
        let end = min(bytes.count, offset + 64 * 1024)
        if try piece(Array(bytes[offset..<end])) { return true }
        offset = end
      }
    case .generator(_, let next):
      while let bytes = next() {
        if bytes.isEmpty { continue }
        if try piece(bytes) { return true }
      }
    }
    if request.chunked {
      var written = 0
      try write(Array("0\r\n\r\n".utf8), on: &connection, timeout: timeout, written: &written)
    }
    return false
  }

  /// Writes all of `bytes`, never blocking longer than `timeout`; stops with
  /// `connectionClosed` when the server answers first (data to read) or the socket breaks.
  static func write(
    _ bytes: [UInt8], on connection: inout Connection, timeout: Duration, written: inout Int
  ) throws {
    let deadline = ContinuousClock.now + timeout
    while written < bytes.count {
      var probe = pollfd(
        fd: connection.socket, events: Int16(POLLOUT) | Int16(POLLIN), revents: 0)
      let ready = poll(&probe, 1, milliseconds(deadline - ContinuousClock.now))
      guard ready > 0 else { throw LoopbackHTTPError.timedOut }
      if probe.revents & Int16(POLLIN) != 0 || probe.revents & Int16(POLLHUP | POLLERR) != 0 {
        throw LoopbackHTTPError.connectionClosed
      }
      let count = bytes.withUnsafeBytes { buffer in
        Glibc.send(
          connection.socket, buffer.baseAddress! + written, buffer.count - written,
          Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
      }
      if count < 0 {
        if errno == EAGAIN || errno == EINTR { continue }
        throw LoopbackHTTPError.connectionClosed
      }
      written += count
    }
  }
}
