import Glibc

/// One blocking keep-alive HTTP/1.1 connection to a loopback port, for the load generator.
///
/// Deliberately minimal: it writes a prepared request and reads one response (Content-Length or
/// chunked body). It reconnects when the server closed the connection. Used from one thread.
final class BenchConnection {
  /// Why an exchange failed.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private let port: UInt16
  private var socket: Int32 = -1
  /// Bytes read beyond the last response.
  private var buffer: [UInt8] = []
  /// The `Retry-After` seconds of the last response, when it had one.
  private(set) var retryAfter: Int?
  private var scratch = [UInt8](repeating: 0, count: 256 * 1024)

  /// A connection to `127.0.0.1:port`; it connects lazily on the first exchange.
  init(port: UInt16) {
    self.port = port
  }

  deinit { close() }

  /// Sends `request` (a complete request: head and body) and answers the status and body size.
  /// Retries once on a fresh connection when a kept-alive one turns out to be closed.
  func exchange(_ request: [UInt8]) throws(Failure) -> (status: Int, bodyBytes: Int) {
    let reused = socket >= 0
    do {
      return try attempt(request)
    } catch {
      close()
      guard reused else { throw error }
      return try attempt(request)
    }
  }

  private func attempt(_ request: [UInt8]) throws(Failure) -> (status: Int, bodyBytes: Int) {
    if socket < 0 { try connect() }
    try writeAll(request)
    return try readResponse()
  }

  /// Closes the socket (if open) and drops buffered bytes.
  func close() {
    if socket >= 0 { _ = Glibc.close(socket) }
    socket = -1
    buffer.removeAll(keepingCapacity: true)
  }

  private func connect() throws(Failure) {
    let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let status = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard status == 0 else {
      let code = errno
      _ = Glibc.close(fd)
      throw Failure(description: "connect: errno \(code)")
    }
    var one: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    socket = fd
  }

  private func writeAll(_ bytes: [UInt8]) throws(Failure) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        send(socket, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { throw Failure(description: "send: errno \(errno)") }
      offset += written
    }
  }

  /// Reads more bytes into `buffer`; throws when the peer closed.
  private func fill() throws(Failure) {
    while true {
      let count = scratch.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { throw Failure(description: "connection closed (\(count))") }
      buffer.append(contentsOf: scratch[0..<count])
      return
    }
  }

  /// Index just past the first CRLF at or after `start` in `buffer`, reading more as needed.
  private func line(from start: Int) throws(Failure) -> Int {
    var index = start
    while true {
      while index + 1 < buffer.count {
        if buffer[index] == 13 && buffer[index + 1] == 10 { return index + 2 }
        index += 1
      }
      try fill()
    }
  }

  private func readResponse() throws(Failure) -> (status: Int, bodyBytes: Int) {
    // Head: status line and headers up to the empty line.
    var lineStart = 0
    var status = 0
    var contentLength: Int?
    var chunked = false
    var closeAfter = false
    retryAfter = nil
    while true {
      let end = try line(from: lineStart)
      let text = String(decoding: buffer[lineStart..<(end - 2)], as: UTF8.self)
      if lineStart == 0 {
        let parts = text.split(separator: " ")
        guard parts.count >= 2, let code = Int(parts[1]) else {
          throw Failure(description: "bad status line: \(text)")
        }
        status = code
      } else if text.isEmpty {
        lineStart = end
        break
      } else if let colon = text.firstIndex(of: ":") {
        let name = text[..<colon].lowercased()
        let value = text[text.index(after: colon)...].trimmingSpaces.lowercased()
        if name == "content-length" { contentLength = Int(value) }
        if name == "transfer-encoding" && value.contains("chunked") { chunked = true }
        if name == "connection" && value == "close" { closeAfter = true }
        if name == "retry-after" { retryAfter = Int(value) }
      }
      lineStart = end
    }
    var bodyBytes = 0
    if chunked {
      var position = lineStart
      while true {
        let end = try line(from: position)
        let sizeText = String(decoding: buffer[position..<(end - 2)], as: UTF8.self)
        guard let size = Int(sizeText.split(separator: ";")[0], radix: 16) else {
          throw Failure(description: "bad chunk size: \(sizeText)")
        }
        position = end
        if size == 0 {
          // Trailers (none expected) end with an empty line.
          while true {
            let trailerEnd = try line(from: position)
            let empty = trailerEnd == position + 2
            position = trailerEnd
            if empty { break }
          }
          break
        }
        while buffer.count < position + size + 2 { try fill() }
        bodyBytes += size
        position += size + 2
      }
      buffer.removeFirst(position)
    } else {
      let length = contentLength ?? 0
      while buffer.count < lineStart + length { try fill() }
      bodyBytes = length
      buffer.removeFirst(lineStart + length)
    }
    if closeAfter { close() }
    return (status, bodyBytes)
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  fileprivate var trimmingSpaces: Substring {
    var text = Substring(self)
    while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
    while let last = text.last, last == " " || last == "\t" { text.removeLast() }
    return text
  }
}
