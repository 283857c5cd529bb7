import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reading and parsing responses.
extension LoopbackHTTPClient {
  static func readResponse(
    on connection: inout Connection, forHead: Bool, timeout: Duration, skipInterim: Bool = true
  ) throws -> LoopbackHTTPResponse {
    let deadline = ContinuousClock.now + timeout
    while true {
      let headBytes = try readHead(on: &connection, deadline: deadline)
      let lines = String(decoding: headBytes, as: UTF8.self).components(separatedBy: "\r\n")
      let statusParts = lines[0].split(separator: " ", maxSplits: 2)
      guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
        throw LoopbackHTTPError.malformedResponse(lines[0])
      }
      var headers: [(String, String)] = []
      for line in lines.dropFirst() where !line.isEmpty {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers.append(
          (
            String(line[..<colon]),
            String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
          ))
      }
      var response = LoopbackHTTPResponse(status: status, headers: headers, body: [])
      if (100..<200).contains(status) {
        if skipInterim { continue }
        return response
      }
      if forHead || status == 204 || status == 304 { return response }
      if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
        response.body = try readChunked(on: &connection, deadline: deadline)
      } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
        response.body = try readExactly(length, on: &connection, deadline: deadline)
      } else {
        response.body = try readToEnd(on: &connection, deadline: deadline)
      }
      return response
    }
  }

  static func readHead(on connection: inout Connection, deadline: ContinuousClock.Instant)
    throws -> [UInt8]
  {
    let terminator: [UInt8] = [13, 10, 13, 10]
    var searchFrom = 0
    while true {
      if connection.buffer.count >= 4 {
        for index in searchFrom...(connection.buffer.count - 4)
        where connection.buffer[index..<index + 4].elementsEqual(terminator) {
          let head = Array(connection.buffer[..<index])
          connection.buffer.removeFirst(index + 4)
          return head
        }
        searchFrom = connection.buffer.count - 3
      }
      guard try fill(&connection, deadline: deadline) else {
        throw LoopbackHTTPError.connectionClosed
      }
    }
  }

  static func readLine(on connection: inout Connection, deadline: ContinuousClock.Instant)
    throws -> String
  {
    while true {
      if let index = connection.buffer.firstIndex(of: 10) {
        let line = connection.buffer[..<index]
        connection.buffer.removeFirst(index + 1)
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
          .replacingOccurrences(of: "\r", with: "")
      }
      guard try fill(&connection, deadline: deadline) else {
        throw LoopbackHTTPError.connectionClosed
      }
    }
  }

  static func readExactly(
    _ count: Int, on connection: inout Connection, deadline: ContinuousClock.Instant
  ) throws -> [UInt8] {
    while connection.buffer.count < count {
      guard try fill(&connection, deadline: deadline) else {
        throw LoopbackHTTPError.truncatedBody(expected: count, received: connection.buffer.count)
      }
    }
    let bytes = Array(connection.buffer[..<count])
    connection.buffer.removeFirst(count)
    return bytes
  }

  static func readChunked(
    on connection: inout Connection, deadline: ContinuousClock.Instant
  )
    throws -> [UInt8]
  {
    var body: [UInt8] = []
    while true {
      let sizeLine = try readLine(on: &connection, deadline: deadline)
      let sizeText = sizeLine.split(separator: ";").first.map(String.init) ?? ""
      guard let size = Int(sizeText, radix: 16) else {
        throw LoopbackHTTPError.malformedResponse("chunk size \(sizeLine)")
      }
      if size == 0 {
        while try !readLine(on: &connection, deadline: deadline).isEmpty {}
        return body
      }
      body += try readExactly(size, on: &connection, deadline: deadline)
      _ = try readLine(on: &connection, deadline: deadline)
    }
  }

  static func readToEnd(on connection: inout Connection, deadline: ContinuousClock.Instant)
    throws -> [UInt8]
  {
    while try fill(&connection, deadline: deadline) {}
    defer { connection.buffer = [] }
    return connection.buffer
  }

  /// Reads more bytes into the buffer; false at end of stream (or reset).
  static func fill(_ connection: inout Connection, deadline: ContinuousClock.Instant)
    throws -> Bool
  {
    var probe = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
    guard poll(&probe, 1, milliseconds(deadline - ContinuousClock.now)) > 0 else {
      throw LoopbackHTTPError.timedOut
    }
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    let count = chunk.withUnsafeMutableBytes {
      recv(connection.socket, $0.baseAddress, $0.count, 0)
    }
    guard count > 0 else { return false }
    connection.buffer += chunk[..<count]
    return true
  }

  static func readable(_ connection: Connection, within wait: Duration) -> Bool {
    if !connection.buffer.isEmpty { return true }
    var probe = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
    return poll(&probe, 1, milliseconds(wait)) > 0
  }
}
