import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Everything a server wrote back to bytes sent as is, for protocol tests: the responses in the
/// order they came, and whether the server closed the connection.
public struct RawHTTPExchange: Sendable {
  /// One response as it came on the wire.
  public struct Response: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
      headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
  }

  /// The final (non-1xx) responses, in order.
  public var responses: [Response]
  /// Interim (1xx) responses.
  public var interim: [Int]
  /// Whether the server ended the connection (end of stream or reset).
  public var closed: Bool
  /// Bytes after the last complete response (should be none).
  public var leftover: [UInt8]

  /// The statuses of the final responses.
  public var statuses: [Int] { responses.map(\.status) }

  /// Connects to `port` on 127.0.0.1 (from `source`), writes `pieces` one after another with
  /// `pause` between them (stopping early if an answer comes), and reads until the server
  /// closes or sends nothing for `quiet`.
  public static func run(
    port: Int, _ pieces: [[UInt8]], pause: Duration = .zero, source: String? = nil,
    quiet: Duration = .milliseconds(400), timeout: Duration = .seconds(15)
  ) async throws -> RawHTTPExchange {
    try await LoopbackHTTPClient.onThread {
      let socket = try LoopbackHTTPClient.connect(
        host: "127.0.0.1", port: port, timeout: timeout, source: source)
      defer { _ = Glibc.close(socket) }
      for (index, piece) in pieces.enumerated() {
        // Between pieces, watch for an answer: a client that trickles stops once it has one.
        if index > 0, pause > .zero {
          var probe = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
          if poll(&probe, 1, LoopbackHTTPClient.milliseconds(pause)) > 0 { break }
        }
        var offset = 0
        while offset < piece.count {
          let sent = piece.withUnsafeBytes { buffer in
            send(socket, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
          }
          guard sent > 0 else { break }
          offset += sent
        }
      }
      var received: [UInt8] = []
      var closed = false
      let deadline = ContinuousClock.now + timeout
      var buffer = [UInt8](repeating: 0, count: 65536)
      while ContinuousClock.now < deadline {
        var probe = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&probe, 1, LoopbackHTTPClient.milliseconds(quiet)) > 0 else { break }
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count <= 0 {
          closed = true
          break
        }
        received += buffer[..<count]
      }
      return parse(received, closed: closed)
    }
  }

  /// `text` with `\r\n` line ends, as bytes.
  public static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  private static func parse(_ bytes: [UInt8], closed: Bool) -> RawHTTPExchange {
    var exchange = RawHTTPExchange(responses: [], interim: [], closed: closed, leftover: [])
    var rest = bytes[...]
    let separator: [UInt8] = [13, 10, 13, 10]
    while let end = rest.firstRange(of: separator) {
      let head = String(decoding: rest[..<end.lowerBound], as: UTF8.self)
      let lines = head.components(separatedBy: "\r\n")
      let parts = lines[0].split(separator: " ", maxSplits: 2)
      guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else { break }
      var headers: [(String, String)] = []
      for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers.append(
          (
            String(line[..<colon]),
            String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
          ))
      }
      var response = Response(status: status, headers: headers, body: [])
      var after = rest[end.upperBound...]
      if (100..<200).contains(status) {
        exchange.interim.append(status)
        rest = after
        continue
      }
      let length = response.header("Content-Length").flatMap { Int($0) } ?? 0
      guard after.count >= length else { break }
      response.body = Array(after.prefix(length))
      after = after.dropFirst(length)
      exchange.responses.append(response)
      rest = after
    }
    exchange.leftover = Array(rest)
    return exchange
  }
}
