import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Many connections from one loopback address that each send a few bytes and then nothing, as
/// a slowloris client does. Closed together by `close()` (or when the value goes).
public final class SlowClients: Sendable {
  private let sockets: Mutex<[Int32]>

  /// Opens up to `count` connections to `port` from `source`, each sending `prefix`.
  /// Connections the server refuses at once are counted in `refused`.
  public init(count: Int, port: Int, source: String, prefix: String) async throws {
    let opened = try await LoopbackHTTPClient.onThread { () -> [Int32] in
      var sockets: [Int32] = []
      for _ in 0..<count {
        let socket = try LoopbackHTTPClient.connect(
          host: "127.0.0.1", port: port, timeout: .seconds(5), source: source)
        _ = prefix.withCString { send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        sockets.append(socket)
      }
      return sockets
    }
    sockets = Mutex(opened)
  }

  deinit {
    close()
  }

  /// How many of the connections the server has closed (or answered and closed) so far.
  public var closedByServer: Int {
    sockets.withLock { sockets in
      sockets.filter { socket in
        var probe = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&probe, 1, 0) > 0 else { return false }
        var bytes = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while true {
          let count = recv(socket, &bytes, bytes.count, Int32(MSG_DONTWAIT))
          if count == 0 { return true }
          if count < 0 { return errno != EAGAIN }
          total += count
        }
      }.count
    }
  }

  /// Closes every connection.
  public func close() {
    sockets.withLock { sockets in
      for socket in sockets { _ = Glibc.close(socket) }
      sockets = []
    }
  }
}
