import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A loopback HTTP server that records each request exactly as it arrived on the wire (request
/// line, headers, body length) and answers `200` with an empty body, for checking what
/// `S3Storage` really sends. It never answers `100 Continue`. One connection at a time.
final class CapturingServer: Sendable {
  struct Captured: Sendable {
    var requestLine: String
    /// Header lines as sent, in order.
    var headerLines: [String]
    var body: [UInt8]

    /// The value of header `name` (case-insensitive), if sent.
    func header(_ name: String) -> String? {
      for line in headerLines {
        guard let colon = line.firstIndex(of: ":") else { continue }
        if line[..<colon].lowercased() == name.lowercased() {
          return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
      }
      return nil
    }
  }

  let port: Int
  private let listener: Int32
  /// Shared with the serving thread, which must not keep the server itself alive.
  private final class Log: Sendable {
    let requests = Mutex<[Captured]>([])
  }

  private let log = Log()

  init() throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else {
      close(fd)
      throw CapturingServerError.bind
    }
    listener = fd
    port = Int(UInt16(bigEndian: address.sin_port))
    let log = self.log
    let thread = Thread { Self.serve(fd, log) }
    thread.start()
  }

  /// Ends the serving thread: its `accept` fails, and it closes the socket.
  deinit { _ = shutdown(listener, Int32(SHUT_RDWR)) }

  /// Every request received so far.
  var requests: [Captured] { log.requests.withLock { $0 } }

  private static func serve(_ listener: Int32, _ log: Log) {
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else {
        close(listener)
        return
      }
      var timeout = timeval(tv_sec: 5, tv_usec: 0)
      setsockopt(
        connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      while let request = read(connection) {
        log.requests.withLock { $0.append(request) }
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8)
        _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
      }
      close(connection)
    }
  }

  /// Reads one request (headers, then `Content-Length` bytes of body); nil at end of stream.
  private static func read(_ connection: Int32) -> Captured? {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let separator = Array("\r\n\r\n".utf8)
    var headerEnd: Int?
    var expected = 0
    while true {
      if headerEnd == nil, let end = find(separator, in: data) {
        headerEnd = end
        let head = String(decoding: data[..<end], as: UTF8.self)
        for line in head.components(separatedBy: "\r\n")
        where line.lowercased().hasPrefix("content-length:") {
          expected = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0
        }
      }
      if let end = headerEnd, data.count >= end + 4 + expected {
        let lines = String(decoding: data[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        return Captured(
          requestLine: lines[0], headerLines: Array(lines.dropFirst()),
          body: Array(data[(end + 4)..<(end + 4 + expected)]))
      }
      let n = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
      if n <= 0 { return nil }
      data += buffer[0..<n]
    }
  }

  private static func find(_ needle: [UInt8], in data: [UInt8]) -> Int? {
    guard data.count >= needle.count else { return nil }
    for i in 0...(data.count - needle.count)
    where data[i..<(i + needle.count)].elementsEqual(needle) {
      return i
    }
    return nil
  }
}

enum CapturingServerError: Error { case bind }
